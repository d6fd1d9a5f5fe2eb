//! Count languages exactly: how many strings a pattern, or an intersection of rules, has.
//!
//! Run with `cargo run -p langcore --example count -- '[a-zA-Z0-9]{6,8}' '.*[0-9].*'`: the
//! number of strings matching every pattern given.

use std::process::ExitCode;

use langcore::{Budget, Cardinality, Error, Language};

fn main() -> ExitCode {
    let patterns: Vec<String> = std::env::args().skip(1).collect();
    if patterns.is_empty() {
        eprintln!("usage: count <pattern>...");
        return ExitCode::FAILURE;
    }
    match count(&patterns) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn count(patterns: &[String]) -> Result<(), Error> {
    let budget = Budget::default();
    let languages = patterns
        .iter()
        .map(|pattern| Language::from_regex(pattern))
        .collect::<Result<Vec<_>, _>>()?;
    let all = Language::intersection_all(&languages.iter().collect::<Vec<_>>(), &budget)?;
    match all.cardinality(&budget)? {
        Cardinality::Finite(count) => println!("{count} strings"),
        Cardinality::Infinite => println!("infinitely many strings"),
    }
    match all.length(&budget)? {
        (Some(min), Some(max)) => println!("lengths {min} to {max}"),
        (Some(min), None) => println!("lengths {min} and up"),
        _ => println!("no strings at all"),
    }
    Ok(())
}
