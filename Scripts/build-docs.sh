#!/usr/bin/env bash
# Builds the API reference of every public module with the toolchain's own docc, from the
# symbol graphs the compiler emits (no package plugin, nothing fetched):
#
#   Scripts/build-docs.sh [OUTPUT]        # default .build/docs
#
# Each module's reference is checked with --analyze and --warnings-as-errors: a broken symbol
# link, an undocumented parameter or an ambiguous reference fails the script (CI runs it). The
# archives go to OUTPUT/MODULE.doccarchive (`docc preview` serves one), and their static-hosting
# forms to OUTPUT/site/MODULE, which any static web server serves (python3 -m http.server).
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/docs}"
modules=(ObjCRuntime ObjCRuntimeGeometry Hooks UIKitModel UIKit ObjectiveC GNUObjC Scenarios ScreenRendering
  SwizzleKitTesting BarLayerPlugin
  TransparentBarPlugin OverlayBarPlugin AnimatorTransitionPlugin FullscreenPopPlugin)

# dump-symbol-graph also asks for the test runner's generated modules, which exist only once the
# tests were built: on a fresh clone those fail while every module's own graph is written. So its
# status is not trusted either way; each module's graph is checked below.
# Old graphs are removed first, so that a module that fails to build cannot pass on stale ones.
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
rm -rf "$graphs"
dump_log="$(mktemp)"
trap 'rm -f "$dump_log"' EXIT
swift package dump-symbol-graph --minimum-access-level public > "$dump_log" 2>&1 || true
for module in "${modules[@]}"; do
  if [ ! -f "$graphs/$module.symbols.json" ]; then
    cat "$dump_log" >&2
    echo "error: no symbol graph for $module (swift package dump-symbol-graph, above)" >&2
    exit 1
  fi
done
rm -rf "$output" && mkdir -p "$output"
for module in "${modules[@]}"; do
  work="$output/graphs/$module"
  mkdir -p "$work"
  # The module's graph and its extensions of other modules (Module@Other.symbols.json).
  cp "$graphs/$module.symbols.json" "$work/"
  cp "$graphs/$module"@*.symbols.json "$work/" 2> /dev/null || true
  catalog=()
  for candidate in "Sources/$module/$module.docc" "Plugins/$module/$module.docc"; do
    if [ -d "$candidate" ]; then catalog=("$candidate"); fi
  done
  echo "== docc: $module"
  docc convert "${catalog[@]}" \
    --additional-symbol-graph-dir "$work" \
    --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.swizzlekit.$module" \
    --output-path "$output/$module.doccarchive" \
    --analyze --warnings-as-errors
done
rm -rf "$output/graphs"
# The same as static sites, one folder per module, for any static host (docc's own transform).
for module in "${modules[@]}"; do
  lower="$(echo "$module" | tr '[:upper:]' '[:lower:]')"
  mkdir -p "$output/site/$module"
  docc process-archive transform-for-static-hosting "$output/$module.doccarchive" \
    --output-path "$output/site/$module" --hosting-base-path "$module" > /dev/null
  if [ ! -f "$output/site/$module/documentation/$lower/index.html" ]; then
    echo "error: docc wrote no static page for $module" >&2
    exit 1
  fi
done
echo "API reference: $output/{$(IFS=,; echo "${modules[*]}")}.doccarchive"
echo "Static sites: $output/site/MODULE (serve $output/site, then open /MODULE/documentation/...)"
