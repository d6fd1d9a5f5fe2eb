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
log=$(mktemp)
RUST_LOG="warn,relang_server=info" target/release/relang-server --bind 127.0.0.1:0 >"$log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 100); do
    addr=$(sed -n 's/.*relang-server listening address="\([0-9.:]*\)".*/\1/p' "$log")
    [[ -n $addr ]] && break
    sleep 0.1
done
[[ -n ${addr:-} ]] || { echo "the server did not start:" >&2; cat "$log" >&2; exit 1; }
echo "relang-server at http://$addr, pid $server; $(nproc) cores," \
     "load average $(cut -d' ' -f1-3 /proc/loadavg)"
python3 tests/load/hostile.py "http://$addr" "$server" "${1:-1000}"
kill -0 "$server" 2>/dev/null || { echo "FAILED: the server died" >&2; exit 1; }
