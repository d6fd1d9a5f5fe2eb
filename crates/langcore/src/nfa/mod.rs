//! Nondeterministic finite automata with character-set labels and ε-moves.
//!
//! # Overview
//! [`Nfa`] is what the regex front end builds: small (linear in the pattern), cheap to
//! build, and able to answer membership by set simulation. [`Dfa`](crate::Dfa) is built from
//! it by subset construction.
//!
//! # Invariants
//! - Labels are interned: every distinct [`CharSet`] appears once in the label list, and no
//!   transition carries the empty set.
//! - Every `StateId` stored in a state is below the state count.

mod analysis;
mod build;
mod congruence;
mod inclusion;

pub(crate) use analysis::NfaTrim;
pub(crate) use build::{compile as compile_hir, compile_repetition};
pub(crate) use congruence::equivalence_witness;
pub(crate) use inclusion::inclusion_witness;

use rustc_hash::FxHashMap as HashMap;

use regex_syntax::hir::{Class, Hir};

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation, Ticker};
use crate::state_id::StateId;

/// The index of an interned transition label of an [`Nfa`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LabelId(u32);

impl LabelId {
    pub(crate) fn index(self) -> usize {
        self.0 as usize
    }
}

/// One NFA state: labelled moves, ε-moves and whether it accepts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct State {
    pub(crate) transitions: Vec<(LabelId, StateId)>,
    pub(crate) epsilons: Vec<StateId>,
    pub(crate) accepting: bool,
}

/// A nondeterministic automaton over Unicode scalar values.
///
/// # Example
/// ```
/// use langcore::Nfa;
///
/// let nfa = Nfa::from_regex("(a|b)*abb")?;
/// assert!(nfa.matches("babb"));
/// assert!(!nfa.matches("abba"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nfa {
    states: Vec<State>,
    labels: Vec<CharSet>,
    start: StateId,
}

impl Nfa {
    pub(crate) fn from_hir(hir: &Hir, budget: &Budget) -> Result<Nfa, BudgetError> {
        build::build(hir, budget)
    }

    /// The number of states.
    ///
    /// # Example
    /// ```
    /// use langcore::Nfa;
    ///
    /// // Linear in the pattern, where the DFA of the same language has 2^21 states.
    /// let nfa = Nfa::from_regex("(a|b)*a(a|b){20}")?;
    /// assert!(nfa.n_states() > 21 && nfa.n_states() < 1_000);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn n_states(&self) -> usize {
        self.states.len()
    }

    /// The start state.
    ///
    /// # Example
    /// ```
    /// use langcore::Nfa;
    ///
    /// let nfa = Nfa::from_regex("ab*")?;
    /// assert!(nfa.start().index() < nfa.n_states());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(&self) -> StateId {
        self.start
    }

    /// Whether the automaton is deterministic as it stands: no ε-moves, and no state has two
    /// moves on a common character. (Every [`Dfa`](crate::Dfa) is deterministic.)
    ///
    /// # Example
    /// ```
    /// use langcore::Nfa;
    ///
    /// assert!(Nfa::from_regex("abc")?.is_deterministic());
    /// assert!(!Nfa::from_regex("ab|ac")?.is_deterministic());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_deterministic(&self) -> bool {
        self.states.iter().all(|state| {
            state.epsilons.is_empty()
                && state.transitions.iter().enumerate().all(|(idx, &(label, _))| {
                    state.transitions[idx + 1..]
                        .iter()
                        .all(|&(other, _)| self.label(label).is_disjoint(self.label(other)))
                })
        })
    }

    /// Whether `input` is in the language, by simulating all runs at once.
    ///
    /// # Example
    /// ```
    /// use langcore::Nfa;
    ///
    /// let nfa = Nfa::from_regex("(a|b)*a(a|b){20}")?;
    /// assert!(nfa.matches(&format!("bb{}", "a".repeat(21))));
    /// assert!(!nfa.matches(&"b".repeat(30)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn matches(&self, input: &str) -> bool {
        let mut scratch = ClosureScratch::new(self.n_states());
        let mut current = Vec::new();
        self.closure(&[self.start], &mut scratch, &mut current);
        let mut seeds = Vec::new();
        for ch in input.chars() {
            seeds.clear();
            for &state_id in &current {
                for &(label, target) in &self.state(state_id).transitions {
                    if self.label(label).contains(ch) {
                        seeds.push(target);
                    }
                }
            }
            self.closure(&seeds, &mut scratch, &mut current);
            if current.is_empty() {
                return false;
            }
        }
        current.iter().any(|&state_id| self.state(state_id).accepting)
    }

    /// The automaton of the strings of this language whose characters are all in `charset`:
    /// every label intersected with it, moves left with an empty label dropped, the labels
    /// interned again.
    pub(crate) fn restricted(&self, charset: &CharSet) -> Nfa {
        let mut labels = Vec::new();
        let mut ids: HashMap<CharSet, LabelId> = HashMap::default();
        let relabel: Vec<Option<LabelId>> = self
            .labels
            .iter()
            .map(|label| {
                let inside = label.intersection(charset);
                if inside.is_empty() {
                    return None;
                }
                Some(*ids.entry(inside).or_insert_with_key(|inside| {
                    // At most as many labels as before, so the count fits like theirs.
                    let id = LabelId(labels.len() as u32);
                    labels.push(inside.clone());
                    id
                }))
            })
            .collect();
        let states = self
            .states
            .iter()
            .map(|state| State {
                transitions: state
                    .transitions
                    .iter()
                    .filter_map(|&(label, target)| Some((relabel[label.index()]?, target)))
                    .collect(),
                epsilons: state.epsilons.clone(),
                accepting: state.accepting,
            })
            .collect();
        Nfa { states, labels, start: self.start }
    }

    /// Appends a copy of this automaton to `builder` that continues to `next` (every
    /// accepting state gets an ε-move to it), and returns the copy's entry.
    ///
    /// # Errors
    /// When the builder's budget runs out.
    pub(crate) fn emit(
        &self,
        builder: &mut NfaBuilder<'_>,
        next: StateId,
    ) -> Result<StateId, BudgetError> {
        let offset = builder.n_states();
        let moved = |id: StateId| StateId::from_index(offset + id.index());
        for state in &self.states {
            let transitions = state
                .transitions
                .iter()
                .map(|&(label, target)| (builder.intern(self.label(label)), moved(target)))
                .collect();
            let mut epsilons: Vec<StateId> = state.epsilons.iter().copied().map(moved).collect();
            if state.accepting {
                epsilons.push(next);
            }
            builder.add(State { transitions, epsilons, accepting: false })?;
        }
        Ok(moved(self.start))
    }

    /// About how many bytes the automaton holds on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        let states: usize = self
            .states
            .iter()
            .map(|state| {
                size_of::<State>()
                    + size_of_val(state.transitions.as_slice())
                    + size_of_val(state.epsilons.as_slice())
            })
            .sum();
        let labels: usize = self
            .labels
            .iter()
            .map(|label| size_of::<CharSet>() + size_of_val(label.ranges()))
            .sum();
        states + labels
    }

    pub(crate) fn state(&self, id: StateId) -> &State {
        &self.states[id.index()]
    }

    /// Whether state `id` accepts or has labelled moves: the states that subsets of states
    /// (after ε-closure) need to keep.
    pub(crate) fn is_important(&self, id: StateId) -> bool {
        let state = self.state(id);
        state.accepting || !state.transitions.is_empty()
    }

    pub(crate) fn labels(&self) -> &[CharSet] {
        &self.labels
    }

    pub(crate) fn label(&self, id: LabelId) -> &CharSet {
        &self.labels[id.index()]
    }

    /// Writes to `out` every state reachable from `seeds` by ε-moves (seeds included), each
    /// once, in no particular order.
    pub(crate) fn closure(
        &self,
        seeds: &[StateId],
        scratch: &mut ClosureScratch,
        out: &mut Vec<StateId>,
    ) {
        out.clear();
        scratch.next_generation();
        scratch.stack.extend_from_slice(seeds);
        while let Some(state_id) = scratch.stack.pop() {
            if !scratch.visit(state_id) {
                continue;
            }
            out.push(state_id);
            scratch.stack.extend_from_slice(&self.state(state_id).epsilons);
        }
    }
}

/// Reusable memory for [`Nfa::closure`]: a visited mark per state that is reset in O(1) by
/// bumping a generation counter.
pub(crate) struct ClosureScratch {
    marks: Vec<u32>,
    generation: u32,
    stack: Vec<StateId>,
}

impl ClosureScratch {
    pub(crate) fn new(n_states: usize) -> ClosureScratch {
        ClosureScratch { marks: vec![0; n_states], generation: 0, stack: Vec::new() }
    }

    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.marks.fill(0);
            self.generation = 1;
        }
    }

    /// Marks `state_id` visited; false if it already was.
    fn visit(&mut self, state_id: StateId) -> bool {
        let mark = &mut self.marks[state_id.index()];
        let fresh = *mark != self.generation;
        *mark = self.generation;
        fresh
    }
}

/// Assembles an [`Nfa`] state by state, interning labels and checking the budget.
pub(crate) struct NfaBuilder<'b> {
    states: Vec<State>,
    labels: Vec<CharSet>,
    label_ids: HashMap<CharSet, LabelId>,
    /// The label of each HIR class compiled so far, by the class's address: a class repeated
    /// by a counted repetition (`\w{20}`) is converted and hashed once, not once per copy.
    /// Addresses are stable because the HIR is borrowed for the whole build.
    class_labels: HashMap<usize, Option<LabelId>>,
    budget: &'b Budget,
    /// Reads the deadline once per [`STATES_PER_TIME_CHECK`] states added.
    ticker: Ticker<'b>,
    /// The operation that budget errors name: the builder serves patterns and operations.
    op: Operation,
}

/// States added between two reads of the clock: adding one costs about as much as the read.
const STATES_PER_TIME_CHECK: usize = 256;

impl<'b> NfaBuilder<'b> {
    /// A builder whose budget errors name `op`.
    pub(crate) fn new(budget: &'b Budget, op: Operation) -> NfaBuilder<'b> {
        NfaBuilder {
            states: Vec::new(),
            labels: Vec::new(),
            label_ids: HashMap::default(),
            class_labels: HashMap::default(),
            budget,
            ticker: Ticker::new(budget, op, STATES_PER_TIME_CHECK),
            op,
        }
    }

    /// Adds a state and returns its id.
    pub(crate) fn add(&mut self, state: State) -> Result<StateId, BudgetError> {
        let id = StateId::new(self.states.len(), self.op)?;
        self.budget.check_state_count(self.op, self.states.len() + 1)?;
        self.ticker.tick(1)?;
        self.states.push(state);
        Ok(id)
    }

    /// Adds a state with one move on `set` to `target`, or no move at all when `set` is
    /// empty (a dead end).
    pub(crate) fn add_move(
        &mut self,
        set: CharSet,
        target: StateId,
    ) -> Result<StateId, BudgetError> {
        let mut state = State::default();
        if !set.is_empty() {
            state.transitions.push((self.intern_owned(set), target));
        }
        self.add(state)
    }

    /// Adds a state with one move on the characters of HIR class `class` to `target`, or no
    /// move when the class is empty.
    pub(crate) fn add_class_move(
        &mut self,
        class: &Class,
        target: StateId,
    ) -> Result<StateId, BudgetError> {
        let address = std::ptr::from_ref(class) as usize;
        let label = match self.class_labels.get(&address) {
            Some(&label) => label,
            None => {
                let set = CharSet::from_hir_class(class);
                let label = (!set.is_empty()).then(|| self.intern_owned(set));
                self.class_labels.insert(address, label);
                label
            }
        };
        let transitions = label.map(|label| vec![(label, target)]).unwrap_or_default();
        self.add(State { transitions, ..State::default() })
    }

    /// The id of label `set`, which must not be empty, adding it if it is new.
    pub(crate) fn intern(&mut self, set: &CharSet) -> LabelId {
        match self.label_ids.get(set) {
            Some(&label) => label,
            None => self.add_label(set.clone()),
        }
    }

    /// [`NfaBuilder::intern`] of a set the caller owns: a new label costs one copy, not two
    /// (a Unicode class such as `\w` has hundreds of ranges).
    pub(crate) fn intern_owned(&mut self, set: CharSet) -> LabelId {
        match self.label_ids.get(&set) {
            Some(&label) => label,
            None => self.add_label(set),
        }
    }

    /// Adds `set`, not yet a label.
    fn add_label(&mut self, set: CharSet) -> LabelId {
        debug_assert!(!set.is_empty(), "an empty label is a move that can never be taken");
        let label = LabelId(self.labels.len() as u32);
        self.labels.push(set.clone());
        self.label_ids.insert(set, label);
        label
    }

    pub(crate) fn state_mut(&mut self, id: StateId) -> &mut State {
        &mut self.states[id.index()]
    }

    pub(crate) fn n_states(&self) -> usize {
        self.states.len()
    }

    /// Fails once the deadline has passed.
    pub(crate) fn check_time(&self) -> Result<(), BudgetError> {
        self.budget.check_time(self.op)
    }

    pub(crate) fn finish(self, start: StateId) -> Nfa {
        Nfa { states: self.states, labels: self.labels, start }
    }

    /// Adds a state without checking the budget, for automata whose size was checked
    /// before: the caller guarantees fewer than [`StateId::LIMIT`] states in all.
    pub(crate) fn add_unchecked(&mut self, state: State) -> StateId {
        let id = StateId::from_index(self.states.len());
        self.states.push(state);
        id
    }
}
