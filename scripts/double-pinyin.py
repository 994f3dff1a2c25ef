#!/usr/bin/env python3
"""Writes Corpus/double-pinyin.tsv: the key pair of every pinyin syllable on five double-pinyin
keyboards, read off the Rime schemas (Debian's rime-data-double-pinyin) by applying each
schema's speller algebra to every syllable of Rime's luna_pinyin dictionary.

    apt-get install rime-data-double-pinyin
    python3 scripts/double-pinyin.py            # rewrites Corpus/double-pinyin.tsv
    python3 scripts/double-pinyin.py --check    # exit 1 when the committed file differs

The table is a fact about each layout (which keys spell which syllable); the schemas are the
source and are not copied: only the resulting key pairs are written.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

RIME = Path("/usr/share/rime-data")
OUT = Path(__file__).resolve().parent.parent / "Corpus" / "double-pinyin.tsv"

# The suite's keyboard names and the Rime schema of each.
SCHEMES = [
    ("xiaohe", "double_pinyin_flypy", "小鹤双拼"),
    ("ziranma", "double_pinyin", "自然码双拼"),
    ("microsoft", "double_pinyin_mspy", "微软双拼"),
    ("zhineng-abc", "double_pinyin_abc", "智能ABC双拼"),
    ("pinyinpp", "double_pinyin_pyjj", "拼音加加双拼"),
]

# Rime's placeholder and the interjections that are no syllable of a place name: lo (咯) would
# share Xiaohe's `lo` with luo, and lvan (Rime's spelling of 孪, which pinyin writes luan) Ziranma's
# `lr` with luan.
NOT_SYLLABLES = {"xx", "m", "n", "ng", "hm", "hng", "eh", "lo", "lvan"}


def syllables():
    found = set()
    text = (RIME / "luna_pinyin.dict.yaml").read_text(encoding="utf-8")
    body = text.split("\n...\n", 1)[1]
    for line in body.splitlines():
        if not line or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) >= 2:
            for syllable in fields[1].split(" "):
                if re.fullmatch(r"[a-z]+", syllable) and syllable not in NOT_SYLLABLES:
                    found.add(syllable)
    return sorted(found)


def algebra(schema):
    """The speller's algebra rules of a schema file, as (operation, pattern, replacement)."""
    lines = (RIME / f"{schema}.schema.yaml").read_text(encoding="utf-8").splitlines()
    rules, inside = [], False
    for line in lines:
        stripped = line.strip()
        if stripped.split("#", 1)[0].strip() == "algebra:":
            inside = True
            continue
        if inside:
            if not stripped.startswith("- "):
                if stripped.startswith("#") or not stripped:
                    continue
                break
            rule = stripped[2:].split("  #", 1)[0].strip()
            operation, rest = rule.split("/", 1)
            parts = rest.split("/")
            rules.append((operation, parts[0], parts[1] if len(parts) > 1 else ""))
    return rules


def perl_replacement(replacement):
    return re.sub(r"\$(\d)", r"\\\1", replacement)


def spell(syllable, rules):
    spellings = {syllable}
    for operation, pattern, replacement in rules:
        result = set()
        for s in spellings:
            if operation == "erase":
                if not re.search(pattern, s):
                    result.add(s)
            elif operation == "xform":
                result.add(re.sub(pattern, perl_replacement(replacement), s))
            elif operation == "derive":
                result.add(s)
                result.add(re.sub(pattern, perl_replacement(replacement), s))
            elif operation == "xlit":
                result.add(s.translate(str.maketrans(pattern, replacement)))
            elif operation == "abbrev":
                result.add(s)
            else:
                raise SystemExit(f"unknown algebra operation {operation!r}")
        spellings = result
    return {s for s in spellings if re.fullmatch(r"[a-z;]{2}", s)}


def package_version():
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f=${Version}", "rime-data-double-pinyin"], capture_output=True, text=True
        )
        return out.stdout.strip() or "unknown"
    except FileNotFoundError:
        return "unknown"


def table():
    all_syllables = syllables()
    lines = [
        "# Double-pinyin keyboards: the two keys of each pinyin syllable (ü written v).",
        "# Source: the speller algebra of the Rime schemas in Debian's rime-data-double-pinyin "
        f"{package_version()} (https://github.com/rime/rime-double-pinyin, GPL-3; facts only, no rules copied),",
        "# applied to every syllable of Rime's luna_pinyin dictionary; written by scripts/double-pinyin.py.",
        "keyboard\tkeys\tsyllable",
    ]
    for name, schema, _ in SCHEMES:
        rules = algebra(schema)
        pairs = {}
        for syllable in all_syllables:
            for keys in spell(syllable, rules):
                pairs.setdefault(keys, set()).add(syllable)
        # Two syllables on one pair would make the layout ambiguous: none of the five is.
        clashes = [f"{keys} spells {sorted(pairs[keys])}" for keys in sorted(pairs) if len(pairs[keys]) > 1]
        if clashes:
            raise SystemExit(f"{name}: " + "; ".join(clashes))
        for keys in sorted(pairs):
            lines.append(f"{name}\t{keys}\t{next(iter(pairs[keys]))}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file")
    args = parser.parse_args()
    if not (RIME / "double_pinyin_flypy.schema.yaml").exists():
        raise SystemExit("needs Debian's rime-data-double-pinyin (apt-get install rime-data-double-pinyin)")
    text = table()
    if args.check:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} differs from what the Rime schemas give", file=sys.stderr)
            return 1
        print(f"{OUT}: matches the Rime schemas")
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}: {text.count(chr(10)) - 4} key pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
