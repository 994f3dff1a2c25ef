#!/usr/bin/env python3
# A whole executor (docs/Executors.md): a substring search over each name and its joined pinyin.
import json, sys, time
request = json.loads(sys.stdin.readline())
rows = [line.rstrip("\n").split("\t") for line in open(request["corpusPath"], encoding="utf-8")][1:]
places = [(int(r[0]), r[3], r[4].replace(" ", "")) for r in rows]
print(json.dumps({"version": 1, "name": "example", "implementationVersion": "1", "buildNanoseconds": 0,
                  "memoryBytes": 0, "capabilities": {"ranked": False, "matchRanges": False,
                  "exactTotals": True, "sessions": False, "modes": ["syllable", "seed"]}}), flush=True)
for line in sys.stdin:
    query = json.loads(line)
    start = time.monotonic_ns()
    text = query["text"].lower()
    ids = [pid for pid, name, pinyin in places if text and (text in name or text in pinyin)]
    elapsed = time.monotonic_ns() - start
    print(json.dumps({"id": query["id"], "ids": ids[:request["limit"]], "total": len(ids),
                      "nanoseconds": elapsed}), flush=True)
