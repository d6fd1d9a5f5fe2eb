#!/usr/bin/env python3
"""Issue 17's hostile client against a running relang-server, one attack at a time.

Usage: tests/load/hostile.py URL PID [CONNECTIONS]   (per burst of connections)
(tests/load/hostile.sh builds a release server, starts it and runs this.)

For each attack it prints the server's RSS before it, its peak during it (VmHWM, reset
before each attack through /proc/PID/clear_refs) and after it (2 s after the last answer),
against the idle RSS measured after a warm-up (the bound: within 20% of idle), and the
latency of a small request sent while the attack is under way. Standard library only.
"""

import json
import re
import socket
import sys
import threading
import time
import urllib.error
import urllib.request


def rss_mib(pid, key):
    status = open(f"/proc/{pid}/status").read()
    return int(re.search(key + r":\s+(\d+)", status).group(1)) // 1024


def reset_peak(pid):
    """Sets VmHWM to the current RSS (Linux 4.0 and later)."""
    with open(f"/proc/{pid}/clear_refs", "w") as refs:
        refs.write("5")


def post(url, path, body, timeout=60):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url + path, data,
                                 {"Content-Type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            status, data = res.status, res.read()
    except urllib.error.HTTPError as err:
        status, data = err.code, err.read()
    return status, json.loads(data or b"null"), time.monotonic() - started


def regex(pattern):
    return {"type": "regex", "value": pattern}


def small_latency_ms(url):
    _, _, seconds = post(url, "/v1/analyze/length", {"term": regex("abc")})
    return round(seconds * 1000, 1)


SLOW_BODY = (b"POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\n"
             b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"term\":")
MALFORMED_HEAD = b"POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\nContent-Length: x\r\n\r\n"
LATE_HEAD = b"POST /v1/ana"


def burst(url, n, request, status):
    """n connections at once that each send `request`: each must get `status` and close."""
    host, port = url.removeprefix("http://").split(":")
    conns = []
    for _ in range(n):
        conn = socket.create_connection((host, int(port)))
        conn.sendall(request)
        conns.append(conn)
    latency = small_latency_ms(url)
    answered = 0
    for conn in conns:
        conn.settimeout(30)
        try:
            if conn.recv(64).startswith(b"HTTP/1.1 %d" % status):
                answered += 1
        except OSError:
            pass
        conn.close()
    return f"{answered}/{n} got {status}", latency


def concurrently(url, n, path, body, read=True):
    results = []

    def one():
        if read:
            status, data, _ = post(url, path, body)
            results.append((status, (data or {}).get("errorCode")))
        else:
            results.append(post(url, path, body)[0])

    threads = [threading.Thread(target=one) for _ in range(n)]
    for thread in threads:
        thread.start()
    time.sleep(0.2)
    latency = small_latency_ms(url)
    for thread in threads:
        thread.join()
    return str(sorted(set(map(str, results)))), latency


def main():
    url, pid = sys.argv[1], int(sys.argv[2])
    n_slow = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    letters = "".join(chr(0x100 + 2 * i) for i in range(1000))
    issue_term = {"term": regex(f"({letters}){{33}}"), "options": {"execution": {"timeout": 30000}}}
    # As text: Python's encoder would refuse the depth.
    deep_json = (b'{"term":{"type":"regex","value":"a"},"extra":'
                 + b"[" * 100_000 + b"]" * 100_000 + b"}")
    big_charset = {"term": regex("[ab]*"), "limit": 3,
                   "charset": "[[(?i)\\p{L}]" + "\\p{L}" * 100_000 + "]",
                   "options": {"execution": {"timeout": 50}}}
    attacks = [
        ("JSON nested 100,000 deep x 6", lambda: concurrently(
            url, 6, "/v1/analyze/empty", deep_json)),
        ("charset of 100,000 \\p{L} x 6", lambda: concurrently(
            url, 6, "/v1/generate/strings", big_charset)),
        ("13,500 (?i)\\PL x 6", lambda: concurrently(
            url, 6, "/v1/analyze/empty", {"term": regex("(?i)\\PL" * 13500)})),
        ("DOT of \\p{L}{9000} x 6", lambda: concurrently(
            url, 6, "/v1/analyze/dot", {"term": regex("\\p{L}{9000}")})),
        ("1,000 distinct x 33, determinize x 6", lambda: concurrently(
            url, 6, "/v1/compute/determinize", issue_term)),
        # Bursts of connections last, as they were when they left memory behind (issue 17).
        ("slow bodies", lambda: burst(url, n_slow, SLOW_BODY, 408)),
        ("malformed heads", lambda: burst(url, n_slow, MALFORMED_HEAD, 400)),
        ("late heads", lambda: burst(url, n_slow, LATE_HEAD, 408)),
        ("slow bodies again", lambda: burst(url, n_slow, SLOW_BODY, 408)),
    ]
    for _ in range(20):
        small_latency_ms(url)
    idle = rss_mib(pid, "VmRSS")
    print(f"idle RSS: {idle} MiB (bound after each attack: {idle * 6 // 5} MiB)", flush=True)
    print("| attack | outcome | small request during (ms) | RSS before / peak / after (MiB) |")
    print("|---|---|---|---|")
    for name, attack in attacks:
        before = rss_mib(pid, "VmRSS")
        reset_peak(pid)
        outcome, latency = attack()
        peak = rss_mib(pid, "VmHWM")
        time.sleep(2)
        after = rss_mib(pid, "VmRSS")
        print(f"| {name} | {outcome} | {latency} | {before} / {peak} / {after} |", flush=True)


if __name__ == "__main__":
    main()
