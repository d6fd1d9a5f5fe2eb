//! The shortest-witness search shared by the DFA product and the subset construction.
//!
//! # Overview
//! Both walks discover states on the fly, breadth first from a start, over classes numbered
//! by their smallest member: the product of two DFAs (`ops/product.rs`, pairs of states) and
//! the subset construction of one NFA holding two languages side by side
//! (`dfa/determinize.rs`, sets of NFA states). Each implements [`Discovery`];
//! [`shortest_witness`] walks it to the first state where a predicate holds (built from a
//! [`BoolOp`] on the acceptance of both sides) and spells the string leading there.
//!
//! # Algorithm
//! States are expanded in discovery order and classes in ascending order, so states are
//! discovered in shortlex order of their discovery paths. Mapping each class of that path
//! to its smallest character gives a string that reaches the same state, and is the
//! shortlex minimum of all strings reaching a state where the predicate holds: the witness
//! is the *shortest, then smallest* one. The search stops at the first such state.
//!
//! # Budgets
//! The walks check the budget themselves, when a state is entered (deadline) and when a new
//! state is found (states, memory).

use crate::alphabet::{ClassId, Classes};
use crate::budget::BudgetError;
use crate::state_id::StateId;

/// How a pair of sides accepts, from whether each side accepts.
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
    /// Whether a pair where each side accepts as given accepts.
    pub(crate) fn accepts(self, left: bool, right: bool) -> bool {
        match self {
            BoolOp::Union => left || right,
            BoolOp::Intersection => left && right,
            BoolOp::Difference => left && !right,
            BoolOp::SymmetricDifference => left != right,
        }
    }
}

/// A breadth-first discovery of states, found on the fly: state 0 is the start, every new
/// state gets the next number.
pub(crate) trait Discovery {
    /// The classes states move on, numbered by their smallest member.
    fn classes(&self) -> &Classes;

    /// How many states are found so far.
    fn n_found(&self) -> usize;

    /// Starts expanding the found `state`: the next calls of [`Discovery::step`] move from it.
    fn enter(&mut self, state: StateId) -> Result<(), BudgetError>;

    /// The state the entered one moves to on `class` (found if new), and whether it is new.
    fn step(&mut self, class: ClassId) -> Result<(StateId, bool), BudgetError>;
}

/// The shortest, then smallest, string leading from the start to a state where
/// `is_witness` holds, or `None` when no reachable state satisfies it.
pub(crate) fn shortest_witness<D: Discovery>(
    walk: &mut D,
    is_witness: impl Fn(&D, StateId) -> bool,
) -> Result<Option<String>, BudgetError> {
    let [witness] = shortest_witnesses(walk, 1, |walk, state, found| {
        if is_witness(walk, state) {
            found(0);
        }
    })?
    .try_into()
    .expect("one goal");
    Ok(witness)
}

/// For each of `n_goals` goals, the shortest, then smallest, string leading from the start
/// to a state that satisfies it, or `None` when no reachable state does: one walk, which
/// stops once every goal has its witness. `goals_of(walk, state, found)` calls `found` with
/// each goal that `state` satisfies.
pub(crate) fn shortest_witnesses<D: Discovery>(
    walk: &mut D,
    n_goals: usize,
    goals_of: impl Fn(&D, StateId, &mut dyn FnMut(usize)),
) -> Result<Vec<Option<String>>, BudgetError> {
    let mut witnesses: Vec<Option<String>> = vec![None; n_goals];
    let mut missing = n_goals;
    // How each state was first reached: its parent and the class taken.
    let mut parents: Vec<Option<(StateId, ClassId)>> = vec![None];
    let mut settle = |walk: &D, parents: &[Option<(StateId, ClassId)>], state: StateId| {
        goals_of(walk, state, &mut |goal| {
            if witnesses[goal].is_none() {
                witnesses[goal] = Some(spell(walk.classes(), parents, state));
                missing -= 1;
            }
        });
        missing
    };
    if settle(walk, &parents, StateId::from_index(0)) == 0 {
        return Ok(witnesses);
    }
    let mut expanded = 0;
    while expanded < walk.n_found() {
        let state = StateId::from_index(expanded);
        walk.enter(state)?;
        for class_idx in 0..walk.classes().len() {
            let class = ClassId::new(class_idx);
            let (next, is_new) = walk.step(class)?;
            if !is_new {
                continue;
            }
            parents.push(Some((state, class)));
            if settle(walk, &parents, next) == 0 {
                return Ok(witnesses);
            }
        }
        expanded += 1;
    }
    Ok(witnesses)
}

/// The string of smallest class members along the discovery path of `state`.
fn spell(classes: &Classes, parents: &[Option<(StateId, ClassId)>], state: StateId) -> String {
    let path =
        std::iter::successors(parents[state.index()], |&(parent, _)| parents[parent.index()]);
    classes.spell_backwards(path.map(|(_, class)| class))
}
