# Sourced by the load scripts: `start_server [COMMAND...]` starts the relang-server command
# (taskset prefix and binary) on a free loopback port, waits for its listening line, and
# sets `server` (its pid) and `addr`; the server is killed when the script exits.
start_server() {
    local log
    log=$(mktemp)
    RUST_LOG="warn,relang_server=info" "$@" --bind 127.0.0.1:0 >"$log" 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null || true; rm -f "'"$log"'"' EXIT
    for _ in $(seq 100); do
        addr=$(sed -n 's/.*relang-server listening address="\([0-9.:]*\)".*/\1/p' "$log")
        [[ -n $addr ]] && break
        sleep 0.1
    done
    [[ -n ${addr:-} ]] || { echo "the server did not start:" >&2; cat "$log" >&2; exit 1; }
}
