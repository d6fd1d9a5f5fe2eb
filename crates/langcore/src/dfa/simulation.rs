//! A forward simulation preorder on an NFA's states, which lets the subset construction keep
//! only the strongest states of each subset.
//!
//! # Overview
//! [`Simulation::compute`] finds a relation `q ≤ q'` ("`q'` simulates `q`") such that every
//! string `q` accepts, `q'` accepts too. A subset then has the language of its maximal
//! states, so `dfa/determinize.rs` drops the others: on counted repetitions under a loop
//! (`(?:(?:a-?){0,17}a)+`, `(?:[A-Za-z]{1,20}\s?){1,8}`) the states that have read fewer
//! copies simulate those that have read more, and the 2^17 subsets of the first collapse to
//! a few dozen. The minimal DFA is the same; only the unminimized one is smaller.
//!
//! # Algorithm
//! On the *important* states (with labelled moves or accepting; ε-closures are taken at
//! once), the greatest relation `R` such that `q R q'` implies: `q'` accepts if `q` does,
//! and for every move of `q` on label `A` to a closure `T`, and every `r` in `T`, some move
//! of `q'` on a label `A' ⊇ A` reaches a closure holding an `r'` with `r R r'`. That is a
//! simulation (a move of `q` on any character of `A` is matched by the same move of `q'`),
//! stronger than the maximal one because a move must be matched by one move, not by
//! several; it is reflexive and transitive. It is computed as a greatest fixed point:
//! start from the pairs whose acceptance and labels agree, remove violating pairs until
//! none is removed. O(rounds · pairs · moves²) at worst.
//!
//! # Budgets
//! The relation is an `n × n` bit matrix, checked against the memory limit; the work is
//! capped by [`MAX_WORK`] steps (and the deadline): past it there is no simulation, and the
//! subset construction goes on without one. Stopping early would leave a relation that is
//! not a simulation, so it is never used half-computed.

use crate::budget::{Budget, BudgetError, Operation};
use crate::nfa::{ClosureScratch, Nfa};
use crate::state_id::StateId;

/// The most elementary steps one computation may take before it gives up.
const MAX_WORK: u64 = 50_000_000;

/// No important state.
const NONE: u32 = u32::MAX;

/// A simulation preorder on the important states of one NFA.
pub(super) struct Simulation {
    /// The index of each NFA state among the important ones, or [`NONE`].
    index: Vec<u32>,
    n_important: usize,
    /// `n_important × n_important` bits, row `q`: the states that simulate `q`.
    bits: Vec<u64>,
}

impl Simulation {
    /// The simulation of `nfa`, or `None` when it would take more than [`MAX_WORK`] steps.
    ///
    /// # Errors
    /// When the matrix exceeds the memory limit or the deadline passes.
    pub(super) fn compute(nfa: &Nfa, budget: &Budget) -> Result<Option<Simulation>, BudgetError> {
        let mut index = vec![NONE; nfa.n_states()];
        let mut important = Vec::new();
        for id in (0..nfa.n_states()).map(StateId::from_index) {
            let state = nfa.state(id);
            if state.accepting || !state.transitions.is_empty() {
                index[id.index()] = important.len() as u32;
                important.push(id);
            }
        }
        let n_important = important.len();
        let words = n_important.div_ceil(64);
        budget.check_memory(Operation::Determinize, n_important.saturating_mul(words) * 8)?;
        let labels = nfa.labels();
        let mut label_within = vec![false; labels.len() * labels.len()];
        for (small_idx, small) in labels.iter().enumerate() {
            budget.check_time(Operation::Determinize)?;
            for (large_idx, large) in labels.iter().enumerate() {
                label_within[small_idx * labels.len() + large_idx] = small.is_subset(large);
            }
        }
        // Each important state's moves: the label and the important states of the closure.
        let mut scratch = ClosureScratch::new(nfa.n_states());
        let mut closure = Vec::new();
        let moves: Vec<Vec<(usize, Vec<u32>)>> = important
            .iter()
            .map(|&id| {
                let transitions = &nfa.state(id).transitions;
                transitions
                    .iter()
                    .map(|&(label, target)| {
                        nfa.closure(&[target], &mut scratch, &mut closure);
                        let targets =
                            closure.iter().map(|s| index[s.index()]).filter(|&i| i != NONE);
                        (label.index(), targets.collect())
                    })
                    .collect()
            })
            .collect();
        let mut sim = Simulation { index, n_important, bits: vec![0; n_important * words] };
        let mut work = 0u64;
        let accepting = |i: usize| nfa.state(important[i]).accepting;
        for small in 0..n_important {
            budget.check_time(Operation::Determinize)?;
            for large in 0..n_important {
                work += 1 + moves[small].len() as u64 * moves[large].len() as u64;
                let labels_within = moves[small].iter().all(|&(label, _)| {
                    moves[large]
                        .iter()
                        .any(|&(other, _)| label_within[label * labels.len() + other])
                });
                if (!accepting(small) || accepting(large)) && labels_within {
                    sim.set(small, large, true);
                }
            }
        }
        let mut changed = true;
        while changed {
            changed = false;
            for small in 0..n_important {
                budget.check_time(Operation::Determinize)?;
                if work > MAX_WORK {
                    return Ok(None);
                }
                for large in 0..n_important {
                    if small == large || !sim.get(small, large) {
                        continue;
                    }
                    let matched = moves[small].iter().all(|(label, targets)| {
                        targets.iter().all(|&weak| {
                            moves[large].iter().any(|(other, strong_targets)| {
                                work += 1 + strong_targets.len() as u64;
                                label_within[label * labels.len() + other]
                                    && strong_targets
                                        .iter()
                                        .any(|&strong| sim.get(weak as usize, strong as usize))
                            })
                        })
                    });
                    if !matched {
                        sim.set(small, large, false);
                        changed = true;
                    }
                }
            }
        }
        Ok(Some(sim))
    }

    fn get(&self, small: usize, large: usize) -> bool {
        let words = self.n_important.div_ceil(64);
        self.bits[small * words + large / 64] >> (large % 64) & 1 == 1
    }

    fn set(&mut self, small: usize, large: usize, value: bool) {
        let words = self.n_important.div_ceil(64);
        let word = &mut self.bits[small * words + large / 64];
        if value {
            *word |= 1 << (large % 64);
        } else {
            *word &= !(1 << (large % 64));
        }
    }

    /// Keeps in `set` (important states, sorted) only those no other member simulates;
    /// of states that simulate each other, the first. The language of the set is unchanged.
    ///
    /// `mask` is scratch space, all zero between calls: the members as bits, so that the
    /// members simulating one are its row of the matrix masked, a word at a time.
    pub(super) fn reduce(&self, set: &mut Vec<StateId>, mask: &mut Vec<u64>) {
        let words = self.n_important.div_ceil(64);
        mask.resize(words, 0);
        for &state in set.iter() {
            let idx = self.index[state.index()] as usize;
            mask[idx / 64] |= 1 << (idx % 64);
        }
        // Important states are numbered in the order of their NFA states, so a member
        // before another in `set` has the smaller index.
        set.retain(|&state| {
            let small = self.index[state.index()] as usize;
            let row = &self.bits[small * words..][..words];
            let mut dominated = false;
            for (word_idx, (&row_word, &mask_word)) in row.iter().zip(mask.iter()).enumerate() {
                let mut stronger = row_word & mask_word;
                while stronger != 0 && !dominated {
                    let large = word_idx * 64 + stronger.trailing_zeros() as usize;
                    stronger &= stronger - 1;
                    dominated = large != small && (large < small || !self.get(large, small));
                }
                if dominated {
                    break;
                }
            }
            !dominated
        });
        mask.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::Simulation;
    use crate::budget::Budget;
    use crate::dfa::Dfa;
    use crate::dfa::determinize::construct;
    use crate::nfa::Nfa;

    fn pattern() -> impl Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "b", "[ab]", "[^a]", "()", "-?"],
            &["*", "+", "?", "{0,3}", "{1,4}", "{2}"],
            4,
            24,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// Reducing subsets by the simulation keeps every subset's language: the minimal
        /// DFA is the one of the plain construction. (The unminimized one can have a few
        /// more states: a reduced subset's successors are not the reduced successors.)
        #[test]
        fn reduced_subsets_give_the_same_minimal_dfa(pattern in pattern()) {
            let budget = Budget::unlimited();
            let nfa = Nfa::from_regex_with(&pattern, &budget).unwrap();
            let simulation = Simulation::compute(&nfa, &budget).unwrap().unwrap();
            let reduced = construct(&nfa, Some(&simulation), &budget).unwrap();
            let plain = construct(&nfa, None, &budget).unwrap();
            prop_assert_eq!(
                reduced.minimize(&budget).unwrap(),
                plain.minimize(&budget).unwrap(),
                "{}", pattern
            );
        }
    }

    #[test]
    fn counters_under_a_loop_collapse() {
        let budget = Budget::default();
        let nfa = Nfa::from_regex("(?:(?:a-?){0,17}a)+").unwrap();
        assert!(Simulation::compute(&nfa, &budget).unwrap().is_some());
        // Its plain subset construction has about 2^17 states.
        let dfa = Dfa::from_nfa(&nfa, &budget).unwrap();
        assert!(dfa.n_states() < 100, "{}", dfa.n_states());
        assert!(dfa.matches("a-aa-a") && !dfa.matches(&format!("a{}", "-a".repeat(18))));
    }
}
