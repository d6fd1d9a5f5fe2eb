//! Pattern lengths of relang and regexsolver 1.1.0 on the automaton-to-regex corpus
//! (`bench/to_regex_corpus.toml`, issue 6), printed as the quality table of
//! docs/benchmarks.md, with the conversion times of both in the same run.
//!
//! Run with `cargo run --release -p relang-bench --features peer --example to_regex_lengths`.
//!
//! Each language is built by both engines from the same terms (for `minimize`,
//! regexsolver's `Term::minimize()`, so that neither converts the pattern text back) and
//! converted by `Dfa::to_pattern` and `Term::to_pattern()`. Both engines must answer the
//! corpus' samples right, both patterns must denote the language (checked on relang's
//! canonical DFAs), and regexsolver's length must be the one the corpus records, which
//! langcore's tests hold relang to: the run panics otherwise. Times are the median of
//! [`RUNS`] conversions of the already built language.

use std::time::{Duration, Instant};

use langcore::{Budget, Dfa};
use regexsolver::Term;

// The corpus loader of langcore's tests, so that the file has one reader.
#[path = "../../langcore/tests/integration/corpus.rs"]
mod corpus;

/// How many conversions each median time is taken over.
const RUNS: usize = 101;

/// One language converted by both engines.
struct Row {
    name: String,
    ours: String,
    theirs: String,
    our_time: Duration,
    their_time: Duration,
}

/// regexsolver's term for `language`, after checking its answers on the corpus' samples.
fn peer_term(language: &corpus::Language) -> Term {
    let terms: Vec<Term> = (language.terms().iter())
        .map(|term| Term::from_pattern(term).expect("the corpus is in the common dialect"))
        .collect();
    let result = match (language.operation(), terms.as_slice()) {
        ("minimize", [term]) => term.minimize(),
        ("intersection", [first, rest @ ..]) => first.intersection(rest),
        ("difference", [left, right]) => left.difference(right),
        ("complement", [term]) => term.complement(),
        (operation, _) => panic!("{}: {operation} of {} terms", language.name, terms.len()),
    };
    let term = result.unwrap_or_else(|err| panic!("{}: {err}", language.name));
    for (input, expected) in samples(language) {
        let answer = term.matches(input).ok();
        assert_eq!(answer, Some(expected), "{}: regexsolver on {input:?}", language.name);
    }
    term
}

/// The corpus' samples with the verdict expected on each.
fn samples(language: &corpus::Language) -> impl Iterator<Item = (&String, bool)> {
    (language.matches.iter().map(|input| (input, true)))
        .chain(language.rejects.iter().map(|input| (input, false)))
}

/// The median time of [`RUNS`] calls of `convert`, and its result.
fn timed(mut convert: impl FnMut() -> String) -> (String, Duration) {
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            std::hint::black_box(convert());
            started.elapsed()
        })
        .collect();
    times.sort_unstable();
    (convert(), times[RUNS / 2])
}

fn convert(language: &corpus::Language) -> Row {
    let budget = Budget::unlimited();
    let dfa = language.dfa(&budget);
    for (input, expected) in samples(language) {
        assert_eq!(dfa.matches(input), expected, "{}: relang on {input:?}", language.name);
    }
    let term = peer_term(language);
    let (ours, our_time) = timed(|| dfa.to_pattern(&budget).expect("no budget to run out"));
    let (theirs, their_time) = timed(|| term.to_pattern().expect("regexsolver converts"));
    for (engine, pattern) in [("relang", &ours), ("regexsolver", &theirs)] {
        let back = Dfa::from_regex_with(pattern, &budget);
        assert!(
            back.as_ref() == Ok(&dfa),
            "{}: {engine}'s {pattern} is another language",
            language.name
        );
    }
    assert_eq!(
        theirs.chars().count(),
        language.regexsolver_length,
        "{}: regexsolver now writes {theirs}; update regexsolver_length in the corpus",
        language.name
    );
    Row { name: language.name.clone(), ours, theirs, our_time, their_time }
}

/// A table cell for `pattern`: the pattern in backticks (`|` escaped for Markdown), or a note
/// for long ones.
fn pattern_cell(pattern: &str) -> String {
    if pattern.chars().count() > 60 {
        "(too long to show)".to_owned()
    } else {
        format!("`{}`", pattern.replace('|', r"\|"))
    }
}

/// `len`, in bold when shorter than `other`.
fn length_cell(len: usize, other: usize) -> String {
    if len < other { format!("**{len}**") } else { len.to_string() }
}

fn main() {
    let rows: Vec<Row> = corpus::load().iter().map(convert).collect();
    println!("| Language | relang pattern | len | regexsolver pattern | len |");
    println!("|---|---|---|---|---|");
    let (mut ours_total, mut theirs_total) = (0, 0);
    for row in &rows {
        let (ours, theirs) = (row.ours.chars().count(), row.theirs.chars().count());
        let (ours_cell, theirs_cell) = (length_cell(ours, theirs), length_cell(theirs, ours));
        let (name, our_pattern, their_pattern) =
            (&row.name, pattern_cell(&row.ours), pattern_cell(&row.theirs));
        println!("| {name} | {our_pattern} | {ours_cell} | {their_pattern} | {theirs_cell} |");
        ours_total += ours;
        theirs_total += theirs;
    }
    let (ours_cell, theirs_cell) =
        (length_cell(ours_total, theirs_total), length_cell(theirs_total, ours_total));
    println!("| **Total** | | {ours_cell} | | {theirs_cell} |");
    println!();
    println!("| Language | relang | regexsolver |");
    println!("|---|---|---|");
    for row in &rows {
        println!("| {} | {:.1?} | {:.1?} |", row.name, row.our_time, row.their_time);
    }
}
