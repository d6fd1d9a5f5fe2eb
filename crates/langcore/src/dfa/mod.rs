//! Complete deterministic automata over character classes, and their canonical minimal form.
//!
//! # Overview
//! [`Dfa`] is a dense table `state x class -> state` over a [`Classes`] partition of all
//! Unicode scalar values. Every DFA here is complete: a string that leaves the language for
//! good ends in a dead state, which is an ordinary state.
//!
//! The operations live one per file and the methods of [`Dfa`] only delegate:
//! `determinize.rs` (subset construction), `minimize.rs` (Hopcroft's state equivalence),
//! `canonical.rs` (quotient, class merging and canonical numbering).
//!
//! # Invariants
//! - `table.len() == n_states * classes.len()` and every entry is below `n_states`.
//! - After [`Dfa::minimize`] (and so from [`Dfa::from_regex`]), the DFA is *canonical*: no two
//!   states are equivalent, every state is reachable, no two classes behave alike in every
//!   state, classes are ordered by their smallest character, and states are numbered in
//!   breadth-first order from the start (state 0), visiting classes in order. Two equivalent
//!   languages therefore give equal (`==`) DFAs.

mod canonical;
mod determinize;
mod minimize;

use crate::alphabet::{ClassId, Classes};
use crate::analysis::{self, Cardinality};
use crate::budget::{Budget, BudgetError};
use crate::error::Error;
use crate::nfa::Nfa;
use crate::state_id::StateId;

/// A complete deterministic automaton over Unicode scalar values.
///
/// # Example
/// ```
/// use langcore::Dfa;
///
/// let a = Dfa::from_regex("(a|b)*")?;
/// let b = Dfa::from_regex("(a*b*)*")?;
/// assert_eq!(a, b, "equivalent patterns give identical minimal DFAs");
/// assert!(a.matches("abba"));
/// assert!(!a.matches("abc"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dfa {
    classes: Classes,
    table: Vec<StateId>,
    accepting: Vec<bool>,
    start: StateId,
}

impl Dfa {
    /// The canonical minimal DFA of `pattern`, under the default [`Budget`].
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when an automaton
    /// would exceed the default budget.
    pub fn from_regex(pattern: &str) -> Result<Dfa, Error> {
        Dfa::from_regex_with(pattern, &Budget::default())
    }

    /// The canonical minimal DFA of `pattern`, stopping when `budget` runs out.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when an automaton
    /// would exceed `budget`.
    pub fn from_regex_with(pattern: &str, budget: &Budget) -> Result<Dfa, Error> {
        let nfa = Nfa::from_regex_with(pattern, budget)?;
        Ok(Dfa::from_nfa(&nfa, budget)?)
    }

    /// The canonical minimal DFA of `nfa`'s language.
    ///
    /// # Errors
    /// When determinization or minimization exceeds `budget`.
    pub fn from_nfa(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        Dfa::determinize(nfa, budget)?.minimize(budget)
    }

    /// The subset construction of `nfa`, not minimized: one state per reachable set of NFA
    /// states.
    ///
    /// # Errors
    /// When the DFA would exceed `budget`'s states or deadline.
    pub fn determinize(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        determinize::determinize(nfa, budget)
    }

    /// The canonical minimal DFA of the same language (see the module invariants).
    ///
    /// # Errors
    /// When the deadline of `budget` passes.
    pub fn minimize(&self, budget: &Budget) -> Result<Dfa, BudgetError> {
        canonical::minimize(self, budget)
    }

    /// A DFA from its parts, for tests that need shapes no constructor builds, such as
    /// unreachable states.
    #[cfg(test)]
    pub(crate) fn from_parts(
        classes: Classes,
        table: Vec<StateId>,
        accepting: Vec<bool>,
        start: StateId,
    ) -> Dfa {
        assert_eq!(table.len(), accepting.len() * classes.len());
        assert!(table.iter().chain([&start]).all(|state| state.index() < accepting.len()));
        Dfa { classes, table, accepting, start }
    }

    /// Whether `input` is in the language.
    pub fn matches(&self, input: &str) -> bool {
        let end = input
            .chars()
            .fold(self.start, |state, ch| self.next_state(state, self.classes.class_of(ch)));
        self.is_accepting(end)
    }

    /// The number of states, the dead state included.
    pub fn n_states(&self) -> usize {
        self.accepting.len()
    }

    /// Every state, in numbering order.
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..self.n_states()).map(StateId::from_index)
    }

    /// The character classes that label the transitions.
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The start state.
    pub fn start(&self) -> StateId {
        self.start
    }

    /// Whether `state` accepts.
    pub fn is_accepting(&self, state: StateId) -> bool {
        self.accepting[state.index()]
    }

    /// The state reached from `state` on any character of `class`.
    pub fn next_state(&self, state: StateId, class: ClassId) -> StateId {
        self.table[state.index() * self.classes.len() + class.index()]
    }

    // Questions about the language.

    /// Whether the language has no strings at all.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::from_regex("[]")?.is_empty());
    /// assert!(!Dfa::from_regex("")?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        analysis::is_empty(self)
    }

    /// Whether the language is exactly `{""}`, the empty string alone.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::from_regex("(a{0})*")?.is_empty_string());
    /// assert!(!Dfa::from_regex("a?")?.is_empty_string());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty_string(&self) -> bool {
        analysis::is_empty_string(self)
    }

    /// Whether the language holds every string.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::from_regex("(a|[^a])*")?.is_total());
    /// assert!(!Dfa::from_regex("a*|[^a]*")?.is_total(), "\"ab\" is in neither branch");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_total(&self) -> bool {
        analysis::is_total(self)
    }

    /// The lengths, in characters, of the shortest and the longest accepted string:
    /// `(None, None)` for the empty language, and no longest for an infinite one.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert_eq!(Dfa::from_regex("ab|c{3,5}")?.length(), (Some(2), Some(5)));
    /// assert_eq!(Dfa::from_regex("(ab)*c")?.length(), (Some(1), None));
    /// assert_eq!(Dfa::from_regex("[]")?.length(), (None, None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn length(&self) -> (Option<usize>, Option<usize>) {
        analysis::length(self)
    }

    /// The number of strings in the language, exactly, or [`Cardinality::Infinite`].
    ///
    /// Counts are big integers: `.{3}` has 1,112,064³ strings.
    ///
    /// # Errors
    /// When the deadline of `budget` passes, or the counts kept at one time would exceed its
    /// memory limit (deep finite languages over large classes have huge counts).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Cardinality, Dfa};
    ///
    /// let budget = Budget::default();
    /// assert_eq!(Dfa::from_regex("(ab|cd){0,3}")?.cardinality(&budget)?.to_string(), "15");
    /// let three_chars = Dfa::from_regex(".{3}")?.cardinality(&budget)?;
    /// assert_eq!(three_chars.to_string(), "1375274358112518144");
    /// assert_eq!(Dfa::from_regex("(ab)*")?.cardinality(&budget)?, Cardinality::Infinite);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cardinality(&self, budget: &Budget) -> Result<Cardinality, BudgetError> {
        analysis::cardinality(self, budget)
    }
}
