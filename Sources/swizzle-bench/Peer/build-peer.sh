#!/usr/bin/env bash
# Builds the GNU Objective-C peer of swizzle-bench: `build-peer.sh OUTPUT`.
#
# The peer is peer.m beside this script, compiled by gcc against GCC's Objective-C runtime
# (GNU libobjc). When gcc cannot compile Objective-C here, the script says how to install
# Debian's gobjc; with SWIZZLEKIT_BENCH_INSTALL=1 in its environment (what
# `swizzle-bench --install-peers` sets) it installs it with apt-get (when it can: as root, or
# through sudo without a password) and says so on standard error. Exits non-zero, having said
# why, when the peer cannot be built.
set -euo pipefail

if [ $# -ne 1 ]; then
  echo "usage: build-peer.sh OUTPUT" >&2
  exit 64
fi
output=$1
source="$(cd "$(dirname "$0")" && pwd)/peer.m"

compile() {
  gcc -std=gnu11 -O2 "$source" -lobjc -o "$output" 2> /dev/null
}

if compile; then exit 0; fi

if [ "${SWIZZLEKIT_BENCH_INSTALL:-0}" != 1 ]; then
  echo "swizzle-bench: the GNU libobjc peer needs gcc's Objective-C; install it with" \
    "'apt-get install -y gobjc' (or let the benchmark: --install-peers)" >&2
  exit 1
fi

apt=()
if [ "$(id -u)" -eq 0 ]; then
  apt=(apt-get)
elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then
  apt=(sudo -n apt-get)
fi
if [ ${#apt[@]} -eq 0 ] || ! command -v apt-get > /dev/null; then
  echo "swizzle-bench: the GNU libobjc peer needs gcc's Objective-C; install it with" \
    "'apt-get install -y gobjc' (this script cannot: no root and no apt-get)" >&2
  exit 1
fi
echo "swizzle-bench: installing gobjc (gcc's Objective-C and GNU libobjc) for the peer column:" \
  "${apt[*]} install -y gobjc" >&2
if ! DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq gobjc > /dev/null 2>&1; then
  # A fresh machine may have no package lists yet.
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" update -qq > /dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq gobjc > /dev/null 2>&1 || {
    echo "swizzle-bench: 'apt-get install -y gobjc' failed; the GNU libobjc column stays empty" >&2
    exit 1
  }
fi
if ! compile; then
  echo "swizzle-bench: gobjc is installed but $source does not compile; run:" \
    "gcc -std=gnu11 -O2 $source -lobjc" >&2
  exit 1
fi
