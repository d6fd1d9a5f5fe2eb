//! The automaton of a pattern with lookarounds: a subset construction whose states carry
//! pending lookahead obligations and the states of lookbehind trackers.
//!
//! # Algorithm
//! The [`Expr`] is compiled, back to front like `nfa/build.rs`, into one NFA whose ε-moves
//! may carry a guard: a lookahead (`Ahead`) or a lookbehind (`Behind`), each maybe negated.
//! Each lookahead body `X` gets a sub-automaton that ends in a *universal* state (accepting,
//! looping on every character): it accepts `X·Σ*`. Each lookbehind body `Y` gets a
//! *tracker*, an automaton of `Σ*·Y` run from the start of the string.
//!
//! A configuration is an NFA state with a set of *obligations*; an obligation is a
//! (negated?, set of configurations of a lookahead's sub-automaton) pair, the sub-automaton
//! simulated from where the lookahead was crossed. A set of configurations is a
//! disjunction, the obligations of one configuration a conjunction, so nested lookaheads
//! are alternating automata simulated forward. Crossing a lookahead guard adds an
//! obligation, unless it is already decided: a positive one whose set holds the universal
//! state with no obligation of its own is satisfied (dropped), an empty one violated (the
//! configuration dies), and the reverse for negated ones. At the end of the string a set
//! accepts iff one of its configurations accepts and each of its obligations accepts
//! (positive) or does not (negated).
//!
//! Trackers are deterministic functions of the prefix: their sets are part of the DFA
//! state, stepped first on each character (inner lookbehinds first: a tracker's number is
//! above those of the lookbehinds in its body), and a lookbehind guard is crossed iff its
//! tracker accepts at this position (or not, negated). A lookahead inside a lookbehind body
//! leaves obligations on the tracker's configurations like anywhere else; where the body
//! has matched only with such obligations pending, the tracker's value is itself pending:
//! the set of those matches moved to a universal state with their obligations, which the
//! guard adds as an obligation (negated for a negative lookbehind), so the future decides.
//! Lookbehinds inside lookaheads read the same trackers, since they look at the same
//! prefix of the whole string.
//!
//! A configuration also carries the values of the captured groups that backreferences
//! read (`capture.rs`): ε-moves guarded by a [`Capture`] set one or test it, a lookahead's
//! sub-automaton starts with the values where it was crossed, a lookbehind's tracker with
//! none (its groups are its own).
//!
//! A DFA state is (the tracker sets, the main set); sets, configurations and obligations are
//! hash-consed, and stepping a set on a class under given tracker values is memoized. The
//! result is minimized (Hopcroft), so it is the canonical minimal DFA.
//!
//! Cost: the states can be exponential in the NFA (as for subset construction) and again in
//! the nesting of lookaheads; the budget bounds both.
//!
//! # Budgets
//! NFA states are checked against the state limit ([`Operation::BuildNfa`]); DFA states
//! against the state limit and the table's memory, and every expansion against the deadline
//! ([`Operation::Determinize`]); the hash-consed sets are charged to the memory limit as
//! they grow (by their sizes), with the deadline checked every few hundred of them.

use rustc_hash::FxHashMap as HashMap;

use super::{Capture, Expr};
use crate::alphabet::{CharSet, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::state_id::StateId;

/// A guard on an ε-move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Guard {
    Always,
    /// Crossed iff tracker `tracker` accepts here (does not, `negated`).
    Behind {
        tracker: u32,
        negated: bool,
    },
    /// Crossed with an obligation that sub-automaton `sub` accepts the rest (does not).
    Ahead {
        sub: u32,
        negated: bool,
    },
    /// Sets or tests a captured value of the configuration.
    Capture(Capture),
}

#[derive(Clone, Debug, Default)]
struct GState {
    moves: Vec<(u32, u32)>,
    epsilons: Vec<(Guard, u32)>,
    accepting: bool,
    /// Accepting and looping on every character: whatever follows is accepted.
    universal: bool,
}

/// Builds the canonical minimal DFA of `expr`.
pub(super) fn build(expr: &Expr, budget: &Budget) -> Result<Dfa, BudgetError> {
    let mut compiler = Compiler::new(budget);
    compiler.universal =
        compiler.add(GState { accepting: true, universal: true, ..GState::default() })?;
    let full = compiler.intern(&CharSet::full());
    let universal = compiler.universal;
    compiler.states[universal as usize].moves.push((full, universal));
    let accept = compiler.add(GState { accepting: true, ..GState::default() })?;
    let entry = compiler.compile(expr, accept)?;
    Determinizer::new(compiler, entry, budget)?.run()
}

/// The guarded NFA under construction.
struct Compiler<'b> {
    states: Vec<GState>,
    labels: Vec<CharSet>,
    label_ids: HashMap<CharSet, u32>,
    /// The entry of each lookahead's sub-automaton.
    subs: Vec<u32>,
    /// The entry of each lookbehind's tracker.
    trackers: Vec<u32>,
    /// Sub-automata and trackers by the address of their assertion, so that copies made by
    /// a counted repetition share them. The expression is borrowed for the whole build.
    by_address: HashMap<usize, Guard>,
    /// An accepting state looping on every character: where a lookbehind whose body has
    /// matched waits for that match's pending lookaheads.
    universal: u32,
    budget: &'b Budget,
}

impl<'b> Compiler<'b> {
    fn new(budget: &'b Budget) -> Compiler<'b> {
        Compiler {
            states: Vec::new(),
            labels: Vec::new(),
            label_ids: HashMap::default(),
            subs: Vec::new(),
            trackers: Vec::new(),
            by_address: HashMap::default(),
            universal: 0,
            budget,
        }
    }

    fn add(&mut self, state: GState) -> Result<u32, BudgetError> {
        let id = StateId::new(self.states.len(), Operation::BuildNfa)?;
        self.budget.check_states(Operation::BuildNfa, self.states.len() + 1)?;
        if self.states.len().is_multiple_of(1024) {
            self.budget.check_time(Operation::BuildNfa)?;
        }
        self.states.push(state);
        Ok(id.index() as u32)
    }

    fn intern(&mut self, set: &CharSet) -> u32 {
        if let Some(&id) = self.label_ids.get(set) {
            return id;
        }
        let id = self.labels.len() as u32;
        self.labels.push(set.clone());
        self.label_ids.insert(set.clone(), id);
        id
    }

    /// The entry of an automaton of `expr` that continues to `next`. Recursion follows
    /// the expression's nesting, which the parser limits.
    fn compile(&mut self, expr: &Expr, next: u32) -> Result<u32, BudgetError> {
        match expr {
            Expr::Empty => Ok(next),
            Expr::Set(set) => {
                let mut state = GState::default();
                if !set.is_empty() {
                    state.moves.push((self.intern(set), next));
                }
                self.add(state)
            }
            Expr::Concat(parts) => {
                let mut entry = next;
                for part in parts.iter().rev() {
                    entry = self.compile(part, entry)?;
                }
                Ok(entry)
            }
            Expr::Alt(branches) => {
                let mut epsilons = Vec::with_capacity(branches.len());
                for branch in branches {
                    epsilons.push((Guard::Always, self.compile(branch, next)?));
                }
                self.add(GState { epsilons, ..GState::default() })
            }
            Expr::Repeat { sub, min, max, .. } => self.compile_repeat(sub, *min, *max, next),
            Expr::Atomic(sub) => self.compile(sub, next),
            Expr::Capture(capture) => self.add(GState {
                epsilons: vec![(Guard::Capture(*capture), next)],
                ..GState::default()
            }),
            Expr::Look(look) => {
                let address = std::ptr::from_ref(look) as usize;
                let guard = match self.by_address.get(&address) {
                    Some(&guard) => guard,
                    None => {
                        let guard = if look.ahead {
                            let universal = self.add(GState {
                                accepting: true,
                                universal: true,
                                ..GState::default()
                            })?;
                            let full = self.intern(&CharSet::full());
                            self.states[universal as usize].moves.push((full, universal));
                            let entry = self.compile(&look.body, universal)?;
                            self.subs.push(entry);
                            Guard::Ahead { sub: self.subs.len() as u32 - 1, negated: false }
                        } else {
                            let accept =
                                self.add(GState { accepting: true, ..GState::default() })?;
                            let body = self.compile(&look.body, accept)?;
                            let full = self.intern(&CharSet::full());
                            let start = self.add(GState::default())?;
                            self.states[start as usize].moves.push((full, start));
                            self.states[start as usize].epsilons.push((Guard::Always, body));
                            // Numbered after the lookbehinds in its body.
                            self.trackers.push(start);
                            Guard::Behind {
                                tracker: self.trackers.len() as u32 - 1,
                                negated: false,
                            }
                        };
                        self.by_address.insert(address, guard);
                        guard
                    }
                };
                let guard = match guard {
                    Guard::Ahead { sub, .. } => Guard::Ahead { sub, negated: look.negated },
                    Guard::Behind { tracker, .. } => {
                        Guard::Behind { tracker, negated: look.negated }
                    }
                    other => other,
                };
                self.add(GState { epsilons: vec![(guard, next)], ..GState::default() })
            }
        }
    }

    /// `sub{min,max}`: `min` copies, then `max - min` nested optional copies or a loop.
    fn compile_repeat(
        &mut self,
        sub: &Expr,
        min: u32,
        max: Option<u32>,
        next: u32,
    ) -> Result<u32, BudgetError> {
        let mut entry = next;
        match max {
            None => {
                let loop_state = self
                    .add(GState { epsilons: vec![(Guard::Always, next)], ..GState::default() })?;
                let body = self.compile(sub, loop_state)?;
                self.states[loop_state as usize].epsilons.push((Guard::Always, body));
                entry = loop_state;
            }
            Some(max) => {
                for _ in min..max {
                    let n_states = self.states.len();
                    let body = self.compile(sub, entry)?;
                    if self.states.len() == n_states {
                        break; // A copy that adds no state matches only "".
                    }
                    entry = self.add(GState {
                        epsilons: vec![(Guard::Always, body), (Guard::Always, next)],
                        ..GState::default()
                    })?;
                }
            }
        }
        for _ in 0..min {
            let n_states = self.states.len();
            entry = self.compile(sub, entry)?;
            if self.states.len() == n_states {
                break;
            }
        }
        Ok(entry)
    }
}

/// Hash-consing of values to dense ids.
struct Interner<T> {
    items: Vec<T>,
    ids: HashMap<T, u32>,
}

impl<T: Clone + Eq + std::hash::Hash> Interner<T> {
    fn new() -> Interner<T> {
        Interner { items: Vec::new(), ids: HashMap::default() }
    }

    /// An interner holding `first` as id 0.
    fn new_with(first: T) -> Interner<T> {
        let mut interner = Interner::new();
        interner.intern(first);
        interner
    }

    /// The id of `item` and whether it is new.
    fn intern(&mut self, item: T) -> (u32, bool) {
        if let Some(&id) = self.ids.get(&item) {
            return (id, false);
        }
        let id = self.items.len() as u32;
        self.items.push(item.clone());
        self.ids.insert(item, id);
        (id, true)
    }
}

/// What crossing a lookahead, or stepping its obligation, comes to.
enum Outcome {
    Satisfied,
    Violated,
    Pending(u32),
}

/// A tracker's value at a position: its lookbehind does not hold here,
const FALSE: u32 = 0;
/// holds,
const TRUE: u32 = 1;
/// or holds iff the lookaheads one of its body's matches crossed hold later: `PENDING + s`,
/// s the set of those matches as configurations of the universal state.
const PENDING: u32 = 2;

/// The id of the captured values of a configuration where no group holds a value.
const NO_CAPTURES: u32 = 0;

/// Bytes charged per hash-consed item besides its elements (its vector's header and its
/// two map entries, roughly), and per element (a `u32` or a pair of them, stored twice).
const BYTES_PER_ITEM: usize = 96;
const BYTES_PER_ELEMENT: usize = 16;

struct Determinizer<'b> {
    nfa: Compiler<'b>,
    main: u32,
    /// Configurations: (NFA state, captured values, sorted obligation ids).
    confs: Interner<(u32, u32, Box<[u32]>)>,
    /// Captured values: (group, value) pairs sorted by group, a group without a value
    /// left out; [`NO_CAPTURES`] is the empty one.
    captures: Interner<Box<[(u32, u32)]>>,
    /// Obligations: (negated, set id).
    obligations: Interner<(bool, u32)>,
    /// Sets of configurations, sorted.
    sets: Interner<Box<[u32]>>,
    /// Tracker value vectors (see [`FALSE`], [`TRUE`], [`PENDING`]).
    tracker_values: Interner<Box<[u32]>>,
    /// Memo of steps: (set, class, tracker values) to set.
    steps: HashMap<(u32, u32, u32), u32>,
    /// Memo of acceptance at the end.
    accepts: HashMap<u32, bool>,
    /// Memo of [`Determinizer::tracker_value`], by set: sets are interned, so a set's value
    /// never changes, and it is asked for on every move.
    tracker_value_of: HashMap<u32, u32>,
    classes: Classes,
    /// Each class's smallest character, to test labels with.
    representatives: Vec<char>,
    n_items: usize,
    /// Bytes of the hash-consed items and memoized steps so far.
    n_bytes: usize,
    budget: &'b Budget,
}

impl<'b> Determinizer<'b> {
    fn new(
        nfa: Compiler<'b>,
        main: u32,
        budget: &'b Budget,
    ) -> Result<Determinizer<'b>, BudgetError> {
        let labels: Vec<&CharSet> = nfa.labels.iter().collect();
        let (classes, _) = Classes::new(&labels, budget)?;
        let representatives = classes.iter().map(|(_, set)| set.first().unwrap_or('\0')).collect();
        Ok(Determinizer {
            nfa,
            main,
            confs: Interner::new(),
            captures: Interner::new_with(Box::new([])),
            obligations: Interner::new(),
            sets: Interner::new(),
            tracker_values: Interner::new(),
            steps: HashMap::default(),
            accepts: HashMap::default(),
            tracker_value_of: HashMap::default(),
            classes,
            representatives,
            n_items: 0,
            n_bytes: 0,
            budget,
        })
    }

    /// Charges one more hash-consed item (or memoized step) of `n_elements` elements.
    fn charge(&mut self, n_elements: usize) -> Result<(), BudgetError> {
        self.n_items += 1;
        let bytes = BYTES_PER_ITEM.saturating_add(n_elements.saturating_mul(BYTES_PER_ELEMENT));
        self.n_bytes = self.n_bytes.saturating_add(bytes);
        if self.n_items.is_multiple_of(256) {
            self.budget.check_time(Operation::Determinize)?;
            self.budget.check_memory(Operation::Determinize, self.n_bytes)?;
        }
        Ok(())
    }

    fn conf(
        &mut self,
        state: u32,
        captures: u32,
        obligations: Box<[u32]>,
    ) -> Result<u32, BudgetError> {
        let n_obligations = obligations.len();
        let (id, new) = self.confs.intern((state, captures, obligations));
        if new {
            self.charge(n_obligations)?;
        }
        Ok(id)
    }

    fn set(&mut self, mut confs: Vec<u32>) -> Result<u32, BudgetError> {
        confs.sort_unstable();
        confs.dedup();
        let n_confs = confs.len();
        let (id, new) = self.sets.intern(confs.into_boxed_slice());
        if new {
            self.charge(n_confs)?;
        }
        Ok(id)
    }

    /// The outcome of an obligation (negated?, set) as it stands.
    fn obligation(&mut self, negated: bool, set: u32) -> Result<Outcome, BudgetError> {
        let confs = &self.sets.items[set as usize];
        let satisfied_now = confs.iter().any(|&conf| {
            let (state, _, obligations) = &self.confs.items[conf as usize];
            self.nfa.states[*state as usize].universal && obligations.is_empty()
        });
        Ok(match (confs.is_empty(), satisfied_now, negated) {
            (true, _, false) | (_, true, true) => Outcome::Violated,
            (true, _, true) | (_, true, false) => Outcome::Satisfied,
            _ => {
                let (id, new) = self.obligations.intern((negated, set));
                if new {
                    self.charge(0)?;
                }
                Outcome::Pending(id)
            }
        })
    }

    /// The captured values after `capture` steps on `captures` (ids), or `None` where a
    /// test fails.
    fn capture(&mut self, captures: u32, capture: Capture) -> Result<Option<u32>, BudgetError> {
        let values = &self.captures.items[captures as usize];
        let (group, value) = match capture {
            Capture::Test { group, value } => {
                let held = values.iter().find(|&&(held, _)| held == group).map(|&(_, v)| v);
                return Ok((held == value).then_some(captures));
            }
            Capture::Set { group, value } => (group, value),
            // Written for the backtracking analysis only, which builds no such automaton:
            // read as failing, as a reference to a group with no value outside JavaScript.
            Capture::Equals { .. } => return Ok(None),
        };
        let mut after: Vec<(u32, u32)> =
            values.iter().copied().filter(|&(held, _)| held != group).collect();
        if let Some(value) = value {
            let at = after.partition_point(|&(held, _)| held < group);
            after.insert(at, (group, value));
        }
        let n_values = after.len();
        let (id, new) = self.captures.intern(after.into_boxed_slice());
        if new {
            self.charge(n_values)?;
        }
        Ok(Some(id))
    }

    /// The outcome of crossing lookbehind guard (`tracker`, `negated`) under tracker
    /// values `trackers`.
    fn behind(
        &mut self,
        trackers: &[u32],
        tracker: u32,
        negated: bool,
    ) -> Result<Outcome, BudgetError> {
        Ok(match trackers[tracker as usize] {
            FALSE if negated => Outcome::Satisfied,
            TRUE if !negated => Outcome::Satisfied,
            FALSE | TRUE => Outcome::Violated,
            pending => self.obligation(negated, pending - PENDING)?,
        })
    }

    /// The value of a tracker whose set is `set` (see [`PENDING`]).
    fn tracker_value(&mut self, set: u32) -> Result<u32, BudgetError> {
        if let Some(&value) = self.tracker_value_of.get(&set) {
            return Ok(value);
        }
        let value = self.new_tracker_value(set)?;
        self.tracker_value_of.insert(set, value);
        Ok(value)
    }

    /// [`Determinizer::tracker_value`] worked out.
    fn new_tracker_value(&mut self, set: u32) -> Result<u32, BudgetError> {
        let confs = self.sets.items[set as usize].clone();
        let mut pending = Vec::new();
        for conf in confs.iter() {
            let (state, _, obligations) = self.confs.items[*conf as usize].clone();
            if !self.nfa.states[state as usize].accepting {
                continue;
            }
            if obligations.is_empty() {
                return Ok(TRUE);
            }
            pending.push(self.conf(self.nfa.universal, NO_CAPTURES, obligations)?);
        }
        if pending.is_empty() {
            return Ok(FALSE);
        }
        Ok(PENDING + self.set(pending)?)
    }

    /// The set of configurations reachable by ε-moves from `seeds`, with tracker values
    /// `trackers` at this position; only those with moves or acceptance are kept.
    fn closure(&mut self, seeds: Vec<u32>, trackers: &[u32]) -> Result<u32, BudgetError> {
        let mut stack = seeds;
        let mut seen = rustc_hash::FxHashSet::default();
        let mut kept = Vec::new();
        while let Some(conf) = stack.pop() {
            if !seen.insert(conf) {
                continue;
            }
            let (state_id, captures, obligations) = self.confs.items[conf as usize].clone();
            let state = &self.nfa.states[state_id as usize];
            if state.accepting || !state.moves.is_empty() {
                kept.push(conf);
            }
            let epsilons = state.epsilons.clone();
            for (guard, target) in epsilons {
                let mut to = captures;
                let outcome = match guard {
                    Guard::Always => Outcome::Satisfied,
                    Guard::Capture(capture) => match self.capture(captures, capture)? {
                        Some(after) => {
                            to = after;
                            Outcome::Satisfied
                        }
                        None => Outcome::Violated,
                    },
                    Guard::Behind { tracker, negated } => {
                        self.behind(trackers, tracker, negated)?
                    }
                    Guard::Ahead { sub, negated } => {
                        // A lookahead reads the values captured before it.
                        let entry = self.nfa.subs[sub as usize];
                        let start = self.conf(entry, captures, Box::new([]))?;
                        let sub_set = self.closure(vec![start], trackers)?;
                        self.obligation(negated, sub_set)?
                    }
                };
                match outcome {
                    Outcome::Satisfied => stack.push(self.conf(target, to, obligations.clone())?),
                    Outcome::Violated => {}
                    Outcome::Pending(id) => {
                        let mut more = obligations.to_vec();
                        if let Err(at) = more.binary_search(&id) {
                            more.insert(at, id);
                        }
                        stack.push(self.conf(target, to, more.into_boxed_slice())?);
                    }
                }
            }
        }
        self.set(kept)
    }

    /// The set `set` moves to on class `class`, given tracker values (id) at the new
    /// position.
    fn step(&mut self, set: u32, class: u32, trackers: u32) -> Result<u32, BudgetError> {
        if let Some(&next) = self.steps.get(&(set, class, trackers)) {
            return Ok(next);
        }
        let rep = self.representatives[class as usize];
        let values = self.tracker_values.items[trackers as usize].clone();
        let mut seeds = Vec::new();
        let confs = self.sets.items[set as usize].clone();
        for conf in confs.iter() {
            let (state_id, captures, obligations) = self.confs.items[*conf as usize].clone();
            let moves = self.nfa.states[state_id as usize].moves.clone();
            for (label, target) in moves {
                if !self.nfa.labels[label as usize].contains(rep) {
                    continue;
                }
                let mut stepped = Vec::with_capacity(obligations.len());
                let mut alive = true;
                for &obligation in obligations.iter() {
                    let (negated, sub_set) = self.obligations.items[obligation as usize];
                    let next_set = self.step(sub_set, class, trackers)?;
                    match self.obligation(negated, next_set)? {
                        Outcome::Satisfied => {}
                        Outcome::Violated => {
                            alive = false;
                            break;
                        }
                        Outcome::Pending(id) => stepped.push(id),
                    }
                }
                if alive {
                    stepped.sort_unstable();
                    stepped.dedup();
                    seeds.push(self.conf(target, captures, stepped.into_boxed_slice())?);
                }
            }
        }
        let next = self.closure(seeds, &values)?;
        self.steps.insert((set, class, trackers), next);
        self.charge(1)?;
        Ok(next)
    }

    /// Whether `set` accepts when the string ends here.
    fn accepts(&mut self, set: u32) -> bool {
        if let Some(&accepts) = self.accepts.get(&set) {
            return accepts;
        }
        let confs = self.sets.items[set as usize].clone();
        let res = confs.iter().any(|&conf| {
            let (state, _, obligations) = self.confs.items[conf as usize].clone();
            self.nfa.states[state as usize].accepting
                && obligations.iter().all(|&obligation| {
                    let (negated, sub_set) = self.obligations.items[obligation as usize];
                    self.accepts(sub_set) != negated
                })
        });
        self.accepts.insert(set, res);
        res
    }

    fn values(&mut self, values: &[u32]) -> Result<u32, BudgetError> {
        let (id, new) = self.tracker_values.intern(values.into());
        if new {
            self.charge(values.len())?;
        }
        Ok(id)
    }

    /// The tracker sets and values after `step_tracker` gives each tracker's new set.
    fn trackers(
        &mut self,
        mut step_tracker: impl FnMut(&mut Self, usize, u32) -> Result<u32, BudgetError>,
    ) -> Result<(Vec<u32>, Vec<u32>, u32), BudgetError> {
        let n_trackers = self.nfa.trackers.len();
        let mut values = vec![FALSE; n_trackers];
        let mut sets = Vec::with_capacity(n_trackers);
        for tracker in 0..n_trackers {
            let partial = self.values(&values)?;
            let set = step_tracker(self, tracker, partial)?;
            values[tracker] = self.tracker_value(set)?;
            sets.push(set);
        }
        let values_id = self.values(&values)?;
        Ok((sets, values, values_id))
    }

    fn run(mut self) -> Result<Dfa, BudgetError> {
        let budget = self.budget;
        let n_classes = self.classes.len();
        let (tracker_sets, values, _) = self.trackers(|this, tracker, partial| {
            let entry = this.nfa.trackers[tracker];
            // A lookbehind's groups are its own: it runs from the start of the string.
            let start = this.conf(entry, NO_CAPTURES, Box::new([]))?;
            let partial_values = this.tracker_values.items[partial as usize].clone();
            this.closure(vec![start], &partial_values)
        })?;
        let main_start = self.conf(self.main, NO_CAPTURES, Box::new([]))?;
        let main = self.closure(vec![main_start], &values)?;
        let empty = self.set(Vec::new())?;

        let mut dfa_states: Vec<(Box<[u32]>, u32)> = Vec::new();
        let mut dfa_ids: HashMap<(Box<[u32]>, u32), StateId> = HashMap::default();
        let mut intern = |key: (Box<[u32]>, u32),
                          states: &mut Vec<(Box<[u32]>, u32)>|
         -> Result<StateId, BudgetError> {
            if let Some(&id) = dfa_ids.get(&key) {
                return Ok(id);
            }
            let id = StateId::new(states.len(), Operation::Determinize)?;
            budget.check_states(Operation::Determinize, states.len() + 1)?;
            let table_bytes =
                (states.len() + 1).saturating_mul(n_classes).saturating_mul(size_of::<StateId>());
            budget.check_memory(Operation::Determinize, table_bytes)?;
            states.push(key.clone());
            dfa_ids.insert(key, id);
            Ok(id)
        };
        let dead_key = |n_trackers: usize| (vec![empty; n_trackers].into_boxed_slice(), empty);
        let n_trackers = tracker_sets.len();
        let start_key = if main == empty {
            dead_key(n_trackers)
        } else {
            (tracker_sets.into_boxed_slice(), main)
        };
        intern(start_key, &mut dfa_states)?;

        let mut table = Vec::new();
        let mut accepting = Vec::new();
        let mut idx = 0;
        while idx < dfa_states.len() {
            budget.check_time(Operation::Determinize)?;
            let (tracker_sets, main) = dfa_states[idx].clone();
            accepting.push(self.accepts(main));
            for class in 0..n_classes as u32 {
                let (next_trackers, _, values_id) = self.trackers(|this, tracker, partial| {
                    this.step(tracker_sets[tracker], class, partial)
                })?;
                let next_main = self.step(main, class, values_id)?;
                let key = if next_main == empty {
                    dead_key(n_trackers)
                } else {
                    (next_trackers.into_boxed_slice(), next_main)
                };
                table.push(intern(key, &mut dfa_states)?);
            }
            idx += 1;
        }
        Dfa::from_parts(self.classes, table, accepting).minimize(budget)
    }
}
