#!/usr/bin/env bash
# Issue 17's hostile client (tests/load/hostile.py) against a release relang-server on
# loopback with default limits: slow bodies, case-folded classes, DOT amplification and the
# issue's memory term, each with the server's RSS and a small request's latency. Not part of
# CI (a release build and about a minute). Results: docs/reliability.md, section Limits.
#
# Usage: tests/load/hostile.sh [SLOW_CONNECTIONS]   (default 1000; keep it under ulimit -n)
# Extra server flags: RELANG_* environment variables (relang-server --help).
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo build --release --quiet -p server
source tests/load/server.sh
start_server target/release/relang-server
echo "relang-server at http://$addr, pid $server; $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 tests/load/hostile.py "http://$addr" "$server" "${1:-1000}"
kill -0 "$server" 2>/dev/null || { echo "FAILED: the server died" >&2; exit 1; }
