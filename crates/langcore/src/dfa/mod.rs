//! Complete deterministic automata over character classes, and their canonical minimal form.
//!
//! # Overview
//! [`Dfa`] is a dense table `state x class -> state` over a [`Classes`] partition of all
//! Unicode scalar values. Every DFA here is complete: a string that leaves the language for
//! good ends in a dead state, which is an ordinary state.
//!
//! This module holds the type, its table accessors, its constructors and the two passes
//! every construction ends with: `determinize.rs` (subset construction), `minimize.rs`
//! (Hopcroft's state equivalence), `canonical.rs` (quotient, class merging and canonical
//! numbering). Every other method of [`Dfa`] lives in an `impl Dfa` block next to the code
//! that implements it, in a module above this one: `ops` (union, intersection, difference,
//! complement, concatenation, repetition, subset and equivalence witnesses), `analysis`
//! (emptiness, lengths, cardinality), `graph` (`to_graph`, `from_graph`), `to_regex`
//! (`to_pattern`), `dot` (`to_dot`) and `enumerate` (`generate`). This module imports none
//! of them.
//!
//! # Invariants
//! - `table.len() == n_states * classes.len()` and every entry is below `n_states`.
//! - After [`Dfa::minimize`] (and so from [`Dfa::from_regex`]), the DFA is *canonical*: no two
//!   states are equivalent, every state is reachable, no two classes behave alike in every
//!   state, classes are ordered by their smallest character, and states are numbered in
//!   breadth-first order from the start (state 0), visiting classes in order. Two equivalent
//!   languages therefore give equal (`==`) DFAs.

mod canonical;
pub(crate) mod determinize;
pub(crate) mod fragment;
mod minimize;
mod simulation;
mod subsets;
pub(crate) mod trim;

use std::borrow::Cow;

use crate::alphabet::{ClassId, Classes};
use crate::budget::{Budget, BudgetError};
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
#[derive(Clone, Debug)]
pub struct Dfa {
    classes: Classes,
    table: Vec<StateId>,
    accepting: Vec<bool>,
    start: StateId,
    /// Known to be canonical (minimized, see the module invariants), so that minimizing
    /// again is a copy. Not part of equality: it records history, not the automaton.
    canonical: bool,
}

/// Equal automata: same classes, table, acceptance and start.
impl PartialEq for Dfa {
    fn eq(&self, other: &Dfa) -> bool {
        self.start == other.start
            && self.accepting == other.accepting
            && self.classes == other.classes
            && self.table == other.table
    }
}

impl Eq for Dfa {}

impl Dfa {
    /// The canonical minimal DFA of `nfa`'s language.
    ///
    /// # Errors
    /// When determinization or minimization exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Nfa};
    ///
    /// let nfa = Nfa::from_regex("a|aa+")?;
    /// assert_eq!(Dfa::from_nfa(&nfa, &Budget::default())?, Dfa::from_regex("a+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_nfa(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        Dfa::determinize(nfa, budget)?.into_minimal(budget)
    }

    /// [`Dfa::from_nfa`] for a caller with another road when the DFA does not fit: when the
    /// first subset construction stops at its state limit (8 states per NFA state, plus
    /// 4,096) holding more than half the memory limit, it fails with
    /// [`BudgetError::TooMuchMemory`] at once instead of computing a simulation and
    /// starting again with reduced subsets, which pays only when the reduction collapses
    /// the construction. Generation takes this road (`language/mod.rs`).
    ///
    /// # Errors
    /// As [`Dfa::from_nfa`], and the early failure above.
    pub(crate) fn from_nfa_unless_full(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        determinize::determinize_unless_full(nfa, budget, budget.max_memory() / 2)?
            .into_minimal(budget)
    }

    /// The empty language: no string at all. Canonical and minimal.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(!Dfa::empty().matches(""));
    /// assert_eq!(Dfa::empty(), Dfa::from_regex("[]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn empty() -> Dfa {
        Dfa::from_parts(Classes::single(), vec![StateId::from_index(0)], vec![false])
            .into_canonical()
    }

    /// The language of all strings. Canonical and minimal.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::total().matches("any\ntext"));
    /// assert_eq!(Dfa::total(), Dfa::from_regex(".*")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn total() -> Dfa {
        Dfa::empty().complemented()
    }

    /// The language {""}: an accepting start that every character leaves for the dead state.
    /// Canonical and minimal.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::empty_string().matches("") && !Dfa::empty_string().matches("a"));
    /// assert_eq!(Dfa::empty_string(), Dfa::from_regex("")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn empty_string() -> Dfa {
        let dead = StateId::from_index(1);
        Dfa::from_parts(Classes::single(), vec![dead, dead], vec![true, false]).into_canonical()
    }

    /// A DFA from its table, with state 0 as the start. The caller guarantees the table
    /// invariants (see the module docs).
    pub(crate) fn from_parts(classes: Classes, table: Vec<StateId>, accepting: Vec<bool>) -> Dfa {
        debug_assert_eq!(table.len(), classes.len() * accepting.len());
        Dfa { classes, table, accepting, start: StateId::from_index(0), canonical: false }
    }

    /// Whether the DFA is known to be canonical, so that [`Dfa::minimize`] would copy it.
    pub(crate) fn is_canonical(&self) -> bool {
        self.canonical
    }

    /// Marks a DFA its builder knows to be canonical.
    pub(crate) fn into_canonical(self) -> Dfa {
        Dfa { canonical: true, ..self }
    }

    /// The same automaton with acceptance swapped: the complement. Canonical stays
    /// canonical (complement keeps the state equivalence, the numbering and the columns).
    pub(crate) fn complemented(&self) -> Dfa {
        Dfa {
            accepting: self.accepting.iter().map(|&accepting| !accepting).collect(),
            ..self.clone()
        }
    }

    /// The same moves with `accepting` as the accepting states, by state; not minimized.
    pub(crate) fn with_accepting(&self, accepting: Vec<bool>) -> Dfa {
        debug_assert_eq!(accepting.len(), self.accepting.len());
        Dfa { accepting, canonical: false, ..self.clone() }
    }

    /// The subset construction of `nfa`, not minimized: one state per reachable set of NFA
    /// states.
    ///
    /// # Errors
    /// When the DFA would exceed `budget`'s states or deadline.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Nfa};
    ///
    /// let budget = Budget::default();
    /// let dfa = Dfa::determinize(&Nfa::from_regex("ab|ac")?, &budget)?;
    /// assert!(dfa.matches("ac") && !dfa.matches("a"));
    /// assert_eq!(dfa.minimize(&budget)?, Dfa::from_regex("a[bc]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn determinize(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        determinize::determinize(nfa, budget)
    }

    /// The canonical minimal DFA of the same language (see the module invariants).
    ///
    /// # Errors
    /// When the deadline of `budget` passes.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Nfa};
    ///
    /// let budget = Budget::default();
    /// let subsets = Dfa::determinize(&Nfa::from_regex("a*|b*|(a|b)*")?, &budget)?;
    /// let minimal = subsets.minimize(&budget)?;
    /// assert!(minimal.n_states() < subsets.n_states());
    /// assert_eq!(minimal, Dfa::from_regex("[ab]*")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimize(&self, budget: &Budget) -> Result<Dfa, BudgetError> {
        if self.canonical {
            return Ok(self.clone());
        }
        canonical::minimize(Cow::Borrowed(self), budget)
    }

    /// [`Dfa::minimize`] of a DFA the caller gives up: when no two classes merge, its
    /// classes are moved, not copied (a class of `\w` is hundreds of ranges).
    pub(crate) fn into_minimal(self, budget: &Budget) -> Result<Dfa, BudgetError> {
        if self.canonical {
            return Ok(self);
        }
        canonical::minimize(Cow::Owned(self), budget)
    }

    /// Whether `input` is in the language.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("[a-z]+@[a-z]+\\.org")?;
    /// assert!(dfa.matches("ann@example.org"));
    /// assert!(!dfa.matches("ann@example.org "), "patterns are anchored at both ends");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn matches(&self, input: &str) -> bool {
        let end = input
            .chars()
            .fold(self.start, |state, ch| self.next_state(state, self.classes.class_of(ch)));
        self.is_accepting(end)
    }

    /// The number of states, the dead state included.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// // Before, after `a`, after `ab`, after `abc`, and the dead state.
    /// assert_eq!(Dfa::from_regex("abc")?.n_states(), 5);
    /// assert_eq!(Dfa::total().n_states(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn n_states(&self) -> usize {
        self.accepting.len()
    }

    /// The bytes the automaton holds on the heap: its table, acceptance and classes.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.table.len() * size_of::<StateId>() + self.accepting.len() + self.classes.heap_bytes()
    }

    /// Every state, in numbering order.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("a|bc")?;
    /// assert_eq!(dfa.states().len(), dfa.n_states());
    /// assert_eq!(dfa.states().filter(|&state| dfa.is_accepting(state)).count(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..self.n_states()).map(StateId::from_index)
    }

    /// The character classes that label the transitions.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("[a-z]+[0-9]")?;
    /// // Letters, digits, and every other character.
    /// assert_eq!(dfa.classes().len(), 3);
    /// assert_eq!(dfa.classes().class_of('x'), dfa.classes().class_of('a'));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn classes(&self) -> &Classes {
        &self.classes
    }

    /// The start state.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("a*")?;
    /// assert!(dfa.is_accepting(dfa.start()));
    /// assert!(!Dfa::from_regex("a+")?.is_accepting(dfa.start()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(&self) -> StateId {
        self.start
    }

    /// Whether `state` accepts.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("ab")?;
    /// let after_a = dfa.next_state(dfa.start(), dfa.classes().class_of('a'));
    /// assert!(!dfa.is_accepting(after_a));
    /// assert!(dfa.is_accepting(dfa.next_state(after_a, dfa.classes().class_of('b'))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_accepting(&self, state: StateId) -> bool {
        self.accepting[state.index()]
    }

    /// The state reached from `state` on any character of `class`.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("[0-9]+")?;
    /// let class = dfa.classes().class_of('7');
    /// let after_digit = dfa.next_state(dfa.start(), class);
    /// assert_eq!(dfa.next_state(after_digit, class), after_digit, "a loop on digits");
    /// assert!(dfa.is_accepting(after_digit));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn next_state(&self, state: StateId, class: ClassId) -> StateId {
        self.table[state.index() * self.classes.len() + class.index()]
    }
}
