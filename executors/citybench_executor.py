"""The executor protocol of CitySearchBench (docs/Executors.md), for Python implementations.

An implementation gives `serve` a factory: called once with the handshake request, it loads
the corpus, builds its index and returns an object with

    name, version            what it is
    capabilities             a dict as in docs/Executors.md ("ranked", "matchRanges", …)
    search(text, session)    -> (ids, total): the matching place ids (best first when ranked,
                             at most `limit` of them) and the number of matches; `session`
                             is a dict that lives for one typing session (ignore it if you keep
                             no state between keystrokes)

`serve` times the factory (the build) and each `search` call with a monotonic clock, so the
nanoseconds it reports are the implementation's own, without the protocol's reading and
writing.
"""

import json
import resource
import sys
import time


def missing_packages(error):
    """Stops an executor whose peer is not installed, with a message naming what to install."""
    sys.exit(f"{error}: install the peers' packages with 'pip install -r executors/requirements.txt'")


def read_corpus(path, fmt):
    """The corpus rows of a TSV tier file as dicts (id, parent, level, name, pinyin, short, hot).

    Only the shipped TSV format is read here; a JSON or property-list corpus is refused with a
    message, which `citybench` reports as the executor's failure to start.
    """
    if fmt != "tsv":
        sys.exit(f"this executor reads TSV corpora only, not {fmt}")
    rows = []
    with open(path, encoding="utf-8") as f:
        header = None
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                continue
            row = dict(zip(header, fields))
            row["id"] = int(row["id"])
            rows.append(row)
    return rows


def _peak_rss_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def serve(factory):
    """Speaks the protocol on standard input and output until the input ends."""
    out = sys.stdout
    first = sys.stdin.readline()
    if not first:
        return
    request = json.loads(first)
    if request.get("version") != 1:
        sys.exit(f"protocol {request.get('version')} asked; this executor speaks 1")
    before = _peak_rss_bytes()
    start = time.monotonic_ns()
    impl = factory(request)
    build = time.monotonic_ns() - start
    reply = {
        "version": 1,
        "name": impl.name,
        "implementationVersion": impl.version,
        "buildNanoseconds": build,
        # The growth of the peak resident set while building: an upper bound on the index.
        "memoryBytes": max(_peak_rss_bytes() - before, 0),
        "capabilities": impl.capabilities,
    }
    out.write(json.dumps(reply, ensure_ascii=False) + "\n")
    out.flush()
    session = {}
    for line in sys.stdin:
        try:
            query = json.loads(line)
            qid = query["id"]
            text = query["text"]
        except (ValueError, KeyError) as error:
            answer = {"id": -1, "ids": [], "total": 0, "nanoseconds": 0,
                      "error": {"kind": "malformed", "message": f"not a query: {error}"}}
        else:
            if query.get("alone"):
                own = {}
            else:
                if query.get("newSession"):
                    session = {}
                own = session
            try:
                start = time.monotonic_ns()
                ids, total = impl.search(text, own)
                elapsed = time.monotonic_ns() - start
                answer = {"id": qid, "ids": list(ids), "total": total, "nanoseconds": elapsed}
            except Exception as error:  # the implementation's own failure: this query only
                answer = {"id": qid, "ids": [], "total": 0, "nanoseconds": 0,
                          "error": {"kind": "failed", "message": repr(error)}}
        out.write(json.dumps(answer) + "\n")
        out.flush()
