//! Complete deterministic automata over character classes, and their canonical minimal form.
//!
//! # Overview
//! [`Dfa`] is a dense table `state x class -> state` over a [`Classes`] partition of all
//! Unicode scalar values. Every DFA here is complete: a string that leaves the language for
//! good ends in a dead state, which is an ordinary state.
//!
//! The operations live one per file and the methods of [`Dfa`] only delegate:
//! `determinize.rs` (subset construction), `minimize.rs` (Hopcroft's state equivalence),
//! `canonical.rs` (quotient, class merging and canonical numbering). Operations that build
//! new languages from existing ones (concatenation, repetition) delegate to the `ops` module.
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
use crate::budget::{Budget, BudgetError};
use crate::error::Error;
use crate::nfa::Nfa;
use crate::ops;
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

    /// The canonical DFA of the empty language: one rejecting state, which is dead.
    pub(crate) fn empty_language() -> Dfa {
        let dead = StateId::from_index(0);
        Dfa { classes: Classes::single(), table: vec![dead], accepting: vec![false], start: dead }
    }

    /// The canonical DFA of {""}: an accepting start that every character leaves for the
    /// dead state.
    pub(crate) fn empty_string() -> Dfa {
        let [start, dead] = [0, 1].map(StateId::from_index);
        Dfa {
            classes: Classes::single(),
            table: vec![dead, dead],
            accepting: vec![true, false],
            start,
        }
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

    // Operations that build new languages.

    /// The concatenation of `self` and `other`: a string of `self` followed by one of
    /// `other`. The result is canonical, like every minimal DFA.
    ///
    /// # Errors
    /// When building the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let user = Dfa::from_regex("[a-z]+")?;
    /// let domain = Dfa::from_regex("@[a-z]+\\.org")?;
    /// let address = user.concat(&domain, &Budget::default())?;
    /// assert!(address.matches("ann@example.org"));
    /// assert_eq!(address, Dfa::from_regex("[a-z]+@[a-z]+\\.org")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn concat(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::concat(&[self, other], budget)
    }

    /// The concatenation of all `operands` in order: {""} when there are none, the empty
    /// language when one of them is empty.
    ///
    /// # Errors
    /// When building the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let year = Dfa::from_regex("[0-9]{4}")?;
    /// let month = Dfa::from_regex("-(0[1-9]|1[0-2])")?;
    /// let day = Dfa::from_regex("-[0-3][0-9]")?;
    /// let date = Dfa::concat_all(&[&year, &month, &day], &Budget::default())?;
    /// assert!(date.matches("2024-02-29"));
    /// assert!(!date.matches("2024-13-01"));
    /// assert_eq!(Dfa::concat_all(&[], &Budget::default())?, Dfa::from_regex("")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn concat_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::concat(operands, budget)
    }

    /// `self` repeated at least `min` and at most `max` times, like the pattern `x{min,max}`;
    /// `max: None` is unbounded, like `x{min,}`.
    ///
    /// Repeating the empty language or {""} is answered at once, whatever the counts; other
    /// languages are expanded copy by copy, so huge counts run into the budget.
    ///
    /// # Errors
    /// [`Error::InvalidRepetition`] when `min` is greater than `max`, [`Error::Budget`] when
    /// building the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let octet = Dfa::from_regex("[0-9]{1,3}")?;
    /// let dotted = Dfa::from_regex("\\.[0-9]{1,3}")?.repeat(3, Some(3), &Budget::default())?;
    /// let address = octet.concat(&dotted, &Budget::default())?;
    /// assert!(address.matches("192.168.0.1"));
    /// assert_eq!(address, Dfa::from_regex("[0-9]{1,3}(\\.[0-9]{1,3}){3}")?);
    ///
    /// let words = Dfa::from_regex("ab|c")?.repeat(1, None, &Budget::default())?;
    /// assert_eq!(words, Dfa::from_regex("(ab|c)+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn repeat(&self, min: u32, max: Option<u32>, budget: &Budget) -> Result<Dfa, Error> {
        ops::repeat(self, min, max, budget)
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
}
