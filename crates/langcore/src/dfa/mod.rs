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
//! new languages from existing ones delegate to the `ops` module.
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
mod minimize;

use crate::alphabet::{ClassId, Classes};
use crate::analysis::{self, Cardinality};
use crate::budget::{Budget, BudgetError};
use crate::dialect::Dialect;
use crate::dot;
use crate::enumerate::{self, GenerateOptions};
use crate::error::Error;
use crate::graph::{self, Graph};
use crate::nfa::Nfa;
use crate::ops;
use crate::ops::product::BoolOp;
use crate::state_id::StateId;
use crate::to_regex;

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
    /// The canonical minimal DFA of `pattern`, under the default [`Budget`].
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when an automaton
    /// would exceed the default budget.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("[0-9]+(\\.[0-9]+)?")?;
    /// assert!(dfa.matches("3.14") && !dfa.matches("3."));
    /// assert_eq!(dfa, Dfa::from_regex("[0-9]+|[0-9]+\\.[0-9]+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex(pattern: &str) -> Result<Dfa, Error> {
        Dfa::from_regex_with(pattern, &Budget::default())
    }

    /// The canonical minimal DFA of `pattern`, stopping when `budget` runs out.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when an automaton
    /// would exceed `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default().with_max_states(1_000);
    /// assert!(Dfa::from_regex_with("[a-z]+@[a-z]+", &budget)?.matches("ann@example"));
    /// assert!(Dfa::from_regex_with("(a|b)*a(a|b){20}", &budget).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex_with(pattern: &str, budget: &Budget) -> Result<Dfa, Error> {
        let nfa = Nfa::from_regex_with(pattern, budget)?;
        Ok(Dfa::from_nfa(&nfa, budget)?)
    }

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
        Dfa::determinize(nfa, budget)?.minimize(budget)
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

    // Boolean operations.

    /// The strings in `self` or in `other`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let either = Dfa::from_regex("a+")?.union(&Dfa::from_regex("b+")?, &budget)?;
    /// assert_eq!(either, Dfa::from_regex("a+|b+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product exceeds `budget`.
    pub fn union(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::boolean::union_all(&[self, other], budget)
    }

    /// The strings in any of `operands`; the empty language for none.
    ///
    /// # Errors
    /// When a product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let [a, b, c] = ["a+", "b+", "c"].map(Dfa::from_regex);
    /// assert_eq!(Dfa::union_all(&[&a?, &b?, &c?], &budget)?, Dfa::from_regex("a+|b+|c")?);
    /// assert_eq!(Dfa::union_all(&[], &budget)?, Dfa::empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn union_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::boolean::union_all(operands, budget)
    }

    /// The strings in both `self` and `other`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let both = Dfa::from_regex("(abc|de){2}")?.intersection(&Dfa::from_regex("de.*")?, &budget)?;
    /// assert_eq!(both, Dfa::from_regex("de(abc|de)")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product exceeds `budget`.
    pub fn intersection(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::boolean::intersection_all(&[self, other], budget)
    }

    /// The strings in every one of `operands`; all strings for none. Stops early once the
    /// intersection is empty.
    ///
    /// # Errors
    /// When a product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let [short, digit, upper] = ["[A-Z0-9]{2}", ".*[0-9].*", ".*[A-Z].*"].map(Dfa::from_regex);
    /// let rule = Dfa::intersection_all(&[&short?, &digit?, &upper?], &budget)?;
    /// assert_eq!(rule, Dfa::from_regex("[A-Z][0-9]|[0-9][A-Z]")?);
    /// assert_eq!(Dfa::intersection_all(&[], &budget)?, Dfa::total());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn intersection_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::boolean::intersection_all(operands, budget)
    }

    /// The strings in `self` but not in `other`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let rest = Dfa::from_regex("[a-z]")?.difference(&Dfa::from_regex("[aeiou]")?, &budget)?;
    /// assert!(rest.matches("b") && !rest.matches("e"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product exceeds `budget`.
    pub fn difference(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::boolean::difference(self, other, budget)
    }

    /// All strings over all Unicode scalar values that are not in `self`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let not_a = Dfa::from_regex("a")?.complement(&Budget::default())?;
    /// assert!(not_a.matches("") && not_a.matches("aa") && !not_a.matches("a"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When minimization exceeds `budget`.
    pub fn complement(&self, budget: &Budget) -> Result<Dfa, BudgetError> {
        ops::boolean::complement(self, budget)
    }

    // Relations between languages.

    /// Whether `self` and `other` have the same strings.
    ///
    /// # Errors
    /// When the product walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let a = Dfa::from_regex("(a|b)*abb")?;
    /// assert!(a.is_equivalent(&Dfa::from_regex("[ab]*abb")?, &budget)?);
    /// assert!(!a.is_equivalent(&Dfa::from_regex("[ab]*bb")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_equivalent(&self, other: &Dfa, budget: &Budget) -> Result<bool, BudgetError> {
        Ok(self.equivalence_witness(other, budget)?.is_none())
    }

    /// The shortest, then smallest, string in exactly one of `self` and `other`, or `None`
    /// when they are equivalent. Stops at the first difference.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let witness = Dfa::from_regex("a*")?.equivalence_witness(&Dfa::from_regex("a+")?, &budget)?;
    /// assert_eq!(witness.as_deref(), Some(""));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product walk exceeds `budget`.
    pub fn equivalence_witness(
        &self,
        other: &Dfa,
        budget: &Budget,
    ) -> Result<Option<String>, BudgetError> {
        ops::product::separating_string(self, other, BoolOp::SymmetricDifference, budget)
    }

    /// Whether every string of `self` is in `other`.
    ///
    /// # Errors
    /// When the product walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let digits = Dfa::from_regex("[0-9]+")?;
    /// assert!(digits.is_subset(&Dfa::from_regex("\\d+")?, &budget)?);
    /// assert!(!digits.is_subset(&Dfa::from_regex("[0-9]{1,3}")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_subset(&self, other: &Dfa, budget: &Budget) -> Result<bool, BudgetError> {
        Ok(self.subset_witness(other, budget)?.is_none())
    }

    /// The shortest, then smallest, string in `self` but not in `other`, or `None` when
    /// `self` is a subset of `other`. Stops at the first such string.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let words = Dfa::from_regex("[a-z]+")?;
    /// assert_eq!(words.subset_witness(&Dfa::from_regex("[a-y]*")?, &budget)?.as_deref(), Some("z"));
    /// assert_eq!(Dfa::from_regex("abc")?.subset_witness(&words, &budget)?, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product walk exceeds `budget`.
    pub fn subset_witness(
        &self,
        other: &Dfa,
        budget: &Budget,
    ) -> Result<Option<String>, BudgetError> {
        ops::product::separating_string(self, other, BoolOp::Difference, budget)
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

    // Exchange.

    /// This DFA as a [`Graph`], compact for storage: only states that can still accept,
    /// numbered breadth first from the start (state 0); no moves into the dead state; the
    /// classes leading from a state to one target merged into one label. The graph is
    /// deterministic, and for a canonical DFA it depends only on the language.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let graph = Dfa::from_regex("[a-z]+@[a-z]+")?.to_graph();
    /// assert_eq!(graph.n_states(), 4, "no dead state");
    /// assert_eq!(graph.n_moves(), 5, "one move per target: `[a-z]` loops on two states");
    /// assert!(graph.is_deterministic());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_graph(&self) -> Graph {
        graph::dfa_to_graph(self)
    }

    /// The canonical minimal DFA of a deterministic `graph`, completed with a dead state.
    ///
    /// # Errors
    /// [`Error::Graph`] with [`GraphError::NotDeterministic`](crate::graph::GraphError) when
    /// a state has two moves on a common character (use [`Nfa::from_graph`] for those), and
    /// [`Error::Budget`] when determinization or minimization exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let dfa = Dfa::from_regex("(abc|de){2}")?;
    /// assert_eq!(Dfa::from_graph(&dfa.to_graph(), &Budget::default())?, dfa);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_graph(graph: &Graph, budget: &Budget) -> Result<Dfa, Error> {
        graph::dfa_from_graph(graph, budget)
    }

    // Conversions.

    /// A short pattern for the language, exact in our dialect (the contract's).
    ///
    /// The pattern is found by state elimination on the minimal DFA (and on that of the
    /// reversed language) in several cost-guided orders, simplified algebraically and then by
    /// verified rewrites; the shortest wins. It is printable ASCII: metacharacters are
    /// escaped, other characters written `\xHH`, `\uHHHH` or `\UHHHHHHHH`; sets take their
    /// shortest spelling (`\w`, `[^\s>]`, `\p{Greek}`, `[\pL--a]`), the full set is `.`;
    /// plain groups and no anchors. The empty language is `[]` and {""} is the empty pattern.
    ///
    /// # Errors
    /// When the deadline of `budget` passes before a first pattern is found (later, the best
    /// pattern so far is returned instead), when the pattern would exceed the memory limit,
    /// or, for pathological automata, when it would nest deeper than the dialect allows
    /// ([`BudgetError::TooDeep`]).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// assert_eq!(Dfa::from_regex("(a|b)*abb")?.to_pattern(&budget)?, "[ab]*abb");
    /// let both = Dfa::from_regex("(abc|de|fg){2,}")?.intersection(&Dfa::from_regex("de.*")?, &budget)?;
    /// assert_eq!(both.to_pattern(&budget)?, "de(abc|de|fg)+");
    /// assert_eq!(Dfa::from_regex("[]")?.to_pattern(&budget)?, "[]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pattern(&self, budget: &Budget) -> Result<String, BudgetError> {
        self.to_pattern_in(Dialect::Rust, budget)
    }

    /// A pattern for the language, exact and valid in `dialect` (see
    /// [`to_pattern`](Dfa::to_pattern), which is this in [`Dialect::Rust`]). Character
    /// sets are spelled with what `dialect` reads the same way everywhere: in Python, ranges
    /// only; in JavaScript (without the `u` flag), surrogate pairs above U+FFFF.
    ///
    /// # Errors
    /// As [`to_pattern`](Dfa::to_pattern).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Dialect};
    ///
    /// let budget = Budget::default();
    /// let digits = Dfa::from_regex(r"\d+")?;
    /// assert_eq!(digits.to_pattern_in(Dialect::Rust, &budget)?, r"\d+");
    /// let ascii = Dfa::from_regex("[0-9]+")?;
    /// assert_eq!(ascii.to_pattern_in(Dialect::Js, &budget)?, r"\d+");
    /// assert_eq!(ascii.to_pattern_in(Dialect::Python, &budget)?, "[0-9]+");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pattern_in(&self, dialect: Dialect, budget: &Budget) -> Result<String, BudgetError> {
        to_regex::to_pattern(self, dialect, budget)
    }

    /// The Graphviz DOT text of the minimal automaton: canonical state numbers, accepting
    /// states as double circles, the dead state left out, one edge per pair of states
    /// labelled with its character set. Equivalent DFAs give identical text.
    ///
    /// # Errors
    /// When minimization exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let dot = Dfa::from_regex("ab*")?.to_dot(&Budget::default())?;
    /// assert!(dot.contains("1 [shape=doublecircle];"));
    /// assert!(dot.contains(r#"1 -> 1 [label="b"];"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_dot(&self, budget: &Budget) -> Result<String, BudgetError> {
        dot::to_dot(self, budget)
    }

    // Strings of the language.

    /// One page of the strings of the language, in the order `options` chooses: up to
    /// `options.limit()` distinct strings, skipping the first `options.offset()`.
    ///
    /// Every string is in the language, has a length in `options`' band and only characters
    /// of its charset; only such strings count for the offset. The order depends only on
    /// the language (after restriction to the charset) and the options, never on how the
    /// DFA was built, so pages of any size concatenate without gaps or repeats, and
    /// equivalent DFAs give identical pages. [`GenerateOptions`], [`PathOrder`](crate::PathOrder)
    /// and [`CharOrder`](crate::CharOrder) define the orders.
    ///
    /// Skipped strings are counted, never built: a page costs count tables up to the length
    /// it reaches, then a walk down the automaton per page (sweep) or per string (the other
    /// orders), whatever the offset. In the interleaved orders, offsets past the first round
    /// (one string per path) also search for their round by counting paths by size.
    ///
    /// # Errors
    /// When building the restricted automaton or the count tables (one big integer per state
    /// and length up to the longest length generated) exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, CharOrder, Dfa, GenerateOptions, PathOrder};
    ///
    /// let budget = Budget::default();
    /// let words = Dfa::from_regex("[a-z]{8}")?;
    /// let page = GenerateOptions::default().with_limit(2).with_offset(10_000_000_000);
    /// // 10^10 is "bgjqzrkq" in base 26, with a..z as the digits.
    /// assert_eq!(words.generate(&page, &budget)?, ["bgjqzrkq", "bgjqzrkr"]);
    ///
    /// let ids = Dfa::from_regex("x[0-9]{2}|y[0-9]")?;
    /// let first = GenerateOptions::default().with_limit(4);
    /// assert_eq!(ids.generate(&first, &budget)?, ["y0", "y1", "y2", "y3"]);
    /// let mixed = first.with_path_order(PathOrder::Interleave);
    /// assert_eq!(ids.generate(&mixed, &budget)?, ["y0", "x00", "y1", "x01"]);
    /// let seeded = mixed.with_char_order(CharOrder::Shuffled).with_seed(7);
    /// assert_eq!(ids.generate(&seeded, &budget)?, ids.generate(&seeded, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate(
        &self,
        options: &GenerateOptions,
        budget: &Budget,
    ) -> Result<Vec<String>, Error> {
        enumerate::generate(self, options, budget)
    }
}
