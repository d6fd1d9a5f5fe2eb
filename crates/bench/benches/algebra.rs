//! Criterion benchmarks of the language algebra on the workloads of `bench/workloads.toml`:
//! one group per workload, with `relang` and, with the `peer` feature, `regexsolver`.
//!
//! Run with `cargo bench -p relang-bench --features peer --bench algebra`; numbers go to
//! docs/benchmarks.md. Each iteration starts from the pattern strings (parse, build, then
//! the operation), as the service does. Every engine's answers are checked against the
//! workloads before anything is timed, so a wrong answer fails the run.
//!
//! A third function per group, `relang_operation`, times relang's operation alone on DFAs
//! built beforehand; `relang` minus `relang_operation` is the time spent building the terms.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use langcore::Budget;
use relang_bench::{Workload, apply_relang, assert_expected, build_relang_terms, load, run_relang};

fn algebra(c: &mut Criterion) {
    let budget = Budget::unlimited();
    let workloads = load();
    for workload in &workloads {
        check(workload, &budget);
    }
    for workload in &workloads {
        let mut group = c.benchmark_group(workload.name());
        group.bench_function("relang", |b| b.iter(|| run_relang(black_box(workload), &budget)));
        #[cfg(feature = "peer")]
        group.bench_function("regexsolver", |b| {
            b.iter(|| relang_bench::run_peer(black_box(workload)))
        });
        let dfas = build_relang_terms(workload, &budget);
        group.bench_function("relang_operation", |b| {
            b.iter(|| apply_relang(black_box(workload), &dfas, &budget))
        });
        group.finish();
    }
}

/// Panics unless every engine answers `workload` as expected.
fn check(workload: &Workload, budget: &Budget) {
    assert_expected("relang", workload, &run_relang(workload, budget));
    #[cfg(feature = "peer")]
    assert_expected("regexsolver", workload, &relang_bench::run_peer(workload));
}

criterion_group! {
    name = benches;
    // Short runs keep the whole suite (both engines) within a few minutes; command-line
    // flags such as `--measurement-time` still override these.
    config = Criterion::default()
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    targets = algebra
}
criterion_main!(benches);
