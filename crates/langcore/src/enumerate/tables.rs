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
//! Edges: the DFA's trim (`dfa/trim.rs`, O(states × classes)), plus sorting each
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
    /// For labels of more than [`BUCKETED`] ranges (`\w` has 700), the range holding the
    /// first member of each bucket of `2^shift` members, at least one bucket per range: a
    /// lookup searches only the ranges between two entries.
    buckets: Vec<u32>,
    shift: u32,
    /// The first member when the members are consecutive scalar values below the
    /// surrogates (`[a-z]`): then member `i` is that value plus `i`.
    consecutive: Option<u32>,
}

/// The most ranges a label searches without buckets.
const BUCKETED: usize = 8;

impl Label {
    fn new(set: CharSet) -> Label {
        let mut before = 0;
        let starts: Vec<u64> = set
            .ranges()
            .iter()
            .map(|range| {
                let start = before;
                before += span_len(range);
                start
            })
            .collect();
        let (mut buckets, mut shift) = (Vec::new(), 0);
        if starts.len() > BUCKETED {
            // A bucket of at most size / ranges members; `before` is the size, at least 1.
            shift = (before / starts.len() as u64).max(1).ilog2();
            let mut range = 0;
            buckets = (0..=(before - 1) >> shift)
                .map(|bucket| {
                    let first = bucket << shift;
                    while starts.get(range + 1).is_some_and(|&start| start <= first) {
                        range += 1;
                    }
                    // Fewer ranges than scalar values: a u32.
                    range as u32
                })
                .collect();
        }
        let consecutive = match set.ranges() {
            [(lo, hi)] if u32::from(*hi) < 0xD800 => Some(u32::from(*lo)),
            _ => None,
        };
        Label { set, starts, buckets, shift, consecutive }
    }

    /// The member at `index` in ascending order, which must be below the size. O(log ranges)
    /// at worst, O(1) for evenly spread ranges.
    fn nth(&self, index: u64) -> Option<char> {
        if let Some(first) = self.consecutive {
            // Below the size, so below the surrogates.
            return char::from_u32(first + index as u32);
        }
        let starts = self.starts.as_slice();
        let range = match starts {
            // Most labels are one range: nothing to search.
            [_] => 0,
            _ if !self.buckets.is_empty() => {
                let bucket = usize::try_from(index >> self.shift).ok()?;
                let low = *self.buckets.get(bucket)? as usize;
                // The range of the next bucket's first member is the last candidate.
                let end =
                    self.buckets.get(bucket + 1).map_or(starts.len(), |&next| next as usize + 1);
                // `starts[low] <= index`, so the count is at least 1.
                low + starts[low..end].partition_point(|&start| start <= index) - 1
            }
            _ => starts.partition_point(|&start| start <= index).checked_sub(1)?,
        };
        nth_after(self.set.ranges()[range].0, index - starts[range])
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
    /// The nodes and edges of the useful states of `dfa`, which must be canonical, or `None`
    /// when its language is empty: its [`Trim`], states renumbered densely and each edge's
    /// classes united into a label.
    pub(super) fn new(dfa: &Dfa) -> Option<Routes> {
        debug_assert!(dfa.is_canonical(), "routes are read off canonical DFAs only");
        let trim = Trim::with_classes(dfa);
        if !trim.is_useful(dfa.start()) {
            return None;
        }
        // The node of each useful state: the number of useful states before it.
        let mut node_of = Vec::with_capacity(dfa.n_states());
        let mut accepting = Vec::with_capacity(dfa.n_states());
        for state in dfa.states() {
            node_of.push(StateId::from_index(accepting.len()));
            if trim.is_useful(state) {
                accepting.push(dfa.is_accepting(state));
            }
        }
        let mut offsets = Vec::with_capacity(accepting.len() + 1);
        offsets.push(0);
        // Most nodes of realistic patterns have one or two edges.
        let mut edges = Vec::with_capacity(2 * accepting.len());
        let mut labels = Labels::new(dfa);
        for state in dfa.states().filter(|&state| trim.is_useful(state)) {
            for (edge, classes) in trim.edges_with_classes(state) {
                let (label, size) = labels.of(classes);
                edges.push(Edge { label, size, target: node_of[edge.target.index()] });
            }
            offsets.push(edges.len());
        }
        let start = node_of[dfa.start().index()];
        Some(Routes { offsets, edges, labels: labels.labels, accepting, start })
    }

    /// The member of `edge`'s label at `index` in ascending order, `None` past the last.
    pub(super) fn nth(&self, edge: &Edge, index: u64) -> Option<char> {
        (index < edge.size).then(|| self.labels[edge.label].nth(index)).flatten()
    }

    /// The first member of `edge`'s label when its members are consecutive scalar values
    /// below the surrogates (`[a-z]`): then member `i` is that value plus `i`.
    pub(super) fn consecutive_from(&self, edge: &Edge) -> Option<u32> {
        self.labels[edge.label].consecutive
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every member of labels with few and many ranges, of even and uneven sizes, against
    /// the members listed in order.
    #[test]
    fn labels_find_every_member() {
        let spaced = (0..300u32).filter_map(|n| char::from_u32(0x100 + 3 * n)).map(|c| (c, c));
        let uneven = [('a', 'z'), ('\u{3000}', '\u{9FFF}'), ('\u{10000}', '\u{10004}')];
        let sets = [
            CharSet::from_ranges([('a', 'c'), ('x', 'z')]),
            CharSet::from_ranges(spaced.clone()),
            CharSet::from_ranges(spaced.chain(uneven)),
            CharSet::from_ranges([('\0', '\u{D7FF}'), ('\u{E000}', '\u{10FFFF}')]),
        ];
        for set in sets {
            let label = Label::new(set.clone());
            let members = set.ranges().iter().flat_map(|&(lo, hi)| lo..=hi);
            for (index, member) in members.enumerate() {
                assert_eq!(label.nth(index as u64), Some(member), "{index} of {set:?}");
            }
        }
    }
}
