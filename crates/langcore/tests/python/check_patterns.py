#!/usr/bin/env python3
"""Checks that relang's generated patterns mean the same in Python's `re` (stdlib only).

Usage: check_patterns.py FILE

FILE holds one JSON object per line:
    {"name": "...", "pattern": "...", "matches": ["..."], "rejects": ["..."]}
Every pattern must compile with `re` without flags and without any warning (FutureWarning
about possible set syntax included), and `re.fullmatch` must accept every string of
`matches` and reject every string of `rejects`. The empty language `[]` is relang's own
spelling and not valid in Python, so it must not appear here.

Exit status 0 when everything agrees; 1 with one line per disagreement otherwise.
"""

import json
import re
import sys
import warnings


def check(entry):
    """Returns the list of problems with one entry."""
    name, pattern = entry["name"], entry["pattern"]
    problems = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            compiled = re.compile(pattern)
    except (re.error, Warning) as err:
        return [f"{name}: {pattern!r} does not compile cleanly: {err}"]
    for text in entry["matches"]:
        if compiled.fullmatch(text) is None:
            problems.append(f"{name}: {pattern!r} rejects {text!r}")
    for text in entry["rejects"]:
        if compiled.fullmatch(text) is not None:
            problems.append(f"{name}: {pattern!r} accepts {text!r}")
    return problems


def main(argv):
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    problems = []
    n_patterns = n_strings = 0
    with open(argv[1], encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            entry = json.loads(line)
            n_patterns += 1
            n_strings += len(entry["matches"]) + len(entry["rejects"])
            problems.extend(check(entry))
    for problem in problems:
        print(problem)
    print(f"checked {n_patterns} patterns on {n_strings} strings: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
