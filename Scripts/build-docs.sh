#!/usr/bin/env bash
# Builds the API reference of every public module with the toolchain's own docc, from the
# symbol graphs the compiler emits (no package plugin, nothing fetched):
#
#   Scripts/build-docs.sh [OUTPUT]        # default .build/docs
#
# Each module's reference is checked with --analyze and --warnings-as-errors: a broken symbol
# link, an undocumented parameter or an ambiguous reference fails the script (CI runs it). The
# archives go to OUTPUT/MODULE.doccarchive; `docc preview` or any static host serves them.
set -euo pipefail
cd "$(dirname "$0")/.."

output="${1:-.build/docs}"
modules=(ObjCRuntime ObjCRuntimeGeometry Hooks UIKitModel UIKit ObjectiveC Scenarios SwizzleKitTesting BarLayerPlugin
  TransparentBarPlugin OverlayBarPlugin AnimatorTransitionPlugin FullscreenPopPlugin)

swift package dump-symbol-graph --minimum-access-level public > /dev/null
graphs="$(dirname "$(swift build --show-bin-path)")/symbolgraph"
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
echo "API reference: $output/{$(IFS=,; echo "${modules[*]}")}.doccarchive"
