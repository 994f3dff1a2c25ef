#!/usr/bin/env bash
# The fault-injection suite, release build: what citybench does with signals, full and
# read-only disks, special files and malformed inputs. Every case asserts its outcome (exit
# status, the message, that a message stays short, that an earlier report set is whole) and
# prints one line; the script exits 1 if any case failed.
#
#   - signals (KILL, TERM, INT, INT twice) at every named step of a report write, delivered
#     while the process is stopped there (CITYBENCH_PAUSE_AT), not at a moment chosen by timing;
#   - a full file system and a read-only one (small tmpfs mounts; skipped, with a message, where
#     mounting is not allowed);
#   - outputs that are files, inputs that are directories or FIFOs;
#   - malformed corpora (TSV, JSON, property lists), workloads and results files;
#   - fuzzed queries through every fast backend in both modes, against the reference, with the
#     input-cost bound (no query over 10× the reference's time): $CITYBENCH_FUZZ queries (3000).
#
# Usage: scripts/faults.sh            (about three minutes after the release build)
set -uo pipefail
cd "$(dirname "$0")/.."

swift build -c release --product citybench >/dev/null || exit 1
citybench=$PWD/.build/release/citybench
scratch=$(mktemp -d)
mounted=()
cleanup() {
  for m in "${mounted[@]}"; do umount "$m" 2>/dev/null; done
  rm -rf "$scratch"
}
trap cleanup EXIT

passed=0
failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }

# A small, quick run: the property-list fixture (6 places), the trie, one round.
plist=Tests/CitySearchTests/Fixtures/Cities.plist
bench=("$citybench" bench --corpus "$plist" --backends trie --rounds 1 --warm-up 0 --relevance off)

# expect LABEL STATUS TEXT -- COMMAND…: the command exits STATUS, its stderr contains TEXT, and
# stderr stays under 2,000 bytes (a message never echoes a huge input).
expect() {
  local label=$1 status=$2 text=$3
  shift 4
  "$@" >"$scratch/out.txt" 2>"$scratch/err.txt"
  local got=$?
  local size
  size=$(wc -c <"$scratch/err.txt")
  if [ "$got" -ne "$status" ]; then
    fail "$label: exit $got, expected $status: $(head -c 300 "$scratch/err.txt")"
  elif [ -n "$text" ] && ! grep -qF -- "$text" "$scratch/err.txt"; then
    fail "$label: stderr lacks '$text': $(head -c 300 "$scratch/err.txt")"
  elif [ "$size" -gt 2000 ]; then
    fail "$label: $size bytes on stderr"
  else
    ok "$label (exit $got)"
  fi
}

digest() { (cd "$1" && find . -type f | sort | xargs sha256sum) 2>/dev/null; }

# pause_and_signal OUT POINT SIGNALS…: runs bench into OUT until it stops at POINT, sends the
# signals (CONT after each), waits; prints the exit status.
pause_and_signal() {
  local out=$1 point=$2
  shift 2
  CITYBENCH_PAUSE_AT="$point" "${bench[@]}" --out "$out" >/dev/null 2>"$scratch/pause.txt" &
  local pid=$!
  # Until it is stopped there (state T), not merely until it says so: a signal sent between
  # the message and the stop would leave it stopped for ever.
  for _ in $(seq 600); do
    grep -q "paused at $point" "$scratch/pause.txt" && [ "$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)" = T ] && break
    sleep 0.05
  done
  for sig in "$@"; do
    kill -"$sig" "$pid" 2>/dev/null
    kill -CONT "$pid" 2>/dev/null
    sleep 0.2
  done
  wait "$pid"
  echo $?
}

echo "== signals during a report write"
out=$scratch/report
"${bench[@]}" --out "$out" >/dev/null 2>&1 || fail "the first run"
before=$(digest "$out")
whole() { [ "$(ls "$1" | tr '\n' ' ')" = "report.html report.md results.json samples.csv " ]; }
for point in staged:results.json staged:report.md staged:samples.csv staged:report.html complete; do
  for signals in KILL TERM INT "INT INT"; do
    before=$(digest "$out")
    # shellcheck disable=SC2086
    status=$(pause_and_signal "$out" "$point" $signals)
    after=$(digest "$out")
    if [ "${signals%% *}" = INT ]; then
      # Ctrl-C is honoured (exit 130) and the set is whole: the old one when it came in time to
      # stop the commit, the new one when the commit was past the point of no return (or the
      # signal handler ran after the last check): then it is deferred until the set is in place.
      if [ "$status" -ne 130 ]; then
        fail "$signals at $point: exit $status, expected 130"
      elif [ "$after" = "$before" ]; then
        ok "$signals at $point: honoured; the earlier set is whole (exit $status)"
      elif whole "$out"; then
        ok "$signals at $point: deferred; the new set is whole (exit $status)"
      else
        fail "$signals at $point: a mixed set: $(ls "$out" | tr '\n' ' ')"
      fi
    elif [ "$after" != "$before" ]; then
      fail "$signals at $point: the earlier set changed (exit $status)"
    else
      ok "$signals at $point: the earlier set is whole (exit $status)"
    fi
  done
done
before=$(digest "$out")
status=$(pause_and_signal "$out" exchanged KILL)
if [ "$(digest "$out")" != "$before" ] && whole "$out"; then
  ok "KILL just after the exchange: the new set is whole (exit $status)"
else
  fail "KILL just after the exchange: $(ls "$out" | tr '\n' ' ')"
fi
"${bench[@]}" --out "$out" >/dev/null 2>&1
leftovers=$(ls -A "$scratch" | grep -c citybench- || true)
[ "$leftovers" -eq 0 ] && ok "the next run removes every leftover" || fail "$leftovers leftovers: $(ls -A "$scratch")"

echo "== outputs that cannot be written (checked before the run)"
touch "$scratch/a-file"
expect "--out is a file" 1 "it is a file, not a directory" -- "${bench[@]}" --out "$scratch/a-file"
expect "--out below a file" 1 "Not a directory (ENOTDIR)" -- "${bench[@]}" --out "$scratch/a-file/sub"
mkdir -p "$scratch/holds-dir/inner"
expect "--out holds a directory" 1 "it holds the directory 'inner'" -- "${bench[@]}" --out "$scratch/holds-dir"

full=$scratch/full
mkdir -p "$full"
if mount -t tmpfs -o size=512k tmpfs "$full" 2>/dev/null; then
  mounted+=("$full")
  "${bench[@]}" --out "$full/report" >/dev/null 2>&1
  before=$(digest "$full/report")
  dd if=/dev/zero of="$full/filler" bs=4k 2>/dev/null
  expect "full disk" 1 "No space left on device (ENOSPC)" -- "${bench[@]}" --out "$full/report"
  [ "$(digest "$full/report")" = "$before" ] && ok "full disk: the earlier set is whole" || fail "full disk: set changed"
  [ "$(ls -A "$full" | grep -c citybench-)" -eq 0 ] && ok "full disk: nothing left behind" || fail "full disk: leftovers"
  rm -f "$full/filler"
  mount -o remount,ro "$full"
  expect "read-only file system" 1 "Read-only file system (EROFS)" -- "${bench[@]}" --out "$full/report"
  [ "$(digest "$full/report")" = "$before" ] && ok "read-only: the earlier set is whole" || fail "read-only: set changed"
else
  echo "skip full and read-only file systems: mounting a tmpfs is not allowed here"
fi

echo "== special files and malformed inputs"
mkfifo "$scratch/fifo"
expect "corpus is a FIFO" 1 "it is a FIFO (named pipe), not a regular file" -- "$citybench" search --corpus "$scratch/fifo" bj
expect "corpus is a directory" 1 "it is a directory" -- "$citybench" search --corpus "$scratch" bj
expect "queries file is a directory" 1 "is a directory" -- "$citybench" search --queries "$scratch"
expect "workload is a directory" 1 "is a directory" -- "${bench[@]}" --workload "$scratch" --out "$scratch/r2"

header=$'id\tparent\tlevel\tname\tpinyin\tshort\thot'
corpus() { printf '%s' "$2" >"$scratch/$1"; echo "$scratch/$1"; }
expect "CR-only line ends" 1 "ends in a CR alone" -- "$citybench" search --corpus \
  "$(corpus cr.tsv "$header"$'\r1\t0\t1\t北京市\t\t\t\r')" bj
expect "CRLF line ends are read" 0 "" -- "$citybench" search --corpus \
  "$(corpus crlf.tsv "$header"$'\r\n110000\t0\t1\t北京市\tbei jing shi\t北京\t1\r\n')" bj
expect "19-digit id" 1 "too large: the largest accepted is 999999999999999999" -- "$citybench" search --corpus \
  "$(corpus big-id.tsv "$header"$'\n1234567890123456789\t0\t1\t北京市\t\t\t\n')" bj
expect "a 20 MB line without a newline" 1 "the line is over 65536 bytes long" -- "$citybench" search --corpus \
  "$(corpus long-line.tsv "$(head -c 20000000 /dev/zero | tr '\0' 'a')")" bj
expect "a 1,000,000-character name" 1 "(1000000 bytes)" -- "$citybench" search --corpus \
  "$(corpus long-name.json "[{\"id\": 1, \"level\": 1, \"name\": \"$(head -c 1000000 /dev/zero | tr '\0' 'x')\"}]")" bj
expect "10,000-deep JSON" 1 "nest 33 deep at byte 32; the limit is 32" -- "$citybench" search --corpus \
  "$(corpus deep.json "$(printf '[%.0s' $(seq 10000))$(printf ']%.0s' $(seq 10000))")" bj
expect "JSON id true" 1 "bad id 'true': expected an integer" -- "$citybench" search --corpus \
  "$(corpus bool-id.json '[{"id": true, "level": 1, "name": "北京市"}]')" bj
expect "JSON hot \"yes\"" 1 "bad hot 'yes': expected true or false" -- "$citybench" search --corpus \
  "$(corpus hot.json '[{"id": 1, "level": 1, "name": "北京市", "hot": "yes"}]')" bj
expect "JSON pinyin of the wrong type" 1 "bad pinyin '3': expected an array of strings or a string" -- \
  "$citybench" search --corpus "$(corpus pinyin.json '[{"id": 1, "level": 1, "name": "北京市", "pinyin": 3}]')" bj
expect "JSON unknown key" 1 "bad key 'nmae': not a field of the format" -- "$citybench" search --corpus \
  "$(corpus key.json '[{"id": 1, "level": 1, "nmae": "北京市"}]')" bj
plistdict='<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>广东</key><string>广州</string></dict></plist>'
expect "plist province with one city" 0 "" -- "$citybench" browse --corpus "$(corpus one.plist "$plistdict")" 广东
grep -q "广州" "$scratch/out.txt" && ok "plist: the one city is kept" || fail "plist: 广州 dropped: $(cat "$scratch/out.txt")"

expect "--backends ''" 64 "names no backend" -- "${bench[@]}" --backends '' --out "$scratch/r3"
sed 's/"backends" : \[/"backends" : [], "was" : [/' "$out/results.json" >"$scratch/empty.json"
expect "gate on an empty measurement" 1 "it measures no backend" -- "$citybench" gate --current "$scratch/empty.json" \
  --baseline "$out/results.json" --out "$scratch/g"
printf 'not json' >"$scratch/not.json"
expect "results file that is not JSON" 1 "not.json: not a JSON object" -- "$citybench" gate --current "$scratch/not.json" \
  --baseline "$out/results.json" --out "$scratch/g"
sed 's/"schemaVersion" : 1/"schemaVersion" : 9/' "$out/results.json" >"$scratch/v9.json"
expect "results file of another schema" 1 "schema version 9; this build reads version 1" -- "$citybench" gate \
  --current "$scratch/v9.json" --baseline "$out/results.json" --out "$scratch/g"
sed 's/"reference" : "linear"/"reference" : 7/' "$out/results.json" >"$scratch/type.json"
expect "results file with a wrong type" 1 "wrong type at 'reference'" -- "$citybench" gate --current "$scratch/type.json" \
  --baseline "$out/results.json" --out "$scratch/g"
printf '# citybench workload 1\rsession\tplace\tstyle\ttypo\ttext\r' >"$scratch/cr.workload.tsv"
expect "CR-only workload" 1 "cr.workload.tsv:1: the line ends in a CR alone" -- "${bench[@]}" \
  --workload "$scratch/cr.workload.tsv" --out "$scratch/r5"
printf '# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\na\t1\tpinyin\t%s\tb\n' "$(head -c 60000 /dev/zero | tr '\0' 'y')" \
  >"$scratch/typo.workload.tsv"
expect "workload with a 60,000-byte field" 1 "(60000 bytes)" -- "${bench[@]}" --workload "$scratch/typo.workload.tsv" \
  --out "$scratch/r6"
printf '# citybench workload 1\r\nsession\tplace\tstyle\ttypo\ttext\r\none\t\tpinyin\t0\tb\r\n' >"$scratch/crlf.workload.tsv"
expect "CRLF workload" 0 "" -- "${bench[@]}" --workload "$scratch/crlf.workload.tsv" --out "$scratch/r4"

echo "== fuzzed queries: every backend against the reference, and the input-cost bound"
fuzz=${CITYBENCH_FUZZ:-3000}
if "$citybench" conform --corpus cities --fuzz "$fuzz" --backends trie,inverted-index,sqlite-fts5,icu-cached \
  >"$scratch/fuzz.txt" 2>/dev/null; then
  ok "$fuzz fuzzed queries × 4 backends × 2 modes: every answer conforms, every query within the bound"
else
  fail "fuzzed queries: $(grep -E 'DIVERG|differ|OVER THE BOUND|FAILED' "$scratch/fuzz.txt" | head -5)"
fi
grep -E '^  input cost' "$scratch/fuzz.txt" | sed 's/^  /     /'

echo "== a killed instruction replay"
# Killed outright, a replay cannot remove its scratch directory (a stripped copy of the binary);
# the next replay removes every such directory whose process is gone.
if command -v valgrind >/dev/null; then
  printf '# citybench workload 1\nsession\tplace\tstyle\ttypo\ttext\none\t\tpinyin\t0\tb\n' >"$scratch/one.workload.tsv"
  "$citybench" instructions --backends linear --workload "$scratch/one.workload.tsv" >/dev/null 2>&1 &
  replay=$!
  left=""
  for _ in $(seq 1 200); do
    left=$(ls -d "${TMPDIR:-/tmp}"/citybench-callgrind-"$(printf '%010d' "$replay")"-* 2>/dev/null | head -n 1)
    [ -n "$left" ] && break
    sleep 0.05
  done
  pkill -KILL -P "$replay" 2>/dev/null
  kill -KILL "$replay" 2>/dev/null
  wait "$replay" 2>/dev/null
  if [ -z "$left" ] || [ ! -d "$left" ]; then
    fail "a killed instruction replay: no scratch directory was left to clean"
  elif "$citybench" instructions --backends linear --workload "$scratch/one.workload.tsv" >/dev/null 2>&1 \
    && [ ! -e "$left" ]; then
    ok "a killed instruction replay's scratch directory is removed by the next replay"
  else
    fail "a killed instruction replay's scratch directory $left is still there"
  fi
else
  echo "     skipped: no valgrind"
fi

echo "faults: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
