//! The trim of a DFA: its useful states and the edges between them, grouped by target.
//!
//! # Overview
//! A state is *useful* when it is reachable from the start and can reach an accepting state;
//! the useful states and the moves between them carry the whole language. [`Trim`] is the
//! view of them that the analyses (`analysis/`), the copies of a DFA into an NFA
//! (`dfa/fragment.rs`) and string generation (`enumerate/tables.rs`) read: one [`Edge`] per
//! distinct useful target, with its number of characters and, when asked for, the classes
//! leading there.
//!
//! # Algorithm
//! A breadth-first search forward from the start, the moves of each reachable state grouped
//! by target, then a search backward from the reachable accepting states over those groups.
//! On a canonical DFA (every state reachable, only the dead state unable to accept) the
//! useful states are known first, and one grouping of their moves to useful states is all.
//! O(states × classes) time, and O(states + edges + classes of edges) memory, which is at
//! most the size of the DFA's own table. [`Trim::topological_order`] (Kahn's algorithm,
//! O(states + edges)) orders an acyclic trim or reports the cycle.
//!
//! # Invariants
//! - Canonical order, so everything read off it depends only on the DFA: states in state
//!   order; a state's edges by their smallest character (the first of their classes, as
//!   classes are numbered by smallest member), their classes ascending.
//! - Nothing assumes a minimal DFA: unreachable states, equivalent states and several dead
//!   states are all fine.
//! - No recursion: traversals use explicit queues, so deep automata such as `.{100000}`
//!   cannot overflow the stack.

use super::Dfa;
use crate::alphabet::ClassId;
use crate::state_id::StateId;

/// Which states can be reached from the start, by breadth-first search.
pub(crate) fn reachable(dfa: &Dfa) -> Vec<bool> {
    let mut seen = vec![false; dfa.n_states()];
    seen[dfa.start().index()] = true;
    let mut queue = vec![dfa.start()];
    let mut next = 0;
    while let Some(&state) = queue.get(next) {
        next += 1;
        for (class, _) in dfa.classes().iter() {
            let target = dfa.next_state(state, class);
            if !std::mem::replace(&mut seen[target.index()], true) {
                queue.push(target);
            }
        }
    }
    seen
}

/// The moves from one state to `target`, grouped: any of `n_chars` characters (the sizes of
/// all classes that lead there, summed) goes there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    pub(crate) target: StateId,
    /// At least 1 and at most 1,112,064, the size of the alphabet.
    pub(crate) n_chars: u64,
}

/// Rows of items, stored flat: row `r` is `items[offsets[r]..offsets[r + 1]]`.
struct Adjacency<T> {
    offsets: Vec<usize>,
    items: Vec<T>,
}

impl<T> Adjacency<T> {
    /// No rows yet, with room for `rows` rows of `items` items in all.
    fn with_capacity(rows: usize, items: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Adjacency { offsets, items: Vec::with_capacity(items) }
    }

    /// Closes the current row, which holds the items pushed since the previous call.
    fn end_row(&mut self) {
        self.offsets.push(self.items.len());
    }

    fn range(&self, row: usize) -> std::ops::Range<usize> {
        self.offsets[row]..self.offsets[row + 1]
    }

    fn row(&self, row: usize) -> &[T] {
        &self.items[self.range(row)]
    }
}

/// The useful states of a DFA (reachable and co-reachable) and the edges between them.
pub(crate) struct Trim {
    useful: Vec<bool>,
    /// The edges of each state; empty for useless states.
    edges: Adjacency<Edge>,
    /// The classes of each edge, one row per item of `edges`, ascending; no rows when the
    /// trim was built without them.
    classes: Adjacency<ClassId>,
}

impl Trim {
    /// The trim of `dfa`, with the number of characters of each edge but not its classes:
    /// what the analyses need, at the cost of one pass over the table.
    pub(crate) fn new(dfa: &Dfa) -> Trim {
        Trim::build(dfa, false)
    }

    /// The trim of `dfa`, with the classes of each edge ([`Trim::edges_with_classes`]).
    pub(crate) fn with_classes(dfa: &Dfa) -> Trim {
        Trim::build(dfa, true)
    }

    fn build(dfa: &Dfa, with_classes: bool) -> Trim {
        if dfa.is_canonical() {
            // A canonical DFA has only reachable states, and one that cannot accept at most:
            // the dead state, which loops on every class. So the useful states are known
            // before grouping, and one grouping over them is the whole trim.
            let leaves = |state: StateId| {
                dfa.classes().iter().any(|(class, _)| dfa.next_state(state, class) != state)
            };
            let useful: Vec<bool> =
                dfa.states().map(|state| dfa.is_accepting(state) || leaves(state)).collect();
            let (edges, classes) = grouped_edges(dfa, &useful, with_classes);
            return Trim { useful, edges, classes };
        }
        // The targets of reachable states are reachable: grouping keeps all their moves.
        let reachable = reachable(dfa);
        let (all_edges, all_classes) = grouped_edges(dfa, &reachable, with_classes);
        let useful = co_reachable(dfa, &reachable, &all_edges);
        let mut edges = Adjacency::with_capacity(dfa.n_states(), all_edges.items.len());
        let mut classes = Adjacency::with_capacity(0, 0);
        for state in dfa.states() {
            if useful[state.index()] {
                for edge_idx in all_edges.range(state.index()) {
                    let edge = all_edges.items[edge_idx];
                    if useful[edge.target.index()] {
                        edges.items.push(edge);
                        if with_classes {
                            classes.items.extend_from_slice(all_classes.row(edge_idx));
                            classes.end_row();
                        }
                    }
                }
            }
            edges.end_row();
        }
        Trim { useful, edges, classes }
    }

    /// Whether each state is useful, by state.
    #[cfg(test)]
    pub(crate) fn useful(&self) -> &[bool] {
        &self.useful
    }

    pub(crate) fn is_useful(&self, state: StateId) -> bool {
        self.useful[state.index()]
    }

    /// The moves from `state` to useful states, one per distinct target, by smallest
    /// character; none for a useless state.
    pub(crate) fn edges(&self, state: StateId) -> &[Edge] {
        self.edges.row(state.index())
    }

    /// [`Trim::edges`], each with its classes, ascending. Requires a trim built
    /// [`Trim::with_classes`].
    pub(crate) fn edges_with_classes(
        &self,
        state: StateId,
    ) -> impl Iterator<Item = (&Edge, &[ClassId])> {
        debug_assert_eq!(self.classes.offsets.len(), self.edges.items.len() + 1);
        self.edges
            .range(state.index())
            .map(|edge_idx| (&self.edges.items[edge_idx], self.classes.row(edge_idx)))
    }

    /// For each state, the number of useful states with an edge to it.
    pub(crate) fn in_degrees(&self) -> Vec<usize> {
        let mut in_degrees = vec![0; self.useful.len()];
        for edge in &self.edges.items {
            in_degrees[edge.target.index()] += 1;
        }
        in_degrees
    }

    /// The useful states with every edge going forward in the order (Kahn's algorithm), or
    /// `None` when the useful states have a cycle, that is when the language is infinite.
    /// Requires `start` to be useful; it comes first, as every useful state is reachable
    /// from it.
    pub(crate) fn topological_order(&self, start: StateId) -> Option<Vec<StateId>> {
        let mut in_degrees = self.in_degrees();
        if in_degrees[start.index()] != 0 {
            return None;
        }
        let mut order = vec![start];
        let mut next = 0;
        while let Some(&state) = order.get(next) {
            next += 1;
            for edge in self.edges(state) {
                let in_degree = &mut in_degrees[edge.target.index()];
                *in_degree -= 1;
                if *in_degree == 0 {
                    order.push(edge.target);
                }
            }
        }
        let n_useful = self.useful.iter().filter(|&&useful| useful).count();
        (order.len() == n_useful).then_some(order)
    }
}

/// The reachable states that can reach acceptance: a search backwards from the reachable
/// accepting states. `edges` only lists reachable sources, so every state found is reachable.
fn co_reachable(dfa: &Dfa, reachable: &[bool], edges: &Adjacency<Edge>) -> Vec<bool> {
    let predecessors = predecessors(edges, dfa.n_states());
    let mut useful: Vec<bool> =
        dfa.states().map(|state| reachable[state.index()] && dfa.is_accepting(state)).collect();
    let mut queue: Vec<StateId> = dfa.states().filter(|state| useful[state.index()]).collect();
    while let Some(state) = queue.pop() {
        for &source in predecessors.row(state.index()) {
            if !std::mem::replace(&mut useful[source.index()], true) {
                queue.push(source);
            }
        }
    }
    useful
}

/// The moves of every `kept` state to kept states, one edge per distinct target in order of
/// first appearance, weighted by the summed sizes of the classes leading there; and the
/// classes of each edge when `with_classes` (no rows otherwise).
fn grouped_edges(
    dfa: &Dfa,
    kept: &[bool],
    with_classes: bool,
) -> (Adjacency<Edge>, Adjacency<ClassId>) {
    // The size of each class, computed when first needed (a class of `\w` has 700 ranges);
    // classes are never empty, so 0 marks one not yet sized.
    let mut class_sizes = vec![0; dfa.classes().len()];
    // By target, 1 + the index of the current state's edge there; 0 when there is none yet.
    let mut edge_of = vec![0; dfa.n_states()];
    // Most states of realistic patterns have one or two edges, of one class each.
    let n_rows = if with_classes { 2 * dfa.n_states() } else { 0 };
    let mut edges = Adjacency::with_capacity(dfa.n_states(), 2 * dfa.n_states());
    let mut classes = Adjacency::with_capacity(n_rows, n_rows);
    for state in dfa.states() {
        if kept[state.index()] {
            let first_edge = edges.items.len();
            for ((class, set), class_size) in dfa.classes().iter().zip(&mut class_sizes) {
                let target = dfa.next_state(state, class);
                if !kept[target.index()] {
                    continue;
                }
                if *class_size == 0 {
                    *class_size = set.len();
                }
                let edge_idx = match edge_of[target.index()] {
                    0 => {
                        edges.items.push(Edge { target, n_chars: 0 });
                        if with_classes {
                            classes.offsets.push(0);
                        }
                        edge_of[target.index()] = edges.items.len();
                        edges.items.len() - 1
                    }
                    slot => slot - 1,
                };
                edges.items[edge_idx].n_chars += *class_size;
                if with_classes {
                    // The row's number of classes, for now.
                    classes.offsets[edge_idx + 1] += 1;
                }
            }
            if with_classes {
                group_classes(dfa, state, kept, first_edge, &edge_of, &mut classes);
            }
            for edge in &edges.items[first_edge..] {
                edge_of[edge.target.index()] = 0;
            }
        }
        edges.end_row();
    }
    (edges, classes)
}

/// Fills the rows of `classes` for the edges of `state` from `first_edge` on, whose ends
/// hold their numbers of classes: the classes leading to each edge's target, ascending.
/// `edge_of` maps the targets of `state` to 1 + their edge.
fn group_classes(
    dfa: &Dfa,
    state: StateId,
    kept: &[bool],
    first_edge: usize,
    edge_of: &[usize],
    classes: &mut Adjacency<ClassId>,
) {
    // Each edge's classes take the next run of slots; its end marks the next free one.
    let mut next_slot = classes.items.len();
    for end in &mut classes.offsets[first_edge + 1..] {
        let n_classes = std::mem::replace(end, next_slot);
        next_slot += n_classes;
    }
    classes.items.resize(next_slot, ClassId::new(0));
    for (class, _) in dfa.classes().iter() {
        let target = dfa.next_state(state, class);
        if kept[target.index()] {
            let end = &mut classes.offsets[edge_of[target.index()]];
            classes.items[*end] = class;
            *end += 1;
        }
    }
}

/// For each state, the sources of the edges into it (a counting sort of the edges).
fn predecessors(edges: &Adjacency<Edge>, n_states: usize) -> Adjacency<StateId> {
    let mut offsets = vec![0; n_states + 1];
    for edge in &edges.items {
        offsets[edge.target.index() + 1] += 1;
    }
    for state_idx in 0..n_states {
        offsets[state_idx + 1] += offsets[state_idx];
    }
    let mut fill = offsets.clone();
    let mut items = vec![StateId::from_index(0); edges.items.len()];
    for source_idx in 0..n_states {
        for edge in edges.row(source_idx) {
            items[fill[edge.target.index()]] = StateId::from_index(source_idx);
            fill[edge.target.index()] += 1;
        }
    }
    Adjacency { offsets, items }
}

#[cfg(test)]
mod tests {
    use super::Trim;
    use crate::alphabet::CharSet;
    use crate::budget::Budget;
    use crate::dfa::Dfa;
    use crate::nfa::Nfa;

    #[test]
    fn edges_carry_their_classes_by_smallest_character() {
        // `a` and `b` are apart (only `a` follows), yet both lead from the start to one state.
        let dfa = Dfa::from_regex("[ab]a|c").unwrap();
        let trim = Trim::with_classes(&dfa);
        let first_chars: Vec<Vec<char>> = trim
            .edges_with_classes(dfa.start())
            .map(|(_, classes)| {
                let first = |class| dfa.classes().class(class).and_then(CharSet::first);
                classes.iter().filter_map(|&class| first(class)).collect()
            })
            .collect();
        assert_eq!(first_chars, [vec!['a', 'b'], vec!['c']]);
    }

    #[test]
    fn every_move_between_useful_states_is_in_exactly_one_edge() {
        let budget = Budget::unlimited();
        for pattern in ["[ab]a|c", "(a|b)*abb", "x[0-9]{2}|y[0-9]", ".a|[^a]b", ""] {
            let minimal = Dfa::from_regex(pattern).unwrap();
            let subsets = Dfa::determinize(&Nfa::from_regex(pattern).unwrap(), &budget).unwrap();
            for dfa in [minimal, subsets] {
                let trim = Trim::with_classes(&dfa);
                for state in dfa.states().filter(|&state| trim.is_useful(state)) {
                    let mut seen = vec![false; dfa.classes().len()];
                    for (edge, classes) in trim.edges_with_classes(state) {
                        assert!(classes.is_sorted() && !classes.is_empty(), "{pattern}");
                        let mut n_chars = 0;
                        for &class in classes {
                            assert_eq!(dfa.next_state(state, class), edge.target, "{pattern}");
                            assert!(!std::mem::replace(&mut seen[class.index()], true));
                            n_chars += dfa.classes().class(class).map_or(0, CharSet::len);
                        }
                        assert_eq!(edge.n_chars, n_chars, "{pattern}");
                    }
                    for (class, _) in dfa.classes().iter() {
                        let useful_target = trim.is_useful(dfa.next_state(state, class));
                        assert_eq!(seen[class.index()], useful_target, "{pattern}");
                    }
                }
            }
        }
    }
}
