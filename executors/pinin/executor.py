"""PinIn4Cpp (through PyPI's PinInPy) as a CitySearchBench executor: its tree searcher with
contain logic over every place name, full pinyin keyboard, and the fuzzy rules of the handshake
among the seven PinIn has (MatchSpec §3.5 names: zh-z, ch-c, sh-s, an-ang, en-eng, in-ing,
u-v; PinIn's fZh2Z … fU2V, which read both sides of a pair as the contract's rules do).

PinIn reads a character table in the pinyin-data format (`U+4E2D: zhōng,zhòng  # 中`). It is
generated at start from pypinyin's table (itself built from pinyin-data), so both Python peers
read the same characters. PinIn returns a set of matching names: the executor answers a set
(`ranked: false`) with the exact total.
"""

import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from citybench_executor import missing_packages, read_corpus, serve  # noqa: E402

try:
    import builtins

    # PinInPy 1.0.7 annotates with classes its module defines later (PinIn, TreeSearcher), which
    # Python before 3.14 evaluates at import (NameError: name 'PinIn' is not defined). The names
    # are defined for the import and removed after it; nothing of PinIn's behaviour changes.
    forward = ("PinIn", "TreeSearcher")
    for name in forward:
        setattr(builtins, name, None)
    try:
        import PinInPy
    finally:
        for name in forward:
            delattr(builtins, name)
    from importlib.metadata import version

    from pypinyin.pinyin_dict import pinyin_dict
except ImportError as error:
    missing_packages(error)


def write_table(path):
    with open(path, "w", encoding="utf-8") as f:
        for code, readings in sorted(pinyin_dict.items()):
            f.write(f"U+{code:04X}: {readings}  # {chr(code)}\n")


# The contract's fuzzy rules PinIn has, and the setter of each on its configuration.
FUZZY = {"zh-z": "set_fZh2Z", "ch-c": "set_fCh2C", "sh-s": "set_fSh2S", "an-ang": "set_fAng2An",
         "en-eng": "set_fEng2En", "in-ing": "set_fIng2In", "u-v": "set_fU2V"}


class PinIn:
    name = "pinin"
    capabilities = {"ranked": False, "matchRanges": False, "exactTotals": True, "sessions": False,
                    "modes": ["syllable", "seed"], "fuzzyRules": list(FUZZY)}

    def __init__(self, request):
        self.version = f"PinInPy {version('pininpy')}, pypinyin {version('pypinyin')} table"
        self.limit = request["limit"]
        rows = read_corpus(request["corpusPath"], request["corpusFormat"])
        with tempfile.TemporaryDirectory() as scratch:
            table = os.path.join(scratch, "pinyin.txt")
            write_table(table)
            self.pinin = PinInPy.PinIn(table)
            # The host refuses a run asking for a rule not in capabilities, so every rule
            # asked for is one of FUZZY.
            rules = [rule for rule in (request.get("fuzzy") or "").split(",") if rule]
            if rules:
                config = self.pinin.get_config()
                for rule in rules:
                    getattr(config, FUZZY[rule])(True)
                config.commit()
            self.searcher = PinInPy.TreeSearcher(PinInPy.Logic.CONTAIN, self.pinin)
        self.places = {}  # PinIn's string id -> the place ids of that name
        for row in rows:
            string_id = self.searcher.put_string(row["name"])
            self.places.setdefault(string_id, []).append(row["id"])

    def search(self, text, session):
        query = text.strip().lower()
        if not query:
            return [], 0
        ids = [place for sid in self.searcher.execute_search_get_ids(query) for place in self.places[sid]]
        return ids[: self.limit], len(ids)


if __name__ == "__main__":
    serve(PinIn)
