"""Times Python's `re` on attack strings (see README.md)."""
import base64
import re
import sys
import time

MIN_SECONDS = 0.02
MAX_PUMPS = 1 << 22
MAX_EXP_PUMPS = 64


def timed(run, text):
    best = None
    for _ in range(3):
        start = time.perf_counter()
        run(text)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best


def case(mode, kind, pattern, prefix, pump, suffix):
    try:
        compiled = re.compile(pattern)
    except re.error:
        return "invalid"
    run = compiled.fullmatch if mode == "full" else compiled.search
    k = 1 if kind == "exp" else 8
    while True:
        elapsed = timed(run, prefix + pump * k + suffix)
        if elapsed >= MIN_SECONDS or k >= (MAX_EXP_PUMPS if kind == "exp" else MAX_PUMPS):
            break
        k = k + 1 if kind == "exp" else k * 2
    k2 = k + 4 if kind == "exp" else 3 * k
    return "%d %.6f %d %.6f" % (k, elapsed, k2, timed(run, prefix + pump * k2 + suffix))


for line in sys.stdin:
    # Split on single spaces: an empty prefix or suffix is an empty field.
    parts = line.rstrip("\n").split(" ")
    if parts[0] != "C":
        continue
    texts = [base64.b64decode(part).decode("utf-8") for part in parts[3:7]]
    print(case(parts[1], parts[2], *texts), flush=True)
