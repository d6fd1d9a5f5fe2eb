//! Relate two patterns: is one a subset of the other, are they equivalent, and if not, the
//! shortest string that tells them apart.
//!
//! Run with `cargo run -p langcore --example relate -- '[0-9]{4}' '\d{4}'`.

use std::process::ExitCode;

use langcore::{Budget, Error, Language};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [left, right] = args.as_slice() else {
        eprintln!("usage: relate <pattern> <pattern>");
        return ExitCode::FAILURE;
    };
    match relate(left, right) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

fn relate(left: &str, right: &str) -> Result<(), Error> {
    let budget = Budget::default();
    let (a, b) = (Language::from_regex(left)?, Language::from_regex(right)?);
    match a.equivalence_witness(&b, &budget)? {
        None => println!("{left:?} and {right:?} are equivalent"),
        Some(witness) => {
            let side = if a.matches(&witness, &budget)? { left } else { right };
            println!("not equivalent: {witness:?} is only in {side:?}");
        }
    }
    for (sub, sup, sub_language, sup_language) in [(left, right, &a, &b), (right, left, &b, &a)] {
        match sub_language.subset_witness(sup_language, &budget)? {
            None => println!("{sub:?} is a subset of {sup:?}"),
            Some(witness) => println!("{sub:?} is not a subset of {sup:?}: {witness:?}"),
        }
    }
    Ok(())
}
