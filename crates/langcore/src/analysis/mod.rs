//! Questions about the language of a DFA: emptiness, universality, lengths and size.
//!
//! # Overview
//! One file per family of questions, each a free function that a [`Dfa`] method delegates to:
//! - `basic.rs`: `is_empty`, `is_empty_string`, `is_total`.
//! - `length.rs`: the shortest and longest accepted lengths.
//! - `cardinality.rs`: [`Cardinality`], the exact number of accepted strings.
//!
//! This file holds what they share: [`reachable`] and [`Trim`], the part of the DFA that
//! matters for the language.
//!
//! # Algorithm
//! A state is *useful* when it is reachable from the start and can reach an accepting state;
//! the useful states and the moves between them (the *trim*) carry the whole language.
//! [`Trim::new`] finds them with a breadth-first search forward from the start and one
//! backward from the reachable accepting states, and groups the moves of each useful state by
//! target: one [`Edge`] per distinct useful target, weighted by the number of characters
//! leading there. O(states × classes) time, and O(states + edges) memory, which is at most
//! the size of the DFA's own table. The language is infinite exactly when the trim has a
//! cycle; [`Trim::topological_order`] (Kahn's algorithm, O(states + edges)) finds an order
//! or reports the cycle.
//!
//! # Invariants
//! - Nothing assumes a minimal DFA: unreachable states, equivalent states and several dead
//!   states are all fine, because every answer is read off the useful states only.
//! - No recursion: traversals use explicit queues, so deep automata such as `.{100000}`
//!   cannot overflow the stack.

mod basic;
mod cardinality;
mod length;

pub use cardinality::Cardinality;
pub(crate) use cardinality::heap_bytes;

use crate::dfa::Dfa;
use crate::state_id::StateId;

/// Which states can be reached from the start, by breadth-first search.
fn reachable(dfa: &Dfa) -> Vec<bool> {
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
struct Edge {
    target: StateId,
    /// At least 1 and at most 1,112,064, the size of the alphabet.
    n_chars: u64,
}

/// Rows of items indexed by state, stored flat: row `s` is `items[offsets[s]..offsets[s + 1]]`.
struct Adjacency<T> {
    offsets: Vec<usize>,
    items: Vec<T>,
}

impl<T> Adjacency<T> {
    fn new() -> Self {
        Adjacency { offsets: vec![0], items: Vec::new() }
    }

    /// Closes the current row, which holds the items pushed since the previous call.
    fn end_row(&mut self) {
        self.offsets.push(self.items.len());
    }

    fn row(&self, state: StateId) -> &[T] {
        &self.items[self.offsets[state.index()]..self.offsets[state.index() + 1]]
    }
}

/// The useful states of a DFA (reachable and co-reachable) and the edges between them.
pub(crate) struct Trim {
    useful: Vec<bool>,
    /// The edges of each state; empty for useless states.
    edges: Adjacency<Edge>,
}

impl Trim {
    pub(crate) fn new(dfa: &Dfa) -> Trim {
        let reachable = reachable(dfa);
        let all_edges = grouped_edges(dfa, &reachable);
        let predecessors = predecessors(&all_edges, dfa.n_states());
        // Backwards from the reachable accepting states; predecessors only lists reachable
        // sources, so every state found is reachable as well.
        let mut useful: Vec<bool> =
            dfa.states().map(|state| reachable[state.index()] && dfa.is_accepting(state)).collect();
        let mut queue: Vec<StateId> = dfa.states().filter(|state| useful[state.index()]).collect();
        while let Some(state) = queue.pop() {
            for &source in predecessors.row(state) {
                if !std::mem::replace(&mut useful[source.index()], true) {
                    queue.push(source);
                }
            }
        }
        let mut edges = Adjacency::new();
        for state in dfa.states() {
            if useful[state.index()] {
                let row = all_edges.row(state).iter().filter(|edge| useful[edge.target.index()]);
                edges.items.extend(row);
            }
            edges.end_row();
        }
        Trim { useful, edges }
    }

    pub(crate) fn is_useful(&self, state: StateId) -> bool {
        self.useful[state.index()]
    }

    /// The moves from `state` to useful states, one per distinct target.
    fn edges(&self, state: StateId) -> &[Edge] {
        self.edges.row(state)
    }

    /// For each state, the number of useful states with an edge to it.
    fn in_degrees(&self) -> Vec<usize> {
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
    fn topological_order(&self, start: StateId) -> Option<Vec<StateId>> {
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

/// The moves of every reachable state, one edge per distinct target in order of first
/// appearance, weighted by the summed sizes of the classes leading there.
fn grouped_edges(dfa: &Dfa, reachable: &[bool]) -> Adjacency<Edge> {
    let class_sizes: Vec<u64> = dfa.classes().iter().map(|(_, class)| class.len()).collect();
    // Classes are never empty, so 0 marks a target not yet seen from the current state.
    let mut n_chars_to = vec![0; dfa.n_states()];
    let mut targets = Vec::new();
    let mut edges = Adjacency::new();
    for state in dfa.states() {
        if reachable[state.index()] {
            for ((class, _), &class_size) in dfa.classes().iter().zip(&class_sizes) {
                let target = dfa.next_state(state, class);
                if n_chars_to[target.index()] == 0 {
                    targets.push(target);
                }
                n_chars_to[target.index()] += class_size;
            }
            for target in targets.drain(..) {
                let n_chars = std::mem::take(&mut n_chars_to[target.index()]);
                edges.items.push(Edge { target, n_chars });
            }
        }
        edges.end_row();
    }
    edges
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
        let source = StateId::from_index(source_idx);
        for edge in edges.row(source) {
            items[fill[edge.target.index()]] = source;
            fill[edge.target.index()] += 1;
        }
    }
    Adjacency { offsets, items }
}

#[cfg(test)]
mod tests {
    use super::basic::{is_empty, is_empty_string, is_total};
    use super::cardinality::cardinality;
    use super::length::length;
    use super::*;
    use crate::alphabet::{CharSet, Classes};
    use crate::budget::Budget;
    use crate::nfa::Nfa;

    /// The canonical minimal DFA of `pattern` and its unminimized subset construction, which
    /// may have equivalent states: every analysis must answer alike on both.
    pub(super) fn minimal_and_determinized(pattern: &str) -> [Dfa; 2] {
        let budget = Budget::unlimited();
        let nfa = Nfa::from_regex_with(pattern, &budget).expect("test patterns are valid");
        let determinized = Dfa::determinize(&nfa, &budget).expect("unlimited budget");
        let minimal = determinized.minimize(&budget).expect("unlimited budget");
        [minimal, determinized]
    }

    /// Over classes `{a}`, `{b}` and the rest: state 0 (start) goes to 1 on `a` and to the
    /// dead state 2 otherwise; 1 accepts and moves to 2. States 3 (accepting, looping on
    /// everything) and 4 (moving to 3) are unreachable. The language is `{"a"}`.
    fn with_unreachable_states() -> Dfa {
        let (a, b) = (CharSet::singleton('a'), CharSet::singleton('b'));
        let (classes, _) = Classes::new(&[&a, &b], &Budget::unlimited()).expect("unlimited");
        let [rest, on_a, on_b] = ['\0', 'a', 'b'].map(|ch| classes.class_of(ch).index());
        let rows = [[2, 1, 2], [2, 2, 2], [2, 2, 2], [3, 3, 3], [3, 3, 3]];
        let mut table = Vec::new();
        for row in rows {
            let mut ordered = [0; 3];
            (ordered[rest], ordered[on_a], ordered[on_b]) = (row[0], row[1], row[2]);
            table.extend(ordered.map(StateId::from_index));
        }
        let accepting = vec![false, true, false, true, false];
        Dfa::from_parts(classes, table, accepting)
    }

    #[test]
    fn trim_ignores_unreachable_and_dead_states() {
        let dfa = with_unreachable_states();
        let trim = Trim::new(&dfa);
        assert_eq!(trim.useful, [true, true, false, false, false]);
        let on_a = dfa.classes().class_of('a');
        assert_eq!(
            trim.edges(dfa.start()),
            [Edge { target: dfa.next_state(dfa.start(), on_a), n_chars: 1 }]
        );
        assert!(trim.edges(StateId::from_index(3)).is_empty());
        assert_eq!(
            trim.topological_order(dfa.start()),
            Some(vec![StateId::from_index(0), StateId::from_index(1)])
        );
    }

    #[test]
    fn analyses_ignore_unreachable_states() {
        let dfa = with_unreachable_states();
        assert_eq!(reachable(&dfa), [true, true, true, false, false]);
        assert!(!is_empty(&dfa) && !is_empty_string(&dfa) && !is_total(&dfa));
        assert_eq!(length(&dfa), (Some(1), Some(1)));
        let count = cardinality(&dfa, &Budget::unlimited());
        assert_eq!(count, Ok(Cardinality::Finite(1u8.into())));
    }

    #[test]
    fn unreachable_rejecting_state_keeps_language_total() {
        let [zero, one] = [0, 1].map(StateId::from_index);
        let dfa = Dfa::from_parts(Classes::single(), vec![zero, one], vec![true, false]);
        assert!(is_total(&dfa) && !is_empty(&dfa) && !is_empty_string(&dfa));
        assert_eq!(length(&dfa), (Some(0), None));
        assert_eq!(cardinality(&dfa, &Budget::unlimited()), Ok(Cardinality::Infinite));
    }

    #[test]
    fn edges_group_classes_by_target() {
        // `[ab]a` needs classes `a` and `b` apart, but both lead from the start to one state;
        // in `.a` so do `a` and all other characters.
        for (pattern, n_chars) in [("[ab]a", 2), (".a", 1_112_064)] {
            for dfa in minimal_and_determinized(pattern) {
                let edges = Trim::new(&dfa).edges(dfa.start()).to_vec();
                let after_one = dfa.next_state(dfa.start(), dfa.classes().class_of('a'));
                assert_eq!(edges, [Edge { target: after_one, n_chars }], "{pattern}");
            }
        }
    }

    #[test]
    fn cycles_have_no_topological_order() {
        for (pattern, acyclic) in [("a(bc)*d", false), ("a*", false), ("abc|d", true), ("", true)] {
            for dfa in minimal_and_determinized(pattern) {
                let order = Trim::new(&dfa).topological_order(dfa.start());
                assert_eq!(order.is_some(), acyclic, "{pattern}");
            }
        }
    }
}
