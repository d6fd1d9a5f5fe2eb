//! Benchmarks of string generation: 100 strings in every order from realistic patterns, and
//! deep offsets.
//!
//! Run with `cargo bench -p langcore --bench generate`; numbers go to docs/benchmarks.md.
//! Each workload is checked before it is timed (100 distinct strings of the language, or the
//! known string at a deep offset), so a wrong answer fails the bench.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use langcore::{Budget, CharOrder, Dfa, GenerateOptions, PathOrder};

/// Realistic patterns: (name, pattern).
const PATTERNS: &[(&str, &str)] = &[
    ("email", "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,6}"),
    ("date", "(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"),
    ("a_z_8", "[a-z]{8}"),
    ("unicode_w20", "\\w{20}"),
    ("abc_de", "(abc|de){2,5}x*"),
];

/// Every order: (name, path order, character order).
const ORDERS: &[(&str, PathOrder, CharOrder)] = &[
    ("sweep", PathOrder::Sweep, CharOrder::Ascending),
    ("sweep_shuffled_chars", PathOrder::Sweep, CharOrder::Shuffled),
    ("interleave", PathOrder::Interleave, CharOrder::Ascending),
    ("interleave_shuffled_chars", PathOrder::Interleave, CharOrder::Shuffled),
    ("shuffled", PathOrder::Shuffled, CharOrder::Ascending),
    ("shuffled_shuffled_chars", PathOrder::Shuffled, CharOrder::Shuffled),
];

/// Deep pages: (name, pattern, path order, offset, first string expected or `None`).
const DEEP: &[(&str, &str, PathOrder, u64, Option<&str>)] = &[
    ("a_z_8_sweep_1e10", "[a-z]{8}", PathOrder::Sweep, 10_000_000_000, Some("bgjqzrkq")),
    ("a_z_8_interleave_1e10", "[a-z]{8}", PathOrder::Interleave, 10_000_000_000, Some("bgjqzrkq")),
    ("a_z_6_sweep_1e7", "[a-z]{6}", PathOrder::Sweep, 10_000_000, Some("avwyxk")),
    ("a_z_6_shuffled_1e7", "[a-z]{6}", PathOrder::Shuffled, 10_000_000, Some("avwyxk")),
    (
        "email_sweep_1e18",
        "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,6}",
        PathOrder::Sweep,
        1_000_000_000_000_000_000,
        None,
    ),
    (
        "email_shuffled_1e18",
        "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,6}",
        PathOrder::Shuffled,
        1_000_000_000_000_000_000,
        None,
    ),
];

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).unwrap()
}

/// Generates one page, checking it: `limit` distinct strings of the language.
fn checked_page(dfa: &Dfa, options: &GenerateOptions) -> Vec<String> {
    let page = dfa.generate(options, &Budget::unlimited()).unwrap();
    assert_eq!(page.len(), options.limit());
    assert_eq!(page.iter().collect::<BTreeSet<_>>().len(), page.len());
    assert!(page.iter().all(|input| dfa.matches(input)));
    page
}

fn hundred_strings(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_100");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(2));
    for &(name, pattern) in PATTERNS {
        let dfa = dfa(pattern);
        for &(order_name, path_order, char_order) in ORDERS {
            let options = GenerateOptions::default()
                .with_limit(100)
                .with_path_order(path_order)
                .with_char_order(char_order)
                .with_seed(42);
            checked_page(&dfa, &options);
            group.bench_with_input(BenchmarkId::new(name, order_name), &options, |b, options| {
                b.iter(|| dfa.generate(black_box(options), &Budget::unlimited()).unwrap())
            });
        }
    }
    group.finish();
}

fn deep_offsets(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_deep");
    group.warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(2));
    for &(name, pattern, path_order, offset, first) in DEEP {
        let dfa = dfa(pattern);
        let options = GenerateOptions::default()
            .with_limit(100)
            .with_path_order(path_order)
            .with_offset(offset);
        let page = checked_page(&dfa, &options);
        if let Some(first) = first {
            assert_eq!(page[0], first, "{name}");
        }
        group.bench_with_input(BenchmarkId::from_parameter(name), &options, |b, options| {
            b.iter(|| dfa.generate(black_box(options), &Budget::unlimited()).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, hundred_strings, deep_offsets);
criterion_main!(benches);
