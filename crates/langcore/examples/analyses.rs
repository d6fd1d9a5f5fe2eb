//! Time every analysis of one pattern under the default budget: the driver of the issue 22
//! tables in docs/benchmarks.md.
//!
//! Run with `cargo run --release -p langcore --example analyses -- PATTERN [VARIANT]`: each
//! question on a fresh `Language` (nothing cached between them), with its time and a short
//! answer. `VARIANT` (default: the pattern itself) is the other side of `subset` and
//! `equivalent`. A pattern starting with `@` is read from the file it names.

use std::process::ExitCode;
use std::time::Instant;

use langcore::{Budget, CharOrder, Error, GenerateOptions, Language, Nfa, PathOrder};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(pattern) = args.first().map(|arg| read(arg)) else {
        eprintln!("usage: analyses PATTERN [VARIANT]");
        return ExitCode::FAILURE;
    };
    let variant = args.get(1).map_or_else(|| pattern.clone(), |arg| read(arg));
    let language = || Language::from_regex(&pattern);
    let other = || Language::from_regex(&variant);
    time("empty", |budget| Ok(language()?.is_empty(budget)?.to_string()));
    time("length", |budget| Ok(format!("{:?}", language()?.length(budget)?)));
    time("cardinality", |budget| {
        let count = language()?.cardinality(budget)?.to_string();
        Ok(if count.len() > 12 { format!("{} digits", count.len()) } else { count })
    });
    time("total", |budget| Ok(language()?.is_total(budget)?.to_string()));
    time("subset", |budget| Ok(other()?.is_subset(&language()?, budget)?.to_string()));
    time("subset back", |budget| Ok(language()?.is_subset(&other()?, budget)?.to_string()));
    time("equivalent", |budget| Ok(language()?.is_equivalent(&other()?, budget)?.to_string()));
    time("deterministic", |budget| {
        Ok(Nfa::from_regex(&pattern)?.to_graph(budget)?.is_deterministic().to_string())
    });
    time("pattern", |budget| Ok(format!("{} chars", language()?.to_pattern(budget)?.len())));
    time("dot", |budget| Ok(format!("{} bytes", language()?.to_dot(budget)?.len())));
    for path_order in [PathOrder::Sweep, PathOrder::Interleave, PathOrder::Shuffled] {
        for char_order in [CharOrder::Ascending, CharOrder::Shuffled] {
            let name = format!("generate {path_order:?} {char_order:?}");
            let options = GenerateOptions::default()
                .with_limit(100)
                .with_path_order(path_order)
                .with_char_order(char_order);
            time(&name, |budget| {
                Ok(format!("{} strings", language()?.generate(&options, budget)?.len()))
            });
        }
    }
    ExitCode::SUCCESS
}

/// `arg`, or the text of the file it names after `@` (without a final newline).
fn read(arg: &str) -> String {
    match arg.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .unwrap_or_else(|err| panic!("cannot read {path}: {err}"))
            .trim_end_matches('\n')
            .to_owned(),
        None => arg.to_owned(),
    }
}

/// Runs `question` under a fresh default budget and prints its time and answer.
fn time(name: &str, question: impl FnOnce(&Budget) -> Result<String, Error>) {
    let budget = Budget::default();
    let start = Instant::now();
    let answer = question(&budget).unwrap_or_else(|err| format!("error: {err}"));
    println!("{name:28} {:9.1} ms  {answer}", start.elapsed().as_secs_f64() * 1000.0);
}
