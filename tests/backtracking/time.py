"""Times Python's `re` on attack strings (see README.md)."""
import base64
import re
import sys
import time

MIN_SECONDS = 0.05
MAX_PUMPS = 1 << 22
MAX_EXP_PUMPS = 64
ROUNDS = 3


def timed(run, text):
    # CPU time, not the wall clock: time spent waiting for a core on a busy machine is not
    # the engine's.
    start = time.process_time()
    run(text)
    return time.process_time() - start


def case(mode, kind, pattern, prefix, pump, suffix):
    try:
        compiled = re.compile(pattern)
    except re.error:
        return "invalid"
    run = compiled.fullmatch if mode == "full" else compiled.search
    k = 1 if kind == "exp" else 8
    limit = MAX_EXP_PUMPS if kind == "exp" else MAX_PUMPS
    while timed(run, prefix + pump * k + suffix) < MIN_SECONDS and k < limit:
        k = k + 1 if kind == "exp" else k * 2
    k2 = k + 2 if kind == "exp" else 3 * k
    text1, text2 = prefix + pump * k + suffix, prefix + pump * k2 + suffix
    t1 = t2 = float("inf")
    for _ in range(ROUNDS):
        t1 = min(t1, timed(run, text1))
        t2 = min(t2, timed(run, text2))
    return "%d %.6f %d %.6f" % (k, t1, k2, t2)


for line in sys.stdin:
    # Split on single spaces: an empty prefix or suffix is an empty field.
    parts = line.rstrip("\n").split(" ")
    if parts[0] != "C":
        continue
    texts = [base64.b64decode(part).decode("utf-8") for part in parts[3:7]]
    print(case(parts[1], parts[2], *texts), flush=True)
