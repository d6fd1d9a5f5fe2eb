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
//! The product alphabet is the common refinement of both DFAs' classes ([`PairClasses`]);
//! each product class lies in exactly one class of each side. Pairs of states are discovered
//! breadth first from the pair of start states, only those reachable ever being created
//! (on-the-fly product). Cost: O(pairs × product classes).
//!
//! Witnesses are the *shortest, then smallest* separating strings. Product classes are
//! numbered by their smallest character, and the walk expands pairs in discovery order and
//! classes in ascending order, so pairs are discovered in shortlex order of their discovery
//! paths. Mapping each class of that path to its smallest character gives a string that
//! separates the same way (it follows the same states) and is the shortlex minimum of all
//! separating strings.
//!
//! # Budgets
//! Every new pair is checked against the state limit, the table memory and the deadline
//! ([`Operation::Product`]).

use rustc_hash::FxHashMap as HashMap;

use crate::alphabet::{CharSet, ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::state_id::StateId;

/// How a pair of states accepts, from whether each side accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoolOp {
    Union,
    Intersection,
    /// Left and not right.
    Difference,
    /// Exactly one side: the pairs that tell two languages apart.
    SymmetricDifference,
}

impl BoolOp {
    pub(crate) fn accepts(self, left: bool, right: bool) -> bool {
        match self {
            BoolOp::Union => left || right,
            BoolOp::Intersection => left && right,
            BoolOp::Difference => left && !right,
            BoolOp::SymmetricDifference => left != right,
        }
    }
}

/// The DFA of `left op right`, minimized.
pub(crate) fn product(
    left: &Dfa,
    right: &Dfa,
    op: BoolOp,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    let mut walk = PairWalk::new(left, right, budget)?;
    let n_classes = walk.classes.classes.len();
    let mut table = Vec::new();
    let mut pair_idx = 0;
    while let Some(&(left_state, right_state)) = walk.pairs.get(pair_idx) {
        budget.check_time(Operation::Product)?;
        for class_idx in 0..n_classes {
            let (next, _) = walk.step(left_state, right_state, class_idx)?;
            table.push(next);
        }
        pair_idx += 1;
    }
    let accepting = walk
        .pairs
        .iter()
        .map(|&(l, r)| op.accepts(left.is_accepting(l), right.is_accepting(r)))
        .collect();
    let raw = Dfa::from_parts(walk.classes.classes, table, accepting);
    raw.minimize(budget)
}

/// The shortest, then smallest, string leading to a pair where `found(left accepts, right
/// accepts)` holds, or `None` when no reachable pair satisfies it.
pub(crate) fn separating_string(
    left: &Dfa,
    right: &Dfa,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    let satisfied =
        |(l, r): (StateId, StateId)| found.accepts(left.is_accepting(l), right.is_accepting(r));
    let mut walk = PairWalk::new(left, right, budget)?;
    // How each pair was first reached: its parent pair and the class taken.
    let mut parents: Vec<Option<(StateId, usize)>> = vec![None];
    if satisfied(walk.pairs[0]) {
        return Ok(Some(String::new()));
    }
    let n_classes = walk.classes.classes.len();
    let mut pair_idx = 0;
    while let Some(&(left_state, right_state)) = walk.pairs.get(pair_idx) {
        budget.check_time(Operation::Product)?;
        let parent = StateId::from_index(pair_idx);
        for class_idx in 0..n_classes {
            let (next, is_new) = walk.step(left_state, right_state, class_idx)?;
            if !is_new {
                continue;
            }
            parents.push(Some((parent, class_idx)));
            if satisfied(walk.pairs[next.index()]) {
                return Ok(Some(walk.spell(&parents, next)));
            }
        }
        pair_idx += 1;
    }
    Ok(None)
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
        let labels: Vec<&CharSet> = left.iter().chain(right.iter()).map(|(_, set)| set).collect();
        let (classes, classes_of_label) = Classes::new(&labels, budget)?;
        let mut left_of = vec![ClassId::new(0); classes.len()];
        let mut right_of = vec![ClassId::new(0); classes.len()];
        for (label_idx, members) in classes_of_label.iter().enumerate() {
            let (side, own_class) = match label_idx.checked_sub(left.len()) {
                None => (&mut left_of, label_idx),
                Some(right_idx) => (&mut right_of, right_idx),
            };
            for member in members {
                side[member.index()] = ClassId::new(own_class);
            }
        }
        Ok(PairClasses { classes, left: left_of, right: right_of })
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
}

impl<'a> PairWalk<'a> {
    fn new(left: &'a Dfa, right: &'a Dfa, budget: &'a Budget) -> Result<PairWalk<'a>, BudgetError> {
        let classes = PairClasses::new(left.classes(), right.classes(), budget)?;
        let start = (left.start(), right.start());
        let pairs = vec![start];
        let ids = HashMap::from_iter([(start, StateId::from_index(0))]);
        Ok(PairWalk { left, right, budget, classes, pairs, ids })
    }

    /// The pair reached from `(left_state, right_state)` on product class `class_idx`, and
    /// whether it is new.
    fn step(
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

    /// The string of smallest characters along the discovery path of `pair`.
    fn spell(&self, parents: &[Option<(StateId, usize)>], pair: StateId) -> String {
        let mut reversed = Vec::new();
        let mut current = pair;
        while let Some((parent, class_idx)) = parents[current.index()] {
            let class = self.classes.classes.class(ClassId::new(class_idx));
            reversed.extend(class.and_then(CharSet::first));
            current = parent;
        }
        reversed.into_iter().rev().collect()
    }
}
