#!/usr/bin/env python3
"""Candidates for bench/real_corpus.toml (issue 32) from the shared corpus's JSON lines.

Reads `corpus.jsonl` (written by extract_js.js and extract_py.py: `dialect`, `pattern`,
`flags`, `source`) and prints one TOML `[[pattern]]` table (`source`, `pattern`) per pattern
that has a reading in the common dialect of relang and regexsolver with the same language:
- flags only among g, m, s, u, d (JS) or m, s, a (Python): `i`, `x` and `y` change the
  language or the matching and are left out;
- one leading `^` (or `\\A`) and one trailing `$` (or `\\Z`) removed; patterns with anchors,
  word boundaries, lookarounds, back-references or conditionals left inside are left out;
- lazy quantifiers made greedy (`*?` -> `*`: the same language);
- pure literals (no operator) and patterns with a line break left out; duplicates keep
  their first source.
`.` is then read as any character (relang's and regexsolver's dialect). The result still
has to pass the engines' parsers: `real_pattern_bench filter` keeps those all three read.

Usage: python3 common_dialect.py corpus.jsonl > candidates.toml
"""
import json
import re
import sys

HARMLESS = {"js": set("gmsud"), "python": set("msa")}
REFUSED = re.compile(r"\(\?[=!]|\(\?<[=!]|\(\?P=|\(\?\(|\\[1-9bBAZzGgk]")
OPERATOR = re.compile(r"[\\.*+?()\[\]{}|]")


def outside_classes(pattern):
    """The characters of pattern outside classes, escapes kept as pairs."""
    out, escaped, depth = [], False, 0
    for index, char in enumerate(pattern):
        if escaped:
            escaped = False
            if depth == 0:
                out.append("\\" + char)
        elif char == "\\":
            escaped = True
        elif char == "[":
            depth += 1
        elif char == "]" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(char)
    return out


def unanchored(pattern):
    """The pattern without its outer anchors, or None when an anchor stays inside."""
    for head in ("^", "\\A"):
        if pattern.startswith(head):
            pattern = pattern[len(head):]
            break
    for tail in ("$", "\\Z"):
        if pattern.endswith(tail) and not pattern.endswith("\\" + tail):
            pattern = pattern[: -len(tail)]
            break
    outside = outside_classes(pattern)
    if REFUSED.search(pattern) or "^" in outside or "$" in outside:
        return None
    return pattern


def greedy(pattern):
    """Lazy quantifiers made greedy: a `?` right after `*`, `+`, `?` or `}` that quantify."""
    out, escaped, depth = [], False, 0
    quantifier_end = False
    for char in pattern:
        if escaped:
            escaped, quantifier_end = False, False
        elif char == "\\":
            escaped = True
        elif char == "[":
            depth += 1
        elif char == "]" and depth > 0:
            depth -= 1
        elif depth == 0 and char == "?" and quantifier_end:
            quantifier_end = False
            continue
        elif depth == 0:
            after_open = bool(out) and out[-1] == "(" and char == "?"
            quantifier_end = char in "*+}" or (char == "?" and not after_open)
            out.append(char)
            continue
        quantifier_end = False
        out.append(char)
    return "".join(out)


def toml_string(text):
    """text as a TOML basic string (control characters escaped, the rest as is)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def main(path):
    seen = set()
    for line in open(path, encoding="utf-8"):
        entry = json.loads(line)
        if not set(entry["flags"]) <= HARMLESS[entry["dialect"]]:
            continue
        pattern = unanchored(entry["pattern"])
        if pattern is None or "\n" in pattern or not OPERATOR.search(pattern):
            continue
        pattern = greedy(pattern)
        if not pattern or pattern in seen:
            continue
        seen.add(pattern)
        print("[[pattern]]")
        print(f"source = {toml_string(entry['source'])}")
        print(f"pattern = {toml_string(pattern)}")
        print()


main(sys.argv[1])
