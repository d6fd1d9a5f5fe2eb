//! The product of two DFAs: boolean operations and separating witnesses from one walk.
//!
//! # Overview
//! - [`product`] builds the DFA of `a op b` for a [`BoolOp`] (union, intersection,
//!   difference, symmetric difference) and minimizes it.
//! - [`separating_string`] walks the same pairs but only looks for the first pair whose
//!   acceptance satisfies a predicate, and returns the string leading there: the witness of
//!   non-emptiness, non-inclusion or non-equivalence. It stops at the first such pair.
//!
//! # Algorithm
//! The product alphabet is the common refinement of both DFAs' classes ([`PairClasses`],
//! one merge of their boundaries);
//! each product class lies in exactly one class of each side. Pairs of states are discovered
//! breadth first from the pair of start states, only those reachable ever being created
//! (on-the-fly product). Cost: O(pairs × product classes).
//!
//! Witnesses are the *shortest, then smallest* separating strings: the walk is a
//! [`Discovery`] for the search in `witness.rs`, which says why.
//!
//! # Budgets
//! Every new pair is checked against the state limit, the table memory and the deadline
//! ([`Operation::Product`]).

use rustc_hash::FxHashMap as HashMap;

use crate::alphabet::{ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::state_id::StateId;
use crate::witness::{BoolOp, Discovery, shortest_witness};

/// The DFA of `left op right`, minimized.
pub(crate) fn product(
    left: &Dfa,
    right: &Dfa,
    op: BoolOp,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    let graph = pair_graph(left, right, &[(left.start(), right.start())], budget)?;
    let accepting = graph
        .pairs
        .iter()
        .map(|&(l, r)| op.accepts(left.is_accepting(l), right.is_accepting(r)))
        .collect();
    let raw = Dfa::from_parts(graph.classes, graph.table, accepting);
    raw.minimize(budget)
}

/// The pairs of states reachable from some starting pairs, and the moves between them.
pub(crate) struct PairGraph {
    /// The common refinement of both sides' classes.
    pub(crate) classes: Classes,
    /// The pairs in discovery order: the starting pairs first, in the order given.
    pub(crate) pairs: Vec<(StateId, StateId)>,
    /// Row `i` holds the index of the pair that pair `i` moves to on each class.
    pub(crate) table: Vec<StateId>,
}

/// Every pair reachable from `starts` (distinct pairs), breadth first, with its moves.
pub(crate) fn pair_graph(
    left: &Dfa,
    right: &Dfa,
    starts: &[(StateId, StateId)],
    budget: &Budget,
) -> Result<PairGraph, BudgetError> {
    let mut walk = PairWalk::new(left, right, starts, budget)?;
    let n_classes = walk.classes.classes.len();
    let mut table = Vec::new();
    let mut pair_idx = 0;
    while let Some(&(left_state, right_state)) = walk.pairs.get(pair_idx) {
        budget.check_time(Operation::Product)?;
        for class_idx in 0..n_classes {
            let (next, _) = walk.move_pair(left_state, right_state, class_idx)?;
            table.push(next);
        }
        pair_idx += 1;
    }
    Ok(PairGraph { classes: walk.classes.classes, pairs: walk.pairs, table })
}

/// The shortest, then smallest, string leading to a pair where `found(left accepts, right
/// accepts)` holds, or `None` when no reachable pair satisfies it.
pub(crate) fn separating_string(
    left: &Dfa,
    right: &Dfa,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    let mut walk = PairWalk::new(left, right, &[(left.start(), right.start())], budget)?;
    shortest_witness(&mut walk, |walk, pair| {
        let (l, r) = walk.pairs[pair.index()];
        found.accepts(left.is_accepting(l), right.is_accepting(r))
    })
}

impl Dfa {
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
        separating_string(self, other, BoolOp::SymmetricDifference, budget)
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
        separating_string(self, other, BoolOp::Difference, budget)
    }
}

/// The common refinement of two DFAs' classes: for each product class, the class of each
/// side that contains it.
struct PairClasses {
    classes: Classes,
    left: Vec<ClassId>,
    right: Vec<ClassId>,
}

impl PairClasses {
    fn new(left: &Classes, right: &Classes, budget: &Budget) -> Result<PairClasses, BudgetError> {
        let (classes, rows) = Classes::refinement(&[left, right], budget)?;
        let (left, right) = rows.chunks_exact(2).map(|row| (row[0], row[1])).unzip();
        Ok(PairClasses { classes, left, right })
    }
}

/// The pairs discovered so far, in discovery order, and the lookup from pair to index.
struct PairWalk<'a> {
    left: &'a Dfa,
    right: &'a Dfa,
    budget: &'a Budget,
    classes: PairClasses,
    pairs: Vec<(StateId, StateId)>,
    ids: HashMap<(StateId, StateId), StateId>,
    /// The pair [`Discovery::step`] moves from.
    entered: (StateId, StateId),
}

impl<'a> PairWalk<'a> {
    /// A walk that has found `starts` (distinct pairs), in order; the first is entered.
    fn new(
        left: &'a Dfa,
        right: &'a Dfa,
        starts: &[(StateId, StateId)],
        budget: &'a Budget,
    ) -> Result<PairWalk<'a>, BudgetError> {
        let classes = PairClasses::new(left.classes(), right.classes(), budget)?;
        budget.check_states(Operation::Product, starts.len())?;
        let mut ids = HashMap::default();
        for (idx, &start) in starts.iter().enumerate() {
            let previous = ids.insert(start, StateId::new(idx, Operation::Product)?);
            debug_assert!(previous.is_none(), "starting pairs are distinct");
        }
        let entered = starts[0];
        Ok(PairWalk { left, right, budget, classes, pairs: starts.to_vec(), ids, entered })
    }

    /// The pair reached from `(left_state, right_state)` on product class `class_idx`, and
    /// whether it is new.
    fn move_pair(
        &mut self,
        left_state: StateId,
        right_state: StateId,
        class_idx: usize,
    ) -> Result<(StateId, bool), BudgetError> {
        let target = (
            self.left.next_state(left_state, self.classes.left[class_idx]),
            self.right.next_state(right_state, self.classes.right[class_idx]),
        );
        if let Some(&id) = self.ids.get(&target) {
            return Ok((id, false));
        }
        let n_pairs = self.pairs.len() + 1;
        let id = StateId::new(self.pairs.len(), Operation::Product)?;
        self.budget.check_states(Operation::Product, n_pairs)?;
        let row_bytes = self.classes.classes.len() * size_of::<StateId>();
        self.budget.check_memory(Operation::Product, n_pairs.saturating_mul(row_bytes))?;
        self.pairs.push(target);
        self.ids.insert(target, id);
        Ok((id, true))
    }
}

impl Discovery for PairWalk<'_> {
    fn classes(&self) -> &Classes {
        &self.classes.classes
    }

    fn n_found(&self) -> usize {
        self.pairs.len()
    }

    fn enter(&mut self, pair: StateId) -> Result<(), BudgetError> {
        self.budget.check_time(Operation::Product)?;
        self.entered = self.pairs[pair.index()];
        Ok(())
    }

    fn step(&mut self, class: ClassId) -> Result<(StateId, bool), BudgetError> {
        let (left_state, right_state) = self.entered;
        self.move_pair(left_state, right_state, class.index())
    }
}
