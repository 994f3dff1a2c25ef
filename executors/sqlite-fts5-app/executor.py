"""An app engineer's SQLite FTS5 search as a CitySearchBench executor, written the way an app
would write it: Python's sqlite3, one FTS5 table with the trigram tokenizer over the name, the
joined pinyin and the initials, a MATCH for queries of three characters or more and LIKE for
shorter ones; ranked by where the match starts (name, then pinyin, then initials) and by
length. The pinyin is the corpus's own first reading (its `pinyin` column), so this peer
reads places as the suite does; what it gets wrong is what the approach gets wrong: no
verification of syllable boundaries, initials that only work from a name's start or as a
trigram, and every query read as a substring.
"""

import os
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from citybench_executor import read_corpus, serve  # noqa: E402


class FTS5App:
    name = "sqlite-fts5-app"
    capabilities = {"ranked": True, "matchRanges": False, "exactTotals": True, "sessions": False,
                    "modes": ["syllable", "seed"]}

    def __init__(self, request):
        self.version = f"SQLite {sqlite3.sqlite_version}, Python sqlite3"
        self.limit = request["limit"]
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE places USING fts5(name, pinyin, initials, tokenize='trigram')")
        self.db.execute("CREATE TABLE ids (rowid INTEGER PRIMARY KEY, place INTEGER, length INTEGER)")
        rows = read_corpus(request["corpusPath"], request["corpusFormat"])
        for n, row in enumerate(rows, 1):
            syllables = row["pinyin"].split()
            self.db.execute(
                "INSERT INTO places(rowid, name, pinyin, initials) VALUES (?, ?, ?, ?)",
                (n, row["name"], "".join(syllables), "".join(s[0] for s in syllables if s)))
            self.db.execute("INSERT INTO ids VALUES (?, ?, ?)", (n, row["id"], len(row["name"])))
        self.db.commit()

    def search(self, text, session):
        query = "".join(ch for ch in text.lower() if ch not in " '-")
        if not query:
            return [], 0
        order = ("ORDER BY instr(p.name, :q) = 0, instr(p.name, :q), instr(p.pinyin, :q) = 0, "
                 "instr(p.pinyin, :q), length")
        if len(query) >= 3:
            phrase = '"' + query.replace('"', '""') + '"'
            where = "places MATCH :phrase"
        else:
            phrase = None
            where = "(p.name LIKE :like OR p.pinyin LIKE :like OR p.initials LIKE :like)"
        sql = (f"SELECT i.place FROM places p JOIN ids i ON i.rowid = p.rowid WHERE {where} {order}")
        hits = [place for (place,) in self.db.execute(sql, {"q": query, "phrase": phrase, "like": f"%{query}%"})]
        return hits[: self.limit], len(hits)


if __name__ == "__main__":
    serve(FTS5App)
