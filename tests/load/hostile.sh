#!/usr/bin/env bash
# Issue 17's hostile client (tests/load/hostile.py) against a release relang-server on
# loopback with default limits: case-folded classes, DOT amplification, the issue's memory
# term, then bursts of slow bodies, malformed heads and late heads, each with the server's
# RSS and a small request's latency. Not part of CI (a release build and about two
# minutes). Results: docs/reliability.md, section Limits.
#
# Usage: tests/load/hostile.sh [CONNECTIONS]   (per burst; default 2000, under ulimit -n)
# Extra server flags: RELANG_* environment variables (relang-server --help).
set -euo pipefail
cd "$(dirname "$0")/../.."
# Both ends hold every connection of a burst open at once.
ulimit -n "$(ulimit -Hn)"

cargo build --release --quiet -p server
source tests/load/server.sh
start_server target/release/relang-server
echo "relang-server at http://$addr, pid $server; $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 tests/load/hostile.py "http://$addr" "$server" "${1:-2000}"
kill -0 "$server" 2>/dev/null || { echo "FAILED: the server died" >&2; exit 1; }
