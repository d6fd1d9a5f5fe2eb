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

/// Words of the word-list validator of the `determinize` group.
const FRUITS: &str = "apple apricot banana blackberry blueberry cherry coconut cranberry date \
    elderberry fig grape guava kiwi lemon lime lychee mango melon nectarine olive orange papaya \
    peach pear persimmon pineapple plum pomegranate quince raspberry strawberry tangerine \
    tomato watermelon";

/// A word-list validator in the style of issue 22's street names: a count, up to two
/// capitalized names, then any number of listed words (capitalized either way) with
/// separators and short tokens. Its subset construction has about 8,000 states on 49 classes.
fn word_list_validator() -> String {
    let words: Vec<String> = FRUITS
        .split_whitespace()
        .map(|word| {
            let first = word.chars().next().unwrap_or('a');
            format!("[{}{first}]{}", first.to_ascii_uppercase(), &word[1..])
        })
        .collect();
    format!(
        r"(?:[0-9]{{1,3}}\s)?(?:[A-Z][a-z]{{1,12}}\s){{0,2}}(?:(?:{})s?[ ,;-]{{0,2}}(?:[A-Za-z0-9]{{1,3}}[ -]?)?)*",
        words.join("|")
    )
}

fn determinize(c: &mut Criterion) {
    let mut group = c.benchmark_group("determinize");
    for n in [10, 12, 14] {
        let nfa = Nfa::from_regex(&format!("(a|b)*a(a|b){{{n}}}")).unwrap();
        group.bench_with_input(BenchmarkId::new("nth_from_end", n), &nfa, |b, nfa| {
            b.iter(|| Dfa::determinize(black_box(nfa), &Budget::unlimited()).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("nth_from_end_minimized", n), &nfa, |b, nfa| {
            b.iter(|| Dfa::from_nfa(black_box(nfa), &Budget::unlimited()).unwrap())
        });
    }
    let nfa = Nfa::from_regex(&word_list_validator()).unwrap();
    group.bench_with_input(BenchmarkId::from_parameter("word_list"), &nfa, |b, nfa| {
        b.iter(|| Dfa::determinize(black_box(nfa), &Budget::unlimited()).unwrap())
    });
    group.finish();
}

criterion_group!(benches, from_regex, determinize);
criterion_main!(benches);
