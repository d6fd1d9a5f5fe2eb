#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target> for the targets that start better from valid inputs.

decode_fair: the golden FAIR values, in both input modes. Mode byte 0: the value as text.
Mode byte 1: its flags and payload, which the target signs itself, so the fuzzer starts
from payloads that pass every check.
parse_regex: the patterns of bench/to_regex_corpus.toml and a few of every construct.
dispatch: a valid body for every endpoint (selector byte = index in ENDPOINTS, content
type byte = 1).
generate_strings reads structured bytes; it starts from an empty corpus.
Run from the repository root: python3 fuzz/seed_corpus.py
"""
import base64
import hashlib
import json
import pathlib
import re
import tomllib


def write(target, seeds):
    out = pathlib.Path("fuzz/corpus") / target
    out.mkdir(parents=True, exist_ok=True)
    for seed in seeds:
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
    print(f"{len(list(out.iterdir()))} seeds in {out}")


def fair_seeds():
    for line in open("crates/fair-codec/tests/data/golden.txt", encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        value = line.split(" ")[1]
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
        yield b"\0" + value.encode()
        yield b"\1" + raw[1:-32]


PATTERNS = [
    "(a|b)*abb", "[a-z]+@[a-z]+\\.(com|org)", "(?i)k", "\\w{2,4}", "\\p{Greek}+", "[^a]*",
    "a{3,}|b{0,2}", "^(ab)?$", "(?s).", "[\\d--3]", "[a-z&&[^aeiou]]", "()|(a*)*", "[]",
    "x(?:y|z)+?", "\\u{10FFFF}\\x41\\n", "(?-u:\\xff)", "[[:alpha:]]", "a\\b", "(?=a)",
]


def regex_seeds():
    corpus = tomllib.load(open("bench/to_regex_corpus.toml", "rb"))
    for language in corpus["language"]:
        for term in language["terms"]:
            yield term.encode()
    for pattern in PATTERNS:
        yield pattern.encode()


def dispatch_seeds():
    source = open("crates/api-types/src/endpoints.rs", encoding="utf-8").read()
    table = source[source.index("pub const ENDPOINTS"):]
    paths = dict.fromkeys(re.findall(r'"(/v1/[a-z_/]+)"', table))  # in ENDPOINTS order
    term = {"type": "regex", "value": "(a|b)*c"}
    options = {"response": {"format": "regex"}, "execution": {"timeout": 100}}
    for idx, path in enumerate(paths):
        if path.startswith("/v1/account"):
            body = {}
        elif path.endswith(("/equivalent", "/subset", "/difference", "_quotient")):
            body = {"terms": [term, {"type": "regex", "value": "[abc]*"}], "options": options}
        elif path.endswith(("/concat", "/intersection", "/union", "/overlaps")):
            body = {"terms": [term, term, term], "options": options}
        elif path.endswith("/repeat"):
            body = {"term": term, "min": 1, "max": 3, "options": options}
        elif path.endswith("/strings"):
            body = {"term": term, "limit": 5, "offset": 2, "maxLength": 8,
                    "pathOrder": "shuffled", "charset": "[a-c]", "seed": 1}
        elif path.endswith("/match"):
            body = {"term": term, "strings": ["abc", "ab"], "options": options}
        elif path.endswith("/count_by_length"):
            body = {"term": term, "minLength": 1, "maxLength": 20, "options": options}
        elif path.endswith("/samples"):
            body = {"term": term, "count": 5, "maxLength": 8, "distribution": "lengths",
                    "charset": "[a-c]", "seed": 1}
        else:
            body = {"term": term, "options": options}
        yield bytes([idx, 1]) + json.dumps(body).encode()


write("decode_fair", fair_seeds())
write("parse_regex", regex_seeds())
write("dispatch", dispatch_seeds())
