"""Which pairs of patterns overlap, by interegular (PyPI): the reference for
`/v1/analyze/overlaps` (crates/server/tests/integration/overlaps.rs).

Usage: python overlaps_interegular.py PATTERNS_JSON
Prints one JSON line: the overlapping pairs [i, j] (i < j), sorted.
"""

import json
import sys

from interegular import Comparator

with open(sys.argv[1], encoding="utf-8") as source:
    patterns = json.load(source)
comparator = Comparator.from_regexes(dict(enumerate(patterns)))
pairs = sorted(sorted(pair) for pair in comparator.check())
print(json.dumps(pairs))
