//! Membership of many strings at once, and where each one stops matching.
//!
//! # Overview
//! [`Language::match_strings`] runs strings through the language's canonical minimal DFA
//! ([`Language::to_dfa`]) and says, for each, whether it matches and how long its longest
//! *viable* prefix is: the longest prefix that some continuation turns into a match. For a
//! string that does not match, that is where it fails: its character at that index (if
//! any) rules out every match; a string whose every prefix is viable is only too short.
//!
//! # Algorithm
//! A prefix is viable iff the state it leads to can still reach an accepting state (the
//! trim of `dfa/trim.rs`, computed once per call in O(states × classes)); each string
//! then costs one table lookup per character, O(total length) in all.
//!
//! # Budgets
//! Building the DFA checks the budget as usual; the walk checks the deadline before each
//! string and every [`CHECK_EVERY`] characters, as `Operation::Match`.
//!
//! # Invariants
//! Lengths count Unicode scalar values (Rust `char`s, Python's `len`), never bytes or
//! UTF-16 units.

use crate::budget::{Budget, Operation};
use crate::dfa::trim::Trim;
use crate::error::Error;
use crate::language::Language;

/// How often, in characters, a long string's walk checks the deadline.
const CHECK_EVERY: usize = 1 << 12;

/// How one string fares against a language: the answer of [`Language::match_strings`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Membership {
    /// Whether the whole string is in the language.
    pub is_match: bool,
    /// The length, in characters (Unicode scalar values), of the longest prefix of the
    /// string that can still be extended to a string of the language: the whole string's
    /// length when it matches, 0 when even the empty prefix cannot (the empty language).
    pub viable_prefix_chars: usize,
}

impl Language {
    /// For each of `strings`, whether it is in the language and the length of its longest
    /// prefix that can still be extended to a match (see [`Membership`]).
    ///
    /// # Errors
    /// When building the DFA exceeds `budget`, or the walk outlives its deadline.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language, Membership};
    ///
    /// let budget = Budget::default();
    /// let date = Language::from_regex("[0-9]{4}-[0-9]{2}")?;
    /// let answers = date.match_strings(["2024-05", "2024-5x", "202"], &budget)?;
    /// assert_eq!(answers[0], Membership { is_match: true, viable_prefix_chars: 7 });
    /// // `x` is where it fails: "2024-5" could still become a date.
    /// assert_eq!(answers[1], Membership { is_match: false, viable_prefix_chars: 6 });
    /// // Too short: every prefix is viable.
    /// assert_eq!(answers[2], Membership { is_match: false, viable_prefix_chars: 3 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn match_strings<'a>(
        &self,
        strings: impl IntoIterator<Item = &'a str>,
        budget: &Budget,
    ) -> Result<Vec<Membership>, Error> {
        let dfa = self.to_dfa(budget)?;
        budget.check_time(Operation::Match)?;
        let trim = Trim::new(dfa);
        let classes = dfa.classes();
        let mut answers = Vec::new();
        for input in strings {
            budget.check_time(Operation::Match)?;
            let mut state = dfa.start();
            let mut viable_prefix_chars = if trim.is_useful(state) { None } else { Some(0) };
            for (idx, ch) in input.chars().enumerate() {
                if viable_prefix_chars.is_some() {
                    break;
                }
                if idx % CHECK_EVERY == CHECK_EVERY - 1 {
                    budget.check_time(Operation::Match)?;
                }
                state = dfa.next_state(state, classes.class_of(ch));
                if !trim.is_useful(state) {
                    viable_prefix_chars = Some(idx);
                }
            }
            answers.push(match viable_prefix_chars {
                Some(viable_prefix_chars) => Membership { is_match: false, viable_prefix_chars },
                None => Membership {
                    is_match: dfa.is_accepting(state),
                    viable_prefix_chars: input.chars().count(),
                },
            });
        }
        Ok(answers)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::BudgetError;

    #[track_caller]
    fn check(pattern: &str, input: &str, is_match: bool, viable_prefix_chars: usize) {
        let language = Language::from_regex(pattern).unwrap();
        let answer = language.match_strings([input], &Budget::default()).unwrap();
        assert_eq!(
            answer,
            [Membership { is_match, viable_prefix_chars }],
            "{pattern} on {input:?}"
        );
    }

    #[test]
    fn failures_are_located_in_characters() {
        check("(abc|de){2}", "abcde", true, 5);
        check("(abc|de){2}", "dex", false, 2);
        check("(abc|de){2}", "ab", false, 2);
        check("(abc|de){2}", "", false, 0);
        check("x*", "", true, 0);
        // Characters, not bytes: `é` and `😀` are one each.
        check("é😀a", "é😀b", false, 2);
        check("[0-9]+", "٠", false, 0);
        check("\\d+", "١٢x", false, 2);
    }

    #[test]
    fn the_empty_language_has_no_viable_prefix() {
        check("[]", "", false, 0);
        check("[]", "abc", false, 0);
    }

    #[test]
    fn a_total_language_matches_everything() {
        check("(?s:.)*", "any\nthing", true, 9);
    }

    #[test]
    fn the_walk_stops_at_the_deadline() {
        let language = Language::from_regex("a*").unwrap();
        language.to_dfa(&Budget::default()).unwrap();
        let long = "a".repeat(1 << 16);
        let expired = Budget::new(Duration::ZERO);
        let err = language.match_strings([long.as_str()], &expired).unwrap_err();
        assert_eq!(err, Error::Budget(BudgetError::Timeout { op: Operation::Match }));
    }
}
