#!/usr/bin/env bash
# Small requests against the bare actix floor (issue 18): runs the floor endpoint
# (crates/server/examples/floor.rs: parses the same body, answers a fixed envelope) and then
# relang-server, each pinned to SERVER_CPUS, under the same wrk load pinned to LOAD_CPUS, and
# prints req/s and latency per endpoint with relang's share of the floor. Not part of CI: it
# needs wrk (apt-get install wrk) and a release build. Results: docs/benchmarks.md.
#
# Usage: tests/load/floor.sh [SECONDS] [CONNECTIONS]   (default 5 s, 64 connections)
# SERVER_CPUS, LOAD_CPUS: taskset CPU lists (default 0 and 1); ROUNDS: how many times the
# floor/relang pair runs (default 1); BIN_DIR: a folder holding relang-server and floor built
# elsewhere (default: cargo builds target/release). Extra server flags: RELANG_* variables.
# MIX=real: instead of `(abc|de){2}`, the real-pattern mix of issue 32 for both servers:
# emptiness, cardinality and inclusion in the next pattern of each pattern of
# bench/real_corpus.toml in turn (tests/load/real_bodies.py, tests/load/bodies.lua); needs python3.
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-5}
connections=${2:-64}
server_cpus=${SERVER_CPUS:-0}
load_cpus=${LOAD_CPUS:-1}
rounds=${ROUNDS:-1}

command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
if [[ -n ${BIN_DIR:-} ]]; then
    relang=$BIN_DIR/relang-server floor=$BIN_DIR/floor
else
    cargo build --release --quiet -p server --bin relang-server --example floor
    relang=target/release/relang-server floor=target/release/examples/floor
fi
load_threads=$(taskset -c "$load_cpus" nproc)

server=
trap '[[ -n $server ]] && kill "$server" 2>/dev/null; true' EXIT

# start PORT COMMAND...: starts a server pinned to SERVER_CPUS and waits for its port.
start() {
    local port=$1
    shift
    taskset -c "$server_cpus" "$@" >/dev/null 2>&1 &
    server=$!
    for _ in $(seq 100); do
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return
        sleep 0.1
    done
    echo "the server on port $port did not start" >&2
    exit 1
}

stop() {
    kill "$server"
    wait "$server" 2>/dev/null || true
    server=
}

# load NAME URL BODY: one wrk run; prints a table row. With MIX=real, BODY is ignored and
# the requests are the real-pattern mix.
load() {
    local out script=tests/load/post.lua
    [[ ${MIX:-} == real ]] && script=tests/load/bodies.lua
    out=$(BODY=$3 BODIES=$bodies taskset -c "$load_cpus" wrk -t"$load_threads" \
        -c"$connections" -d"${seconds}s" -s "$script" "$2")
    local rps latency
    rps=$(awk '/^Requests\/sec/ { printf "%d", $2 }' <<<"$out")
    latency=$(awk '$1 == "Latency" { print $2 }' <<<"$out")
    if ! grep -q '^  [0-9]* requests in' <<<"$out" || grep -q 'Non-2xx' <<<"$out"; then
        echo "$1: wrk failed or got errors:" >&2
        echo "$out" >&2
        exit 1
    fi
    printf '| %s | %s | %s |' "$1" "$rps" "$latency"
    last_rps=$rps
}

empty='{"term":{"type":"regex","value":"(abc|de){2}"}}'
what='`/v1/analyze/empty` of `(abc|de){2}`'
bodies=
if [[ ${MIX:-} == real ]]; then
    bodies=$(mktemp)
    trap '[[ -n $server ]] && kill "$server" 2>/dev/null; rm -f "$bodies"; true' EXIT
    python3 tests/load/real_bodies.py > "$bodies"
    what="real-pattern mix ($(wc -l < "$bodies") requests: emptiness, cardinality and inclusion in the next of each pattern of bench/real_corpus.toml)"
fi
echo "server CPUs $server_cpus, load CPUs $load_cpus (wrk -t$load_threads -c$connections" \
     "-d${seconds}s), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| endpoint | req/s | avg latency | share of the floor |"
echo "|---|---|---|---|"
for _ in $(seq "$rounds"); do
    start 18081 "$floor" 127.0.0.1:18081
    load "floor: bare actix, same body, fixed answer" "http://127.0.0.1:18081/v1/analyze/empty" "$empty"
    floor_rps=$last_rps
    echo " 100% |"
    stop
    start 18080 "$relang" --bind 127.0.0.1:18080
    load "relang $what" "http://127.0.0.1:18080/v1/analyze/empty" "$empty"
    echo " $((100 * last_rps / floor_rps))% |"
    stop
done
if [[ ${ALL:-0} == 1 ]]; then
    start 18080 "$relang" --bind 127.0.0.1:18080
    load 'relang `GET /v1/account/limits`' "http://127.0.0.1:18080/v1/account/limits" ""
    echo " $((100 * last_rps / floor_rps))% |"
    load 'relang `/v1/analyze/cardinality` of `[a-z]{3}@[a-z]+\.com`' \
        "http://127.0.0.1:18080/v1/analyze/cardinality" '{"term":{"type":"regex","value":"[a-z]{3}@[a-z]+\\.com"}}'
    echo " $((100 * last_rps / floor_rps))% |"
    load 'relang `/v1/generate/strings` of `[a-z]{8}`, limit 10' \
        "http://127.0.0.1:18080/v1/generate/strings" '{"term":{"type":"regex","value":"[a-z]{8}"},"limit":10}'
    echo " $((100 * last_rps / floor_rps))% |"
    stop
fi
