//! Conversions between [`Graph`] and the automata: DFA and NFA, both ways.
//!
//! # Algorithm
//! - *DFA to graph*: the trim of `dfa/fragment.rs` ([`Fragment`]): states that can still accept,
//!   breadth first from the start, classes with one target merged into one label. The dead
//!   state and every move into it disappear; the empty language is one state without moves.
//!   O(states × classes).
//! - *Graph to NFA*: state for state, labels interned; the graph has no ε-moves to add.
//! - *Graph to DFA*: the NFA above, then subset construction and canonical minimization. On
//!   a deterministic graph each subset holds one graph state, so the construction is linear
//!   in the table it builds, and it adds the dead state that completes the table.
//! - *NFA to graph*: ε-removal. Breadth first from the start, each kept state takes the moves
//!   of its whole ε-closure (merged per target, labels united) and accepts when its closure
//!   does; a state that no labelled move reaches is dropped. O(states × closure moves).
//!
//! # Budgets
//! ε-removal checks the deadline once per kept state and the memory limit against the
//! graph built so far, with [`Operation::EpsilonRemoval`]: the output can be quadratic in the
//! NFA (every state of a long ε-chain gets the moves of the rest of the chain). Graph to DFA
//! runs under the determinization and minimization budgets.

use std::collections::BTreeMap;

use super::{Graph, GraphError, GraphState};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::error::Error;
use crate::nfa::{ClosureScratch, Nfa, NfaBuilder, State};
use crate::state_id::StateId;

pub(crate) fn dfa_to_graph(dfa: &Dfa) -> Graph {
    match Fragment::new(dfa) {
        Some(fragment) => fragment_to_graph(&fragment),
        None => Graph::from_parts(StateId::from_index(0), vec![GraphState::default()]),
    }
}

/// The fragment's kept states as a [`Graph`], numbered alike: the entry is the start, state 0.
fn fragment_to_graph(fragment: &Fragment) -> Graph {
    let states = (0..fragment.n_states()).map(|idx| GraphState {
        accepting: fragment.is_accepting(idx),
        moves: (fragment.moves(idx).iter())
            .map(|(label, target)| (label.clone(), StateId::from_index(*target)))
            .collect(),
    });
    Graph::from_parts(StateId::from_index(0), states.collect())
}

pub(crate) fn dfa_from_graph(graph: &Graph, budget: &Budget) -> Result<Dfa, Error> {
    if let Some(state) = graph.first_nondeterministic_state() {
        return Err(Error::Graph(GraphError::NotDeterministic { state }));
    }
    Ok(Dfa::from_nfa(&nfa_from_graph(graph), budget)?)
}

pub(crate) fn nfa_from_graph(graph: &Graph) -> Nfa {
    // The graph's size was checked when it was built; this copy adds nothing to it.
    let budget = Budget::unlimited();
    let mut builder = NfaBuilder::new(&budget, Operation::BuildNfa);
    for state in graph.states() {
        let transitions =
            state.moves.iter().map(|(label, target)| (builder.intern(label), *target)).collect();
        builder.add_unchecked(State {
            transitions,
            epsilons: Vec::new(),
            accepting: state.accepting,
        });
    }
    builder.finish(graph.start())
}

pub(crate) fn nfa_to_graph(nfa: &Nfa, budget: &Budget) -> Result<Graph, BudgetError> {
    const OP: Operation = Operation::EpsilonRemoval;
    let mut scratch = ClosureScratch::new(nfa.n_states());
    let mut closure = Vec::new();
    let mut graph_index: Vec<Option<usize>> = vec![None; nfa.n_states()];
    graph_index[nfa.start().index()] = Some(0);
    let mut order = vec![nfa.start()];
    let mut states = Vec::new();
    let mut n_bytes: usize = 0;
    while let Some(&nfa_state) = order.get(states.len()) {
        budget.check_time(OP)?;
        nfa.closure(&[nfa_state], &mut scratch, &mut closure);
        let mut accepting = false;
        // Keyed by graph index, so the moves come out in a deterministic order.
        let mut ranges_by_target: BTreeMap<usize, Vec<(char, char)>> = BTreeMap::new();
        for &member in &closure {
            let state = nfa.state(member);
            accepting |= state.accepting;
            for &(label, target) in &state.transitions {
                let target_index = *graph_index[target.index()].get_or_insert_with(|| {
                    order.push(target);
                    order.len() - 1
                });
                let ranges = nfa.label(label).ranges();
                ranges_by_target.entry(target_index).or_default().extend_from_slice(ranges);
            }
        }
        let moves: Vec<(CharSet, StateId)> = ranges_by_target
            .into_iter()
            .map(|(index, ranges)| (CharSet::from_ranges(ranges), StateId::from_index(index)))
            .collect();
        let state_bytes = moves
            .iter()
            .map(|(label, _)| size_of::<(CharSet, StateId)>() + size_of_val(label.ranges()));
        n_bytes = n_bytes.saturating_add(state_bytes.sum());
        budget.check_memory(OP, n_bytes)?;
        states.push(GraphState { accepting, moves });
    }
    Ok(Graph::from_parts(StateId::from_index(0), states))
}

impl Nfa {
    /// The NFA of `graph`: the same states and moves, without ε-moves. Infallible: the
    /// graph's size was checked when it was built.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Nfa};
    ///
    /// let graph = Nfa::from_regex("ab|ac")?.to_graph(&Budget::default())?;
    /// let nfa = Nfa::from_graph(&graph);
    /// assert!(nfa.matches("ac") && !nfa.matches("a"));
    /// assert_eq!(Dfa::from_nfa(&nfa, &Budget::default())?, Dfa::from_regex("a[bc]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_graph(graph: &Graph) -> Nfa {
        nfa_from_graph(graph)
    }

    /// The [`Graph`] of this NFA with its ε-moves removed: each kept state has the moves of
    /// its ε-closure and accepts when the closure does; states that no move reaches are
    /// dropped, and the start becomes state 0.
    ///
    /// # Errors
    /// When the deadline or the memory limit of `budget` runs out
    /// ([`Operation::EpsilonRemoval`]); the graph can be quadratic in the NFA.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Nfa};
    ///
    /// let graph = Nfa::from_regex("a*b")?.to_graph(&Budget::default())?;
    /// assert!(graph.n_states() <= Nfa::from_regex("a*b")?.n_states());
    /// assert!(Nfa::from_graph(&graph).matches("aab"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_graph(&self, budget: &Budget) -> Result<Graph, BudgetError> {
        nfa_to_graph(self, budget)
    }
}

impl Dfa {
    /// This DFA as a [`Graph`], compact for storage: only states that can still accept,
    /// numbered breadth first from the start (state 0); no moves into the dead state; the
    /// classes leading from a state to one target merged into one label. The graph is
    /// deterministic, and for a canonical DFA it depends only on the language.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let graph = Dfa::from_regex("[a-z]+@[a-z]+")?.to_graph();
    /// assert_eq!(graph.n_states(), 4, "no dead state");
    /// assert_eq!(graph.n_moves(), 5, "one move per target: `[a-z]` loops on two states");
    /// assert!(graph.is_deterministic());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_graph(&self) -> Graph {
        dfa_to_graph(self)
    }

    /// The canonical minimal DFA of a deterministic `graph`, completed with a dead state.
    ///
    /// # Errors
    /// [`Error::Graph`] with [`GraphError::NotDeterministic`](crate::graph::GraphError) when
    /// a state has two moves on a common character (use [`Nfa::from_graph`] for those), and
    /// [`Error::Budget`] when determinization or minimization exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let dfa = Dfa::from_regex("(abc|de){2}")?;
    /// assert_eq!(Dfa::from_graph(&dfa.to_graph(), &Budget::default())?, dfa);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_graph(graph: &Graph, budget: &Budget) -> Result<Dfa, Error> {
        dfa_from_graph(graph, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::GraphLimits;

    const PATTERNS: [&str; 12] = [
        "",
        "[]",
        "a",
        "abc",
        "(a|b)*abb",
        "[^a]*",
        "x(yz)*|y",
        "\\w{3}",
        "(ab|c)+d?",
        "a?b?c?",
        "(a*|b)*c",
        ".*[0-9].*",
    ];

    fn budget() -> Budget {
        Budget::unlimited()
    }

    #[test]
    fn dfa_graphs_round_trip_to_the_same_dfa() {
        for pattern in PATTERNS {
            let dfa = Dfa::from_regex(pattern).unwrap();
            let graph = dfa.to_graph();
            assert!(graph.is_deterministic(), "{pattern}");
            assert_eq!(Dfa::from_graph(&graph, &budget()).unwrap(), dfa, "{pattern}");
            assert_eq!(Dfa::from_nfa(&Nfa::from_graph(&graph), &budget()).unwrap(), dfa);
        }
    }

    #[test]
    fn nfa_graphs_keep_the_language_without_epsilons() {
        for pattern in PATTERNS {
            let nfa = Nfa::from_regex(pattern).unwrap();
            let graph = nfa.to_graph(&budget()).unwrap();
            assert!(graph.n_states() <= nfa.n_states(), "{pattern}");
            let back = Nfa::from_graph(&graph);
            assert_eq!(Dfa::from_nfa(&back, &budget()).unwrap(), Dfa::from_regex(pattern).unwrap());
        }
    }

    #[test]
    fn dfa_graphs_drop_the_dead_state_and_merge_classes() {
        let graph = Dfa::from_regex("a[ab]|b").unwrap().to_graph();
        // start, after `a`, accepting end; no dead state.
        assert_eq!(graph.n_states(), 3);
        assert_eq!(graph.states()[1].moves, [(CharSet::range('a', 'b'), StateId::from_index(2))]);
        let empty = Dfa::from_regex("[]").unwrap().to_graph();
        assert_eq!(empty.states(), [GraphState::default()]);
        let empty_string = Dfa::from_regex("").unwrap().to_graph();
        assert_eq!(empty_string.states(), [GraphState { accepting: true, moves: vec![] }]);
    }

    #[test]
    fn epsilon_removal_merges_closures() {
        // `a?b?` : the start's closure reaches both moves and acceptance.
        let graph = Nfa::from_regex("a?b?").unwrap().to_graph(&budget()).unwrap();
        let start = &graph.states()[graph.start().index()];
        assert!(start.accepting);
        assert_eq!(start.moves.len(), 2);
        assert!(graph.is_deterministic());
    }

    #[test]
    fn from_graph_requires_determinism() {
        let graph = Nfa::from_regex("ab|ac").unwrap().to_graph(&budget()).unwrap();
        assert_eq!(
            Dfa::from_graph(&graph, &budget()),
            Err(Error::Graph(GraphError::NotDeterministic { state: StateId::from_index(0) }))
        );
        let dfa = Dfa::from_nfa(&Nfa::from_graph(&graph), &budget()).unwrap();
        assert_eq!(dfa, Dfa::from_regex("a[bc]").unwrap());
    }

    #[test]
    fn unreachable_and_dead_end_states_are_fine() {
        let a = CharSet::singleton('a');
        let states = vec![
            GraphState { accepting: false, moves: vec![(a.clone(), StateId::from_index(2))] },
            GraphState { accepting: true, moves: vec![(a.clone(), StateId::from_index(1))] },
            GraphState { accepting: false, moves: vec![] },
        ];
        let graph = Graph::new(StateId::from_index(0), states, &GraphLimits::default()).unwrap();
        assert_eq!(Dfa::from_graph(&graph, &budget()).unwrap(), Dfa::empty());
    }

    #[test]
    fn epsilon_removal_stops_at_the_budget() {
        let nfa = Nfa::from_regex("(a?){200}").unwrap();
        let small = Budget::unlimited().with_max_memory(10_000);
        assert!(matches!(
            nfa.to_graph(&small),
            Err(BudgetError::TooMuchMemory { op: Operation::EpsilonRemoval, .. })
        ));
        let expired = Budget::unlimited().with_deadline(std::time::Instant::now());
        assert_eq!(
            nfa.to_graph(&expired),
            Err(BudgetError::Timeout { op: Operation::EpsilonRemoval })
        );
    }
}
