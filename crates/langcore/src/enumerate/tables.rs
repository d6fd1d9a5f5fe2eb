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
//! Edges: the trim of the DFA (`dfa/trim.rs`), O(states × classes), plus merging each
//! label's ranges.
//! Counts, level by level in `r`:
//!
//! ```text
//! W(s, 0) = P(s, 0) = [s accepts]      W(s, r) = Σ_e |e|·W(t, r−1)      P(s, r) = Σ_e P(t, r−1)
//! ```
//!
//! over the edges `e: s → t`. That is O(max_length × edges) additions and multiplications,
//! on machine words while the counts fit 128 bits ([`Count`]), on big integers of up to
//! `r · log2(largest label)` bits beyond (about 2,000 bits for `.{100}`).
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
//! [`Operation::Generate`]: the deadline once per [`CHECK_INTERVAL`] (node, length) cells, and the bytes of the
//! table (cells and big-integer digits) against the memory limit before and after each
//! length.

use crate::alphabet::{CharSet, ClassId, nth_after, span_len};
use rustc_hash::FxHashMap as HashMap;

use super::count::Count;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::trim::Trim;
use crate::state_id::StateId;

/// The cells computed between two deadline checks: each costs O(edges of its node).
const CHECK_INTERVAL: usize = 64;

/// The characters of one or more edges, indexed to find their `n`-th member.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Label {
    set: CharSet,
    /// For each range of `set`, the number of members in the ranges before it.
    starts: Vec<u64>,
}

impl Label {
    fn new(set: CharSet) -> Label {
        let mut before = 0;
        let starts = set
            .ranges()
            .iter()
            .map(|range| {
                let start = before;
                before += span_len(range);
                start
            })
            .collect();
        Label { set, starts }
    }

    /// The member at `index` in ascending order, which must be below the size. O(log ranges).
    fn nth(&self, index: u64) -> Option<char> {
        let range = match self.starts.as_slice() {
            // Most labels are one range: nothing to search.
            [_] => 0,
            starts => starts.partition_point(|&start| start <= index).checked_sub(1)?,
        };
        nth_after(self.set.ranges()[range].0, index - self.starts[range])
    }
}

/// The characters leading from one node to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Edge {
    /// The index of the characters of this move in [`Routes`]' labels.
    label: usize,
    /// The number of characters, at least 1 and at most 1,112,064.
    pub(super) size: u64,
    pub(super) target: StateId,
}

/// The useful part of a DFA as nodes with labelled, ordered edges: what paths are made of.
#[derive(Clone, Debug)]
pub(super) struct Routes {
    /// The edges of node `n` are `edges[offsets[n]..offsets[n + 1]]`.
    offsets: Vec<usize>,
    edges: Vec<Edge>,
    /// The distinct labels of the edges: many edges share one (`[a-z]` on every state of
    /// `[a-z]{8}`), and a big Unicode class is then indexed once.
    labels: Vec<Label>,
    accepting: Vec<bool>,
    start: StateId,
}

impl Routes {
    /// The nodes and edges of the useful states of `dfa` (its trim), or `None` when its
    /// language is empty. `dfa` must be canonical, so that they depend only on the language.
    pub(super) fn new(dfa: &Dfa) -> Option<Routes> {
        debug_assert!(dfa.is_canonical(), "routes are read off canonical DFAs only");
        let trim = Trim::new(dfa);
        if !trim.is_useful(dfa.start()) {
            return None;
        }
        let mut node_of = vec![None; dfa.n_states()];
        let mut accepting = Vec::with_capacity(dfa.n_states());
        for state in dfa.states().filter(|&state| trim.is_useful(state)) {
            node_of[state.index()] = Some(StateId::from_index(accepting.len()));
            accepting.push(dfa.is_accepting(state));
        }
        let mut offsets = Vec::with_capacity(accepting.len() + 1);
        offsets.push(0);
        // Most nodes of realistic patterns have one or two edges.
        let mut edges = Vec::with_capacity(2 * accepting.len());
        let mut labels = Labels::new(dfa);
        for state in dfa.states().filter(|&state| trim.is_useful(state)) {
            for (edge, classes) in trim.edges_with_classes(state) {
                let target = node_of[edge.target.index()]?;
                let (label, size) = labels.of(classes);
                edges.push(Edge { label, size, target });
            }
            offsets.push(edges.len());
        }
        let start = node_of[dfa.start().index()]?;
        Some(Routes { offsets, edges, labels: labels.labels, accepting, start })
    }

    /// The member of `edge`'s label at `index` in ascending order, `None` past the last.
    pub(super) fn nth(&self, edge: &Edge, index: u64) -> Option<char> {
        (index < edge.size).then(|| self.labels[edge.label].nth(index)).flatten()
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

/// The distinct labels met while building [`Routes`], by the DFA classes they unite.
struct Labels<'d> {
    dfa: &'d Dfa,
    labels: Vec<Label>,
    /// The label and size of each single class seen, by class: most edges have one.
    by_class: Vec<Option<(usize, u64)>>,
    /// The label and size of each longer class list seen, keyed by the (ascending) classes.
    by_classes: HashMap<Vec<ClassId>, (usize, u64)>,
}

impl<'d> Labels<'d> {
    fn new(dfa: &'d Dfa) -> Labels<'d> {
        let by_class = vec![None; dfa.classes().len()];
        Labels { dfa, labels: Vec::new(), by_class, by_classes: HashMap::default() }
    }

    /// The index and size of the label uniting `classes`, adding it when it is new.
    fn of(&mut self, classes: &[ClassId]) -> (usize, u64) {
        let known = match classes {
            [only] => self.by_class[only.index()],
            several => self.by_classes.get(several).copied(),
        };
        if let Some(found) = known {
            return found;
        }
        let class_set = |class: ClassId| self.dfa.classes().class(class);
        let set = match classes {
            [only] => class_set(*only).cloned().unwrap_or_default(),
            several => CharSet::from_ranges(
                several
                    .iter()
                    .flat_map(|&class| class_set(class).into_iter().flat_map(CharSet::ranges))
                    .copied(),
            ),
        };
        let found = (self.labels.len(), set.len());
        self.labels.push(Label::new(set));
        match classes {
            [only] => self.by_class[only.index()] = Some(found),
            several => {
                self.by_classes.insert(several.to_vec(), found);
            }
        }
        found
    }
}

/// What the paths of one length from one node hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cell {
    /// W(s, r): the strings.
    pub(super) strings: Count,
    /// P(s, r): the paths.
    pub(super) paths: Count,
    /// The fewest strings of one path (saturated; `u128::MAX` when there is no path).
    pub(super) min_product: u128,
    /// The most strings of one path (saturated; 0 when there is no path).
    pub(super) max_product: u128,
}

impl Cell {
    fn none() -> Cell {
        Cell { strings: Count::ZERO, paths: Count::ZERO, min_product: u128::MAX, max_product: 0 }
    }

    fn unit() -> Cell {
        Cell { strings: Count::ONE, paths: Count::ONE, min_product: 1, max_product: 1 }
    }

    /// Whether some path of this length leads to acceptance.
    pub(super) fn is_viable(&self) -> bool {
        self.max_product != 0
    }

    fn heap_bytes(&self) -> usize {
        self.strings.heap_bytes() + self.paths.heap_bytes()
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

    /// Extends the table by one remaining length; `false` when no node has a path of that
    /// length (then none has a longer one either).
    pub(super) fn push_level(
        &mut self,
        routes: &Routes,
        budget: &Budget,
    ) -> Result<bool, BudgetError> {
        let level_bytes = self.n_nodes.saturating_mul(size_of::<Cell>());
        budget.check_memory(Operation::Generate, self.bytes.saturating_add(level_bytes))?;
        let below_start = self.cells.len() - self.n_nodes;
        self.cells.reserve(self.n_nodes);
        let mut any_path = false;
        for node_idx in 0..self.n_nodes {
            if node_idx.is_multiple_of(CHECK_INTERVAL) {
                budget.check_time(Operation::Generate)?;
            }
            let mut cell = Cell::none();
            for edge in routes.edges(StateId::from_index(node_idx)) {
                let below = &self.cells[below_start + edge.target.index()];
                if !below.is_viable() {
                    continue;
                }
                if edge.size == 1 {
                    cell.strings += &below.strings;
                } else {
                    cell.strings += &(&below.strings * edge.size);
                }
                cell.paths += &below.paths;
                let size = u128::from(edge.size);
                cell.min_product = cell.min_product.min(below.min_product.saturating_mul(size));
                cell.max_product = cell.max_product.max(below.max_product.saturating_mul(size));
            }
            any_path |= cell.is_viable();
            self.bytes += size_of::<Cell>() + cell.heap_bytes();
            self.cells.push(cell);
        }
        budget.check_memory(Operation::Generate, self.bytes)?;
        Ok(any_path)
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
