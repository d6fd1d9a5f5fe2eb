//! Emptiness of an intersection by the product of the operands' NFAs, explored on the fly
//! from the start and stopped at the first accepting tuple.
//!
//! # Overview
//! [`intersection_is_empty`] decides whether languages given as NFAs share a string without
//! building any DFA: `.*a.{100}` and `.*b.{100}` have DFAs of 2^101 states, their NFAs'
//! product has about 10^4 reachable tuples, and it is empty (the 101st character from the
//! end cannot be both). A non-empty product usually stops after a few tuples.
//!
//! # Algorithm
//! Depth-first search over tuples of NFA states, one per operand. A tuple holds only useful
//! states ([`NfaTrim`]) that have moves or accept (ε-closures are taken at once). From a
//! tuple, each choice of one move per operand whose labels share a character leads to the
//! tuples of the ε-closures of the targets. Labels are intersected operand by operand, so
//! a choice is dropped as soon as its characters run out. The search stops at the first
//! tuple whose states all accept.
//!
//! Cost: at most the product of the operands' state counts, each expansion the product of
//! the states' move counts; typically far less.
//!
//! # Budgets
//! Every tuple found counts as a state of [`Operation::Product`], its states against the
//! memory limit; each expanded tuple checks the deadline.

use rustc_hash::FxHashSet as HashSet;

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::nfa::{ClosureScratch, Nfa, NfaTrim};
use crate::state_id::StateId;

/// Whether no string is in the language of every one of `nfas` (all strings for none).
pub(crate) fn intersection_is_empty(nfas: &[&Nfa], budget: &Budget) -> Result<bool, BudgetError> {
    let mut product = Product::new(nfas, budget);
    let starts: Vec<Vec<StateId>> =
        (0..nfas.len()).map(|operand| product.closure(operand, &[nfas[operand].start()])).collect();
    let mut stack = Vec::new();
    if product.add_all(&starts, &mut stack)? {
        return Ok(false);
    }
    while let Some(tuple) = stack.pop() {
        budget.check_time(Operation::Product)?;
        for targets in product.joint_moves(&tuple)? {
            let closures: Vec<Vec<StateId>> = targets
                .iter()
                .enumerate()
                .map(|(operand, &target)| product.closure(operand, &[target]))
                .collect();
            if product.add_all(&closures, &mut stack)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// The product in progress: the operands, their trims and the tuples found.
struct Product<'n, 'b> {
    nfas: &'n [&'n Nfa],
    trims: Vec<NfaTrim<'n>>,
    scratch: Vec<ClosureScratch>,
    found: HashSet<Box<[StateId]>>,
    budget: &'b Budget,
}

impl<'n, 'b> Product<'n, 'b> {
    fn new(nfas: &'n [&'n Nfa], budget: &'b Budget) -> Self {
        Product {
            nfas,
            trims: nfas.iter().map(|nfa| NfaTrim::new(nfa)).collect(),
            scratch: nfas.iter().map(|nfa| ClosureScratch::new(nfa.n_states())).collect(),
            found: HashSet::default(),
            budget,
        }
    }

    /// The useful states with moves or acceptance in the ε-closure of `seeds` in operand
    /// `operand`.
    fn closure(&mut self, operand: usize, seeds: &[StateId]) -> Vec<StateId> {
        let nfa = self.nfas[operand];
        let mut closure = Vec::new();
        nfa.closure(seeds, &mut self.scratch[operand], &mut closure);
        let trim = &self.trims[operand];
        closure.retain(|&state| trim.is_useful(state) && nfa.is_important(state));
        closure
    }

    /// Adds every tuple of one state from each of `choices`, pushing the new ones on
    /// `stack`; true as soon as one accepts in every operand.
    fn add_all(
        &mut self,
        choices: &[Vec<StateId>],
        stack: &mut Vec<Box<[StateId]>>,
    ) -> Result<bool, BudgetError> {
        if choices.iter().any(Vec::is_empty) {
            return Ok(false);
        }
        // An odometer over the choices.
        let mut digits = vec![0; choices.len()];
        loop {
            let tuple: Box<[StateId]> =
                digits.iter().zip(choices).map(|(&digit, states)| states[digit]).collect();
            if !self.found.contains(&tuple) {
                let n_found = self.found.len() + 1;
                self.budget.check_states(Operation::Product, n_found)?;
                let n_bytes = n_found.saturating_mul(choices.len() * size_of::<StateId>());
                self.budget.check_memory(Operation::Product, n_bytes)?;
                let accepts =
                    tuple.iter().zip(self.nfas).all(|(&state, nfa)| nfa.state(state).accepting);
                if accepts {
                    return Ok(true);
                }
                self.found.insert(tuple.clone());
                stack.push(tuple);
            }
            let Some(position) = (0..digits.len())
                .rev()
                .find(|&position| digits[position] + 1 < choices[position].len())
            else {
                return Ok(false);
            };
            digits[position] += 1;
            digits[position + 1..].fill(0);
        }
    }

    /// For each way `tuple` can read one character in every operand at once, the target of
    /// each operand's move.
    fn joint_moves(&self, tuple: &[StateId]) -> Result<Vec<Vec<StateId>>, BudgetError> {
        // Partial choices over the first operands: the characters they share and their
        // targets.
        let mut partial: Vec<(CharSet, Vec<StateId>)> = vec![(CharSet::full(), Vec::new())];
        for (operand, &state) in tuple.iter().enumerate() {
            self.budget.check_time(Operation::Product)?;
            let nfa = self.nfas[operand];
            let trim = &self.trims[operand];
            let mut extended = Vec::new();
            for (chars, targets) in &partial {
                for &(label, target) in &nfa.state(state).transitions {
                    if !trim.is_useful(target) {
                        continue;
                    }
                    let shared = chars.intersection(nfa.label(label));
                    if !shared.is_empty() {
                        let mut targets = targets.clone();
                        targets.push(target);
                        extended.push((shared, targets));
                    }
                }
            }
            let n_bytes = extended.len().saturating_mul(size_of_val(tuple));
            self.budget.check_memory(Operation::Product, n_bytes)?;
            partial = extended;
        }
        Ok(partial.into_iter().map(|(_, targets)| targets).collect())
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::intersection_is_empty;
    use crate::budget::Budget;
    use crate::dfa::Dfa;
    use crate::nfa::Nfa;

    fn is_empty(patterns: &[&str]) -> bool {
        let budget = Budget::default();
        let nfas: Vec<Nfa> =
            patterns.iter().map(|p| Nfa::from_regex_with(p, &budget).unwrap()).collect();
        intersection_is_empty(&nfas.iter().collect::<Vec<_>>(), &budget).unwrap()
    }

    #[test]
    fn decides_without_determinizing() {
        assert!(is_empty(&[".*a.{10}", ".*b.{10}"]));
        assert!(is_empty(&[".*a.{100}", ".*b.{100}"]));
        assert!(is_empty(&[".*[0-4].{100}", ".*[5-9].{100}"]));
        assert!(!is_empty(&[".*a.{100}", ".*[ab].{100}"]));
        assert!(!is_empty(&["(?:(?:a-?){0,17}a)+", "a-a"]));
    }

    #[test]
    fn edge_cases() {
        assert!(!is_empty(&[]));
        assert!(is_empty(&["[^\\s\\S]"]));
        assert!(!is_empty(&["", "a*", "()"]));
        assert!(is_empty(&["a+", "b+"]));
        assert!(is_empty(&["a+", "b*", "c*"]));
        assert!(!is_empty(&["[a-c]+", "[b-d]+", "[c-e]+"]));
    }

    fn pattern() -> impl Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "b", "[ab]", "[^a]", "()", "."],
            &["*", "+", "?", "{2}"],
            3,
            16,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The lazy product is empty exactly when the product of the minimal DFAs is.
        #[test]
        fn agrees_with_dfa_product(patterns in prop::collection::vec(pattern(), 1..4)) {
            let budget = Budget::unlimited();
            let dfas: Vec<Dfa> =
                patterns.iter().map(|p| Dfa::from_regex_with(p, &budget).unwrap()).collect();
            let expected =
                Dfa::intersection_all(&dfas.iter().collect::<Vec<_>>(), &budget).unwrap().is_empty();
            let patterns: Vec<&str> = patterns.iter().map(String::as_str).collect();
            prop_assert_eq!(is_empty(&patterns), expected, "{:?}", patterns);
        }
    }
}
