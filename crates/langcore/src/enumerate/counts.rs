//! The labelled edges of a canonical DFA, and the tables counting its paths and strings.
//!
//! # Overview
//! - [`Routes`]: the useful states of the DFA (reachable and able to accept) as *nodes*, each
//!   with its *edges*: for every useful target, the union of the classes leading there, a
//!   [`CharSet`] label. A node's edges are ordered by the smallest character of their label.
//!   Paths are sequences of these edges.
//! - [`Counts`]: for every node `s` and remaining length `r` up to the longest length
//!   generated, a [`Cell`]: W(s, r), the number of strings of exactly `r` characters that
//!   lead from `s` to acceptance, P(s, r), the number of paths doing so, and the smallest and
//!   largest number of strings of one such path.
//!
//! # Algorithm
//! Edges: one pass over the DFA table, O(states × classes), plus sorting each label's ranges.
//! Counts, level by level in `r`:
//!
//! ```text
//! W(s, 0) = P(s, 0) = [s accepts]      W(s, r) = Σ_e |e|·W(t, r−1)      P(s, r) = Σ_e P(t, r−1)
//! ```
//!
//! over the edges `e: s → t`. That is O(max_length × edges) big-integer operations on numbers
//! of up to `r · log2(largest label)` bits (about 2,000 bits for `.{100}`).
//!
//! # Invariants
//! - Everything depends only on the DFA, so on the language when the DFA is canonical: nodes
//!   are numbered in state order, and edges ordered by their smallest character (labels are
//!   disjoint, so that order is strict).
//! - Labels are never empty; W(s, r), P(s, r) and the largest product are zero together.
//! - Products of label sizes saturate at `u128::MAX`: a saturated smallest product is still a
//!   lower bound and a saturated largest product is never below a real threshold (thresholds
//!   are at most `offset + limit`).
//!
//! The table grows one remaining length at a time ([`Counts::push_level`]), so callers
//! build only the lengths they will reach.
//!
//! # Budgets
//! [`Operation::Generate`]: the deadline once per (node, length) cell, and the bytes of the
//! table (cells and big-integer digits) against the memory limit before and after each
//! length.

use num_bigint::BigUint;

use crate::alphabet::{CharSet, ClassId, nth_after, span_len};
use crate::analysis::{Trim, heap_bytes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::state_id::StateId;

/// The characters leading from one node to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Edge {
    /// The characters of this move: never empty.
    pub(super) label: CharSet,
    /// `label.len()`, at least 1 and at most 1,112,064.
    pub(super) size: u64,
    /// For each range of `label`, the number of members in the ranges before it: the index
    /// for [`Edge::nth`].
    starts: Vec<u64>,
    pub(super) target: StateId,
}

impl Edge {
    fn new(label: CharSet, target: StateId) -> Edge {
        let mut starts = Vec::with_capacity(label.ranges().len());
        let mut before = 0;
        for range in label.ranges() {
            starts.push(before);
            before += span_len(range);
        }
        Edge { size: before, label, starts, target }
    }

    /// The member of the label at `index` in ascending order. O(log ranges).
    pub(super) fn nth(&self, index: u64) -> Option<char> {
        if index >= self.size {
            return None;
        }
        let range = self.starts.partition_point(|&start| start <= index).checked_sub(1)?;
        let (lo, _) = self.label.ranges()[range];
        nth_after(lo, index - self.starts[range])
    }
}

/// The useful part of a DFA as nodes with labelled, ordered edges: what paths are made of.
#[derive(Clone, Debug)]
pub(super) struct Routes {
    /// The edges of node `n` are `edges[offsets[n]..offsets[n + 1]]`.
    offsets: Vec<usize>,
    edges: Vec<Edge>,
    accepting: Vec<bool>,
    start: StateId,
}

impl Routes {
    /// The nodes and edges of `dfa`'s useful states (`trim` is its trim), or `None` when
    /// its language is empty.
    pub(super) fn new(dfa: &Dfa, trim: &Trim) -> Option<Routes> {
        if !trim.is_useful(dfa.start()) {
            return None;
        }
        let mut node_of = vec![None; dfa.n_states()];
        let mut accepting = Vec::new();
        for state in dfa.states().filter(|&state| trim.is_useful(state)) {
            node_of[state.index()] = Some(StateId::from_index(accepting.len()));
            accepting.push(dfa.is_accepting(state));
        }
        // The classes leading to each target node from the current state, and the targets in
        // order of first appearance, that is of smallest character.
        let mut classes_to: Vec<Vec<ClassId>> = vec![Vec::new(); accepting.len()];
        let mut targets = Vec::new();
        let mut offsets = vec![0];
        let mut edges = Vec::new();
        for state in dfa.states().filter(|&state| trim.is_useful(state)) {
            for (class, _) in dfa.classes().iter() {
                let Some(target) = node_of[dfa.next_state(state, class).index()] else {
                    continue;
                };
                if classes_to[target.index()].is_empty() {
                    targets.push(target);
                }
                classes_to[target.index()].push(class);
            }
            for target in targets.drain(..) {
                let members =
                    |class| dfa.classes().class(class).into_iter().flat_map(CharSet::ranges);
                let label = match classes_to[target.index()].as_slice() {
                    &[only] => dfa.classes().class(only).cloned().unwrap_or_default(),
                    several => CharSet::from_ranges(
                        several.iter().flat_map(|&class| members(class)).copied(),
                    ),
                };
                classes_to[target.index()].clear();
                edges.push(Edge::new(label, target));
            }
            offsets.push(edges.len());
        }
        let start = node_of[dfa.start().index()]?;
        Some(Routes { offsets, edges, accepting, start })
    }

    pub(super) fn n_nodes(&self) -> usize {
        self.accepting.len()
    }

    pub(super) fn start(&self) -> StateId {
        self.start
    }

    #[cfg(test)]
    pub(super) fn is_accepting(&self, node: StateId) -> bool {
        self.accepting[node.index()]
    }

    /// The edges of `node`, by ascending smallest character.
    pub(super) fn edges(&self, node: StateId) -> &[Edge] {
        &self.edges[self.offsets[node.index()]..self.offsets[node.index() + 1]]
    }
}

/// What the paths of one length from one node hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cell {
    /// W(s, r): the strings.
    pub(super) strings: BigUint,
    /// P(s, r): the paths.
    pub(super) paths: BigUint,
    /// The fewest strings of one path (saturated; `u128::MAX` when there is no path).
    pub(super) min_product: u128,
    /// The most strings of one path (saturated; 0 when there is no path).
    pub(super) max_product: u128,
}

impl Cell {
    fn none() -> Cell {
        Cell {
            strings: BigUint::ZERO,
            paths: BigUint::ZERO,
            min_product: u128::MAX,
            max_product: 0,
        }
    }

    fn unit() -> Cell {
        Cell { strings: 1u8.into(), paths: 1u8.into(), min_product: 1, max_product: 1 }
    }

    /// Whether some path of this length leads to acceptance.
    pub(super) fn is_viable(&self) -> bool {
        self.max_product != 0
    }

    fn heap_bytes(&self) -> usize {
        heap_bytes(&self.strings) + heap_bytes(&self.paths)
    }
}

/// The [`Cell`] of every node and remaining length up to [`Counts::max_length`].
#[derive(Clone, Debug)]
pub(super) struct Counts {
    n_nodes: usize,
    /// Indexed by `remaining * n_nodes + node`.
    cells: Vec<Cell>,
    bytes: usize,
}

impl Counts {
    /// The cells of every node of `routes` for remaining length 0: acceptance.
    pub(super) fn new(routes: &Routes) -> Counts {
        let cells: Vec<Cell> = routes
            .accepting
            .iter()
            .map(|&accepting| if accepting { Cell::unit() } else { Cell::none() })
            .collect();
        let bytes =
            cells.len() * size_of::<Cell>() + cells.iter().map(Cell::heap_bytes).sum::<usize>();
        Counts { n_nodes: routes.n_nodes(), cells, bytes }
    }

    /// The longest remaining length the table holds.
    pub(super) fn max_length(&self) -> usize {
        self.cells.len() / self.n_nodes - 1
    }

    /// Extends the table by one remaining length.
    pub(super) fn push_level(
        &mut self,
        routes: &Routes,
        budget: &Budget,
    ) -> Result<(), BudgetError> {
        let level_bytes = self.n_nodes.saturating_mul(size_of::<Cell>());
        budget.check_memory(Operation::Generate, self.bytes.saturating_add(level_bytes))?;
        let below_start = self.cells.len() - self.n_nodes;
        // One product buffer for the whole level, so that multiplying allocates rarely.
        let mut term = BigUint::ZERO;
        for node_idx in 0..self.n_nodes {
            budget.check_time(Operation::Generate)?;
            let mut cell = Cell::none();
            for edge in routes.edges(StateId::from_index(node_idx)) {
                let below = &self.cells[below_start + edge.target.index()];
                if !below.is_viable() {
                    continue;
                }
                if edge.size == 1 {
                    cell.strings += &below.strings;
                } else {
                    term.clone_from(&below.strings);
                    term *= edge.size;
                    cell.strings += &term;
                }
                cell.paths += &below.paths;
                let size = u128::from(edge.size);
                cell.min_product = cell.min_product.min(below.min_product.saturating_mul(size));
                cell.max_product = cell.max_product.max(below.max_product.saturating_mul(size));
            }
            self.bytes += size_of::<Cell>() + cell.heap_bytes();
            self.cells.push(cell);
        }
        budget.check_memory(Operation::Generate, self.bytes)
    }

    /// The paths of exactly `remaining` characters from `node`; `remaining` must be at most
    /// the maximum length the table was built for.
    pub(super) fn cell(&self, node: StateId, remaining: usize) -> &Cell {
        &self.cells[remaining * self.n_nodes + node.index()]
    }

    /// The bytes the table takes, as charged to the budget.
    pub(super) fn bytes(&self) -> usize {
        self.bytes
    }
}
