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
//! - [`Nfa`]: the automaton the front end builds from a pattern (linear size).
//! - [`Dfa`]: a complete deterministic automaton over character classes; its minimal form is
//!   canonical, so equivalent languages give equal values. Its methods build new languages
//!   (boolean operations, [`Dfa::concat`], [`Dfa::repeat`]), relate two languages (subset,
//!   equivalence, with witnesses) and answer questions about one: emptiness, lengths, and
//!   the exact number of strings ([`Cardinality`]). [`Dfa::generate`] pages through the
//!   strings themselves, in orders chosen with [`GenerateOptions`].
//! - Back from automata: [`Dfa::to_pattern`] writes a short pattern for the language, valid
//!   in our dialect and in Python's `re`; [`Dfa::to_dot`] draws the minimal automaton.
//! - [`alphabet`]: [`CharSet`](alphabet::CharSet), sets of scalar values as ranges, and
//!   [`Classes`](alphabet::Classes), the partition of the alphabet a DFA runs on.
//! - [`graph`]: [`Graph`](graph::Graph), an automaton as plain data (states, acceptance,
//!   labelled moves) for storage and exchange: [`Dfa::to_graph`], [`Dfa::from_graph`],
//!   [`Nfa::to_graph`], [`Nfa::from_graph`].
//! - [`Budget`]: the deadline and state limit every operation checks.
//! - [`Error`]: the one error type, with a variant per phase.
//!
//! # Examples
//! Build the canonical minimal DFA of a pattern and ask about strings:
//! ```
//! use langcore::Dfa;
//!
//! let dfa = Dfa::from_regex("[a-z]+@[a-z]+\\.(com|org)")?;
//! assert!(dfa.matches("ann@example.org"));
//! assert!(!dfa.matches("ann@example.net"));
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
//! Ask about the whole language, not one string at a time:
//! ```
//! use langcore::{Budget, Dfa};
//!
//! let pin = Dfa::from_regex("[0-9]{4,6}")?;
//! assert_eq!(pin.length(), (Some(4), Some(6)));
//! assert_eq!(pin.cardinality(&Budget::default())?.to_string(), "1110000");
//! assert!(!pin.is_empty() && !pin.is_total());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Page through the strings, however many there are: offsets are counted, not walked.
//! ```
//! use langcore::{Budget, Dfa, GenerateOptions, PathOrder};
//!
//! let codes = Dfa::from_regex("[A-Z]{2}-[0-9]{4}")?;
//! let page = GenerateOptions::default().with_limit(3).with_offset(6_759_997);
//! assert_eq!(codes.generate(&page, &Budget::default())?, ["ZZ-9997", "ZZ-9998", "ZZ-9999"]);
//! let mixed = GenerateOptions::default().with_limit(3).with_path_order(PathOrder::Shuffled);
//! assert_eq!(codes.generate(&mixed, &Budget::default())?.len(), 3);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Turn the result of an operation back into a pattern:
//! ```
//! use langcore::{Budget, Dfa};
//!
//! let budget = Budget::default();
//! let both = Dfa::from_regex("[bc]*[ab]*")?.intersection(&Dfa::from_regex("[ab]*[bc]*")?, &budget)?;
//! assert_eq!(both.to_pattern(&budget)?, "[ab]*|[bc]*");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Exponential blow-ups stop cleanly at the budget:
//! ```
//! use std::time::Duration;
//! use langcore::{Budget, BudgetError, Dfa, Error};
//!
//! // 2^41 states: the state limit (or, on a slow machine, the deadline) stops it.
//! let budget = Budget::new(Duration::from_secs(1)).with_max_states(100_000);
//! let err = Dfa::from_regex_with("(a|b)*a(a|b){40}", &budget).unwrap_err();
//! assert!(matches!(err, Error::Budget(BudgetError::TooManyStates { .. } | BudgetError::Timeout { .. })));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Patterns outside the dialect are rejected with the span at fault:
//! ```
//! use langcore::{Dfa, Error};
//!
//! let Err(Error::Parse(err)) = Dfa::from_regex("foo(?=bar)") else { panic!() };
//! assert_eq!(err.span(), 3..6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # API themes
//! - **The dialect.** Rust `regex` syntax with Unicode on; every pattern is anchored at both
//!   ends and `.` matches every character, `\n` included. `[]` is the empty language and
//!   the empty pattern is {""}. Look-around, backreferences, word boundaries and anchors
//!   other than a leading `^` and a trailing `$` are errors.
//! - **Budgets and errors.** Constructors come in pairs: `from_regex` uses
//!   [`Budget::default`] (bounded), `from_regex_with` takes an explicit budget. Failures
//!   are one [`Error`] enum: [`Error::Parse`], [`Error::Budget`], or an invalid argument
//!   such as [`Error::InvalidRepetition`].
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
mod budget;
mod dfa;
mod dot;
mod enumerate;
mod error;
pub mod graph;
mod nfa;
mod ops;
mod state_id;
mod syntax;
mod to_regex;

pub use analysis::Cardinality;
pub use budget::{
    Budget, BudgetError, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES, DEFAULT_TIMEOUT, Operation,
};
pub use dfa::Dfa;
pub use enumerate::{CharOrder, DEFAULT_LIMIT, DEFAULT_MAX_LENGTH, GenerateOptions, PathOrder};
pub use error::Error;
pub use nfa::Nfa;
pub use state_id::StateId;
pub use syntax::{NEST_LIMIT, ParseError};

/// The README's examples, run as doctests so they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
