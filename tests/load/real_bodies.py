#!/usr/bin/env python3
"""Requests of the real-pattern mix of tests/load/floor.sh (issue 32): for every pattern of
bench/real_corpus.toml (3,314 human-written patterns with provenance), whether its language
is empty and its cardinality, as `PATH<TAB>BODY` lines for tests/load/bodies.lua.

Usage: tests/load/real_bodies.py [CORPUS] > bodies.tsv
"""
import json
import sys
import tomllib

corpus = sys.argv[1] if len(sys.argv) > 1 else "bench/real_corpus.toml"
with open(corpus, "rb") as file:
    patterns = [entry["pattern"] for entry in tomllib.load(file)["pattern"]]
for pattern in patterns:
    body = json.dumps({"term": {"type": "regex", "value": pattern}}, ensure_ascii=False)
    for question in ("empty", "cardinality"):
        print(f"/v1/analyze/{question}\t{body}")
