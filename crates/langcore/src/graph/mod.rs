//! A plain exchange view of an automaton: states, acceptance and labelled moves, nothing else.
//!
//! # Overview
//! - [`Graph`] is what leaves and enters langcore when an automaton is stored or sent: a
//!   start state and, per state, whether it accepts and its moves, each a non-empty
//!   [`CharSet`] label and a target. There are no ε-moves and no dead-state convention, and
//!   nothing about it depends on how langcore stores automata internally, so serializers
//!   (the FAIR codec) can mirror it field by field.
//! - [`GraphState`] is one state, with public fields.
//! - [`GraphLimits`] bounds the counts that [`Graph::new`] accepts, so a graph decoded from
//!   untrusted input can be rejected before it costs anything.
//! - [`GraphError`] says which check failed.
//!
//! Conversions live beside the automata: [`Dfa::to_graph`](crate::Dfa::to_graph) and
//! [`Dfa::from_graph`](crate::Dfa::from_graph), [`Nfa::to_graph`](crate::Nfa::to_graph) and
//! [`Nfa::from_graph`](crate::Nfa::from_graph); their logic is in `convert.rs`.
//!
//! # Invariants
//! - The start and every move target are below the state count, so a graph has at least one
//!   state.
//! - No label is empty.
//! - Counts are within the [`GraphLimits`] the graph was built with; graphs built from
//!   automata inside langcore are as large as those automata.
//! - Deliberately absent: labels of one state need not be disjoint (that is what
//!   [`Graph::is_deterministic`] answers), states need not be reachable or able to accept,
//!   and moves come in the order given.
//!
//! # Example
//! ```
//! use langcore::alphabet::CharSet;
//! use langcore::graph::{Graph, GraphLimits, GraphState};
//! use langcore::{Budget, Dfa, StateId};
//!
//! // "ab*": state 0 moves to state 1 on `a`; state 1 accepts and loops on `b`.
//! let [s0, s1] = [0, 1].map(|index| StateId::try_from_index(index).unwrap());
//! let states = vec![
//!     GraphState { accepting: false, moves: vec![(CharSet::singleton('a'), s1)] },
//!     GraphState { accepting: true, moves: vec![(CharSet::singleton('b'), s1)] },
//! ];
//! let graph = Graph::new(s0, states, &GraphLimits::default())?;
//! assert!(graph.is_deterministic());
//! let dfa = Dfa::from_graph(&graph, &Budget::default())?;
//! assert_eq!(dfa, Dfa::from_regex("ab*")?);
//! assert_eq!(dfa.to_graph(), graph, "the canonical graph of ab* is this one");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod convert;

use std::fmt;

use crate::alphabet::CharSet;
use crate::budget::DEFAULT_MAX_STATES;
use crate::state_id::StateId;

/// The default move limit of [`GraphLimits::default`].
///
/// # Example
/// ```
/// use langcore::graph::{DEFAULT_MAX_MOVES, GraphLimits};
///
/// assert_eq!(GraphLimits::default().max_moves(), DEFAULT_MAX_MOVES);
/// ```
pub const DEFAULT_MAX_MOVES: usize = 1_000_000;
/// The default range limit of [`GraphLimits::default`]: about 32 MiB of labels.
///
/// # Example
/// ```
/// use langcore::graph::{DEFAULT_MAX_RANGES, GraphLimits};
///
/// assert_eq!(GraphLimits::default().max_ranges(), DEFAULT_MAX_RANGES);
/// ```
pub const DEFAULT_MAX_RANGES: usize = 4_000_000;

/// One state of a [`Graph`]: whether it accepts, and its moves.
///
/// # Example
/// ```
/// use langcore::Dfa;
/// use langcore::alphabet::CharSet;
///
/// let graph = Dfa::from_regex("[a-z]")?.to_graph();
/// let start = &graph.states()[graph.start().index()];
/// assert!(!start.accepting);
/// let (label, target) = &start.moves[0];
/// assert_eq!(label, &CharSet::range('a', 'z'));
/// assert!(graph.states()[target.index()].accepting);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GraphState {
    /// Whether a string that ends here is in the language.
    pub accepting: bool,
    /// The moves: on any character of the label, go to the target.
    pub moves: Vec<(CharSet, StateId)>,
}

/// An automaton as plain data: a start state and, per state, acceptance and labelled moves.
///
/// See the [module docs](self) for what a graph guarantees and an example.
///
/// # Example
/// ```
/// use langcore::{Budget, Nfa};
///
/// let budget = Budget::default();
/// let graph = Nfa::from_regex("ab|ac")?.to_graph(&budget)?;
/// assert!(!graph.is_deterministic());
/// assert!(Nfa::from_graph(&graph).matches("ac"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    start: StateId,
    states: Vec<GraphState>,
}

impl Graph {
    /// A graph with the given start and states, after checking the counts against `limits`,
    /// then the start and every target against the state count, and that no label is empty.
    ///
    /// # Errors
    /// The first check that fails, as a [`GraphError`].
    ///
    /// # Example
    /// ```
    /// use langcore::StateId;
    /// use langcore::alphabet::CharSet;
    /// use langcore::graph::{Graph, GraphError, GraphLimits, GraphState};
    ///
    /// let [s0, s1] = [0, 1].map(|index| StateId::try_from_index(index).unwrap());
    /// let a_loop = vec![(CharSet::singleton('a'), s0)];
    /// let loops = vec![GraphState { accepting: true, moves: a_loop }];
    /// assert_eq!(Graph::new(s0, loops.clone(), &GraphLimits::default())?.n_states(), 1);
    /// let err = Graph::new(s1, loops, &GraphLimits::default()).unwrap_err();
    /// assert_eq!(err, GraphError::StartOutOfRange { start: s1, n_states: 1 });
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        start: StateId,
        states: Vec<GraphState>,
        limits: &GraphLimits,
    ) -> Result<Graph, GraphError> {
        let n_moves = states.iter().map(|state| state.moves.len()).sum();
        let n_ranges = states.iter().flat_map(|state| &state.moves).map(|m| m.0.ranges().len());
        limits.check(states.len(), n_moves, n_ranges.sum())?;
        let n_states = states.len();
        if start.index() >= n_states {
            return Err(GraphError::StartOutOfRange { start, n_states });
        }
        for (index, state) in states.iter().enumerate() {
            let state_id = StateId::from_index(index);
            for (label, target) in &state.moves {
                if label.is_empty() {
                    return Err(GraphError::EmptyLabel { state: state_id });
                }
                if target.index() >= n_states {
                    return Err(GraphError::TargetOutOfRange {
                        state: state_id,
                        target: *target,
                        n_states,
                    });
                }
            }
        }
        Ok(Graph { start, states })
    }

    /// A graph from parts that the caller knows to satisfy the invariants.
    pub(crate) fn from_parts(start: StateId, states: Vec<GraphState>) -> Graph {
        debug_assert!(Graph::new(start, states.clone(), &GraphLimits::unlimited()).is_ok());
        Graph { start, states }
    }

    /// The start state.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let graph = Dfa::from_regex("a*")?.to_graph();
    /// assert!(graph.states()[graph.start().index()].accepting);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(&self) -> StateId {
        self.start
    }

    /// The states, indexed by [`StateId::index`].
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let graph = Dfa::from_regex("a|bc")?.to_graph();
    /// let accepting = graph.states().iter().filter(|state| state.accepting).count();
    /// assert_eq!((graph.states().len(), accepting), (3, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn states(&self) -> &[GraphState] {
        &self.states
    }

    /// The number of states, at least 1.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert_eq!(Dfa::from_regex("abc")?.to_graph().n_states(), 4, "no dead state");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn n_states(&self) -> usize {
        self.states.len()
    }

    /// The number of moves, over all states.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert_eq!(Dfa::from_regex("abc")?.to_graph().n_moves(), 3);
    /// assert_eq!(Dfa::from_regex("[a-z]+")?.to_graph().n_moves(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn n_moves(&self) -> usize {
        self.states.iter().map(|state| state.moves.len()).sum()
    }

    /// The first state with two moves on a common character, if any.
    ///
    /// Each state's ranges are sorted together, so a state with `r` ranges in all costs
    /// O(r log r), however many moves it has.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Nfa};
    ///
    /// let graph = Nfa::from_regex("ab|ac")?.to_graph(&Budget::default())?;
    /// assert!(graph.first_nondeterministic_state().is_some());
    /// assert_eq!(Dfa::from_regex("ab|ac")?.to_graph().first_nondeterministic_state(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_nondeterministic_state(&self) -> Option<StateId> {
        let mut ranges: Vec<(char, char)> = Vec::new();
        let position = self.states.iter().position(|state| {
            ranges.clear();
            ranges.extend(state.moves.iter().flat_map(|(label, _)| label.ranges()));
            ranges.sort_unstable();
            // Ranges within one label are disjoint, so any overlap is between two moves.
            ranges.windows(2).any(|pair| pair[1].0 <= pair[0].1)
        });
        position.map(StateId::from_index)
    }

    /// Whether no state has two moves on a common character: the graph is a (partial)
    /// deterministic automaton.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Nfa};
    ///
    /// assert!(Dfa::from_regex("ab|ac")?.to_graph().is_deterministic());
    /// let nfa_graph = Nfa::from_regex("ab|ac")?.to_graph(&Budget::default())?;
    /// assert!(!nfa_graph.is_deterministic());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_deterministic(&self) -> bool {
        self.first_nondeterministic_state().is_none()
    }
}

/// Upper bounds on the size of a [`Graph`], checked by [`Graph::new`] before anything else.
///
/// The default is bounded ([`crate::DEFAULT_MAX_STATES`] states,
/// [`DEFAULT_MAX_MOVES`] moves, [`DEFAULT_MAX_RANGES`] label ranges); only
/// [`GraphLimits::unlimited`] is not.
///
/// # Example
/// ```
/// use langcore::Dfa;
/// use langcore::graph::{GraphError, GraphLimits};
///
/// let graph = Dfa::from_regex("[a-z]{10}")?.to_graph();
/// let limits = GraphLimits::default().with_max_states(5);
/// let err = limits.check(graph.n_states(), graph.n_moves(), 10);
/// assert_eq!(err, Err(GraphError::TooManyStates { given: 11, limit: 5 }));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphLimits {
    max_states: usize,
    max_moves: usize,
    max_ranges: usize,
}

impl Default for GraphLimits {
    fn default() -> Self {
        GraphLimits {
            max_states: DEFAULT_MAX_STATES,
            max_moves: DEFAULT_MAX_MOVES,
            max_ranges: DEFAULT_MAX_RANGES,
        }
    }
}

impl GraphLimits {
    /// No limits at all, for trusted input only.
    ///
    /// # Example
    /// ```
    /// use langcore::StateId;
    /// use langcore::graph::GraphLimits;
    ///
    /// let limits = GraphLimits::unlimited();
    /// assert_eq!(limits.check(1 << 20, usize::MAX, usize::MAX), Ok(()));
    /// assert!(limits.check(StateId::LIMIT + 1, 0, 0).is_err(), "state ids still bound the count");
    /// ```
    pub fn unlimited() -> Self {
        GraphLimits { max_states: usize::MAX, max_moves: usize::MAX, max_ranges: usize::MAX }
    }

    /// Returns these limits with at most `max_states` states.
    ///
    /// # Example
    /// ```
    /// use langcore::graph::GraphLimits;
    ///
    /// assert_eq!(GraphLimits::default().with_max_states(10).max_states(), 10);
    /// ```
    pub fn with_max_states(self, max_states: usize) -> Self {
        GraphLimits { max_states, ..self }
    }

    /// Returns these limits with at most `max_moves` moves, over all states.
    ///
    /// # Example
    /// ```
    /// use langcore::graph::GraphLimits;
    ///
    /// assert_eq!(GraphLimits::default().with_max_moves(10).max_moves(), 10);
    /// ```
    pub fn with_max_moves(self, max_moves: usize) -> Self {
        GraphLimits { max_moves, ..self }
    }

    /// Returns these limits with at most `max_ranges` label ranges, summed over all moves
    /// (each range takes 8 bytes).
    ///
    /// # Example
    /// ```
    /// use langcore::graph::GraphLimits;
    ///
    /// assert_eq!(GraphLimits::default().with_max_ranges(10).max_ranges(), 10);
    /// ```
    pub fn with_max_ranges(self, max_ranges: usize) -> Self {
        GraphLimits { max_ranges, ..self }
    }

    /// The state limit.
    ///
    /// # Example
    /// ```
    /// use langcore::DEFAULT_MAX_STATES;
    /// use langcore::graph::GraphLimits;
    ///
    /// assert_eq!(GraphLimits::default().max_states(), DEFAULT_MAX_STATES);
    /// ```
    pub fn max_states(&self) -> usize {
        self.max_states
    }

    /// The move limit.
    ///
    /// # Example
    /// ```
    /// use langcore::graph::{DEFAULT_MAX_MOVES, GraphLimits};
    ///
    /// assert_eq!(GraphLimits::default().max_moves(), DEFAULT_MAX_MOVES);
    /// assert_eq!(GraphLimits::unlimited().max_moves(), usize::MAX);
    /// ```
    pub fn max_moves(&self) -> usize {
        self.max_moves
    }

    /// The label range limit.
    ///
    /// # Example
    /// ```
    /// use langcore::graph::{DEFAULT_MAX_RANGES, GraphLimits};
    ///
    /// assert_eq!(GraphLimits::default().max_ranges(), DEFAULT_MAX_RANGES);
    /// assert_eq!(GraphLimits::unlimited().max_ranges(), usize::MAX);
    /// ```
    pub fn max_ranges(&self) -> usize {
        self.max_ranges
    }

    /// Checks counts against the limits, so that a decoder can reject a graph from the counts
    /// alone, before building it. States count at most [`StateId::LIMIT`] whatever the limit.
    ///
    /// # Errors
    /// [`GraphError::TooManyStates`], [`GraphError::TooManyMoves`] or
    /// [`GraphError::TooManyRanges`], checked in that order.
    ///
    /// # Example
    /// ```
    /// use langcore::graph::{GraphError, GraphLimits};
    ///
    /// let limits = GraphLimits::default().with_max_moves(100);
    /// assert_eq!(limits.check(10, 100, 100), Ok(()));
    /// let err = limits.check(10, 101, 100);
    /// assert_eq!(err, Err(GraphError::TooManyMoves { given: 101, limit: 100 }));
    /// ```
    pub fn check(
        &self,
        n_states: usize,
        n_moves: usize,
        n_ranges: usize,
    ) -> Result<(), GraphError> {
        let max_states = self.max_states.min(StateId::LIMIT);
        if n_states > max_states {
            return Err(GraphError::TooManyStates { given: n_states, limit: max_states });
        }
        if n_moves > self.max_moves {
            return Err(GraphError::TooManyMoves { given: n_moves, limit: self.max_moves });
        }
        if n_ranges > self.max_ranges {
            return Err(GraphError::TooManyRanges { given: n_ranges, limit: self.max_ranges });
        }
        Ok(())
    }
}

/// Why a [`Graph`] could not be built or used.
///
/// # Example
/// ```
/// use langcore::graph::GraphError;
/// use langcore::{Budget, Dfa, Error, Nfa};
///
/// let budget = Budget::default();
/// let graph = Nfa::from_regex("ab|ac")?.to_graph(&budget)?;
/// let err = Dfa::from_graph(&graph, &budget).unwrap_err();
/// assert!(matches!(err, Error::Graph(GraphError::NotDeterministic { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum GraphError {
    /// More states than the limit.
    TooManyStates {
        /// The number of states given.
        given: usize,
        /// The limit.
        limit: usize,
    },
    /// More moves than the limit.
    TooManyMoves {
        /// The number of moves given.
        given: usize,
        /// The limit.
        limit: usize,
    },
    /// More label ranges, summed over all moves, than the limit.
    TooManyRanges {
        /// The number of ranges given.
        given: usize,
        /// The limit.
        limit: usize,
    },
    /// The start is not a state (in particular, a graph without states).
    StartOutOfRange {
        /// The start given.
        start: StateId,
        /// The number of states.
        n_states: usize,
    },
    /// A move goes to a state that does not exist.
    TargetOutOfRange {
        /// The state the move leaves.
        state: StateId,
        /// The target given.
        target: StateId,
        /// The number of states.
        n_states: usize,
    },
    /// A move has an empty label, so it could never be taken.
    EmptyLabel {
        /// The state the move leaves.
        state: StateId,
    },
    /// A deterministic graph was required, and this state has two moves on a common
    /// character.
    NotDeterministic {
        /// The first such state.
        state: StateId,
    },
}

impl fmt::Display for GraphError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GraphError::TooManyStates { given, limit } => {
                write!(f, "{given} states exceed the limit of {limit}")
            }
            GraphError::TooManyMoves { given, limit } => {
                write!(f, "{given} moves exceed the limit of {limit}")
            }
            GraphError::TooManyRanges { given, limit } => {
                write!(f, "{given} label ranges exceed the limit of {limit}")
            }
            GraphError::StartOutOfRange { start, n_states } => {
                write!(f, "start state {} is out of range ({n_states} states)", start.index())
            }
            GraphError::TargetOutOfRange { state, target, n_states } => write!(
                f,
                "state {} has a move to state {}, out of range ({n_states} states)",
                state.index(),
                target.index()
            ),
            GraphError::EmptyLabel { state } => {
                write!(f, "state {} has a move with an empty label", state.index())
            }
            GraphError::NotDeterministic { state } => {
                write!(f, "state {} has two moves on a common character", state.index())
            }
        }
    }
}

impl std::error::Error for GraphError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(index: usize) -> StateId {
        StateId::from_index(index)
    }

    fn state(accepting: bool, moves: &[(&str, usize)]) -> GraphState {
        let moves = moves.iter().map(|&(chars, target)| (chars.chars().collect(), id(target)));
        GraphState { accepting, moves: moves.collect() }
    }

    fn build(start: usize, states: Vec<GraphState>) -> Result<Graph, GraphError> {
        Graph::new(id(start), states, &GraphLimits::default())
    }

    #[test]
    fn new_checks_start_targets_and_labels() {
        assert_eq!(
            build(0, vec![]),
            Err(GraphError::StartOutOfRange { start: id(0), n_states: 0 })
        );
        assert_eq!(
            build(2, vec![state(true, &[]), state(false, &[])]),
            Err(GraphError::StartOutOfRange { start: id(2), n_states: 2 })
        );
        assert_eq!(
            build(0, vec![state(false, &[("a", 1)]), state(true, &[("b", 2)])]),
            Err(GraphError::TargetOutOfRange { state: id(1), target: id(2), n_states: 2 })
        );
        assert_eq!(
            build(0, vec![state(false, &[("a", 0), ("", 0)])]),
            Err(GraphError::EmptyLabel { state: id(0) })
        );
        let graph = build(1, vec![state(true, &[]), state(false, &[("ab", 0), ("c", 1)])]);
        let graph = graph.expect("valid");
        assert_eq!((graph.start(), graph.n_states(), graph.n_moves()), (id(1), 2, 2));
        assert!(graph.states()[0].accepting);
    }

    #[test]
    fn limits_are_inclusive_and_checked_first() {
        let states = vec![state(false, &[("ab", 1), ("c", 1)]), state(true, &[("d", 9)])];
        let exact = GraphLimits::default().with_max_states(2).with_max_moves(3).with_max_ranges(3);
        assert!(matches!(
            Graph::new(id(0), states.clone(), &exact),
            Err(GraphError::TargetOutOfRange { .. })
        ));
        let checks = [
            (exact.with_max_states(1), GraphError::TooManyStates { given: 2, limit: 1 }),
            (exact.with_max_moves(2), GraphError::TooManyMoves { given: 3, limit: 2 }),
            (exact.with_max_ranges(2), GraphError::TooManyRanges { given: 3, limit: 2 }),
        ];
        for (limits, expected) in checks {
            assert_eq!(Graph::new(id(0), states.clone(), &limits), Err(expected));
        }
        assert_eq!(
            GraphLimits::unlimited().check(StateId::LIMIT + 1, 0, 0).map_err(|e| e.to_string()),
            Err(format!("{} states exceed the limit of {}", StateId::LIMIT + 1, StateId::LIMIT))
        );
    }

    #[test]
    fn determinism_is_disjointness_per_state() {
        let deterministic =
            build(0, vec![state(false, &[("ac", 1), ("bd", 0)]), state(true, &[("a", 1)])]);
        assert!(deterministic.expect("valid").is_deterministic());
        let same_label_twice =
            build(0, vec![state(true, &[]), state(false, &[("a", 0), ("a", 1)])]).expect("valid");
        assert_eq!(same_label_twice.first_nondeterministic_state(), Some(id(1)));
        let overlap = build(0, vec![state(false, &[("abc", 0), ("xc", 0)])]).expect("valid");
        assert!(!overlap.is_deterministic());
    }

    #[test]
    fn messages_say_what_failed() {
        let err = GraphError::TargetOutOfRange { state: id(3), target: id(7), n_states: 5 };
        assert_eq!(err.to_string(), "state 3 has a move to state 7, out of range (5 states)");
        let err = GraphError::TooManyMoves { given: 10, limit: 4 };
        assert_eq!(err.to_string(), "10 moves exceed the limit of 4");
    }
}
