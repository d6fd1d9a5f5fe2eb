#!/usr/bin/env python3
"""Requests of the real-pattern mix of tests/load/floor.sh (issue 32): for every pattern of
bench/real_corpus.toml (3,314 human-written patterns with provenance), whether its language
is empty, its cardinality and whether it is a subset of the next pattern's (two terms), as
`PATH<TAB>BODY` lines for tests/load/bodies.lua.

Usage: tests/load/real_bodies.py [CORPUS] > bodies.tsv
"""
import json
import sys
import tomllib

corpus = sys.argv[1] if len(sys.argv) > 1 else "bench/real_corpus.toml"
with open(corpus, "rb") as file:
    patterns = [entry["pattern"] for entry in tomllib.load(file)["pattern"]]
for index, pattern in enumerate(patterns):
    term = {"type": "regex", "value": pattern}
    body = json.dumps({"term": term}, ensure_ascii=False)
    for question in ("empty", "cardinality"):
        print(f"/v1/analyze/{question}\t{body}")
    after = {"type": "regex", "value": patterns[(index + 1) % len(patterns)]}
    pair = json.dumps({"terms": [term, after]}, ensure_ascii=False)
    print(f"/v1/analyze/subset\t{pair}")
