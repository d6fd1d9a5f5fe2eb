//! Pattern lengths of relang and regexsolver 1.1.0 on the real-world corpus
//! (`bench/real_patterns.toml`, issue 23): each pattern as given, and the union,
//! intersection and difference of consecutive pairs. Prints the summary table of
//! docs/benchmarks.md, then one `STALE` line per entry whose recorded `regexsolver_length`
//! differs from the measured one (and exits with status 1 if any).
//!
//! Run with `cargo run -p relang-bench --features peer --example real_pattern_lengths`
//! (lengths do not depend on the build profile).
//!
//! regexsolver's best output is the shorter of `Term::to_pattern()` of the term as built
//! and of its `minimize()`d automaton; relang's is `Language::to_pattern` (no budget: the
//! times go to stderr). Both must denote the language (checked on relang's canonical DFAs).

use langcore::{Budget, Dfa, Language};
use regexsolver::Term;

// The corpus loader of langcore's tests, so that the file has one reader.
#[path = "../../langcore/tests/integration/real_corpus.rs"]
mod real_corpus;

/// One language converted by both engines.
struct Row {
    name: String,
    original: Option<usize>,
    ours: usize,
    theirs: usize,
    recorded: usize,
}

/// regexsolver's shortest pattern for `term`: as built, or of its minimal automaton.
fn peer_best(term: &Term, dfa: &Dfa) -> usize {
    let candidates =
        [term.to_pattern().ok(), term.minimize().and_then(|min| min.to_pattern()).ok()];
    candidates
        .into_iter()
        .flatten()
        .filter(|pattern| {
            Dfa::from_regex_with(pattern, &Budget::unlimited()).is_ok_and(|back| back == *dfa)
        })
        .map(|pattern| pattern.chars().count())
        .min()
        .expect("regexsolver gives an exact pattern")
}

/// relang's pattern for `language`, checked against `dfa`.
fn ours(name: &str, language: &Language, dfa: &Dfa) -> usize {
    let started = std::time::Instant::now();
    let pattern = language.to_pattern(&Budget::unlimited()).expect("no budget to run out");
    eprintln!("{name}: {} characters in {:.1?}", pattern.chars().count(), started.elapsed());
    let back = Dfa::from_regex_with(&pattern, &Budget::unlimited()).expect("parses back");
    assert!(back == *dfa, "{name}: relang's {pattern} is another language");
    pattern.chars().count()
}

/// Median, 90th percentile, and the shares shorter / equal / longer / over 2x, of rows.
fn summary(rows: &[Row]) -> String {
    let mut ratios: Vec<f64> =
        rows.iter().map(|row| row.ours as f64 / row.theirs.max(1) as f64).collect();
    ratios.sort_by(f64::total_cmp);
    let share = |keep: &dyn Fn(&Row) -> bool| {
        100.0 * rows.iter().filter(|row| keep(row)).count() as f64 / rows.len() as f64
    };
    let longer_than_original = share(&|row| row.original.is_some_and(|len| row.ours > len));
    format!(
        "{} | {:.2} / {:.2} | {:.1} / {:.1} / {:.1} % | {:.1} % | {:.1} %",
        rows.len(),
        ratios[ratios.len() / 2],
        ratios[ratios.len() * 9 / 10],
        share(&|row| row.ours < row.theirs),
        share(&|row| row.ours == row.theirs),
        share(&|row| row.ours > row.theirs),
        share(&|row| row.ours > 2 * row.theirs),
        longer_than_original,
    )
}

fn main() {
    let corpus = real_corpus::load();
    let budget = Budget::unlimited();
    let mut given = Vec::new();
    for entry in &corpus.pattern {
        let language = Language::from_regex(&entry.pattern).unwrap();
        let dfa = language.to_dfa(&budget).unwrap().clone();
        let term = Term::from_pattern(&entry.pattern).expect("regexsolver parses the corpus");
        given.push(Row {
            name: entry.name.clone(),
            original: Some(entry.pattern.chars().count()),
            ours: ours(&entry.name, &language, &dfa),
            theirs: peer_best(&term, &dfa),
            recorded: entry.regexsolver_length,
        });
    }
    let mut derived = Vec::new();
    for item in &corpus.derived {
        let name = item.name();
        let language = item.language(&corpus, &budget);
        let dfa = language.to_dfa(&budget).unwrap().clone();
        let left = Term::from_pattern(corpus.text(&item.left)).unwrap();
        let right = Term::from_pattern(corpus.text(&item.right)).unwrap();
        let term = match item.operation.as_str() {
            "union" => left.union([&right]),
            "intersection" => left.intersection([&right]),
            _ => left.difference(&right),
        }
        .expect("regexsolver computes the corpus");
        derived.push(Row {
            ours: ours(&name, &language, &dfa),
            theirs: peer_best(&term, &dfa),
            original: None,
            recorded: item.regexsolver_length,
            name,
        });
    }
    println!(
        "| | languages | relang / peer, median / p90 | shorter / equal / longer | over 2x | longer than the original |"
    );
    println!("|---|---|---|---|---|---|");
    println!("| real patterns as given | {} |", summary(&given));
    println!("| derived (∪, ∩, −) | {} |", summary(&derived));
    let mut stale = false;
    for row in given.iter().chain(&derived) {
        println!("{}: relang {} regexsolver {}", row.name, row.ours, row.theirs);
        if row.recorded != row.theirs {
            println!("STALE {}: recorded {} measured {}", row.name, row.recorded, row.theirs);
            stale = true;
        }
    }
    if stale {
        std::process::exit(1);
    }
}
