//! Criterion benchmarks of the language algebra on the workloads of `bench/workloads.toml`:
//! one group per workload, with `relang` and, with the `peer` feature, `regexsolver`.
//!
//! Run with `cargo bench -p relang-bench --features peer --bench algebra`; numbers go to
//! docs/benchmarks.md. Each iteration starts from the pattern strings (parse, then the
//! operation, which builds what it needs), as a library caller does. Every engine's answers
//! are checked against the workloads before anything is timed, so a wrong answer fails the run.
//!
//! Union, concatenation and repetition of patterns return a language that neither engine
//! has built an automaton for yet. For the workloads that return a language, two more
//! functions per group, `relang_then_match` and `regexsolver_then_match`, also test one
//! string for membership, which makes each engine build the automaton it matches with.
//!
//! A last function per group, `relang_operation`, times relang's operation alone on
//! languages parsed beforehand and kept across iterations: a language builds its DFA once,
//! so operations that build their operands (intersection, difference, complement, counting)
//! reuse them there; `relang` minus `relang_operation` is roughly the parsing and building
//! of the operands.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use langcore::Budget;
use relang_bench::{
    Expected, Outcome, Workload, apply_relang, assert_expected, build_relang_terms, load,
    run_relang,
};

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
        if let Expected::Language { matches, .. } = workload.expected() {
            let input = &matches[0];
            group.bench_function("relang_then_match", |b| {
                b.iter(|| then_match(run_relang(black_box(workload), &budget), input))
            });
            #[cfg(feature = "peer")]
            group.bench_function("regexsolver_then_match", |b| {
                b.iter(|| then_match(relang_bench::run_peer(black_box(workload)), input))
            });
        }
        let terms = build_relang_terms(workload);
        group.bench_function("relang_operation", |b| {
            b.iter(|| apply_relang(black_box(workload), &terms, &budget))
        });
        group.finish();
    }
}

/// Whether the language `outcome` holds `input`, by its engine's own membership test.
fn then_match(outcome: Outcome, input: &str) -> bool {
    match outcome {
        Outcome::Language(language) => language.matches(input).expect("the engine matches"),
        other => panic!("expected a language, got {other:?}"),
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
