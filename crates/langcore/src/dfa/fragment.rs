//! Copies of a [`Dfa`] inside an [`Nfa`](crate::Nfa) under construction, for operations on
//! whole languages.
//!
//! # Algorithm
//! [`Fragment::new`] reads the trim of the DFA (`dfa/trim.rs`: the states reachable from
//! the start that can still accept, the dead state not among them, with their moves grouped
//! by target) and numbers the kept states in breadth-first visit order, the start first.
//! The classes that lead from a kept state to one target are merged into one label (the
//! union of their sets), so a state has one move per target rather than one per class.
//! [`Fragment::emit`] then copies the trimmed states into an [`NfaBuilder`] in the
//! back-to-front style of `nfa/build.rs`: the copy continues to a given state `next`, every
//! accepting state gets an ε-move to it, and an accepting state without moves *is* `next`.
//!
//! Trimming costs O(n·k) for n states and k classes, once per DFA; each copy costs one NFA
//! state per kept state (the one merged into `next` aside) and one interned label per move.
//!
//! # Invariants
//! - A [`Fragment`] has at least one state: an empty language has no fragment, so every copy
//!   has an entry that can reach `next`.
//! - Every kept state is reachable from the entry and can reach an accepting state; no label
//!   is empty.
//! - Copying {""} adds no state at all (the entry is `next`), which is what lets the
//!   repetition expansion stop early on it, as it does for `()` in a pattern.
//!
//! # Budgets
//! Copies are checked through the builder, one state at a time. Trimming is linear in the
//! table of a DFA that already exists; [`Fragment::within`] checks the deadline once per
//! kept state, for callers that hold one.

use super::Dfa;
use super::trim::Trim;
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::graph::{Graph, GraphState};
use crate::nfa::{NfaBuilder, State};
use crate::state_id::StateId;

/// The trimmed part of a DFA, ready to be copied into NFA builders any number of times.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fragment {
    /// The kept states in breadth-first order; the entry is state 0.
    states: Vec<FragmentState>,
}

/// One kept DFA state: whether it accepts, and its moves as (label, index of target).
#[derive(Clone, Debug, PartialEq, Eq)]
struct FragmentState {
    accepting: bool,
    moves: Vec<(CharSet, usize)>,
}

impl FragmentState {
    /// Whether the state only ends the fragment, so that `next` can stand in for it.
    fn is_exit_only(&self) -> bool {
        self.accepting && self.moves.is_empty()
    }
}

impl Fragment {
    /// The trimmed part of `dfa`, or `None` when its language is empty.
    pub(crate) fn new(dfa: &Dfa) -> Option<Fragment> {
        // An unlimited budget never runs out.
        Fragment::within(dfa, &Budget::unlimited(), Operation::BuildNfa).unwrap_or(None)
    }

    /// [`Fragment::new`], checking the deadline once per kept state, as `op`: trimming is
    /// linear, but a large DFA takes long enough to matter to a deadline.
    ///
    /// # Errors
    /// When the deadline passes.
    pub(crate) fn within(
        dfa: &Dfa,
        budget: &Budget,
        op: Operation,
    ) -> Result<Option<Fragment>, BudgetError> {
        let trim = Trim::new(dfa);
        if !trim.is_useful(dfa.start()) {
            return Ok(None);
        }
        let mut fragment_index: Vec<Option<usize>> = vec![None; dfa.n_states()];
        fragment_index[dfa.start().index()] = Some(0);
        let mut order = vec![dfa.start()];
        let mut states = Vec::new();
        let mut next_to_visit = 0;
        while let Some(&dfa_state) = order.get(next_to_visit) {
            budget.check_time(op)?;
            // Edges come by smallest character, which numbers new targets; the moves are
            // then put in order of target, so they come out in a deterministic order.
            let mut moves: Vec<(CharSet, usize)> = trim
                .edges_with_classes(dfa_state)
                .map(|(edge, classes)| {
                    let target_index =
                        *fragment_index[edge.target.index()].get_or_insert_with(|| {
                            order.push(edge.target);
                            order.len() - 1
                        });
                    let sets = classes.iter().filter_map(|&class| dfa.classes().class(class));
                    let label = CharSet::from_ranges(sets.flat_map(CharSet::ranges).copied());
                    (label, target_index)
                })
                .collect();
            moves.sort_unstable_by_key(|&(_, target_index)| target_index);
            states.push(FragmentState { accepting: dfa.is_accepting(dfa_state), moves });
            next_to_visit += 1;
        }
        Ok(Some(Fragment { states }))
    }

    /// The number of kept states; the entry is state 0.
    pub(crate) fn n_states(&self) -> usize {
        self.states.len()
    }

    /// Whether kept state `idx` accepts.
    pub(crate) fn is_accepting(&self, idx: usize) -> bool {
        self.states[idx].accepting
    }

    /// The moves of kept state `idx`: one label per target, as (label, index of target), in
    /// ascending order of target.
    pub(crate) fn moves(&self, idx: usize) -> &[(CharSet, usize)] {
        &self.states[idx].moves
    }

    /// Whether the language is {""}: copies of it add no state.
    pub(crate) fn is_empty_string(&self) -> bool {
        matches!(self.states.as_slice(), [only] if only.is_exit_only())
    }

    /// Appends a copy that continues to `next` and returns its entry.
    ///
    /// # Errors
    /// When the builder's budget runs out.
    pub(crate) fn emit(
        &self,
        builder: &mut NfaBuilder<'_>,
        next: StateId,
    ) -> Result<StateId, BudgetError> {
        // States first, moves second: moves may point forward or back around loops.
        let mut copy_ids = Vec::with_capacity(self.states.len());
        for state in &self.states {
            let copy_id = if state.is_exit_only() {
                next
            } else {
                let epsilons = if state.accepting { vec![next] } else { Vec::new() };
                builder.add(State { epsilons, ..State::default() })?
            };
            copy_ids.push(copy_id);
        }
        for (state, &copy_id) in self.states.iter().zip(&copy_ids) {
            for (set, target_index) in &state.moves {
                let label = builder.intern(set);
                builder.state_mut(copy_id).transitions.push((label, copy_ids[*target_index]));
            }
        }
        Ok(copy_ids[0])
    }

    /// The trimmed states as a [`Graph`], numbered alike: the entry is the start, state 0.
    pub(crate) fn to_graph(&self) -> Graph {
        let states = self.states.iter().map(|state| GraphState {
            accepting: state.accepting,
            moves: (state.moves.iter())
                .map(|(label, target)| (label.clone(), StateId::from_index(*target)))
                .collect(),
        });
        Graph::from_parts(StateId::from_index(0), states.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::Fragment;
    use crate::alphabet::CharSet;
    use crate::budget::{Budget, Operation};
    use crate::dfa::Dfa;
    use crate::nfa::{Nfa, NfaBuilder, State};

    /// The NFA of one copy of `fragment` before an accepting state.
    fn embed_once(fragment: &Fragment) -> Nfa {
        let budget = Budget::unlimited();
        let mut builder = NfaBuilder::new(&budget, Operation::BuildNfa);
        let accept = builder.add(State { accepting: true, ..State::default() }).unwrap();
        let entry = fragment.emit(&mut builder, accept).unwrap();
        builder.finish(entry)
    }

    fn fragment_of(pattern: &str) -> Option<Fragment> {
        Fragment::new(&Dfa::from_regex(pattern).unwrap())
    }

    #[test]
    fn copies_accept_the_same_language() {
        for pattern in ["a", "(a|b)*abb", "[^a]*", "x(yz)*|y", "\\w{3}", "(ab|c)+d?", ""] {
            let dfa = Dfa::from_regex(pattern).unwrap();
            let fragment = Fragment::new(&dfa).unwrap();
            let copy = Dfa::from_nfa(&embed_once(&fragment), &Budget::unlimited()).unwrap();
            assert_eq!(copy, dfa, "{pattern}");
        }
    }

    #[test]
    fn the_empty_language_has_no_fragment() {
        assert_eq!(fragment_of("[]"), None);
        // Not minimized: the start and the state after `c` are live-looking but cannot accept.
        let nfa = Nfa::from_regex(r"(a|b)*c[^\s\S]").unwrap();
        let unminimized = Dfa::determinize(&nfa, &Budget::unlimited()).unwrap();
        assert!(unminimized.n_states() > 1);
        assert_eq!(Fragment::new(&unminimized), None);
    }

    #[test]
    fn copies_of_unminimized_dfas_are_trimmed() {
        let nfa = Nfa::from_regex(r"a(b|c[^\s\S])|(d[^\s\S])*").unwrap();
        let unminimized = Dfa::determinize(&nfa, &Budget::unlimited()).unwrap();
        let fragment = Fragment::new(&unminimized).unwrap();
        assert_eq!(fragment.states.len(), 3, "start, after `a`, after `ab`");
        let copy = Dfa::from_nfa(&embed_once(&fragment), &Budget::unlimited()).unwrap();
        assert_eq!(copy, Dfa::from_regex("ab|()").unwrap());
    }

    #[test]
    fn the_dead_state_is_dropped_and_the_final_state_is_next() {
        let fragment = fragment_of("abc").unwrap();
        assert_eq!(fragment.states.len(), 4, "a, b, c, and the final state; no dead state");
        assert_eq!(embed_once(&fragment).n_states(), 1 + 3, "the accept state and a, b, c");
    }

    #[test]
    fn classes_with_one_target_share_one_label() {
        // After `a`, both `a` and `b` lead to the final state; from the start they differ.
        let fragment = fragment_of("a[ab]|b").unwrap();
        let after_a = &fragment.states[fragment.states[0].moves[0].1];
        assert_eq!(after_a.moves.len(), 1);
        assert_eq!(after_a.moves[0].0, CharSet::range('a', 'b'));
    }

    #[test]
    fn only_the_empty_string_adds_no_state() {
        let empty_string = fragment_of("()").unwrap();
        assert!(empty_string.is_empty_string());
        assert_eq!(embed_once(&empty_string).n_states(), 1);
        for pattern in ["a", "a*", "()|a"] {
            assert!(!fragment_of(pattern).unwrap().is_empty_string(), "{pattern}");
        }
    }
}
