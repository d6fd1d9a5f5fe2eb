//! Benchmarks of the automaton core: pattern to canonical minimal DFA, and determinization.
//!
//! Run with `cargo bench -p langcore --bench build`; numbers go to docs/benchmarks.md.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use langcore::{Budget, Dfa, Nfa};

/// Patterns by size class: (name, pattern).
const PATTERNS: &[(&str, &str)] = &[
    ("small", "(a|b)*abb"),
    ("medium", "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,6}"),
    (
        "large",
        "((19|20)[0-9]{2})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])",
    ),
    ("unicode_w20", "\\w{20}"),
    ("counted_a_z_0_500", "[a-z]{0,500}"),
];

fn from_regex(c: &mut Criterion) {
    let mut group = c.benchmark_group("from_regex");
    for &(name, pattern) in PATTERNS {
        group.bench_with_input(BenchmarkId::from_parameter(name), pattern, |b, pattern| {
            b.iter(|| Dfa::from_regex_with(black_box(pattern), &Budget::unlimited()).unwrap())
        });
    }
    group.finish();
}

fn determinize(c: &mut Criterion) {
    let mut group = c.benchmark_group("determinize");
    for n in [10, 14] {
        let nfa = Nfa::from_regex(&format!("(a|b)*a(a|b){{{n}}}")).unwrap();
        group.bench_with_input(BenchmarkId::new("nth_from_end", n), &nfa, |b, nfa| {
            b.iter(|| Dfa::determinize(black_box(nfa), &Budget::unlimited()).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("nth_from_end_minimized", n), &nfa, |b, nfa| {
            b.iter(|| Dfa::from_nfa(black_box(nfa), &Budget::unlimited()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, from_regex, determinize);
criterion_main!(benches);
