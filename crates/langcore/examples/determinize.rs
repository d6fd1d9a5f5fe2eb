//! Time the subset construction of one pattern's NFA, then its minimization: the driver of
//! the determinization times of issue 22 in docs/benchmarks.md.
//!
//! Run with `cargo run --release -p langcore --example determinize -- PATTERN`, without a
//! budget (a pattern starting with `@` is read from the file it names). Prints each phase's
//! time, the number of states, and a fingerprint of the table (FNV-1a over the start,
//! acceptance and moves) that tells whether two builds produced the same automaton.

use std::process::ExitCode;
use std::time::Instant;

use langcore::{Budget, Dfa, Nfa};

fn main() -> ExitCode {
    let Some(arg) = std::env::args().nth(1) else {
        eprintln!("usage: determinize PATTERN");
        return ExitCode::FAILURE;
    };
    let pattern = match arg.strip_prefix('@') {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => text.trim_end_matches('\n').to_owned(),
            Err(err) => {
                eprintln!("cannot read {path}: {err}");
                return ExitCode::FAILURE;
            }
        },
        None => arg,
    };
    let budget = Budget::unlimited();
    let nfa = match Nfa::from_regex_with(&pattern, &budget) {
        Ok(nfa) => nfa,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
    };
    println!("nfa          {:>9} states", nfa.n_states());
    let start = Instant::now();
    let subsets = Dfa::determinize(&nfa, &budget).expect("no limit to exceed");
    report("determinize", start, &subsets);
    let start = Instant::now();
    let minimal = subsets.minimize(&budget).expect("no limit to exceed");
    report("minimize", start, &minimal);
    ExitCode::SUCCESS
}

/// Prints a phase's time, the automaton's size and its fingerprint.
fn report(phase: &str, start: Instant, dfa: &Dfa) {
    let elapsed = start.elapsed().as_secs_f64() * 1000.0;
    let mut hash = 0xcbf2_9ce4_8422_2325_u64;
    let mut mix = |value: usize| {
        hash ^= value as u64;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    };
    mix(dfa.start().index());
    for state in dfa.states() {
        mix(usize::from(dfa.is_accepting(state)));
        for (class, _) in dfa.classes().iter() {
            mix(dfa.next_state(state, class).index());
        }
    }
    println!(
        "{phase:12} {elapsed:9.1} ms  {:>7} states, {} classes, fingerprint {hash:016x}",
        dfa.n_states(),
        dfa.classes().len()
    );
}
