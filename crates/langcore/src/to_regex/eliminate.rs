//! State elimination: a trimmed automaton becomes one expression, state by state.
//!
//! # Algorithm
//! Brzozowski and McCluskey's state elimination on a generalized NFA ([`Gnfa`]) whose edges
//! carry expressions: a fresh start with an `ε`-edge to the entry, a fresh accept with
//! `ε`-edges from every accepting state, and one class edge per pair of states (the trimmed
//! DFA has already merged all classes between two states into one label, and has no dead
//! state). Removing a state `q` with loop `L` replaces every path `p → q → r` by the edge
//! `p → r` that also allows `E(p,q) L* E(q,r)`. When only the fresh start and accept are
//! left, their edge is the expression. Every edge is built through the smart constructors,
//! so it is simplified as it grows.
//!
//! The order decides the size of the result, exponentially in the worst case. [`Order`]
//! offers two heuristics:
//! - [`Order::Weight`]: Delgado and Morais' weight (*Approximation to the smallest regular
//!   expression for a given regular language*, CIAA 2004), the size a removal adds if nothing
//!   simplified: `Σ in·(outs − 1) + Σ out·(ins − 1) + loop·(ins·outs − 1)`, recomputed for the
//!   neighbours of each removed state and kept in a priority queue. Ties go to the first or
//!   the last state. O(log n) per choice and update, plus the edges built.
//! - [`Order::Exact`]: for each remaining state, build the edges its removal would create
//!   and take the one that adds the least rendered length. O(n) trial removals per choice,
//!   for small automata only.
//!
//! # Budgets
//! [`Operation::ToRegex`]: the deadline once per predecessor of a removed (or tried) state,
//! and the node arena (with its class spellings) against the memory limit once per
//! removal. A size limit abandons an order whose edges grow past it (the caller already has
//! something shorter).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};

use super::ast::{Exprs, NodeId};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::fragment::Fragment;

/// The fresh start of a [`Gnfa`].
const START: usize = 0;
/// The fresh accept of a [`Gnfa`].
const ACCEPT: usize = 1;
/// A generous estimate of the bytes one node of the arena takes, for the memory limit.
const NODE_BYTES: usize = 256;

/// How to choose the next state to remove.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// The least weight; ties to the last state when `prefer_last`, else to the first.
    Weight { prefer_last: bool },
    /// The least rendered length added, found by trial removals.
    Exact,
}

/// A generalized NFA: edges carry expressions. Node 0 is the fresh start, node 1 the fresh
/// accept, node `i + 2` the trimmed state `i`.
#[derive(Clone, Debug)]
pub(super) struct Gnfa {
    /// `out[p][&r]` labels the edge `p → r`.
    out: Vec<BTreeMap<usize, NodeId>>,
    /// `inc[r]` holds every `p` with an edge `p → r`.
    inc: Vec<BTreeSet<usize>>,
}

impl Gnfa {
    /// The generalized NFA of `fragment`'s language.
    pub(super) fn new(
        fragment: &Fragment,
        exprs: &mut Exprs,
        budget: &Budget,
    ) -> Result<Gnfa, BudgetError> {
        let accepting: Vec<bool> =
            (0..fragment.n_states()).map(|idx| fragment.is_accepting(idx)).collect();
        Gnfa::with_moves(exprs, budget, &[0], &accepting, |idx| fragment.moves(idx))
    }

    /// The generalized NFA of the automaton whose states `0..accepting.len()` start at
    /// `entries`, accept where `accepting` says, and move by `moves(state)` as (label,
    /// target); it may be nondeterministic.
    pub(super) fn with_moves<'m>(
        exprs: &mut Exprs,
        budget: &Budget,
        entries: &[usize],
        accepting: &[bool],
        moves: impl Fn(usize) -> &'m [(CharSet, usize)],
    ) -> Result<Gnfa, BudgetError> {
        let n_nodes = accepting.len() + 2;
        let mut gnfa =
            Gnfa { out: vec![BTreeMap::new(); n_nodes], inc: vec![BTreeSet::new(); n_nodes] };
        let epsilon = exprs.epsilon();
        for &entry in entries {
            gnfa.add_edge(exprs, START, entry + 2, epsilon);
        }
        for (idx, &accepts) in accepting.iter().enumerate() {
            budget.check_time(Operation::ToRegex)?;
            if accepts {
                gnfa.add_edge(exprs, idx + 2, ACCEPT, epsilon);
            }
            for (set, target) in moves(idx) {
                let class = exprs.class(set.clone());
                gnfa.add_edge(exprs, idx + 2, target + 2, class);
            }
        }
        Ok(gnfa)
    }

    /// The orders worth trying on this automaton: both tie-breaks of the weight, and trial
    /// removals when it has at most `max_exact` states.
    pub(super) fn orders(&self, max_exact: usize) -> Vec<Order> {
        let mut orders =
            vec![Order::Weight { prefer_last: false }, Order::Weight { prefer_last: true }];
        if self.n_inner() <= max_exact {
            orders.push(Order::Exact);
        }
        orders
    }

    /// The number of states left to remove.
    pub(super) fn n_inner(&self) -> usize {
        self.out.len() - 2
    }

    fn add_edge(&mut self, exprs: &mut Exprs, from: usize, to: usize, expr: NodeId) -> NodeId {
        let combined = match self.out[from].get(&to) {
            Some(&existing) => exprs.alt(&[existing, expr]),
            None => expr,
        };
        self.out[from].insert(to, combined);
        self.inc[to].insert(from);
        combined
    }

    /// The edges that removing `state` adds, as `(from, to, expression)`, without changing
    /// the automaton.
    fn bypasses(
        &self,
        exprs: &mut Exprs,
        state: usize,
        budget: &Budget,
    ) -> Result<Vec<(usize, usize, NodeId)>, BudgetError> {
        let loop_star = self.out[state].get(&state).map(|&expr| exprs.star(expr));
        let mut bypasses = Vec::new();
        for &from in self.inc[state].iter().filter(|&&from| from != state) {
            budget.check_time(Operation::ToRegex)?;
            let into = self.out[from][&state];
            for (&to, &onward) in self.out[state].iter().filter(|&(&to, _)| to != state) {
                let path = match loop_star {
                    Some(star) => exprs.concat(&[into, star, onward]),
                    None => exprs.concat(&[into, onward]),
                };
                bypasses.push((from, to, path));
            }
        }
        Ok(bypasses)
    }

    /// Removes `state`, rerouting its paths; returns the largest edge size created.
    fn remove(
        &mut self,
        exprs: &mut Exprs,
        state: usize,
        budget: &Budget,
    ) -> Result<usize, BudgetError> {
        let bypasses = self.bypasses(exprs, state, budget)?;
        for from in std::mem::take(&mut self.inc[state]) {
            self.out[from].remove(&state);
        }
        for to in std::mem::take(&mut self.out[state]).into_keys() {
            self.inc[to].remove(&state);
        }
        let mut largest = 0;
        for (from, to, path) in bypasses {
            // Each new edge is simplified against the old one: not free on large edges.
            budget.check_time(Operation::ToRegex)?;
            let edge = self.add_edge(exprs, from, to, path);
            largest = largest.max(exprs.size(edge));
        }
        Ok(largest)
    }

    /// Delgado and Morais' weight of removing `state`.
    fn weight(&self, exprs: &Exprs, state: usize) -> usize {
        let ins: Vec<usize> = self.inc[state]
            .iter()
            .filter(|&&from| from != state)
            .map(|&from| exprs.size(self.out[from][&state]))
            .collect();
        let outs: Vec<usize> = self.out[state]
            .iter()
            .filter(|&(&to, _)| to != state)
            .map(|(_, &expr)| exprs.size(expr))
            .collect();
        let loop_size = self.out[state].get(&state).map_or(0, |&expr| exprs.size(expr));
        let (n_in, n_out) = (ins.len(), outs.len());
        let through_ins = ins.iter().sum::<usize>().saturating_mul(n_out.saturating_sub(1));
        let through_outs = outs.iter().sum::<usize>().saturating_mul(n_in.saturating_sub(1));
        let through_loop = loop_size.saturating_mul((n_in * n_out).saturating_sub(1));
        through_ins.saturating_add(through_outs).saturating_add(through_loop)
    }

    /// The change in total edge size that removing `state` would cause, by trial.
    fn exact_cost(
        &self,
        exprs: &mut Exprs,
        state: usize,
        budget: &Budget,
    ) -> Result<isize, BudgetError> {
        let removed: usize =
            self.inc[state].iter().map(|&from| exprs.size(self.out[from][&state])).sum::<usize>()
                + self.out[state]
                    .iter()
                    .filter(|&(&to, _)| to != state)
                    .map(|(_, &expr)| exprs.size(expr))
                    .sum::<usize>();
        let mut added: BTreeMap<(usize, usize), NodeId> = BTreeMap::new();
        for (from, to, path) in self.bypasses(exprs, state, budget)? {
            let previous =
                added.get(&(from, to)).copied().or_else(|| self.out[from].get(&to).copied());
            let combined = match previous {
                Some(existing) => exprs.alt(&[existing, path]),
                None => path,
            };
            added.insert((from, to), combined);
        }
        let mut delta = -(removed as isize);
        for (&(from, to), &expr) in &added {
            delta += exprs.size(expr) as isize;
            if let Some(&old) = self.out[from].get(&to) {
                delta -= exprs.size(old) as isize;
            }
        }
        Ok(delta)
    }

    /// Removes every state in the order `order` chooses and returns the expression of the
    /// language, or `None` when an edge grows past `size_limit`.
    pub(super) fn eliminate(
        mut self,
        exprs: &mut Exprs,
        order: Order,
        budget: &Budget,
        size_limit: usize,
    ) -> Result<Option<NodeId>, BudgetError> {
        let mut remaining: Vec<bool> = (0..self.out.len()).map(|state| state >= 2).collect();
        let mut weights: Vec<usize> =
            (0..self.out.len()).map(|state| self.weight(exprs, state)).collect();
        // Stale entries (an older weight, a removed state) are skipped when popped.
        let tie = |state: usize| {
            if order == (Order::Weight { prefer_last: true }) { usize::MAX - state } else { state }
        };
        let mut queue: BinaryHeap<Reverse<(usize, usize, usize)>> =
            (2..self.out.len()).map(|state| Reverse((weights[state], tie(state), state))).collect();
        for _ in 2..self.out.len() {
            budget.check_time(Operation::ToRegex)?;
            let bytes =
                exprs.n_nodes().saturating_mul(NODE_BYTES).saturating_add(exprs.class_bytes());
            budget.check_memory(Operation::ToRegex, bytes)?;
            let state = if order == Order::Exact {
                let mut best: Option<(isize, usize)> = None;
                for state in (2..self.out.len()).filter(|&state| remaining[state]) {
                    budget.check_time(Operation::ToRegex)?;
                    let cost = self.exact_cost(exprs, state, budget)?;
                    if best.is_none_or(|(best_cost, _)| cost < best_cost) {
                        best = Some((cost, state));
                    }
                }
                best.expect("a state remains").1
            } else {
                loop {
                    let Reverse((weight, _, state)) =
                        queue.pop().expect("every remaining state is queued");
                    if remaining[state] && weights[state] == weight {
                        break state;
                    }
                }
            };
            let neighbours: BTreeSet<usize> =
                self.inc[state].iter().chain(self.out[state].keys()).copied().collect();
            remaining[state] = false;
            if self.remove(exprs, state, budget)? > size_limit {
                return Ok(None);
            }
            for neighbour in neighbours.into_iter().filter(|&neighbour| remaining[neighbour]) {
                weights[neighbour] = self.weight(exprs, neighbour);
                queue.push(Reverse((weights[neighbour], tie(neighbour), neighbour)));
            }
        }
        Ok(Some(match self.out[START].get(&ACCEPT) {
            Some(&expr) => expr,
            None => exprs.empty(),
        }))
    }
}
