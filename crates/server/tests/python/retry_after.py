"""Drive relang-server with the published RegexSolver client under a tight rate limit.

Usage: python retry_after.py BASE_URL TOKEN CALLS

Makes CALLS quick calls with a token limited to 1 request per second. The client must get
429 with Retry-After, wait, and retry by itself: every call succeeds. Prints one JSON line:
{"lengths": [[min, max], ...], "retries": n, "elapsed": seconds}, where `retries` counts
the 429s the client reported (its "429 Too Many Requests hit" debug message).
"""

import json
import logging
import sys
import time

from regexsolver import RegexSolverClient, Term


class RetryCounter(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.retries = 0

    def emit(self, record):
        if "429 Too Many Requests" in record.getMessage():
            self.retries += 1


def main():
    base_url, token, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
    counter = RetryCounter()
    client_log = logging.getLogger("regexsolver.clients.asynchronous")
    client_log.setLevel(logging.DEBUG)
    client_log.addHandler(counter)

    started = time.monotonic()
    lengths = []
    with RegexSolverClient(token, base_url=base_url) as client:
        for n in range(1, calls + 1):
            # A new term each time: the client caches answers on the term.
            length = client.get_length(Term.regex("a{%d}" % n))
            lengths.append([length.min, length.max])
    elapsed = time.monotonic() - started
    print(json.dumps({"lengths": lengths, "retries": counter.retries, "elapsed": elapsed}))


if __name__ == "__main__":
    main()
