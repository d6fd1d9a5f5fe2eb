//! Subset construction: from an [`Nfa`] to a complete [`Dfa`].
//!
//! [`separating_string`] walks the same subsets of an NFA that holds two languages side by
//! side and stops at the first subset whose acceptance tells them apart (equivalence);
//! inclusion walks subsets pruned by antichains instead (`nfa/inclusion.rs`).
//!
//! # Algorithm
//! Rabin-Scott subset construction over character classes. The NFA's labels are first split
//! into the coarsest partition of the alphabet ([`Classes`]), so each label is a list of
//! classes and each DFA state has one move per class. A DFA state is the sorted set of the
//! *important* NFA states of an ε-closure (those with labelled moves or accepting); the empty
//! set is the dead state. States are discovered breadth first, so all are reachable.
//! `dfa/subsets.rs` stores the subsets and turns a class's move targets into a subset: a
//! cache of the target sets met before answers most moves without any closure, ε-closures
//! are computed once per NFA state, and subsets live in one arena, found by their hash.
//!
//! Cost: O(n_dfa · (moves of a set + n_classes · closure)), the closure only for target sets
//! not met before. The number of DFA states can be exponential in the NFA size
//! (`(a|b)*a(a|b){n}` needs 2^(n+1)); that is what the budget is for.
//!
//! When the construction outgrows 8 states per important NFA state (plus 4,096), it starts
//! again with each subset reduced to its maximal states under a simulation preorder
//! (`dfa/simulation.rs`): same languages per subset, so the same minimal DFA, but counted
//! repetitions under a loop (`(?:(?:a-?){0,17}a)+`: 2^17 subsets) collapse to a few states.
//! Small constructions never pay for the simulation.
//!
//! For two languages in one NFA, a subset is the union of one subset of each side (the
//! sides share no state), so the walk is the on-the-fly product of the two subset
//! constructions, and a [`Discovery`] for the shortest-witness search of `witness.rs`: the
//! first separating subset found is reached by the shortest, then smallest, separating
//! string.
//!
//! # Budgets
//! Every new DFA state is checked against the state limit and the memory limit
//! ([`Operation::Determinize`]); the deadline is read once per [`WORK_PER_TIME_CHECK`]
//! units of work (a state entered, a move's targets, a new subset's states count one unit
//! each), and when the walk starts, so a small construction reads the clock once or twice
//! instead of twice per state. The memory charged,
//! before anything grows, is everything the walk holds: the table with the new state's
//! row, the subsets with their hash table, the cache of target sets and the closures
//! (`dfa/subsets.rs`).

use super::Dfa;
use super::simulation::Simulation;
use super::subsets::Subsets;
use crate::alphabet::{ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation, Ticker};

/// Units of work between two reads of the clock: a unit is a few nanoseconds (a move's
/// target, a subset's state), so the clock, read in tens, stays a small share and the
/// deadline is seen within microseconds.
const WORK_PER_TIME_CHECK: usize = 1024;
use crate::nfa::Nfa;
use crate::state_id::StateId;
use crate::witness::{BoolOp, Discovery, shortest_witness};

pub(super) fn determinize(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    determinize_unless_full(nfa, budget, usize::MAX)
}

/// [`determinize`], except that when the first construction stops at its state limit
/// holding more than `restart_below` bytes, it fails with [`BudgetError::TooMuchMemory`]
/// instead of restarting with reduced subsets: for a caller with another road, which would
/// rather not spend the simulation and a second construction on a DFA that is unlikely to
/// fit (see [`Dfa::from_nfa_unless_full`]).
pub(super) fn determinize_unless_full(
    nfa: &Nfa,
    budget: &Budget,
    restart_below: usize,
) -> Result<Dfa, BudgetError> {
    let n_important =
        (0..nfa.n_states()).filter(|&idx| nfa.is_important(StateId::from_index(idx))).count();
    let first_limit = n_important.saturating_mul(8).saturating_add(4096);
    if first_limit < budget.max_states() {
        let capped = budget.with_max_states(first_limit);
        let mut walk = SubsetWalk::new(nfa, None, &capped)?;
        match walk.fill() {
            Ok(table) => return Ok(walk.into_dfa(table)),
            Err(BudgetError::TooManyStates { limit, .. }) if limit == first_limit => {}
            Err(other) => return Err(other),
        }
        if walk.subsets.bytes() > restart_below {
            let limit = budget.max_memory();
            return Err(BudgetError::TooMuchMemory { op: Operation::Determinize, limit });
        }
        if let Some(simulation) = Simulation::compute(nfa, budget)? {
            return construct(nfa, Some(&simulation), budget);
        }
    }
    construct(nfa, None, budget)
}

/// The subset construction, each subset reduced to its maximal states under `simulation`.
pub(super) fn construct(
    nfa: &Nfa,
    simulation: Option<&Simulation>,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    let mut walk = SubsetWalk::new(nfa, simulation, budget)?;
    let table = walk.fill()?;
    Ok(walk.into_dfa(table))
}

/// The shortest, then smallest, string after which `found(left accepts, right accepts)`
/// holds, where `nfa` holds both languages and `left_accept` / `right_accept` are the only
/// accepting states of each; `None` when no reachable subset satisfies it.
pub(crate) fn separating_string(
    nfa: &Nfa,
    left_accept: StateId,
    right_accept: StateId,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    let contains = |set: &[StateId], accept: &StateId| set.binary_search(accept).is_ok();
    let mut walk = SubsetWalk::new(nfa, None, budget)?;
    shortest_witness(&mut walk, |walk, subset| {
        let set = walk.subsets.get(subset);
        found.accepts(contains(set, &left_accept), contains(set, &right_accept))
    })
}

/// A subset construction built on demand: the moves of a state are computed the first time
/// one is asked for, so a search pays only for the subsets it reaches (generation from an
/// NFA whose DFA does not fit, `enumerate/window.rs`). State 0 is the start; the empty
/// subset, once found, is the dead state.
pub(crate) struct LazyDfa<'n> {
    walk: SubsetWalk<'n>,
    /// The targets of each state found, by class, once computed.
    rows: Vec<Option<Box<[StateId]>>>,
}

impl<'n> LazyDfa<'n> {
    /// The construction of `nfa` with only its start subset found.
    pub(crate) fn new(nfa: &'n Nfa, budget: &'n Budget) -> Result<LazyDfa<'n>, BudgetError> {
        Ok(LazyDfa { walk: SubsetWalk::new(nfa, None, budget)?, rows: Vec::new() })
    }

    /// The classes of the NFA's labels: each state has one move per class.
    pub(crate) fn classes(&self) -> &Classes {
        &self.walk.classes
    }

    /// The important NFA states (accepting or with labelled moves) of `state`'s subset.
    pub(crate) fn subset(&self, state: StateId) -> &[StateId] {
        self.walk.subsets.get(state)
    }

    /// The state `state` moves to on `class`, computing `state`'s moves on first use (the
    /// new subsets count against the budget as in [`determinize`]).
    pub(crate) fn target(
        &mut self,
        state: StateId,
        class: ClassId,
    ) -> Result<StateId, BudgetError> {
        if let Some(Some(row)) = self.rows.get(state.index()) {
            return Ok(row[class.index()]);
        }
        self.walk.enter(state)?;
        let row = (0..self.walk.classes.len())
            .map(|class_idx| Ok(self.walk.step(ClassId::new(class_idx))?.0))
            .collect::<Result<Box<[StateId]>, BudgetError>>()?;
        let target = row[class.index()];
        if self.rows.len() <= state.index() {
            self.rows.resize(state.index() + 1, None);
        }
        self.rows[state.index()] = Some(row);
        Ok(target)
    }
}

/// A subset construction in progress: the classes, the subsets found so far, and scratch
/// space for one expansion.
struct SubsetWalk<'n> {
    nfa: &'n Nfa,
    budget: &'n Budget,
    ticker: Ticker<'n>,
    classes: Classes,
    /// For each NFA label, the classes it contains.
    label_classes: Vec<Vec<ClassId>>,
    subsets: Subsets<'n>,
    targets_by_class: Vec<Vec<StateId>>,
}

impl<'n> SubsetWalk<'n> {
    /// The walk with only the start subset found.
    fn new(
        nfa: &'n Nfa,
        simulation: Option<&'n Simulation>,
        budget: &'n Budget,
    ) -> Result<SubsetWalk<'n>, BudgetError> {
        let labels: Vec<_> = nfa.labels().iter().collect();
        let (classes, label_classes) = Classes::new(&labels, budget)?;
        let n_classes = classes.len();
        let mut subsets = Subsets::new(nfa, simulation, n_classes);
        subsets.intern(&[nfa.start()], budget)?;
        let targets_by_class = vec![Vec::new(); n_classes];
        let ticker = Ticker::new(budget, Operation::Determinize, WORK_PER_TIME_CHECK);
        Ok(SubsetWalk { nfa, budget, ticker, classes, label_classes, subsets, targets_by_class })
    }
}

impl SubsetWalk<'_> {
    /// Expands every subset, found ones included, until none is left: the DFA's table.
    fn fill(&mut self) -> Result<Vec<StateId>, BudgetError> {
        let mut table = Vec::new();
        let mut dfa_state = 0;
        while dfa_state < self.subsets.len() {
            self.enter(StateId::from_index(dfa_state))?;
            for class_idx in 0..self.classes.len() {
                table.push(self.step(ClassId::new(class_idx))?.0);
            }
            dfa_state += 1;
        }
        Ok(table)
    }

    /// The DFA of a filled walk with its `table`: a subset accepts when one of its states does.
    fn into_dfa(self, table: Vec<StateId>) -> Dfa {
        let accepting = (0..self.subsets.len())
            .map(|idx| self.subsets.get(StateId::from_index(idx)))
            .map(|set| set.iter().any(|&nfa_state| self.nfa.state(nfa_state).accepting))
            .collect();
        Dfa::from_parts(self.classes, table, accepting)
    }
}

impl Discovery for SubsetWalk<'_> {
    fn classes(&self) -> &Classes {
        &self.classes
    }

    fn n_found(&self) -> usize {
        self.subsets.len()
    }

    /// Gathers the targets of every move of `dfa_state`'s NFA states, by class.
    fn enter(&mut self, dfa_state: StateId) -> Result<(), BudgetError> {
        self.ticker.tick(1 + self.subsets.get(dfa_state).len())?;
        for targets in &mut self.targets_by_class {
            targets.clear();
        }
        for &nfa_state in self.subsets.get(dfa_state) {
            for &(label, target) in &self.nfa.state(nfa_state).transitions {
                for class in &self.label_classes[label.index()] {
                    self.targets_by_class[class.index()].push(target);
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, class: ClassId) -> Result<(StateId, bool), BudgetError> {
        let n_found = self.subsets.len();
        let seeds = &self.targets_by_class[class.index()];
        let target = self.subsets.intern(seeds, self.budget)?;
        let found = self.subsets.len() > n_found;
        let new_states = if found { self.subsets.get(target).len() } else { 0 };
        self.ticker.tick(1 + seeds.len() + new_states)?;
        Ok((target, found))
    }
}

#[cfg(test)]
mod tests {
    use super::{determinize, determinize_unless_full};
    use crate::budget::{Budget, BudgetError, Operation};
    use crate::nfa::Nfa;

    #[test]
    fn a_full_first_construction_fails_instead_of_restarting() {
        let budget = Budget::default();
        // 2^17 plain subsets, past the first limit; a few dozen reduced ones.
        let counters = Nfa::from_regex("(?:(?:a-?){0,17}a)+").unwrap();
        let reduced = determinize_unless_full(&counters, &budget, usize::MAX).unwrap();
        assert_eq!(reduced, determinize(&counters, &budget).unwrap());
        assert!(reduced.n_states() < 100, "{}", reduced.n_states());
        let err = determinize_unless_full(&counters, &budget, 0).unwrap_err();
        let limit = budget.max_memory();
        assert_eq!(err, BudgetError::TooMuchMemory { op: Operation::Determinize, limit });
        // A construction within its first limit never restarts, full or not.
        let small = Nfa::from_regex("ab|ac").unwrap();
        let dfa = determinize_unless_full(&small, &budget, 0).unwrap();
        assert_eq!(dfa, determinize(&small, &budget).unwrap());
    }
}
