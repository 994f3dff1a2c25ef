#!/usr/bin/env bash
# Runs docs/CI.md's latency-gate jobs as pasted, end to end, in simulated runners: the GitHub
# Actions job and the GitLab job, each in a fresh clone of this checkout, with the
# environment a CI server gives (CI, GITHUB_*, a step-summary file) and what a fresh runner may
# lack:
#
#   github: no valgrind on PATH, and no $GITHUB_STEP_SUMMARY file's directory (both only
#           warnings: the instruction counts are "not compared", the summary is skipped);
#   gitlab: a valgrind that reports another version (3.22.0; the baseline's counts were made
#           with another one, so they are not compared).
#
# Each job's steps are read from docs/CI.md itself (the `run:` lines of the first GitHub job,
# the `script:` lines of the GitLab job), so the check follows the document. Two steps are
# stood in for: installing packages (this machine has them) and `swift build` (the binary
# built here is put where the job expects it). Every other line runs as written, in bash -e,
# the job's shell. A job passes when every step exits 0 and the gate left its verdict,
# results.json and JUnit; a gate whose verdict is a regression ran the recipe to its end too
# (wall time on a shared machine), and is reported as such, not as a broken recipe.
#
# Usage: scripts/ci-recipes.sh [--binary PATH]   (default: .build/release/citybench)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
binary="$root/.build/release/citybench"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary=$(realpath "$2"); shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "ci-recipes: unknown argument '$1' (see --help)" >&2; exit 64 ;;
  esac
done
[ -x "$binary" ] || { echo "ci-recipes: no citybench at $binary; build it with 'swift build -c release --product citybench'" >&2; exit 1; }

doc="$root/docs/CI.md"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# The `run:` lines of the first ```yaml block (the GitHub Actions gate job), in order.
github_steps() {
  awk '/^```yaml/ { n++; next } /^```/ { if (n == 1) exit } n == 1 && /^ +run: / { sub(/^ +run: /, ""); print }' "$doc"
}
# The `script:` lines of the GitLab job.
gitlab_steps() {
  awk '/^## GitLab CI/ { g = 1 } g && /^```yaml/ { y = 1; next } g && y && /^```/ { exit }
       g && y && /^  script:/ { s = 1; next } g && y && s && /^    - / { sub(/^    - /, ""); print; next }
       g && y && s && /^  [a-z]/ { s = 0 }' "$doc"
}

# A PATH of this machine's tools without valgrind.
novalgrind="$scratch/bin-novalgrind"
mkdir -p "$novalgrind"
for dir in /usr/local/sbin /usr/local/bin /usr/sbin /usr/bin /sbin /bin; do
  [ -d "$dir" ] || continue
  for tool in "$dir"/*; do
    name=$(basename "$tool")
    case "$name" in valgrind*|callgrind*|vgdb) continue ;; esac
    [ -e "$novalgrind/$name" ] || ln -s "$tool" "$novalgrind/$name"
  done
done
# A valgrind that says it is 3.22.0 and runs the real one.
otherversion="$scratch/bin-valgrind-3.22"
mkdir -p "$otherversion"
real_valgrind=$(command -v valgrind || true)
[ -n "$real_valgrind" ] || { echo "ci-recipes: the gitlab runner needs a valgrind to disguise" >&2; exit 1; }
cat > "$otherversion/valgrind" <<EOF
#!/bin/sh
if [ "\$1" = "--version" ]; then echo valgrind-3.22.0; exit 0; fi
exec "$real_valgrind" "\$@"
EOF
chmod +x "$otherversion/valgrind"

# run_job NAME STEPS-FUNCTION PATH [VAR=VALUE…]: a fresh clone, the steps in bash -e; the
# gate step's output must hold each line of $gate_says (what the simulated runner lacks must
# be reported, not ignored).
gate_says=""
run_job() {
  local name=$1 steps=$2 path=$3
  shift 3
  local work="$scratch/$name"
  git clone -q "$root" "$work"
  mkdir -p "$work/.build/release"
  ln -s "$binary" "$work/.build/release/citybench"
  echo "== $name: a fresh clone at $(git -C "$work" rev-parse --short HEAD), $*"
  local status=0 line
  while IFS= read -r line; do
    case "$line" in
      apt-get*) echo "  [stood in] $line"; continue ;;
      "swift build -c release --product citybench") echo "  [stood in: the binary built here] $line"; continue ;;
    esac
    echo "  \$ $line"
    if ! (cd "$work" && env -i HOME="$HOME" PATH="$path" "$@" bash -e -c "$line" < /dev/null) > "$scratch/$name.step.log" 2>&1; then
      status=1
    fi
    sed 's/^/    /' "$scratch/$name.step.log" | tail -n 12
    if [[ "$line" == *" gate "* ]]; then
      while IFS= read -r said; do
        [ -n "$said" ] || continue
        grep -qF -- "$said" "$scratch/$name.step.log" \
          || { echo "ci-recipes: $name: the gate did not say: $said" >&2; return 1; }
        echo "  $name: the gate said: $said"
      done <<< "$gate_says"
    fi
    if [ $status -ne 0 ]; then
      if [[ "$line" == *" gate "* ]] && grep -q "Latency gate: regression" "$scratch/$name.step.log" \
        && [ -f "$work/gate-junit.xml" ]; then
        echo "  $name: the gate's verdict is a regression (wall time on this shared machine); the recipe ran to its verdict"
        status=0
        continue
      fi
      echo "ci-recipes: $name: the step failed: $line" >&2
      return 1
    fi
  done < <($steps)
  for file in gate/results.json gate-junit.xml conform-junit.xml; do
    [ -s "$work/$file" ] || { echo "ci-recipes: $name: the job left no $file" >&2; return 1; }
  done
  echo "== $name: passed (every step exited 0; gate/results.json, gate-junit.xml, conform-junit.xml written)"
}

[ -n "$(github_steps)" ] || { echo "ci-recipes: found no run: lines in docs/CI.md's first yaml block" >&2; exit 1; }
[ -n "$(gitlab_steps)" ] || { echo "ci-recipes: found no script: lines in docs/CI.md's GitLab job" >&2; exit 1; }

gate_says='cannot append to $GITHUB_STEP_SUMMARY
not in this run (valgrind missing?)
verdict: '
run_job github github_steps "$novalgrind" CI=true GITHUB_ACTIONS=true GITHUB_REF=refs/heads/main \
  GITHUB_STEP_SUMMARY="$scratch/no-such-directory/summary.md"
gate_says='by callgrind (valgrind-3.22.0) here and by callgrind (valgrind-
verdict: '
run_job gitlab gitlab_steps "$otherversion:$novalgrind" CI=true GITLAB_CI=true
echo "ci-recipes: both jobs of docs/CI.md ran as pasted"
