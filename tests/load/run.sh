#!/usr/bin/env bash
# Load test of relang-server: builds and starts a release server on loopback, measures small
# requests alone, then runs 90% small / 10% explosive requests (tests/load/mix.lua) and
# prints throughput, p50/p99 latency per class, outcomes by status and errorCode, and the
# server's peak RSS. Not part of CI: it needs wrk (apt-get install wrk), a release build and
# over a minute. Results: docs/reliability.md, section Load.
#
# Usage: tests/load/run.sh [SECONDS] [CONNECTIONS]   (default 60 s, 64 connections)
# wrk runs one thread per connection: mix.lua keeps each request's class and start time in its
# thread, and wrk's script API does not say which connection a response is for.
# Extra server flags: RELANG_* environment variables (relang-server --help). BIN_DIR: a folder
# holding a relang-server built elsewhere (default: cargo builds target/release); SERVER_CPUS,
# LOAD_CPUS: taskset CPU lists for the server and wrk (default: not pinned).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-60}
connections=${2:-64}
baseline_seconds=10
baseline_connections=4

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
if [[ -n ${BIN_DIR:-} ]]; then
    relang=$BIN_DIR/relang-server
else
    cargo build --release --quiet -p server
    relang=target/release/relang-server
fi
server_pin=(${SERVER_CPUS:+taskset -c "$SERVER_CPUS"})
load_pin=(${LOAD_CPUS:+taskset -c "$LOAD_CPUS"})

source tests/load/server.sh
start_server "${server_pin[@]}" "$relang"
url="http://$addr"
echo "relang-server $("$relang" --version | cut -d' ' -f2) at $url, pid $server;" \
     "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"

echo
echo "== unloaded: small requests only, $baseline_connections connections, ${baseline_seconds} s"
"${load_pin[@]}" wrk -t"$baseline_connections" -c"$baseline_connections" -d"${baseline_seconds}s" --timeout 30s \
    -s tests/load/mix.lua "$url" -- small | sed -n '/^duration/,$p'

echo
echo "== loaded: 90% small, 10% explosive, $connections connections, ${seconds} s"
"${load_pin[@]}" wrk -t"$connections" -c"$connections" -d"${seconds}s" --timeout 30s \
    -s tests/load/mix.lua "$url" -- mix | sed -n '/^duration/,$p'

echo
grep -E 'VmHWM|VmRSS' "/proc/$server/status" | sed 's/^/server /'
kill -0 "$server" 2>/dev/null || { echo "FAILED: the server died" >&2; exit 1; }
