//! Questions about the language of a DFA: emptiness, universality, lengths and size.
//!
//! # Overview
//! One file per family of questions, each with the [`Dfa`](crate::Dfa) methods it answers:
//! - `basic.rs`: `is_empty`, `is_empty_string`, `is_total`.
//! - `length.rs`: the shortest and longest accepted lengths.
//! - `cardinality.rs`: [`Cardinality`], the exact number of accepted strings.
//! - `by_length.rs`: the exact number of accepted strings of each length in a range.
//!
//! All read the language off the trim of the DFA (`dfa/trim.rs`): the useful states and
//! the edges between them. The language is infinite exactly when the trim has a cycle.
//!
//! # Invariants
//! - Nothing assumes a minimal DFA: unreachable states, equivalent states and several dead
//!   states are all fine, because every answer is read off the useful states only.
//! - No recursion: traversals use explicit queues, so deep automata such as `.{100000}`
//!   cannot overflow the stack.

mod basic;
mod by_length;
mod cardinality;
mod length;

pub use cardinality::Cardinality;
pub(crate) use cardinality::heap_bytes;

#[cfg(test)]
mod tests {
    use super::basic::{is_empty, is_empty_string, is_total};
    use super::cardinality::cardinality;
    use super::length::length;
    use super::*;
    use crate::alphabet::{CharSet, Classes};
    use crate::budget::Budget;
    use crate::dfa::Dfa;
    use crate::dfa::trim::{Edge, Trim, reachable};
    use crate::nfa::Nfa;
    use crate::state_id::StateId;

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
        assert_eq!(trim.useful(), [true, true, false, false, false]);
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
