//! Which of several languages overlap, and on what string: for every pair that
//! intersects, its shortest, then smallest, common string.
//!
//! # Algorithm
//! One breadth-first walk of the product of all the DFAs (tuples of states, discovered on
//! the fly over the common refinement of their classes), stopping once every pair has its
//! witness: the first tuple found where both members of a pair accept spells that pair's
//! witness (`witness.rs` says why the discovery order makes it the shortest, then smallest).
//! A tuple is one walk for all `n(n-1)/2` pairs, but the tuples can multiply; the walk is
//! therefore capped at the states the pairwise products could need together (the sum of
//! `|A|·|B|` over the pairs still open), and past that cap the pairs it has not settled get
//! one product walk each (`product.rs`), as subset and equivalence do.
//!
//! # Budgets
//! Tuples count as [`Operation::Product`] (states, memory of their rows, deadline per tuple);
//! the pairwise walks check their own.

use rustc_hash::FxHashMap as HashMap;

use super::product::separating_string;
use crate::alphabet::{ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::state_id::StateId;
use crate::witness::{BoolOp, Discovery, shortest_witnesses};

/// Two languages that share a string: their indices and their shortest, then smallest,
/// common string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Overlap {
    /// The index of the first language, below `right`.
    pub left: usize,
    /// The index of the second language.
    pub right: usize,
    /// The shortest, then smallest, string of both.
    pub witness: String,
}

/// Every pair of `dfas` that intersects, by `left` then `right`, with its witness.
pub(crate) fn overlaps(dfas: &[&Dfa], budget: &Budget) -> Result<Vec<Overlap>, BudgetError> {
    let pairwise_states = pairs(dfas.len())
        .map(|(left, right)| dfas[left].n_states().saturating_mul(dfas[right].n_states()))
        .fold(0, usize::saturating_add);
    overlaps_within(dfas, pairwise_states, budget)
}

/// The pairs of `n` languages, by `left` then `right`.
fn pairs(n: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..n).flat_map(move |left| (left + 1..n).map(move |right| (left, right)))
}

/// [`overlaps`], with the joint walk capped at `cap` tuples.
fn overlaps_within(
    dfas: &[&Dfa],
    cap: usize,
    budget: &Budget,
) -> Result<Vec<Overlap>, BudgetError> {
    let pairs: Vec<(usize, usize)> = pairs(dfas.len()).collect();
    let joint = budget.with_max_states(cap.min(budget.max_states()));
    let found = TupleWalk::new(dfas, &joint).and_then(|mut walk| {
        shortest_witnesses(&mut walk, pairs.len(), |walk, tuple, found| {
            let states = walk.tuple(tuple);
            for (goal, &(left, right)) in pairs.iter().enumerate() {
                if dfas[left].is_accepting(states[left]) && dfas[right].is_accepting(states[right])
                {
                    found(goal);
                }
            }
        })
    });
    // Past the cap (not the budget's own limit), each pair gets its own walk.
    let settled = match found {
        Ok(found) => found.into_iter().map(Some).collect(),
        Err(BudgetError::TooManyStates { limit, .. }) if limit < budget.max_states() => {
            vec![None; pairs.len()]
        }
        Err(err) => return Err(err),
    };
    let mut out = Vec::new();
    for (&(left, right), settled) in pairs.iter().zip(settled) {
        let witness = match settled {
            Some(witness) => witness,
            None => separating_string(dfas[left], dfas[right], BoolOp::Intersection, budget)?,
        };
        out.extend(witness.map(|witness| Overlap { left, right, witness }));
    }
    Ok(out)
}

/// The tuples of states discovered so far, stored flat, and the lookup from tuple to index.
struct TupleWalk<'a> {
    dfas: &'a [&'a Dfa],
    budget: &'a Budget,
    classes: Classes,
    /// For each common class, the class of each DFA containing it: row `c` of `n` entries.
    class_of: Vec<ClassId>,
    tuples: Vec<StateId>,
    ids: HashMap<Vec<StateId>, StateId>,
    /// The tuple [`Discovery::step`] moves from.
    entered: Vec<StateId>,
}

impl<'a> TupleWalk<'a> {
    fn new(dfas: &'a [&'a Dfa], budget: &'a Budget) -> Result<TupleWalk<'a>, BudgetError> {
        let partitions: Vec<&Classes> = dfas.iter().map(|dfa| dfa.classes()).collect();
        let (classes, class_of) = Classes::refinement(&partitions, budget)?;
        let start: Vec<StateId> = dfas.iter().map(|dfa| dfa.start()).collect();
        let ids = HashMap::from_iter([(start.clone(), StateId::from_index(0))]);
        Ok(TupleWalk {
            dfas,
            budget,
            classes,
            class_of,
            tuples: start.clone(),
            ids,
            entered: start,
        })
    }

    fn tuple(&self, id: StateId) -> &[StateId] {
        let n = self.dfas.len();
        &self.tuples[id.index() * n..(id.index() + 1) * n]
    }
}

impl Discovery for TupleWalk<'_> {
    fn classes(&self) -> &Classes {
        &self.classes
    }

    fn n_found(&self) -> usize {
        self.tuples.len() / self.dfas.len().max(1)
    }

    fn enter(&mut self, tuple: StateId) -> Result<(), BudgetError> {
        self.budget.check_time(Operation::Product)?;
        self.entered = self.tuple(tuple).to_vec();
        Ok(())
    }

    fn step(&mut self, class: ClassId) -> Result<(StateId, bool), BudgetError> {
        let n = self.dfas.len();
        let sides = &self.class_of[class.index() * n..(class.index() + 1) * n];
        let target: Vec<StateId> = (0..n)
            .map(|side| self.dfas[side].next_state(self.entered[side], sides[side]))
            .collect();
        if let Some(&id) = self.ids.get(&target) {
            return Ok((id, false));
        }
        let n_tuples = self.n_found() + 1;
        let id = StateId::new(self.n_found(), Operation::Product)?;
        self.budget.check_states(Operation::Product, n_tuples)?;
        // A tuple is held twice (the list and the lookup).
        let tuple_bytes = 2 * n * size_of::<StateId>();
        self.budget.check_memory(Operation::Product, n_tuples.saturating_mul(tuple_bytes))?;
        self.tuples.extend_from_slice(&target);
        self.ids.insert(target, id);
        Ok((id, true))
    }
}

#[cfg(test)]
mod tests {
    use super::{Overlap, overlaps, overlaps_within};
    use crate::{Budget, Dfa};

    fn check(patterns: &[&str], budget: &Budget, expected: &[(usize, usize, &str)]) {
        let dfas: Vec<Dfa> = patterns.iter().map(|p| Dfa::from_regex(p).unwrap()).collect();
        let refs: Vec<&Dfa> = dfas.iter().collect();
        let expected: Vec<Overlap> = expected
            .iter()
            .map(|&(left, right, witness)| Overlap { left, right, witness: witness.into() })
            .collect();
        assert_eq!(overlaps(&refs, budget).unwrap(), expected, "{patterns:?}");
    }

    #[test]
    fn finds_every_overlapping_pair_with_its_smallest_witness() {
        let tokens = ["[a-z]+", "if|else", "[0-9]+", "[a-z0-9]+", "\"[^\"]*\""];
        let expected = [(0, 1, "if"), (0, 3, "a"), (1, 3, "if"), (2, 3, "0")];
        check(&tokens, &Budget::unlimited(), &expected);
        check(&["a", "b"], &Budget::unlimited(), &[]);
        check(&["a*", "b*", "(ab)*"], &Budget::unlimited(), &[(0, 1, ""), (0, 2, ""), (1, 2, "")]);
        check(&["x"], &Budget::unlimited(), &[]);
    }

    #[test]
    fn past_the_cap_each_pair_gets_its_own_walk() {
        // Parities of five letters: pairs meet two letters deep, after dozens of tuples.
        let patterns: Vec<String> =
            "abcde".chars().map(|c| format!("[^{c}]*{c}([^{c}]*{c}[^{c}]*{c})*[^{c}]*")).collect();
        let dfas: Vec<Dfa> = patterns.iter().map(|p| Dfa::from_regex(p).unwrap()).collect();
        let refs: Vec<&Dfa> = dfas.iter().collect();
        let budget = Budget::unlimited();
        let joint = overlaps(&refs, &budget).unwrap();
        assert_eq!(joint.len(), 10);
        assert_eq!(joint[0], Overlap { left: 0, right: 1, witness: "ab".into() });
        assert_eq!(overlaps_within(&refs, 3, &budget).unwrap(), joint);
    }
}
