//! Benchmarks of automaton-to-pattern conversion on the corpus of `bench/to_regex_corpus.toml`.
//!
//! Run with `cargo bench -p langcore --bench to_regex`; numbers go to docs/benchmarks.md.
//! Each language's pattern is checked once before timing (it must denote the language and be
//! no longer than regexsolver's), so a wrong answer fails the bench.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use langcore::{Budget, Dfa};

#[path = "../tests/integration/corpus.rs"]
mod corpus;

fn to_pattern(c: &mut Criterion) {
    let mut group = c.benchmark_group("to_pattern");
    for language in corpus::load() {
        let dfa = language.dfa(&Budget::unlimited());
        let pattern = dfa.to_pattern(&Budget::unlimited()).unwrap();
        assert_eq!(Dfa::from_regex(&pattern).unwrap(), dfa, "{}: {pattern}", language.name);
        assert!(language.matches.iter().all(|input| dfa.matches(input)), "{}", language.name);
        assert!(!language.rejects.iter().any(|input| dfa.matches(input)), "{}", language.name);
        assert!(pattern.len() <= language.regexsolver_length, "{}: {pattern}", language.name);
        group.bench_with_input(BenchmarkId::from_parameter(&language.name), &dfa, |b, dfa| {
            b.iter(|| black_box(dfa).to_pattern(&Budget::unlimited()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, to_pattern);
criterion_main!(benches);
