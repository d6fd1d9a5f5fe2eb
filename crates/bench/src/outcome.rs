//! What an engine answered for a workload, and the check against the expected answer.
//!
//! # Overview
//! - [`Outcome`]: an engine's answer: yes/no, a [`Count`], or an [`EngineLanguage`].
//! - [`EngineLanguage`]: a resulting language, asked about strings with its engine's own
//!   membership test.
//! - [`mismatch`] describes how an outcome differs from a workload's expectation;
//!   [`assert_expected`] panics with that description, which fails a test or a bench run.

use langcore::Budget;

use crate::workload::{Count, Expected, Workload};

/// An engine's answer to a workload.
#[derive(Debug)]
pub enum Outcome {
    /// A yes/no answer.
    Answer(bool),
    /// A number of strings.
    Count(Count),
    /// A language.
    Language(EngineLanguage),
}

/// A language computed by one of the engines.
#[derive(Debug)]
pub enum EngineLanguage {
    /// relang's language (a term, built when first asked).
    Relang(langcore::Language),
    /// regexsolver's term (a regular expression or an automaton).
    #[cfg(feature = "peer")]
    Peer(regexsolver::Term),
}

impl EngineLanguage {
    /// Whether `input` is in the language, by the engine's own membership test.
    ///
    /// # Errors
    /// When an engine fails to build the automaton it matches with.
    pub fn matches(&self, input: &str) -> Result<bool, String> {
        match self {
            EngineLanguage::Relang(language) => {
                language.matches(input, &Budget::unlimited()).map_err(|err| err.to_string())
            }
            #[cfg(feature = "peer")]
            EngineLanguage::Peer(term) => term.matches(input).map_err(|err| err.to_string()),
        }
    }
}

/// How `outcome` differs from what `workload` expects, or `None` when it is right.
pub fn mismatch(workload: &Workload, outcome: &Outcome) -> Option<String> {
    match (workload.expected(), outcome) {
        (Expected::Answer(expected), Outcome::Answer(answer)) => {
            (expected != answer).then(|| format!("answered {answer}, expected {expected}"))
        }
        (Expected::Count(expected), Outcome::Count(count)) => (!count_agrees(expected, count))
            .then(|| format!("counted {count:?}, expected {expected:?}")),
        (Expected::Language { matches, rejects }, Outcome::Language(language)) => {
            let wanted = matches.iter().map(|input| (input, true));
            let unwanted = rejects.iter().map(|input| (input, false));
            wanted.chain(unwanted).find_map(|(input, should_match)| match language.matches(input) {
                Ok(is_match) if is_match == should_match => None,
                Ok(is_match) => {
                    Some(format!("matches({input:?}) is {is_match}, expected {should_match}"))
                }
                Err(err) => Some(format!("matches({input:?}) failed: {err}")),
            })
        }
        (expected, outcome) => Some(format!("answered {outcome:?}, expected {expected:?}")),
    }
}

/// Checks `outcome` against `workload`'s expectation.
///
/// # Panics
/// When the outcome is wrong, naming the workload, `engine` and the difference.
#[track_caller]
pub fn assert_expected(engine: &str, workload: &Workload, outcome: &Outcome) {
    if let Some(difference) = mismatch(workload, outcome) {
        panic!("workload `{}`: {engine} gave a wrong answer: {difference}", workload.name());
    }
}

/// Whether `count` is `expected`. [`Count::Large`] (regexsolver's "bigger than `u32::MAX`")
/// agrees with every finite count above `u32::MAX`.
fn count_agrees(expected: &Count, count: &Count) -> bool {
    match (expected, count) {
        // Canonical decimal: a failed parse of digits means above u64::MAX.
        (Count::Finite(digits), Count::Large) => {
            digits.parse::<u64>().map_or(true, |number| number > u64::from(u32::MAX))
        }
        _ => expected == count,
    }
}
