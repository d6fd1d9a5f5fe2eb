//! Criterion benchmarks of string generation on the workloads of
//! `bench/generate_workloads.toml`: one group per workload, with `relang` and, with the
//! `peer` feature, `regexsolver`.
//!
//! Run with `cargo bench -p relang-bench --features peer --bench generate`; numbers go to
//! docs/benchmarks.md. `relang` and `regexsolver` time a service call from the pattern
//! string: relang's `Dfa::from_regex_with` then `Dfa::generate`; regexsolver's
//! `Term::from_pattern`, `determinize` (what its docs ask of a caller who pages with
//! offsets) then `generate_strings`. `relang_prebuilt` and `regexsolver_prebuilt` time the
//! generation alone, on an automaton built beforehand. Every engine's page is checked before
//! anything is timed (exactly `limit` distinct strings of the language, within
//! `max_length`, by the `regex` crate), so a wrong page fails the run.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use langcore::{Budget, Dfa};
use relang_bench::load_generate;
use relang_bench::{GenerateWorkload, assert_page, generate_relang, generate_relang_from};

fn generate(c: &mut Criterion) {
    let budget = Budget::unlimited();
    let workloads = load_generate();
    for workload in &workloads {
        check(workload, &budget);
    }
    for workload in &workloads {
        let mut group = c.benchmark_group(workload.name());
        group.bench_function("relang", |b| {
            b.iter(|| generate_relang(black_box(workload), &budget).unwrap())
        });
        #[cfg(feature = "peer")]
        group.bench_function("regexsolver", |b| {
            b.iter(|| relang_bench::generate_peer(black_box(workload)).unwrap())
        });
        let dfa = Dfa::from_regex_with(workload.term(), &budget).unwrap();
        group.bench_function("relang_prebuilt", |b| {
            b.iter(|| generate_relang_from(&dfa, black_box(workload), &budget).unwrap())
        });
        #[cfg(feature = "peer")]
        {
            let term = relang_bench::build_peer_term(workload).unwrap();
            group.bench_function("regexsolver_prebuilt", |b| {
                b.iter(|| relang_bench::generate_peer_from(&term, black_box(workload)).unwrap())
            });
        }
        group.finish();
    }
}

/// Panics unless every engine generates a right page for `workload`.
fn check(workload: &GenerateWorkload, budget: &Budget) {
    assert_page("relang", workload, &generate_relang(workload, budget).unwrap());
    #[cfg(feature = "peer")]
    assert_page("regexsolver", workload, &relang_bench::generate_peer(workload).unwrap());
}

criterion_group! {
    name = benches;
    // Short runs keep the whole suite (both engines, both phases) within a few minutes;
    // command-line flags such as `--measurement-time` still override these.
    config = Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500));
    targets = generate
}
criterion_main!(benches);
