//! Criterion benchmarks of printing a language back as a pattern (`to_pattern`), for the
//! small languages that requests answering with a pattern carry: one group per case.
//!
//! Run with `cargo bench -p relang-bench --bench to_pattern`; numbers go to
//! docs/benchmarks.md. Each iteration parses the patterns, applies the operation and
//! prints the result, as `/v1/analyze/pattern` and `/v1/compute/*` with
//! `"format": "regex"` do.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use langcore::{Budget, Language};

/// A case: its name, the expected pattern, and how its language is made from patterns.
type Case = (&'static str, &'static str, fn(&Budget) -> Language);

fn parse(pattern: &str) -> Language {
    Language::from_regex(pattern).expect("a valid pattern")
}

const CASES: [Case; 4] = [
    ("suffix", "[ab]*abb", |_| parse("(a|b)*abb")),
    ("intersection", "deabc", |budget| {
        let terms = [parse("(abc|de){2}"), parse("de.*"), parse(".*abc")];
        Language::intersection_all(&terms.each_ref(), budget).expect("within the budget")
    }),
    ("difference", "[b-df-hj-np-tv-z]", |budget| {
        parse("[a-z]").difference(&parse("[aeiou]"), budget).expect("within the budget")
    }),
    ("unicode", r"\w+@\d{3}", |_| parse(r"\w+@\d{3}")),
];

fn to_pattern(c: &mut Criterion) {
    let budget = Budget::unlimited();
    for (name, expected, make) in CASES {
        let printed = make(&budget).to_pattern(&budget).expect("within the budget");
        assert_eq!(printed, expected, "{name}");
        c.bench_function(name, |b| {
            b.iter(|| make(black_box(&budget)).to_pattern(&budget).expect("within the budget"))
        });
    }
}

criterion_group!(benches, to_pattern);
criterion_main!(benches);
