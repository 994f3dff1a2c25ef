#!/usr/bin/env python3
"""Writes Corpus/double-pinyin.tsv and Corpus/zhuyin-keyboards.tsv: the key pair of every pinyin
syllable on eight double-pinyin keyboards, read off Rime schemas by applying each schema's speller
algebra to every syllable of Rime's luna_pinyin dictionary, and the Zhuyin symbol of every key of
the Daqian (大千) keyboard, read off Rime's bopomofo schema.

    apt-get install rime-data-double-pinyin rime-data-bopomofo
    # Sogou, Ziguang and Guobiao are Rime schemas outside Debian's package (see SOURCES):
    git clone https://github.com/rime/rime-double-pinyin /tmp/rdp
    git -C /tmp/rdp fetch origin pull/4/head pull/12/head
    git clone https://github.com/baopaau/rime-guobiao-quick /tmp/gb
    python3 scripts/double-pinyin.py --git /tmp/rdp --git /tmp/gb           # rewrites both files
    python3 scripts/double-pinyin.py --check [--git DIR ...]                # exit 1 on a difference

With `--check` and no `--git`, the keyboards whose schema is in Debian's package are checked and
the others are named as not checked (CI has no network). The tables are facts about each layout
(which keys spell which syllable); the schemas are the source and are not copied: only the
resulting key pairs are written.
"""

import argparse
import re
import subprocess
import sys
from pathlib import Path

RIME = Path("/usr/share/rime-data")
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "Corpus" / "double-pinyin.tsv"
ZHUYIN_OUT = ROOT / "Corpus" / "zhuyin-keyboards.tsv"

# Where a schema comes from when it is not in Debian's package: (repository, commit, path). The
# commit is looked up in any `--git` directory given.
RIME_DOUBLE_PINYIN = "https://github.com/rime/rime-double-pinyin"
GUOBIAO_QUICK = "https://github.com/baopaau/rime-guobiao-quick"
SOURCES = {
    # Pull request #12 of rime-double-pinyin ("add double_pinyin_sogou", 2023-05-09, GPL-3).
    "double_pinyin_sogou": (RIME_DOUBLE_PINYIN, ["878575c5e51329117677ef7b7b9d483ae2cf6ad0"], "pull request #12"),
    # Pull request #4 of rime-double-pinyin (紫光双拼, "兼容紫光雙拼方案", 2019-11-25, GPL-3).
    "double_pinyin_unispim": (RIME_DOUBLE_PINYIN, ["d0ae0286fe688d416cf28d7c9fb45f538b618a43"], "pull request #4"),
    # 国标双拼, GB/T 34947-2017 as implemented by rime-guobiao-quick (no licence stated: only the key
    # pairs, facts of the standard's layout, are taken). Its last commit (a merge) maps üe to X when written
    # `ue` (jue, que, xue, yue) and its first parent when written `ve` (lve, nve, as its dictionary
    # writes 略 and 虐); each leaves the other's syllables untypable, so both are read and joined.
    "guobiao_bispell": (
        GUOBIAO_QUICK,
        ["1283ba5b6980b54348904be2b582f7cd4d101fd2", "12caa3cf1637f6f8706cfd5048cd3daf3821bec0"],
        "main and its first parent",
    ),
}

# The suite's keyboard names and the Rime schema of each.
SCHEMES = [
    ("xiaohe", "double_pinyin_flypy", "小鹤双拼"),
    ("ziranma", "double_pinyin", "自然码双拼"),
    ("microsoft", "double_pinyin_mspy", "微软双拼"),
    ("zhineng-abc", "double_pinyin_abc", "智能ABC双拼"),
    ("pinyinpp", "double_pinyin_pyjj", "拼音加加双拼"),
    ("sogou", "double_pinyin_sogou", "搜狗双拼"),
    ("ziguang", "double_pinyin_unispim", "紫光双拼"),
    ("guobiao", "guobiao_bispell", "国标双拼 (GB/T 34947-2017)"),
]

# Where a schema differs from the layout as the input methods type it, a correction: the layout,
# the final, the key the schema gives it and the key the layout has, and why.
CORRECTIONS = [
    (
        "ziguang", "ing", "c", ";",
        "the schema of pull request #4 puts ing on C; libime's and libpinyin's Ziguang tables both put it "
        "on ; and use C for nothing (Conformance/keyboard-crosscheck.tsv)",
    ),
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


def schema_texts(schema, gits):
    """A schema's texts (one per source commit) and where they were read, or None when no given
    source has them."""
    if schema not in SOURCES:
        path = RIME / f"{schema}.schema.yaml"
        if not path.exists():
            return None
        return [path.read_text(encoding="utf-8")], f"Debian rime-data-double-pinyin {package_version('rime-data-double-pinyin')}"
    repository, commits, label = SOURCES[schema]
    for git in gits:
        texts = []
        for commit in commits:
            out = subprocess.run(
                ["git", "-C", str(git), "show", f"{commit}:{schema}.schema.yaml"], capture_output=True, text=True
            )
            if out.returncode == 0:
                texts.append(out.stdout)
        if len(texts) == len(commits):
            return texts, f"{repository} {label} ({', '.join(c[:7] for c in commits)})"
    return None


def algebra(text):
    """The speller's algebra rules of a schema, as (operation, pattern, replacement)."""
    rules, inside = [], False
    for line in text.splitlines():
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


def substitute(pattern, replacement, text):
    r"""`text` with every match of `pattern` replaced as Rime (Boost's Perl format) would: `$N` is a
    group, `\U` and `\L` turn what follows into upper or lower case."""

    def expand(match):
        out, case, i = [], None, 0
        while i < len(replacement):
            c = replacement[i]
            if c == "\\" and i + 1 < len(replacement) and replacement[i + 1] in "ULE":
                case = replacement[i + 1] if replacement[i + 1] != "E" else None
                i += 2
                continue
            if c == "$" and i + 1 < len(replacement) and replacement[i + 1].isdigit():
                piece = match.group(int(replacement[i + 1])) or ""
                i += 2
            else:
                piece = c
                i += 1
            out.append(piece.upper() if case == "U" else piece.lower() if case == "L" else piece)
        return "".join(out)

    return re.sub(pattern, expand, text)


def spell(syllable, rules):
    # A schema over a toned dictionary (terra_pinyin: `an1`) has rules that need a tone digit.
    toned = any("[1-5]" in pattern for _, pattern, _ in rules)
    spellings = {syllable + "1" if toned else syllable}
    for operation, pattern, replacement in rules:
        result = set()
        for s in spellings:
            if operation == "erase":
                if not re.search(pattern, s):
                    result.add(s)
            elif operation == "xform":
                result.add(substitute(pattern, replacement, s))
            elif operation == "derive" and not replacement:
                # An abbreviation (简拼: a spelling less its last key) is no key pair of a syllable.
                result.add(s)
            elif operation == "derive":
                result.add(s)
                result.add(substitute(pattern, replacement, s))
            elif operation == "xlit":
                result.add(s.translate(str.maketrans(pattern, replacement)))
            elif operation == "abbrev":
                result.add(s)
            else:
                raise SystemExit(f"unknown algebra operation {operation!r}")
        spellings = result
    return {s for s in spellings if re.fullmatch(r"[a-z;]{2}", s)}


def package_version(package):
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
        return out.stdout.strip() or "unknown"
    except FileNotFoundError:
        return "unknown"


def keyboard_rows(name, texts):
    """The `keyboard keys syllable` rows of one schema (the pairs of each of its texts, joined)."""
    pairs = {}
    for text in texts:
        rules = algebra(text)
        for syllable in syllables():
            for keys in spell(syllable, rules):
                pairs.setdefault(keys, set()).add(syllable)
    for layout, final, wrong, right, _ in CORRECTIONS:
        if layout == name:
            for keys in [k for k, syllables in pairs.items() if k[1] == wrong]:
                if not all(s.endswith(final) for s in pairs[keys]):
                    raise SystemExit(f"{name}: correction of {final}: {keys} spells {sorted(pairs[keys])}")
                pairs.setdefault(keys[0] + right, set()).update(pairs.pop(keys))
    # Two syllables on one pair would make the layout ambiguous: none of the eight is.
    clashes = [f"{keys} spells {sorted(pairs[keys])}" for keys in sorted(pairs) if len(pairs[keys]) > 1]
    if clashes:
        raise SystemExit(f"{name}: " + "; ".join(clashes))
    return [f"{name}\t{keys}\t{next(iter(pairs[keys]))}" for keys in sorted(pairs)]


def tables(gits):
    """Each keyboard's rows and source, or None for a keyboard whose schema is not at hand."""
    out = {}
    for name, schema, _ in SCHEMES:
        found = schema_texts(schema, gits)
        out[name] = None if found is None else (keyboard_rows(name, found[0]), found[1])
    return out


def double_pinyin_file(found):
    lines = [
        "# Double-pinyin keyboards: the two keys of each pinyin syllable (ü written v).",
        "# Source: the speller algebra of Rime schemas (GPL-3 unless said; facts only, no rules copied),",
        "# applied to every syllable of Rime's luna_pinyin dictionary; written by scripts/double-pinyin.py:",
    ]
    for name, schema, label in SCHEMES:
        lines.append(f"#   {name} ({label}): {schema}.schema.yaml, {found[name][1]}")
        for layout, final, wrong, right, why in CORRECTIONS:
            if layout == name:
                lines.append(f"#     corrected: {final} on {right}, not {wrong}: {why}")
    lines.append("keyboard\tkeys\tsyllable")
    for name, _, _ in SCHEMES:
        lines.extend(found[name][0])
    return "\n".join(lines) + "\n"


def zhuyin_file():
    """Daqian's keys and the Zhuyin symbol of each, from the preedit transliteration of Rime's
    bopomofo schema (its keys, then the symbols they show, in one `xlit|keys|symbols|` line)."""
    text = (RIME / "bopomofo.schema.yaml").read_text(encoding="utf-8")
    found = re.search(r"xlit\|([^|]*)\|([^|]*)\|", text)
    if not found or "ㄅ" not in found.group(2):
        raise SystemExit("bopomofo.schema.yaml: no key → symbol transliteration found")
    keys, symbols = found.group(1), found.group(2)
    if len(keys) != len(symbols):
        raise SystemExit("bopomofo.schema.yaml: the transliteration's two sides differ in length")
    lines = [
        "# Zhuyin keyboards: the Bopomofo symbol (or tone mark) each key types.",
        "# Source: the preedit transliteration of Rime's bopomofo.schema.yaml (standard 大千 layout) in Debian's",
        f"# rime-data-bopomofo {package_version('rime-data-bopomofo')} (https://github.com/rime/rime-bopomofo, LGPL-3;",
        "# facts only); written by scripts/double-pinyin.py. Space and the apostrophe are boundaries, not keys here.",
        "keyboard\tkey\tsymbol",
    ]
    for key, symbol in sorted(zip(keys, symbols)):
        if key in " '" or symbol == " ":
            continue
        lines.append(f"daqian\t{key}\t{symbol}")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed files")
    parser.add_argument("--git", action="append", default=[], metavar="DIR", help="a clone holding schemas outside Debian's package")
    args = parser.parse_args()
    for package, probe in [("rime-data-double-pinyin", "double_pinyin_flypy"), ("rime-data-bopomofo", "bopomofo")]:
        if not (RIME / f"{probe}.schema.yaml").exists():
            raise SystemExit(f"needs Debian's {package} (apt-get install {package})")
    found = tables(args.git)
    missing = [name for name, rows in found.items() if rows is None]
    zhuyin = zhuyin_file()
    if args.check:
        failed = 0
        committed = OUT.read_text(encoding="utf-8").splitlines()
        for name, rows in found.items():
            if rows is None:
                continue
            mine = [line for line in committed if line.startswith(name + "\t")]
            if mine != rows[0]:
                print(f"{OUT.name}: {name} differs from what its schema gives ({rows[1]})", file=sys.stderr)
                failed = 1
            else:
                print(f"{OUT.name}: {name} ({len(mine)} pairs) matches {rows[1]}")
        if missing:
            print(f"{OUT.name}: not checked, schema not at hand (give --git): {', '.join(missing)}")
        if ZHUYIN_OUT.read_text(encoding="utf-8") != zhuyin:
            print(f"{ZHUYIN_OUT.name} differs from what Rime's bopomofo schema gives", file=sys.stderr)
            failed = 1
        else:
            print(f"{ZHUYIN_OUT.name}: matches Rime's bopomofo schema")
        return failed
    if missing:
        raise SystemExit(f"schemas not at hand for {', '.join(missing)}: give --git DIR (see the docstring)")
    text = double_pinyin_file(found)
    OUT.write_text(text, encoding="utf-8")
    ZHUYIN_OUT.write_text(zhuyin, encoding="utf-8")
    print(f"wrote {OUT}: {sum(len(rows[0]) for rows in found.values())} key pairs; {ZHUYIN_OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
