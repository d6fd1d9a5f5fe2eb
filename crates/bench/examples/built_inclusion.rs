//! Inclusion between languages whose minimal DFAs are built, as a server's cached terms
//! are once asked about (issue 32): for each pattern p of `bench/real_corpus.toml` and q
//! the next one, whether p ⊆ q, the whole corpus timed as the best of 10 rounds. With
//! `unbuilt`, the same on languages whose DFAs are not built (each answered on the NFAs).
//!
//! Run with `cargo run --release -p relang-bench --example built_inclusion [unbuilt]`.

use std::time::{Duration, Instant};

use langcore::{Budget, Language};
use serde::Deserialize;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/real_corpus.toml");

#[derive(Deserialize)]
struct Corpus {
    pattern: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    pattern: String,
}

fn main() {
    let built = std::env::args().nth(1).as_deref() != Some("unbuilt");
    let text = std::fs::read_to_string(CORPUS).expect("the corpus is readable");
    let corpus: Corpus = toml::from_str(&text).expect("the corpus parses");
    let budget = Budget::default();
    let languages: Vec<Language> = corpus
        .pattern
        .iter()
        .filter_map(|entry| Language::from_regex(&entry.pattern).ok())
        .collect();
    if built {
        for language in &languages {
            language.to_dfa(&budget).expect("the corpus's DFAs fit the default budget");
        }
    }
    let n = languages.len();
    let best = (0..10)
        .map(|_| {
            let started = Instant::now();
            for (p, q) in languages.iter().zip(languages.iter().cycle().skip(1)) {
                std::hint::black_box(p.is_subset(q, &budget).ok());
            }
            started.elapsed()
        })
        .min()
        .unwrap_or(Duration::ZERO);
    println!(
        "{} DFAs: {n} inclusions in {:.1?}, {:.2} µs each",
        if built { "built" } else { "unbuilt" },
        best,
        best.as_secs_f64() * 1e6 / n as f64
    );
}
