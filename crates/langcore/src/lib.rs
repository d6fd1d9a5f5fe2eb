//! Regular languages as values: Unicode-range automata, built exactly and under a budget.
//!
//! `langcore` is the engine of relang. It turns a pattern into an automaton whose
//! transitions are labelled with sets of Unicode scalar values (never one character at a
//! time: `.` is 1,112,064 of them), determinizes and minimizes it into a canonical form, and
//! answers membership exactly. Every step that can grow runs under an explicit [`Budget`]
//! and stops with a typed error instead of hanging or exhausting memory.
//!
//! # Should I use this crate?
//! Use it when you need to reason about *languages*: compare two patterns, decide whether one
//! accepts everything another does, count or enumerate strings. To search text for matches,
//! use the `regex` crate: its automata are built for speed of matching, ours for exact
//! answers about the whole language.
//!
//! # Contents
//! - [`Language`]: start here. A regular language as a value: parse a pattern, combine
//!   languages (union, concatenation, repetition, intersection, difference, complement),
//!   relate two (equivalence, inclusion, with the shortest witness), ask about one
//!   (emptiness, lengths, exact [`Cardinality`], a pattern, a drawing) and page through its
//!   strings ([`Language::generate`] with [`GenerateOptions`]). It builds its automaton once,
//!   only when a question needs it.
//! - [`Dfa`]: the automaton underneath, a complete deterministic automaton over character
//!   classes; its minimal form is canonical, so equivalent languages give equal values. It
//!   has the same operations and questions, each building its result at once.
//! - [`Nfa`]: the automaton the front end builds from a pattern (linear size).
//! - [`alphabet`]: [`CharSet`](alphabet::CharSet), sets of scalar values as ranges, and
//!   [`Classes`](alphabet::Classes), the partition of the alphabet a DFA runs on.
//! - [`graph`]: [`Graph`](graph::Graph), an automaton as plain data (states, acceptance,
//!   labelled moves) for storage and exchange: [`Dfa::to_graph`], [`Dfa::from_graph`],
//!   [`Nfa::to_graph`], [`Nfa::from_graph`].
//! - [`Budget`]: the deadline, state and memory limits every operation checks.
//! - [`Error`]: the one error type, with a variant per phase.
//!
//! # A tour
//! Relate two patterns, and get the string that tells them apart:
//! ```
//! use langcore::{Budget, Language};
//!
//! let budget = Budget::default();
//! let strict = Language::from_regex("[0-9]{4}-[0-9]{2}-[0-9]{2}")?;
//! let loose = Language::from_regex("\\d{4}-\\d{2}-\\d{2}")?;
//! assert!(strict.is_subset(&loose, &budget)?);
//! // `\d` is every Unicode digit: the first one after `9` is U+0660 ARABIC-INDIC DIGIT ZERO.
//! let witness = loose.subset_witness(&strict, &budget)?;
//! assert_eq!(witness.as_deref(), Some("0000-00-0\u{660}"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Combine languages: nothing is built until a question needs it.
//! ```
//! use langcore::{Budget, Language};
//!
//! let budget = Budget::default();
//! let user = Language::from_regex("[a-z]+(\\.[a-z]+)*")?;
//! let domain = Language::from_regex("@example\\.(com|org)")?;
//! let address = user.concat(&domain, &budget)?;
//! assert!(address.matches("ann.lee@example.org", &budget)?);
//! let not_org = address.difference(&Language::from_regex(".*\\.org")?, &budget)?;
//! assert_eq!(not_org.to_pattern(&budget)?, "[a-z](\\.?[a-z])*@example\\.com");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Count a language exactly, however large, and page through its strings: offsets are
//! counted, not walked.
//! ```
//! use langcore::{Budget, GenerateOptions, Language, PathOrder};
//!
//! let budget = Budget::default();
//! let rules = ["[a-zA-Z0-9]{6,8}", ".*[0-9].*", ".*[A-Z].*"].map(Language::from_regex);
//! let [length, digit, upper] = rules;
//! let policy = Language::intersection_all(&[&length?, &digit?, &upper?], &budget)?;
//! assert_eq!(policy.cardinality(&budget)?.to_string(), "164726466519680");
//!
//! let codes = Language::from_regex("[A-Z]{2}-[0-9]{4}")?;
//! let page = GenerateOptions::default().with_limit(3).with_offset(6_759_997);
//! assert_eq!(codes.generate(&page, &budget)?, ["ZZ-9997", "ZZ-9998", "ZZ-9999"]);
//! let mixed = GenerateOptions::default().with_limit(3).with_path_order(PathOrder::Shuffled);
//! assert_eq!(codes.generate(&mixed, &budget)?.len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Equivalent patterns give identical automata, however they are written:
//! ```
//! use langcore::Dfa;
//!
//! assert_eq!(Dfa::from_regex("(a|b)*abb")?, Dfa::from_regex("[ab]*abb")?);
//! assert_eq!(Dfa::from_regex("(?i)k")?, Dfa::from_regex("[kK\u{212A}]")?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Exponential blow-ups stop cleanly at the budget:
//! ```
//! use std::time::Duration;
//! use langcore::{Budget, BudgetError, Error, Language};
//!
//! // 2^41 states: the state limit (or, on a slow machine, the deadline) stops it.
//! let budget = Budget::new(Duration::from_secs(1)).with_max_states(100_000);
//! let language = Language::from_regex("(a|b)*a(a|b){40}")?;
//! let err = language.to_dfa(&budget).unwrap_err();
//! // Questions that need no DFA are answered from the NFA, in far less.
//! let budget = Budget::new(Duration::from_secs(1)).with_max_states(1_000);
//! assert!(!language.is_empty(&budget)?);
//! assert_eq!(language.length(&budget)?, (Some(41), None));
//! assert!(matches!(err, Error::Budget(BudgetError::TooManyStates { .. } | BudgetError::Timeout { .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Patterns keep the meaning of the engine they were written for, lookarounds and word
//! boundaries included; what cannot be read exactly is rejected with the span at fault:
//! ```
//! use langcore::{Budget, Dialect, Error, Language};
//!
//! let budget = Budget::default();
//! let word = Language::from_regex_in(r"\bfoo\b.*", Dialect::Js, &budget)?;
//! assert!(word.matches("foo bar", &budget)? && !word.matches("food", &budget)?);
//! let Err(Error::Parse(err)) = Language::from_regex("foo(?|bar)") else { panic!() };
//! assert_eq!(err.span(), 3..5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! More in `crates/langcore/examples/`: `relate.rs` (two patterns and their witnesses),
//! `test_data.rs` (strings for tests, paged and seeded) and `count.rs` (sizes of languages).
//!
//! # API themes
//! - **The dialect.** Rust `regex` syntax with Unicode on; every pattern is anchored at both
//!   ends and `.` matches every character, `\n` included. `[]` is the empty language and
//!   the empty pattern is {""}. Anchors anywhere, word boundaries and lookarounds are read
//!   exactly under full-match semantics, backreferences to groups with finite languages
//!   too; atomic groups, conditionals and unbounded backreferences are errors that say
//!   why. [`Language::from_regex_in`] reads the other engines' dialects ([`Dialect`]:
//!   Python, JavaScript, Java, PCRE), each with its own meaning of `\d`, `$`, `.` and
//!   classes (docs/dialects.md).
//! - **Budgets and errors.** Every [`Language`] method that may build takes a [`Budget`];
//!   [`Dfa`] constructors come in pairs: `from_regex` uses [`Budget::default`] (bounded),
//!   `from_regex_with` takes an explicit budget. Failures are one [`Error`] enum:
//!   [`Error::Parse`], [`Error::Budget`], or an invalid argument such as
//!   [`Error::InvalidRepetition`].
//! - **Configuration.** Options with more than a couple of fields are value types with
//!   documented defaults and by-value setters ([`GenerateOptions`], like [`Budget`]).
//! - **Deterministic output.** Nothing depends on hashing order or on how a pattern was
//!   written: a minimal [`Dfa`] is numbered canonically, and generated strings depend only
//!   on the language and the options; seeded orders use a fixed generator (`rand_pcg`),
//!   so a seed gives the same strings on every platform. [`Dfa::to_pattern`] and
//!   [`Dfa::to_dot`] depend only on the language too (the pattern's search can stop early
//!   when the budget runs out, and then returns the best pattern found so far).

#![deny(missing_docs)]

pub mod alphabet;
mod analysis;
mod backtrack;
mod budget;
mod dfa;
mod dialect;
mod direct_hir;
mod dot;
mod enumerate;
mod error;
pub mod graph;
mod language;
mod nfa;
mod ops;
mod pattern;
mod state_id;
mod syntax;
#[cfg(test)]
mod test_patterns;
mod to_regex;
mod witness;

pub use analysis::Cardinality;
pub use backtrack::{Attack, Backtracking, Complexity, MatchMode};
pub use budget::{
    Budget, BudgetError, Cancellation, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES, DEFAULT_TIMEOUT,
    Operation,
};
pub use dfa::Dfa;
pub use dialect::{Dialect, UnknownDialect};
pub use enumerate::{
    CharOrder, DEFAULT_LIMIT, DEFAULT_MAX_LENGTH, GenerateOptions, PathOrder, SampleMode,
};
pub use error::{Error, ParseError};
pub use language::Language;
pub use language::matching::Membership;
pub use nfa::Nfa;
pub use ops::Overlap;
pub use state_id::StateId;
pub use syntax::NEST_LIMIT;

/// The README's examples, run as doctests so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
