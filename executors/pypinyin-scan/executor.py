"""A scan with pypinyin as a CitySearchBench executor: what a backend developer writes in an
afternoon. Every name gets its pypinyin reading (one reading per character, pypinyin's phrase
table choosing among a polyphone's), joined without spaces, and its initials; a keystroke is a
substring test of the query against the name (Hanzi), the joined reading and the initials.
Matches that start at the beginning come first, then shorter names.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from citybench_executor import missing_packages, read_corpus, serve  # noqa: E402

try:
    from importlib.metadata import version
    from pypinyin import Style, lazy_pinyin
except ImportError as error:
    missing_packages(error)


class Scan:
    name = "pypinyin-scan"
    capabilities = {"ranked": True, "matchRanges": False, "exactTotals": True, "sessions": False,
                    "modes": ["syllable", "seed"]}

    def __init__(self, request):
        self.version = f"pypinyin {version('pypinyin')}"
        self.limit = request["limit"]
        self.rows = []
        for row in read_corpus(request["corpusPath"], request["corpusFormat"]):
            name = row["name"]
            full = "".join(lazy_pinyin(name))
            initials = "".join(lazy_pinyin(name, style=Style.FIRST_LETTER))
            self.rows.append((row["id"], name, full, initials))

    def search(self, text, session):
        query = "".join(ch for ch in text.lower() if ch not in " '-")
        if not query:
            return [], 0
        hits = []
        for place, name, full, initials in self.rows:
            at = min((i for i in (name.find(query), full.find(query), initials.find(query)) if i >= 0), default=-1)
            if at >= 0:
                hits.append((at != 0, len(name), place))
        hits.sort()
        return [place for _, _, place in hits[: self.limit]], len(hits)


if __name__ == "__main__":
    serve(Scan)
