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
//! kept state, for callers that hold one, and charges its labels to the memory limit.
//! [`Walk`] numbers the states alike but builds a state's labels only when asked, so a
//! caller that writes them out one state at a time never holds them all.

use super::Dfa;
use super::trim::Trim;
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
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
    /// When the deadline passes, or the labels outgrow the memory limit.
    pub(crate) fn within(
        dfa: &Dfa,
        budget: &Budget,
        op: Operation,
    ) -> Result<Option<Fragment>, BudgetError> {
        let Some(walk) = Walk::new(dfa, budget, op)? else { return Ok(None) };
        let mut states = Vec::with_capacity(walk.n_states());
        // The labels are copies of the classes' ranges, one per move: charged as they grow
        // (`\p{L}{9000}` makes 9,000 labels of 5 KB each).
        let mut label_bytes = 0_usize;
        for idx in 0..walk.n_states() {
            budget.check_time(op)?;
            let moves = walk.moves(idx);
            label_bytes = label_bytes.saturating_add(Walk::label_bytes(&moves));
            budget.check_memory(op, label_bytes)?;
            states.push(FragmentState { accepting: walk.is_accepting(idx), moves });
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
}

/// The kept states of a DFA in a fragment's order and numbering, their moves labelled one
/// state at a time, when asked: what [`Fragment::within`] keeps, for a caller that needs each
/// state's labels only once (`dot.rs` writes them out), so that they are never all held.
pub(crate) struct Walk<'a> {
    dfa: &'a Dfa,
    trim: Trim,
    /// The kept states in breadth-first order; the entry first.
    order: Vec<StateId>,
    /// The index in `order` of every DFA state, `None` for states not kept.
    index: Vec<Option<usize>>,
}

impl<'a> Walk<'a> {
    /// Numbers the kept states of `dfa` (breadth-first, each state's targets by smallest
    /// character), checking the deadline once per state as `op`; `None` when the language is
    /// empty.
    ///
    /// # Errors
    /// When the deadline passes.
    pub(crate) fn new(
        dfa: &'a Dfa,
        budget: &Budget,
        op: Operation,
    ) -> Result<Option<Walk<'a>>, BudgetError> {
        let trim = Trim::with_classes(dfa);
        if !trim.is_useful(dfa.start()) {
            return Ok(None);
        }
        let mut index: Vec<Option<usize>> = vec![None; dfa.n_states()];
        index[dfa.start().index()] = Some(0);
        let mut order = vec![dfa.start()];
        let mut next_to_visit = 0;
        while let Some(&dfa_state) = order.get(next_to_visit) {
            budget.check_time(op)?;
            for edge in trim.edges(dfa_state) {
                index[edge.target.index()].get_or_insert_with(|| {
                    order.push(edge.target);
                    order.len() - 1
                });
            }
            next_to_visit += 1;
        }
        Ok(Some(Walk { dfa, trim, order, index }))
    }

    /// The number of kept states; the entry is state 0.
    pub(crate) fn n_states(&self) -> usize {
        self.order.len()
    }

    /// Whether kept state `idx` accepts.
    pub(crate) fn is_accepting(&self, idx: usize) -> bool {
        self.dfa.is_accepting(self.order[idx])
    }

    /// The moves of kept state `idx`, built now: one label per target (the union of the
    /// classes that lead there), as (label, index of target), in ascending order of target.
    pub(crate) fn moves(&self, idx: usize) -> Vec<(CharSet, usize)> {
        let classes = self.dfa.classes();
        let mut moves: Vec<(CharSet, usize)> = (self.trim)
            .edges_with_classes(self.order[idx])
            .map(|(edge, edge_classes)| {
                let sets = edge_classes.iter().filter_map(|&class| classes.class(class));
                let label = CharSet::from_ranges(sets.flat_map(CharSet::ranges).copied());
                let target = self.index[edge.target.index()];
                (label, target.expect("`new` numbered every target of a kept state"))
            })
            .collect();
        moves.sort_unstable_by_key(|&(_, target_index)| target_index);
        moves
    }

    /// The memory `moves` hold, as charged to a budget.
    pub(crate) fn label_bytes(moves: &[(CharSet, usize)]) -> usize {
        moves
            .iter()
            .map(|(label, _)| size_of::<(CharSet, usize)>() + size_of_val(label.ranges()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::Fragment;
    use crate::alphabet::CharSet;
    use crate::budget::{Budget, BudgetError, Operation};
    use crate::dfa::Dfa;
    use crate::nfa::{Nfa, NfaBuilder, State};

    /// Issue 17: the labels of a fragment (a copy of the ranges per move) were not charged,
    /// so the DOT text of `\p{L}{9000}` allocated 45 MB of them past any limit.
    #[test]
    fn r17_labels_are_charged() {
        let dfa = Dfa::from_regex("\\p{L}{300}").unwrap();
        let budget = Budget::default().with_max_memory(1 << 20);
        let err = Fragment::within(&dfa, &budget, Operation::Dot).map(|_| ()).unwrap_err();
        assert_eq!(err, BudgetError::TooMuchMemory { op: Operation::Dot, limit: 1 << 20 });
        let roomy = Budget::default().with_max_memory(4 << 20);
        let fragment = Fragment::within(&dfa, &roomy, Operation::Dot).unwrap().unwrap();
        assert_eq!(fragment.n_states(), 301);
    }

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
