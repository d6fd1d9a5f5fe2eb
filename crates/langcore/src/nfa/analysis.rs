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
        let mut reversed: Vec<Vec<StateId>> = vec![Vec::new(); n_states];
        for source in (0..n_states).map(StateId::from_index) {
            for (target, _) in successors(nfa, source) {
                reversed[target.index()].push(source);
            }
        }
        let mut live = vec![false; n_states];
        let mut stack: Vec<StateId> = (0..n_states)
            .map(StateId::from_index)
            .filter(|&state| nfa.state(state).accepting)
            .collect();
        for &state in &stack {
            live[state.index()] = true;
        }
        while let Some(state) = stack.pop() {
            for &source in &reversed[state.index()] {
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

    /// Whether the language has infinitely many strings.
    pub(crate) fn is_infinite(&self) -> bool {
        !self.is_empty() && self.components().has_reading_cycle
    }

    /// The shortest and the longest length of an accepted string: `(None, None)` for the
    /// empty language, and a longest length of `None` when the language is infinite.
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
        let mut longest = vec![0usize; components.members.len()];
        for (component, members) in components.members.iter().enumerate() {
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
        let mut index = vec![NONE; n_states];
        let mut low = vec![0u32; n_states];
        let mut on_stack = vec![false; n_states];
        let mut stack: Vec<StateId> = Vec::new();
        let mut members: Vec<Vec<StateId>> = Vec::new();
        let mut next_index = 0u32;
        // Each frame: a state and its moves into useful states, not yet followed.
        let mut frames: Vec<(StateId, Vec<StateId>)> = Vec::new();
        let start = self.nfa.start();
        let visit = |state: StateId,
                     index: &mut [u32],
                     low: &mut [u32],
                     on_stack: &mut [bool],
                     stack: &mut Vec<StateId>,
                     next_index: &mut u32| {
            index[state.index()] = *next_index;
            low[state.index()] = *next_index;
            *next_index += 1;
            on_stack[state.index()] = true;
            stack.push(state);
            let mut targets: Vec<StateId> =
                self.useful_moves(state).map(|(target, _)| target).collect();
            targets.reverse();
            (state, targets)
        };
        frames.push(visit(start, &mut index, &mut low, &mut on_stack, &mut stack, &mut next_index));
        while let Some((state, targets)) = frames.last_mut() {
            let state = *state;
            if let Some(target) = targets.pop() {
                if index[target.index()] == NONE {
                    let frame = visit(
                        target,
                        &mut index,
                        &mut low,
                        &mut on_stack,
                        &mut stack,
                        &mut next_index,
                    );
                    frames.push(frame);
                } else if on_stack[target.index()] {
                    low[state.index()] = low[state.index()].min(index[target.index()]);
                }
                continue;
            }
            frames.pop();
            if let Some((parent, _)) = frames.last() {
                low[parent.index()] = low[parent.index()].min(low[state.index()]);
            }
            if low[state.index()] == index[state.index()] {
                let component = members.len() as u32;
                let mut group = Vec::new();
                while let Some(member) = stack.pop() {
                    on_stack[member.index()] = false;
                    of[member.index()] = component;
                    group.push(member);
                    if member == state {
                        break;
                    }
                }
                members.push(group);
            }
        }
        let has_reading_cycle = members.iter().flatten().any(|&state| {
            self.useful_moves(state)
                .any(|(target, reads)| reads && of[target.index()] == of[state.index()])
        });
        Components { of, members, has_reading_cycle }
    }
}

/// The strongly connected components of the useful states reachable from the start.
struct Components {
    /// The component of each state, [`NONE`] for states outside the trim.
    of: Vec<u32>,
    /// The states of each component, in the order Tarjan's algorithm completes them.
    members: Vec<Vec<StateId>>,
    /// Whether a labelled move joins two states of one component.
    has_reading_cycle: bool,
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
        (trim.is_empty(), trim.is_empty_string(), trim.is_infinite(), trim.length())
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
