#!/usr/bin/env python3
"""Seeds fuzz/corpus/decode_fair with the golden FAIR values, in both input modes.

Mode byte 0: the value as text. Mode byte 1: its flags and payload, which the target
signs itself, so the fuzzer starts from payloads that pass every check.
Run from the repository root: python3 fuzz/seed_corpus.py
"""
import base64
import hashlib
import pathlib

out = pathlib.Path("fuzz/corpus/decode_fair")
out.mkdir(parents=True, exist_ok=True)
for line in open("crates/fair-codec/tests/data/golden.txt", encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    value = line.split(" ")[1]
    raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    for seed in (b"\0" + value.encode(), b"\1" + raw[1:-32]):
        (out / hashlib.sha1(seed).hexdigest()).write_bytes(seed)
print(f"{len(list(out.iterdir()))} seeds in {out}")
