#!/usr/bin/env python3
"""Checks PinIn4Cpp's keyboards (PyPI's PinInPy, as executors/pinin installs it) against ours:
for every syllable of the cities tier's names and every layout both have, one place whose name
holds that syllable is searched in PinIn, configured with that layout, by the syllable's key
pair as Corpus/double-pinyin.tsv gives it (each pair the layout has for it) or, on Daqian, by
its keys in Corpus/zhuyin-keyboards.tsv (no tone key: PinIn reads none). A pair PinIn does not
find the place by is a disagreement; the script writes Conformance/pinin-keyboards.tsv with each row's verdict and reason (EXPLANATIONS,
written by hand; exit 1 when a row has none).

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install -r executors/requirements.txt
    /tmp/venv/bin/python scripts/pinin-keyboards.py

Neither building nor testing the package needs this script; docs/Keyboards.md says what the
disagreements mean.
"""

import collections
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "executors"))
from citybench_executor import read_corpus  # noqa: E402

# The executor imports PinInPy (working around its import-time annotations) and writes its table.
sys.path.insert(0, str(ROOT / "executors" / "pinin"))
from executor import PinInPy, write_table  # noqa: E402
from importlib.metadata import version  # noqa: E402

OUT = ROOT / "Conformance" / "pinin-keyboards.tsv"
ZERO = {"a", "o", "e", "ai", "an", "ang", "ao", "ei", "en", "eng", "er", "ou"}

# (verdict, reason, predicate over a row (layout, syllable, keys, place, what)), first match wins;
# written by hand from the rows, each naming what it covers.
EXPLANATIONS = [
    ("outside", "PinIn's character table (pypinyin's) lacks the reading the place's name has here (乐 lào in 乐亭): "
     "not a keyboard matter", lambda r: r[1] == "lao"),
    ("variant", "ours also reads v for ü after j q x y (Rime's derive rule; Microsoft's and Sogou's ü key y: jy); "
     "PinIn reads only the u pair, which it finds", lambda r: r[1] in {"ju", "qu", "xu", "yu", "jue", "que", "xue", "yue"}
     and r[2][1] in "vy" and r[0] != "pinyinpp" or (r[0] == "pinyinpp" and r[1] in {"ju", "qu", "xu", "yu"})),
    ("variant", "Rime's schema also types a zero-initial syllable as its first letter and its final's key (Xiaohe aj, "
     "Microsoft aj) or, on Microsoft, its own letters (er, ou); PinIn reads the layout's own pair (Xiaohe an, "
     "Microsoft oj), which it finds", lambda r: r[0] in {"xiaohe", "ziranma", "microsoft"} and r[1] in ZERO),
    ("variant", "Microsoft's üe after l: Rime reads lt and lv, PinIn (like libime) lv only, which it finds",
     lambda r: r[0] == "microsoft" and r[1] == "lve"),
    ("theirs-wrong", "PinIn reads Pinyin++'s zero-initial syllables by Xiaohe's rule (the syllable's own letters: an, ai), "
     "not by the layout's own pairs (a/o or e/o with the final's key: af, of, as) that Rime's schema, libime and "
     "libpinyin read", lambda r: r[0] == "pinyinpp" and r[1] in ZERO),
    ("theirs-wrong", "PinIn reads no pair as lve (略) on this layout: üe's key after l is x on Pinyin++ and m on Zhineng "
     "ABC in Rime's schema, libime and libpinyin alike", lambda r: r[0] in {"pinyinpp", "zhineng-abc"} and r[1] == "lve"),
    ("theirs-wrong", "PinIn's Ziguang does not read n as ui (cui, gui, hui, shui …); Rime's schema, libime and libpinyin "
     "all put ui on n", lambda r: r[0] == "ziguang" and r[1].endswith("ui")),
    ("variant", "Sogou's er: Rime's schema (the one source of our Sogou table) types it o + r, as Sogou types every "
     "zero-initial syllable; PinIn reads er as its own letters", lambda r: r[0] == "sogou" and r[1] == "er"),
]
LAYOUTS = {  # ours → PinIn's
    "xiaohe": "XIAOHE", "ziranma": "ZIRANMA", "microsoft": "MICROSOFT", "zhineng-abc": "ZHINENG_ABC",
    "pinyinpp": "PINYINPP", "sogou": "SOUGOU", "ziguang": "ZIGUANG", "guobiao": "GUOBIAO", "daqian": "DAQIAN",
}


def tables():
    pairs = collections.defaultdict(lambda: collections.defaultdict(list))
    for line in (ROOT / "Corpus" / "double-pinyin.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("keyboard\t"):
            continue
        layout, keys, syllable = line.split("\t")
        pairs[layout][syllable].append(keys)
    symbols = {}
    for line in (ROOT / "Corpus" / "zhuyin-keyboards.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or line.startswith("keyboard\t"):
            continue
        _, key, symbol = line.split("\t")
        symbols[symbol] = key
    return pairs, symbols


# Zhuyin of a pinyin syllable, for Daqian: initial, medial and final symbols.
INITIALS = dict(zip("b p m f d t n l g k h j q x zh ch sh r z c s".split(), "ㄅㄆㄇㄈㄉㄊㄋㄌㄍㄎㄏㄐㄑㄒㄓㄔㄕㄖㄗㄘㄙ"))
FINALS = {
    "a": "ㄚ", "o": "ㄛ", "e": "ㄜ", "ai": "ㄞ", "ei": "ㄟ", "ao": "ㄠ", "ou": "ㄡ", "an": "ㄢ", "en": "ㄣ", "ang": "ㄤ",
    "eng": "ㄥ", "er": "ㄦ", "i": "ㄧ", "ia": "ㄧㄚ", "ie": "ㄧㄝ", "iao": "ㄧㄠ", "iu": "ㄧㄡ", "ian": "ㄧㄢ", "in": "ㄧㄣ",
    "iang": "ㄧㄤ", "ing": "ㄧㄥ", "iong": "ㄩㄥ", "u": "ㄨ", "ua": "ㄨㄚ", "uo": "ㄨㄛ", "uai": "ㄨㄞ", "ui": "ㄨㄟ",
    "uan": "ㄨㄢ", "un": "ㄨㄣ", "uang": "ㄨㄤ", "ong": "ㄨㄥ", "v": "ㄩ", "ve": "ㄩㄝ", "van": "ㄩㄢ", "vn": "ㄩㄣ",
}


def zhuyin(syllable):
    """The Zhuyin of a pinyin syllable (standard spelling rules undone), or None."""
    s = syllable
    initial = ""
    for i in ("zh", "ch", "sh"):
        if s.startswith(i):
            initial, s = i, s[2:]
            break
    else:
        if s[0] in "bpmfdtnlgkhjqxrzcs":
            initial, s = s[0], s[1:]
    if initial in ("j", "q", "x") and s.startswith("u"):
        s = "v" + s[1:]
    if not initial:
        s = {"yi": "i", "yin": "in", "ying": "ing", "wu": "u", "yu": "v", "yue": "ve", "yuan": "van", "yun": "vn",
             "you": "iu", "yong": "iong", "weng": "ong", "wei": "ui", "wen": "un"}.get(s, s)
        if s.startswith("y"):
            s = "i" + s[1:] if not s.startswith("yi") else s[1:]
        elif s.startswith("w"):
            s = "u" + s[1:]
    if initial and s == "i" and initial in ("zh", "ch", "sh", "r", "z", "c", "s"):
        return INITIALS[initial]
    if s not in FINALS:
        return None
    return INITIALS.get(initial, "") + FINALS[s]


def main():
    places = read_corpus(str(ROOT / "Corpus" / "cities.tsv"), "tsv")
    pairs, symbols = tables()
    # One place (the first) per syllable, and the position of the syllable in its name.
    holder = {}
    for place in places:
        for syllable in place["pinyin"].split(" "):
            holder.setdefault(syllable, place)
    with tempfile.TemporaryDirectory() as scratch:
        table = os.path.join(scratch, "pinyin.txt")
        write_table(table)
        rows = []
        checked = collections.Counter()
        for ours, theirs in LAYOUTS.items():
            pinin = PinInPy.PinIn(table)
            config = pinin.get_config()
            config.set_keyboard(getattr(PinInPy.Keyboard, theirs))
            config.commit()
            searcher = PinInPy.TreeSearcher(PinInPy.Logic.CONTAIN, pinin)
            ids = {}
            for place in places:
                ids.setdefault(searcher.put_string(place["name"]), []).append(place["id"])
            for syllable, place in sorted(holder.items()):
                if ours == "daqian":
                    spelled = zhuyin(syllable)
                    keys = [None if spelled is None or any(s not in symbols for s in spelled)
                            else "".join(symbols[s] for s in spelled)]
                else:
                    keys = pairs[ours].get(syllable) or [None]
                for typed in keys:
                    checked[ours] += 1
                    if typed is None:
                        rows.append((ours, syllable, "-", place["name"], "no keys in our table"))
                        continue
                    found = {pid for sid in searcher.execute_search_get_ids(typed) for pid in ids.get(sid, [])}
                    if place["id"] not in found:
                        rows.append((ours, syllable, typed, place["name"], f"PinIn finds {len(found)} places, not this one"))
    lines = [
        f"# Syllable key pairs of ours that PinIn4Cpp (PinInPy {version('pininpy')}) does not read as the syllable on the same",
        "# layout: one place per syllable of the cities tier searched by the pair; written by scripts/pinin-keyboards.py.",
        "# " + ", ".join(f"{layout} {n}" for layout, n in checked.items()) + " pairs checked.",
        "layout\tsyllable\tkeys\tplace\twhat\tverdict\treason",
    ] + ["\t".join(row + next(((v, why) for v, why, covers in EXPLANATIONS if covers(row)), ("UNEXPLAINED", "")))
         for row in rows]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    by_layout = collections.Counter(row[0] for row in rows)
    print(f"wrote {OUT}: {len(rows)} pairs PinIn does not read as ours; " + ", ".join(
        f"{layout} {by_layout.get(layout, 0)} of {checked[layout]}" for layout in LAYOUTS))
    unexplained = sum(1 for line in lines if line.endswith("\tUNEXPLAINED\t"))
    if unexplained:
        print(f"{unexplained} rows no reason covers: add one to EXPLANATIONS", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
