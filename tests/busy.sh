#!/usr/bin/env bash
# Runs the workspace's tests several times in a row beside busy loops (issue 30): the tests
# must pass on a loaded machine, not only on an idle one. docs/reliability.md, "Tests on a
# busy machine", says how it was run and what it found.
#
# Usage: tests/busy.sh [RUNS] [CARGO_TEST_ARGS...]
#   tests/busy.sh                  # 10 runs of `cargo test --workspace` beside 2 busy loops
#   tests/busy.sh 1 -p api-types   # 1 run of `cargo test -p api-types` (a quick check)
#   BUSY_LOOPS=4 tests/busy.sh     # more loops than the 2 the issue asks for
#
# The tests are built first, with no loop running, so each run times the tests and not the
# compiler. It stops at the first failing run, names it and the failing tests, and keeps
# that run's whole output in target/busy/run-N.log. The loops are not pinned: the
# scheduler spreads them over the cores like any other busy process. They are killed
# however the script ends (trap on EXIT, Ctrl-C included).
set -euo pipefail

cd "$(dirname "$0")/.."

runs=${1:-10}
shift || true
if ! [[ $runs =~ ^[1-9][0-9]*$ ]]; then
    echo "usage: $0 [RUNS] [CARGO_TEST_ARGS...]" >&2
    exit 2
fi
cargo_args=("$@")
if [[ ${#cargo_args[@]} -eq 0 ]]; then
    cargo_args=(--workspace)
fi
n_loops=${BUSY_LOOPS:-2}
log_dir=target/busy
mkdir -p "$log_dir"

echo "busy.sh: building: cargo test --no-run ${cargo_args[*]}"
cargo test --no-run "${cargo_args[@]}" >"$log_dir/build.log" 2>&1 || {
    tail -n 30 "$log_dir/build.log"
    echo "busy.sh: the build failed ($log_dir/build.log)" >&2
    exit 1
}

# The busy loops: each one a shell spinning on its own, killed on exit.
loop_pids=()
stop_loops() {
    if [[ ${#loop_pids[@]} -gt 0 ]]; then
        kill "${loop_pids[@]}" 2>/dev/null || true
        wait "${loop_pids[@]}" 2>/dev/null || true
    fi
}
trap stop_loops EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$n_loops"); do
    (while :; do :; done) &
    loop_pids+=($!)
done
echo "busy.sh: $n_loops busy loops (pids ${loop_pids[*]}) on $(nproc) cores"

for run in $(seq "$runs"); do
    log="$log_dir/run-$run.log"
    started=$(date +%s)
    if cargo test "${cargo_args[@]}" >"$log" 2>&1; then
        echo "busy.sh: run $run/$runs passed in $(($(date +%s) - started)) s"
    else
        echo "busy.sh: run $run/$runs FAILED after $(($(date +%s) - started)) s (output: $log)"
        # libtest's lines `test NAME ... FAILED`, for unit, integration and doc tests; a
        # failure outside a test (a crash, a failed build) shows in the log's tail instead.
        failed=$(sed -nE 's/^test (.*) \.\.\. FAILED$/  \1/p' "$log")
        if [[ -n $failed ]]; then
            echo "failing tests:"
            echo "$failed"
        else
            echo "no test reported FAILED; the run's last lines:"
            tail -n 20 "$log"
        fi
        exit 1
    fi
done
echo "busy.sh: all $runs runs passed: cargo test ${cargo_args[*]}, $n_loops busy loops"
