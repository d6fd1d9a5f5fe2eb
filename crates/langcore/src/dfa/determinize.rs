//! Subset construction: from an [`Nfa`] to a complete [`Dfa`], or to the first subset that
//! tells two languages apart.
//!
//! # Overview
//! - [`determinize`] builds the whole DFA.
//! - [`separating_string`] walks the same subsets of an NFA that holds two languages side
//!   by side (each with its own accepting state) and stops at the first subset where their
//!   acceptance differs as asked: the witness of non-inclusion or non-equivalence, found
//!   without building either DFA in full.
//!
//! # Algorithm
//! Rabin-Scott subset construction over character classes. The NFA's labels are first split
//! into the coarsest partition of the alphabet ([`Classes`]), so each label is a list of
//! classes and each DFA state has one move per class. A DFA state is the sorted set of the
//! *important* NFA states of an ε-closure (those with labelled moves or accepting); the empty
//! set is the dead state. States are discovered breadth first, so all are reachable.
//!
//! Cost: O(n_dfa · (moves of a set + n_classes · closure)). The number of DFA states can be
//! exponential in the NFA size (`(a|b)*a(a|b){n}` needs 2^(n+1)); that is what the budget is for.
//!
//! For two languages in one NFA, a subset is the union of one subset of each side (the
//! sides share no state), so the walk is the on-the-fly product of the two subset
//! constructions, and a [`Discovery`] for the shortest-witness search of `witness.rs`: the
//! first separating subset found is reached by the shortest, then smallest, separating
//! string.
//!
//! # Budgets
//! Every new DFA state is checked against the state limit, the memory limit (its row of the
//! table) and the deadline ([`Operation::Determinize`]); every processed state is checked
//! against the deadline, which bounds the time between checks by the work of one state.

use rustc_hash::FxHashMap as HashMap;

use super::Dfa;
use crate::alphabet::{ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::nfa::{ClosureScratch, Nfa};
use crate::state_id::StateId;
use crate::witness::{BoolOp, Discovery, shortest_witness};

pub(super) fn determinize(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    let mut walk = SubsetWalk::new(nfa, budget)?;
    let mut table = Vec::new();
    let mut dfa_state = 0;
    while dfa_state < walk.subsets.sets.len() {
        walk.enter(StateId::from_index(dfa_state))?;
        for class_idx in 0..walk.classes.len() {
            table.push(walk.step(ClassId::new(class_idx))?.0);
        }
        dfa_state += 1;
    }
    let accepting = walk
        .subsets
        .sets
        .iter()
        .map(|set| set.iter().any(|&nfa_state| nfa.state(nfa_state).accepting))
        .collect();
    Ok(Dfa::from_parts(walk.classes, table, accepting))
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
    let mut walk = SubsetWalk::new(nfa, budget)?;
    shortest_witness(&mut walk, |walk, subset| {
        let set = &walk.subsets.sets[subset.index()];
        found.accepts(contains(set, &left_accept), contains(set, &right_accept))
    })
}

/// A subset construction in progress: the classes, the subsets found so far, and scratch
/// space for one expansion.
struct SubsetWalk<'n> {
    nfa: &'n Nfa,
    budget: &'n Budget,
    classes: Classes,
    /// For each NFA label, the classes it contains.
    label_classes: Vec<Vec<ClassId>>,
    subsets: Subsets<'n>,
    targets_by_class: Vec<Vec<StateId>>,
}

impl<'n> SubsetWalk<'n> {
    /// The walk with only the start subset found.
    fn new(nfa: &'n Nfa, budget: &'n Budget) -> Result<SubsetWalk<'n>, BudgetError> {
        let labels: Vec<_> = nfa.labels().iter().collect();
        let (classes, label_classes) = Classes::new(&labels, budget)?;
        let n_classes = classes.len();
        let mut subsets = Subsets::new(nfa, n_classes);
        subsets.intern(&[nfa.start()], budget)?;
        let targets_by_class = vec![Vec::new(); n_classes];
        Ok(SubsetWalk { nfa, budget, classes, label_classes, subsets, targets_by_class })
    }
}

impl Discovery for SubsetWalk<'_> {
    fn classes(&self) -> &Classes {
        &self.classes
    }

    fn n_found(&self) -> usize {
        self.subsets.sets.len()
    }

    /// Gathers the targets of every move of `dfa_state`'s NFA states, by class.
    fn enter(&mut self, dfa_state: StateId) -> Result<(), BudgetError> {
        self.budget.check_time(Operation::Determinize)?;
        for targets in &mut self.targets_by_class {
            targets.clear();
        }
        for &nfa_state in &self.subsets.sets[dfa_state.index()] {
            for &(label, target) in &self.nfa.state(nfa_state).transitions {
                for class in &self.label_classes[label.index()] {
                    self.targets_by_class[class.index()].push(target);
                }
            }
        }
        Ok(())
    }

    fn step(&mut self, class: ClassId) -> Result<(StateId, bool), BudgetError> {
        let n_found = self.subsets.sets.len();
        let target = self.subsets.intern(&self.targets_by_class[class.index()], self.budget)?;
        Ok((target, self.subsets.sets.len() > n_found))
    }
}

/// The DFA states found so far, each a set of NFA states, with the lookup from set to id.
struct Subsets<'n> {
    nfa: &'n Nfa,
    sets: Vec<Box<[StateId]>>,
    ids: HashMap<Box<[StateId]>, StateId>,
    scratch: ClosureScratch,
    closure: Vec<StateId>,
    /// Each DFA state adds this many transitions to the table.
    n_classes: usize,
}

impl<'n> Subsets<'n> {
    fn new(nfa: &'n Nfa, n_classes: usize) -> Subsets<'n> {
        Subsets {
            nfa,
            sets: Vec::new(),
            ids: HashMap::default(),
            scratch: ClosureScratch::new(nfa.n_states()),
            closure: Vec::new(),
            n_classes,
        }
    }

    /// The DFA state of the ε-closure of `seeds`, added if it is new.
    fn intern(&mut self, seeds: &[StateId], budget: &Budget) -> Result<StateId, BudgetError> {
        self.nfa.closure(seeds, &mut self.scratch, &mut self.closure);
        let nfa = self.nfa;
        self.closure.retain(|&id| {
            let state = nfa.state(id);
            state.accepting || !state.transitions.is_empty()
        });
        self.closure.sort_unstable();
        if let Some(&id) = self.ids.get(self.closure.as_slice()) {
            return Ok(id);
        }
        let id = StateId::new(self.sets.len(), Operation::Determinize)?;
        budget.check_states(Operation::Determinize, self.sets.len() + 1)?;
        let table_bytes = (self.sets.len() + 1)
            .saturating_mul(self.n_classes)
            .saturating_mul(size_of::<StateId>());
        budget.check_memory(Operation::Determinize, table_bytes)?;
        let set: Box<[StateId]> = self.closure.as_slice().into();
        self.sets.push(set.clone());
        self.ids.insert(set, id);
        Ok(id)
    }
}
