#!/usr/bin/env bash
# Instructions per operation of one benchmark case, counted by valgrind's callgrind.
#
#   callgrind.sh [--annotate] EXECUTABLE CASE SMALL LARGE
#
# Runs `EXECUTABLE --run CASE SMALL` and `EXECUTABLE --run CASE LARGE` under callgrind and prints
# (instructions of the large run - instructions of the small run) / (LARGE - SMALL): set-up,
# process start and exit cancel out, and what is left is the cost of one operation, loop included.
# EXECUTABLE is swizzle-bench (or the GNU peer, built by Peer/build-peer.sh), which is what
# `swizzle-bench --callgrind` calls this script with; run it by hand to study one case:
#
#   swift build -c release --product swizzle-bench
#   Sources/swizzle-bench/callgrind.sh --annotate .build/release/swizzle-bench cached-send 100000 300000
#
# --annotate also prints the functions the large run spent its instructions in (callgrind_annotate),
# which is where to look when a case misses its target. When valgrind is missing, the script says
# how to install it; with SWIZZLEKIT_BENCH_INSTALL=1 in its environment (what
# `swizzle-bench --install-peers` sets) it installs it with apt-get when it can (as root, or
# through sudo without a password), and says so.
set -euo pipefail

annotate=0
if [ "${1:-}" = "--annotate" ]; then
  annotate=1
  shift
fi
if [ $# -ne 4 ]; then
  echo "usage: callgrind.sh [--annotate] EXECUTABLE CASE SMALL LARGE" >&2
  exit 64
fi
executable=$1 name=$2 small=$3 large=$4

if ! command -v valgrind > /dev/null; then
  if [ "${SWIZZLEKIT_BENCH_INSTALL:-0}" != 1 ]; then
    echo "swizzle-bench: valgrind is missing; install it with 'apt-get install -y valgrind'" \
      "(or let the benchmark: --install-peers)" >&2
    exit 1
  fi
  apt=()
  if [ "$(id -u)" -eq 0 ]; then apt=(apt-get); elif sudo -n true 2> /dev/null; then apt=(sudo -n apt-get); fi
  if [ ${#apt[@]} -eq 0 ]; then
    echo "swizzle-bench: valgrind is missing; install it with 'apt-get install -y valgrind'" >&2
    exit 1
  fi
  echo "swizzle-bench: installing valgrind: ${apt[*]} install -y valgrind" >&2
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq valgrind > /dev/null 2>&1 || {
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" update -qq > /dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -qq valgrind > /dev/null 2>&1
  } || { echo "swizzle-bench: 'apt-get install -y valgrind' failed" >&2; exit 1; }
fi

# valgrind 3.19 cannot read the DWARF 5 that clang emits for C targets and then gives up on the
# whole binary; a copy without debug information (the symbol table, which names functions, stays)
# is what it measures.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
measured="$work/$(basename "$executable")"
objcopy --strip-debug "$executable" "$measured" 2> /dev/null || cp "$executable" "$measured"

# The total instruction count of one run; the profile stays in $work/COUNT.out.
count() {
  # Swift seeds its hashing per process; a fixed seed makes two runs execute the same code.
  SWIZZLEKIT_QUIET=1 SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind \
    --callgrind-out-file="$work/$1.out" "$measured" --run "$name" "$1" > /dev/null 2>&1 || {
    echo "swizzle-bench: '$executable --run $name $1' failed under callgrind" >&2
    exit 1
  }
  awk '/^(summary|totals):/ { print $2; exit }' "$work/$1.out"
}

first=$(count "$small")
second=$(count "$large")
awk -v a="$first" -v b="$second" -v s="$small" -v l="$large" \
  'BEGIN { printf "%.1f\n", (b - a) / (l - s) }'

if [ "$annotate" -eq 1 ] && command -v callgrind_annotate > /dev/null; then
  echo "-- where the $large-iteration run of $name spent its instructions (callgrind_annotate):"
  callgrind_annotate "$work/$large.out" 2> /dev/null | sed -n '/^Ir/,$p' | head -30
fi
