#!/usr/bin/env bash
# Builds the DocC documentation of every module from its symbol graph with the toolchain's
# `docc` (this toolchain has no `swift package generate-documentation`: that needs the
# swift-docc-plugin package), and fails
#   - on any DocC warning (a broken ``link``, a malformed comment), in every module;
#   - on any public symbol without a doc comment, in every module: the library an app links
#     (CitySearch, CitySearchCorpus, CitySearchEngine, CitySearchBackends, CitySearchICU, CitySearchSQLite,
#     CitySearchCatalog) and the harness (CitySearchConformance, CitySearchBench,
#     CitySearchHistory).
# The archives go to OUT_DIR/MODULE.doccarchive (`docc preview` or any static host serves them).
#
# Usage: scripts/docs.sh [OUT_DIR]     (default: .build/docs; about half a minute after a build)
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
out=${1:-.build/docs}
library=(CitySearch CitySearchCorpus CitySearchEngine CitySearchBackends CitySearchICU SQLiteSupport CitySearchSQLite CitySearchCatalog)
harness=(CitySearchConformance CitySearchExecutor CitySearchBench CitySearchHistory)

# dump-symbol-graph exits 1 when it cannot load a test target's module (in a checkout whose
# tests were never built), having written every other module's graph: its status is not read,
# and each module this script needs is looked for below, by name.
graphs=$( (swift package dump-symbol-graph --minimum-access-level public 2>&1 || true) | sed -n 's/^Files written to //p')
[ -d "$graphs" ] || { echo "docs: swift package dump-symbol-graph wrote no symbol graphs"; exit 1; }
for module in "${library[@]}" "${harness[@]}"; do
  [ -f "$graphs/$module.symbols.json" ] || { echo "docs: no symbol graph of $module in $graphs"; exit 1; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$out"

# The public symbols declared in this package's sources that have no doc comment, one per line.
undocumented() {
  local files=("$graphs/$1.symbols.json" "$graphs/$1"@*.symbols.json)
  cat "${files[@]}" |
    jq -r --arg root "$PWD/Sources/" '.symbols[]
      | select((.location.uri // "") | ltrimstr("file://") | startswith($root))
      | select(.docComment == null)
      | "\(.location.uri | ltrimstr("file://") | ltrimstr($root)):\(.location.position.line + 1): \(.pathComponents | join("."))"'
}

failed=0
for module in "${library[@]}" "${harness[@]}"; do
  mkdir -p "$scratch/$module"
  cp "$graphs/$module.symbols.json" "$scratch/$module/"
  for extension in "$graphs/$module"@*.symbols.json; do cp "$extension" "$scratch/$module/"; done
  rm -rf "$out/$module.doccarchive"
  if ! docc convert --additional-symbol-graph-dir "$scratch/$module" --fallback-display-name "$module" \
    --fallback-bundle-identifier "org.citysearchbench.$module" --output-path "$out/$module.doccarchive" \
    --warnings-as-errors >"$scratch/$module.log" 2>&1; then
    cat "$scratch/$module.log"
    echo "docs: $module: DocC reported the problems above"
    failed=1
  fi
  missing=$(undocumented "$module")
  count=$([ -z "$missing" ] && echo 0 || echo "$missing" | wc -l)
  if [ "$count" -gt 0 ]; then
    echo "$missing" | sed 's/^/  /'
    echo "docs: $module: $count public symbols without a doc comment"
    failed=1
  else
    echo "docs: $module: built, every public symbol documented"
  fi
done
[ "$failed" -eq 0 ] || exit 1
echo "docs: $out"
