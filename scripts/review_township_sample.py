#!/usr/bin/env python3
"""The reviewed sample of township readings: Corpus/review/township-sample.tsv.

Usage:
    python3 scripts/review_township_sample.py --draw NAME  # draw sample NAME (once; keeps reviews)
    python3 scripts/review_township_sample.py              # refresh the readings, print the rates

The frame is every township (level 4 of Corpus/towns.tsv) whose name holds a character of
Corpus/polyphones.tsv. Two samples are drawn from it with fixed seeds (SAMPLES):
`township-sample.tsv`, 320 names, reviewed while the reading rules were written (errors found in
it were fixed, so its "after" rate is not an independent estimate), and `township-holdout.tsv`,
160 other names, drawn and reviewed once the rules were final and not used to change them: its
"after" rate is the estimate of the corpus's error rate. Each row has
the reading the corpus had before the reading rules (`before`, from commit BEFORE_COMMIT), the
one it has now (`after`), and the reading checked by hand (`reviewed`, with a `note` where the
reviewer was unsure or the reason is not obvious). The script rewrites every column but the
two hand-kept ones, and prints the share of `before` and `after` that equal `reviewed`. It
fails when a row has no review. Python's standard library only; needs git for `before`.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Corpus"
BEFORE_COMMIT = "4d5ea33"  # the corpus before the township reading rules
# name -> (seed, size); a later sample is drawn from the frame less the earlier samples.
SAMPLES = {
    "township-sample.tsv": (20261202, 320),
    "township-holdout.tsv": (20261203, 160),
    "township-check.tsv": (20261204, 300),
}
HEADER = ["id", "name", "province", "parent", "before", "after", "reviewed", "note"]


def rows(text: str) -> list[list[str]]:
    return [line.split("\t") for line in text.splitlines()[1:]]


def polyphonic_characters() -> set[str]:
    return {r[0] for r in rows((CORPUS / "polyphones.tsv").read_text(encoding="utf-8"))}


def main() -> None:
    args = sys.argv[1:]
    draw = args[args.index("--draw") + 1] if "--draw" in args else None
    if draw is not None and draw not in SAMPLES:
        sys.exit(f"review_township_sample: no sample named {draw}; the samples are {', '.join(SAMPLES)}")
    towns = rows((CORPUS / "towns.tsv").read_text(encoding="utf-8"))
    by_id = {r[0]: r for r in towns}
    before_text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{BEFORE_COMMIT}:Corpus/towns.tsv"],
        capture_output=True, check=True, text=True,
    ).stdout
    before = {r[0]: r[4] for r in rows(before_text)}

    taken: set[str] = set()
    failed = False
    for name, (seed, size) in SAMPLES.items():
        failed |= not review(CORPUS / "review" / name, seed, size, draw == name, taken, towns, by_id, before)
    if failed:
        sys.exit(1)


def review(sample: Path, seed: int, size: int, draw: bool, taken: set[str], towns, by_id, before) -> bool:
    """Refreshes (or draws) one sample file and prints its rates; False when rows lack a review."""
    kept: dict[str, tuple[str, str]] = {}
    if sample.exists():
        for r in rows(sample.read_text(encoding="utf-8")):
            kept[r[0]] = (r[6], r[7])
    if draw:
        chars = polyphonic_characters()
        frame = sorted((r[0] for r in towns if r[2] == "4" and any(c in chars for c in r[3])), key=int)
        ids = sorted(random.Random(seed).sample([i for i in frame if i not in taken], size), key=int)
        print(f"{sample.name}: frame {len(frame):,} townships with a polyphonic character; drew {len(ids)}")
    elif not kept:
        print(f"{sample.name}: missing; draw it with --draw {sample.name}")
        return False
    else:
        ids = list(kept)
    taken.update(ids)

    def province(place: list[str]) -> str:
        while place[1] != "0":
            place = by_id[place[1]]
        return place[3]

    out = ["\t".join(HEADER)]
    right_before = right_after = reviewed_count = 0
    for pid in ids:
        place = by_id[pid]
        reviewed, note = kept.get(pid, ("", ""))
        out.append("\t".join([
            pid, place[3], province(place), by_id[place[1]][3], before[pid], place[4], reviewed, note,
        ]))
        if reviewed:
            reviewed_count += 1
            right_before += before[pid] == reviewed
            right_after += place[4] == reviewed
    sample.write_text("\n".join(out) + "\n", encoding="utf-8")
    if reviewed_count < len(ids):
        print(f"{sample.name}: {len(ids) - reviewed_count} of {len(ids)} rows have no review yet")
        return False
    n = len(ids)
    uncertain = sum("uncertain" in kept[pid][1] for pid in ids)
    print(f"{sample.name}: {n} reviewed ({uncertain} marked uncertain): before {right_before} right ({right_before / n:.1%}), "
          f"after {right_after} right ({right_after / n:.1%})")
    for pid in ids:
        place = by_id[pid]
        reviewed = kept[pid][0]
        if place[4] != reviewed:
            print(f"  still wrong: {pid} {place[3]} {place[4]} (reviewed: {reviewed})")
    return True


if __name__ == "__main__":
    main()
