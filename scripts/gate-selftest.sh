#!/usr/bin/env bash
# Proves the latency gate on this machine, release build:
#   1. records a fresh baseline on cities into a scratch directory;
#   2. gates the unchanged build against it twice in a row: both must pass (exit 0);
#   3. gates a build with a deliberate slowdown in one backend (busy work added to every
#      answer through CITYBENCH_SLOWDOWN): it must fail as a regression (exit 2).
# Usage: scripts/gate-selftest.sh [BACKEND=MICROSECONDS]   (default: trie=2, about 2× trie's p50)
set -uo pipefail
cd "$(dirname "$0")/.."

slowdown="${1:-trie=2}"
backends="trie,inverted-index,icu-cached,sqlite-fts5"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

swift build -c release --product citybench >/dev/null || exit 1
citybench=.build/release/citybench
gate=("$citybench" gate --backends "$backends" --baseline "$scratch/baseline.json")

echo "== recording a baseline ($backends)"
"${gate[@]}" --update-baseline --out "$scratch/record" >"$scratch/record.log" 2>&1 || { cat "$scratch/record.log"; exit 1; }

failures=0
check() {
  local label=$1 expected=$2
  shift 2
  "$@" --out "$scratch/$label" >"$scratch/$label.log" 2>&1
  local status=$?
  local verdict
  verdict=$(grep -E '^verdict: ' "$scratch/$label.log" || tail -n 3 "$scratch/$label.log")
  if [ "$status" -eq "$expected" ]; then
    echo "ok   $label: exit $status ($verdict)"
  else
    echo "FAIL $label: exit $status, expected $expected ($verdict)"
    grep -E '^\| ' "$scratch/$label.log" | grep -v ' pass ' || true
    failures=$((failures + 1))
  fi
}

echo "== gating"
check unchanged-1 0 "${gate[@]}"
check unchanged-2 0 "${gate[@]}"
CITYBENCH_SLOWDOWN="$slowdown" check "slowdown-${slowdown%%=*}" 2 "${gate[@]}"

if [ "$failures" -eq 0 ]; then
  echo "gate self-test: passed (unchanged build passes twice; $slowdown µs per answer is a regression)"
else
  echo "gate self-test: $failures check(s) failed"
  exit 1
fi
