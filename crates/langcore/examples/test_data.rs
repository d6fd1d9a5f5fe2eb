//! Generate test data: pages of strings from a pattern, restricted to lengths and a
//! charset, in a seeded order that is the same on every run.
//!
//! Run with `cargo run -p langcore --example test_data -- '[a-z]{3,8}@example\.(com|org)'`.

use std::process::ExitCode;

use langcore::alphabet::CharSet;
use langcore::{Budget, CharOrder, Error, GenerateOptions, Language, PathOrder};

fn main() -> ExitCode {
    let Some(pattern) = std::env::args().nth(1) else {
        eprintln!("usage: test_data <pattern>");
        return ExitCode::FAILURE;
    };
    match print_pages(&pattern) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn print_pages(pattern: &str) -> Result<(), Error> {
    let budget = Budget::default();
    let language = Language::from_regex(pattern)?;
    // Build once: every page below reuses the automaton.
    language.to_dfa(&budget)?;
    let first = GenerateOptions::default().with_limit(5);
    println!("shortest first: {:?}", language.generate(&first, &budget)?);
    println!("next page:      {:?}", language.generate(&first.clone().with_offset(5), &budget)?);
    let varied = GenerateOptions::default()
        .with_limit(5)
        .with_path_order(PathOrder::Shuffled)
        .with_char_order(CharOrder::Shuffled)
        .with_seed(7);
    println!("seeded mix:     {:?}", language.generate(&varied, &budget)?);
    let long_lower = GenerateOptions::default()
        .with_limit(5)
        .with_min_length(12)
        .with_charset(Some(CharSet::parse("[a-egl-prx@.]")?));
    println!("12+ chars, few letters: {:?}", language.generate(&long_lower, &budget)?);
    Ok(())
}
