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
//! constructions. Classes are numbered by smallest member and expanded in that order from
//! subsets in discovery order, so the first separating subset found is reached by the
//! shortest, then smallest, separating string (the argument of `ops/product.rs`).
//!
//! # Budgets
//! Every new DFA state is checked against the state limit, the memory limit and the deadline
//! ([`Operation::Determinize`]); every processed state is checked against the deadline,
//! which bounds the time between checks by the work of one state. The memory charged is
//! everything the walk holds: the table with the new state's row, and every subset found so
//! far, kept twice (in discovery order and as a lookup key) with its hash-table entry
//! ([`SUBSET_OVERHEAD_BYTES`]).

use rustc_hash::FxHashMap as HashMap;

use super::Dfa;
use crate::alphabet::{CharSet, ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::nfa::{ClosureScratch, Nfa};
use crate::ops::product::BoolOp;
use crate::state_id::StateId;

/// Bytes one subset costs beyond its states, in its two copies and the lookup table: two
/// boxed-slice headers, the table's entry and its spare capacity (the table doubles).
const SUBSET_OVERHEAD_BYTES: usize = 96;

pub(super) fn determinize(nfa: &Nfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    let mut walk = SubsetWalk::new(nfa, budget)?;
    let mut table = Vec::new();
    let mut dfa_state = 0;
    while dfa_state < walk.subsets.sets.len() {
        walk.expand(dfa_state, budget, |target, _| table.push(target))?;
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
    let satisfied = |set: &[StateId]| {
        found.accepts(
            set.binary_search(&left_accept).is_ok(),
            set.binary_search(&right_accept).is_ok(),
        )
    };
    let mut walk = SubsetWalk::new(nfa, budget)?;
    if satisfied(&walk.subsets.sets[0]) {
        return Ok(Some(String::new()));
    }
    // How each subset was first reached: its parent and the class taken.
    let mut parents: Vec<Option<(usize, usize)>> = vec![None];
    let mut dfa_state = 0;
    while dfa_state < walk.subsets.sets.len() {
        let mut hit = None;
        walk.expand(dfa_state, budget, |target, class_idx| {
            if target.index() == parents.len() {
                parents.push(Some((dfa_state, class_idx)));
                hit = hit.or(Some(target));
            }
        })?;
        // Subsets found while expanding are in class order; take the first that separates.
        if let Some(first_new) = hit {
            let sets = &walk.subsets.sets;
            if let Some(idx) = (first_new.index()..sets.len()).find(|&idx| satisfied(&sets[idx])) {
                return Ok(Some(spell(&walk.classes, &parents, idx)));
            }
        }
        dfa_state += 1;
    }
    Ok(None)
}

/// The string of smallest class members along the discovery path of subset `idx`.
fn spell(classes: &Classes, parents: &[Option<(usize, usize)>], mut idx: usize) -> String {
    let mut reversed = Vec::new();
    while let Some((parent, class_idx)) = parents[idx] {
        reversed.extend(classes.class(ClassId::new(class_idx)).and_then(CharSet::first));
        idx = parent;
    }
    reversed.into_iter().rev().collect()
}

/// A subset construction in progress: the classes, the subsets found so far, and scratch
/// space for one expansion.
struct SubsetWalk<'n> {
    nfa: &'n Nfa,
    classes: Classes,
    /// For each NFA label, the classes it contains.
    label_classes: Vec<Vec<ClassId>>,
    subsets: Subsets<'n>,
    targets_by_class: Vec<Vec<StateId>>,
}

impl<'n> SubsetWalk<'n> {
    /// The walk with only the start subset found.
    fn new(nfa: &'n Nfa, budget: &Budget) -> Result<SubsetWalk<'n>, BudgetError> {
        let labels: Vec<_> = nfa.labels().iter().collect();
        let (classes, label_classes) = Classes::new(&labels, budget)?;
        let n_classes = classes.len();
        let mut subsets = Subsets::new(nfa, n_classes);
        subsets.intern(&[nfa.start()], budget)?;
        let targets_by_class = vec![Vec::new(); n_classes];
        Ok(SubsetWalk { nfa, classes, label_classes, subsets, targets_by_class })
    }

    /// Calls `visit(target, class index)` for each class in ascending order, with the
    /// subset that `dfa_state` moves to on it (added if new).
    fn expand(
        &mut self,
        dfa_state: usize,
        budget: &Budget,
        mut visit: impl FnMut(StateId, usize),
    ) -> Result<(), BudgetError> {
        budget.check_time(Operation::Determinize)?;
        for &nfa_state in &self.subsets.sets[dfa_state] {
            for &(label, target) in &self.nfa.state(nfa_state).transitions {
                for class in &self.label_classes[label.index()] {
                    self.targets_by_class[class.index()].push(target);
                }
            }
        }
        for (class_idx, targets) in self.targets_by_class.iter_mut().enumerate() {
            visit(self.subsets.intern(targets, budget)?, class_idx);
            targets.clear();
        }
        Ok(())
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
    /// What `sets` and `ids` hold, charged as they grow.
    subset_bytes: usize,
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
            subset_bytes: 0,
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
        let subset_bytes = self.closure.len().saturating_mul(2 * size_of::<StateId>());
        let subset_bytes = self.subset_bytes.saturating_add(subset_bytes + SUBSET_OVERHEAD_BYTES);
        budget.check_memory(Operation::Determinize, table_bytes.saturating_add(subset_bytes))?;
        self.subset_bytes = subset_bytes;
        let set: Box<[StateId]> = self.closure.as_slice().into();
        self.sets.push(set.clone());
        self.ids.insert(set, id);
        Ok(id)
    }
}
