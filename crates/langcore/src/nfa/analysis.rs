//! Questions about an [`Nfa`]'s language answered on its trim, without determinizing.
//!
//! # Overview
//! [`NfaTrim`] marks the *useful* states of an NFA (reachable from the start and able to
//! reach an accepting state, ε-moves included) and answers from them the questions that need
//! no subset construction: emptiness, {""}, infiniteness and the shortest and longest
//! lengths. The NFA is linear in the pattern, where its DFA can be exponential
//! (`(?:(?:a-?){0,17}a)+`), so these answers cost what the pattern costs.
//!
//! # Algorithm
//! - Useful states: a forward search from the start, a backward search from the accepting
//!   states over reversed moves; O(states + moves).
//! - Empty: the start is not useful. {""}: the start is useful and no labelled move joins
//!   two useful states (every accepting run then reads nothing).
//! - Infinite: some labelled move lies inside a strongly connected component of the useful
//!   states (Tarjan's algorithm, iterative): a cycle that reads a character and can be
//!   reached and left towards acceptance. ε-only cycles do not count.
//! - Shortest: 0-1 breadth-first search (ε weighs 0, a labelled move 1). Longest, for a
//!   finite language: every component has only ε-moves inside, so the longest path is a
//!   dynamic programme over the components in the order Tarjan's algorithm completes them
//!   (successors first). O(states + moves) each.
//!
//! # Budgets
//! None: the work is linear in the NFA, whose size was bounded when it was built.

use std::collections::VecDeque;

use super::Nfa;
use crate::state_id::StateId;

/// No component yet (Tarjan's algorithm) or not useful.
const NONE: u32 = u32::MAX;

/// The useful states of an NFA, and the analyses that need only them.
pub(crate) struct NfaTrim<'n> {
    nfa: &'n Nfa,
    useful: Vec<bool>,
}

impl<'n> NfaTrim<'n> {
    /// Marks the useful states of `nfa`.
    pub(crate) fn new(nfa: &'n Nfa) -> NfaTrim<'n> {
        let mut useful = NfaTrim::co_reachable(nfa);
        let mut reachable = vec![false; nfa.n_states()];
        let mut stack = vec![nfa.start()];
        reachable[nfa.start().index()] = true;
        while let Some(state) = stack.pop() {
            for (target, _) in successors(nfa, state) {
                if !std::mem::replace(&mut reachable[target.index()], true) {
                    stack.push(target);
                }
            }
        }
        for (useful, reachable) in useful.iter_mut().zip(reachable) {
            *useful &= reachable;
        }
        NfaTrim { nfa, useful }
    }

    /// For each state of `nfa`, whether it can reach an accepting state.
    pub(crate) fn co_reachable(nfa: &Nfa) -> Vec<bool> {
        let n_states = nfa.n_states();
        // The reversed moves by a counting sort on their target: the sources of the moves
        // into `t` are `sources[ends[t] - count..ends[t]]`, `ends[t - 1]` being where they start.
        let mut ends = vec![0usize; n_states];
        for source in (0..n_states).map(StateId::from_index) {
            for (target, _) in successors(nfa, source) {
                ends[target.index()] += 1;
            }
        }
        let mut running_total = 0;
        for end in &mut ends {
            running_total += *end;
            *end = running_total;
        }
        let mut fill = ends.clone();
        let mut sources = vec![StateId::from_index(0); running_total];
        for source in (0..n_states).map(StateId::from_index) {
            for (target, _) in successors(nfa, source) {
                fill[target.index()] -= 1;
                sources[fill[target.index()]] = source;
            }
        }
        // `fill[t]` is now where the sources of `t` start.
        let reversed = |target: StateId| &sources[fill[target.index()]..ends[target.index()]];
        let mut live = vec![false; n_states];
        let mut stack: Vec<StateId> = (0..n_states)
            .map(StateId::from_index)
            .filter(|&state| nfa.state(state).accepting)
            .collect();
        for &state in &stack {
            live[state.index()] = true;
        }
        while let Some(state) = stack.pop() {
            for &source in reversed(state) {
                if !std::mem::replace(&mut live[source.index()], true) {
                    stack.push(source);
                }
            }
        }
        live
    }

    /// Whether `state` is reachable from the start and can reach an accepting state.
    pub(crate) fn is_useful(&self, state: StateId) -> bool {
        self.useful[state.index()]
    }

    /// The moves of `state` into useful states, each with whether it reads a character.
    fn useful_moves(&self, state: StateId) -> impl Iterator<Item = (StateId, bool)> + '_ {
        successors(self.nfa, state).filter(|&(target, _)| self.is_useful(target))
    }

    /// Whether the language has no strings.
    pub(crate) fn is_empty(&self) -> bool {
        !self.is_useful(self.nfa.start())
    }

    /// Whether the language is exactly {""}.
    pub(crate) fn is_empty_string(&self) -> bool {
        !self.is_empty()
            && (0..self.nfa.n_states()).map(StateId::from_index).all(|state| {
                !self.is_useful(state) || self.useful_moves(state).all(|(_, reads)| !reads)
            })
    }

    /// The shortest and the longest length of an accepted string: `(None, None)` for the
    /// empty language, and a longest length of `None` exactly when the language is infinite
    /// (some labelled move lies inside a component).
    pub(crate) fn length(&self) -> (Option<usize>, Option<usize>) {
        if self.is_empty() {
            return (None, None);
        }
        (Some(self.shortest()), self.longest())
    }

    /// The length of a shortest accepted string; the start is useful.
    fn shortest(&self) -> usize {
        let mut distance = vec![usize::MAX; self.nfa.n_states()];
        let mut queue = VecDeque::from([(self.nfa.start(), 0)]);
        distance[self.nfa.start().index()] = 0;
        while let Some((state, dist)) = queue.pop_front() {
            if dist > distance[state.index()] {
                continue;
            }
            if self.nfa.state(state).accepting {
                return dist;
            }
            for (target, reads) in self.useful_moves(state) {
                let through = dist + usize::from(reads);
                if through < distance[target.index()] {
                    distance[target.index()] = through;
                    if reads {
                        queue.push_back((target, through));
                    } else {
                        queue.push_front((target, through));
                    }
                }
            }
        }
        unreachable!("a useful start reaches an accepting state")
    }

    /// The length of a longest accepted string, `None` when there is no longest.
    fn longest(&self) -> Option<usize> {
        let components = self.components();
        if components.has_reading_cycle {
            return None;
        }
        // Components complete successors first, so every move out of a component leads to
        // one whose longest suffix is known.
        let mut longest = vec![0usize; components.ends.len()];
        for (component, members) in components.iter().enumerate() {
            let mut best = None;
            for &state in members {
                if self.nfa.state(state).accepting {
                    best = best.max(Some(0));
                }
                for (target, reads) in self.useful_moves(state) {
                    let other = components.of[target.index()] as usize;
                    if other != component {
                        best = best.max(Some(longest[other] + usize::from(reads)));
                    }
                }
            }
            longest[component] = best.expect("a useful state reaches an accepting state");
        }
        Some(longest[components.of[self.nfa.start().index()] as usize])
    }

    /// The strongly connected components of the useful states, by Tarjan's algorithm
    /// without recursion.
    fn components(&self) -> Components {
        let n_states = self.nfa.n_states();
        let mut of = vec![NONE; n_states];
        let mut walk = TarjanWalk {
            index: vec![NONE; n_states],
            low: vec![0u32; n_states],
            on_stack: vec![false; n_states],
            stack: Vec::new(),
            next_index: 0,
        };
        let mut members: Vec<StateId> = Vec::with_capacity(n_states);
        let mut ends: Vec<usize> = Vec::new();
        // Each frame: a state and the position of its next move to follow.
        let mut frames: Vec<(StateId, usize)> = vec![walk.visit(self.nfa.start())];
        while let Some(&mut (state, ref mut next_move)) = frames.last_mut() {
            if let Some((target, _)) = nth_successor(self.nfa, state, *next_move) {
                *next_move += 1;
                if !self.is_useful(target) {
                    continue;
                }
                if walk.index[target.index()] == NONE {
                    frames.push(walk.visit(target));
                } else if walk.on_stack[target.index()] {
                    walk.low[state.index()] =
                        walk.low[state.index()].min(walk.index[target.index()]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                walk.low[parent.index()] = walk.low[parent.index()].min(walk.low[state.index()]);
            }
            if walk.low[state.index()] == walk.index[state.index()] {
                let component = ends.len() as u32;
                while let Some(member) = walk.stack.pop() {
                    walk.on_stack[member.index()] = false;
                    of[member.index()] = component;
                    members.push(member);
                    if member == state {
                        break;
                    }
                }
                ends.push(members.len());
            }
        }
        let has_reading_cycle = members.iter().any(|&state| {
            self.useful_moves(state)
                .any(|(target, reads)| reads && of[target.index()] == of[state.index()])
        });
        Components { of, members, ends, has_reading_cycle }
    }
}

/// The numbering of Tarjan's algorithm (`NfaTrim::components`).
struct TarjanWalk {
    /// The visit number of each state, [`NONE`] before its visit.
    index: Vec<u32>,
    /// The smallest visit number known reachable from each state within its component.
    low: Vec<u32>,
    on_stack: Vec<bool>,
    stack: Vec<StateId>,
    next_index: u32,
}

impl TarjanWalk {
    /// Numbers `state` and pushes it; its frame, at its first move.
    fn visit(&mut self, state: StateId) -> (StateId, usize) {
        self.index[state.index()] = self.next_index;
        self.low[state.index()] = self.next_index;
        self.next_index += 1;
        self.on_stack[state.index()] = true;
        self.stack.push(state);
        (state, 0)
    }
}

/// The strongly connected components of the useful states reachable from the start.
struct Components {
    /// The component of each state, [`NONE`] for states outside the trim.
    of: Vec<u32>,
    /// The states of every component, one component after the other, in the order Tarjan's
    /// algorithm completes them.
    members: Vec<StateId>,
    /// Where each component's states end in `members`.
    ends: Vec<usize>,
    /// Whether a labelled move joins two states of one component.
    has_reading_cycle: bool,
}

impl Components {
    /// The states of each component, in the order Tarjan's algorithm completes them.
    fn iter(&self) -> impl Iterator<Item = &[StateId]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(start, &end)| &self.members[start..end])
    }
}

/// Move `position` of `state` in the order of [`successors`], `None` past the last one.
fn nth_successor(nfa: &Nfa, state: StateId, position: usize) -> Option<(StateId, bool)> {
    let state = nfa.state(state);
    match state.transitions.get(position) {
        Some(&(_, target)) => Some((target, true)),
        None => {
            state.epsilons.get(position - state.transitions.len()).map(|&target| (target, false))
        }
    }
}

/// Every move of `state`: its target and whether it reads a character.
fn successors(nfa: &Nfa, state: StateId) -> impl Iterator<Item = (StateId, bool)> + '_ {
    let state = nfa.state(state);
    let labelled = state.transitions.iter().map(|&(_, target)| (target, true));
    labelled.chain(state.epsilons.iter().map(|&target| (target, false)))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::NfaTrim;
    use crate::budget::Budget;
    use crate::dfa::Dfa;
    use crate::nfa::Nfa;

    /// The trim's answers for `pattern`: empty, {""}, infinite, lengths.
    fn answers(pattern: &str) -> (bool, bool, bool, (Option<usize>, Option<usize>)) {
        let nfa = Nfa::from_regex_with(pattern, &Budget::unlimited()).unwrap();
        let trim = NfaTrim::new(&nfa);
        let length = trim.length();
        let infinite = length.0.is_some() && length.1.is_none();
        (trim.is_empty(), trim.is_empty_string(), infinite, length)
    }

    #[test]
    fn answers_without_determinizing() {
        // The DFA of this language is far beyond the default budget; the trim is not.
        let pattern = "(?:(?:a-?){0,17}a)+";
        assert_eq!(answers(pattern), (false, false, true, (Some(1), None)));
        assert_eq!(answers(".*a.{100}"), (false, false, true, (Some(101), None)));
        assert_eq!(answers("a{20000}"), (false, false, false, (Some(20000), Some(20000))));
    }

    #[test]
    fn edge_cases() {
        assert_eq!(answers("[^\\s\\S]"), (true, false, false, (None, None)));
        assert_eq!(answers("a[^\\s\\S]|b"), (false, false, false, (Some(1), Some(1))));
        assert_eq!(answers("()*"), (false, true, false, (Some(0), Some(0))));
        assert_eq!(answers("(a[^\\s\\S])*"), (false, true, false, (Some(0), Some(0))));
        assert_eq!(answers("(()*)*x?"), (false, false, false, (Some(0), Some(1))));
        assert_eq!(answers("(ab|c){2,3}d*"), (false, false, true, (Some(2), None)));
        assert_eq!(answers("(ab|c){2,3}"), (false, false, false, (Some(2), Some(6))));
    }

    /// Random patterns over a few characters, with empty classes and nested stars.
    fn pattern() -> impl Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "b", "[ab]", "()", "[^\\s\\S]", "."],
            &["*", "+", "?", "{2}", "{0,2}", "{1,}"],
            4,
            24,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The trim answers what the minimal DFA answers.
        #[test]
        fn trim_agrees_with_dfa(pattern in pattern()) {
            let dfa = Dfa::from_regex_with(&pattern, &Budget::unlimited()).unwrap();
            let (empty, empty_string, infinite, length) = answers(&pattern);
            prop_assert_eq!(empty, dfa.is_empty(), "empty {}", pattern);
            prop_assert_eq!(empty_string, dfa.is_empty_string(), "{{\"\"}} {}", pattern);
            prop_assert_eq!(length, dfa.length(), "length {}", pattern);
            let dfa_infinite = !empty && dfa.length().1.is_none();
            prop_assert_eq!(infinite, dfa_infinite, "infinite {}", pattern);
        }
    }
}
