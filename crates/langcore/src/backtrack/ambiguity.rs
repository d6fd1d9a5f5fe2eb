//! The degree of ambiguity of the position automaton: how many ways the engine has to read
//! a string, which is the work it does when the match then fails.
//!
//! # Algorithm
//! Weber and Seidl ("On the degree of ambiguity of finite automata", TCS 1991):
//! - *EDA*: the number of paths grows exponentially iff some state q has two different
//!   cycles reading the same word: in the pair automaton (moves in step on a common
//!   character) one strongly connected component holds (q, q) and a pair (p, r), p ≠ r.
//! - *IDA*: otherwise it grows like n^k, k the longest chain of components C1 … Ck+1 with,
//!   between each two, states p ≠ q and a word v with p →v p, p →v q, q →v q (a triple
//!   (p, p, q) reaching (p, q, q) in the triple automaton).
//!
//! Both are tested first for a whole component (pair) at once: the EDA by the components
//! of the pair automaton from every (q, q), the IDA by keeping only the pairs (p, q) on a
//! cycle of the pairs moving inside the two components (p →v p and q →v q in step); the
//! searches for the pump's word then start from the one state or the pairs kept.
//!
//! A backtracking engine that fails tries every path of every prefix, so its time is the
//! number of paths times their length: exponential under EDA, n^(k+1) under a chain of k
//! IDA links, linear otherwise.
//!
//! # Budgets
//! Pairs and triples, over all the searches of one analysis, count as states of
//! [`Operation::Backtracking`], at most [`MAX_TUPLES`] of them; the deadline is checked at
//! each one.

use std::cell::Cell;
use std::collections::{HashMap, VecDeque};

use super::positions::{Move, Positions};
use crate::alphabet::CharSet;
use crate::budget::{Budget, Operation};
use crate::error::Error;

/// What drives the growth, and where.
#[derive(Clone, Debug)]
pub(super) enum Growth {
    Linear,
    /// `pump` read from `entry` has exponentially many paths back to `entry`.
    Exponential {
        entry: usize,
        pump: Vec<CharSet>,
        hotspot: Vec<usize>,
    },
    /// A chain of `links` IDA links; the first starts at `entry` and pumps `pump`.
    Polynomial {
        links: u32,
        entry: usize,
        pump: Vec<CharSet>,
        hotspot: Vec<usize>,
    },
}

impl Growth {
    /// The time exponent: 1 linear, k + 1 for k links, `None` for exponential.
    pub(super) fn rank(&self) -> Option<u32> {
        match self {
            Growth::Linear => Some(1),
            Growth::Polynomial { links, .. } => Some(links + 1),
            Growth::Exponential { .. } => None,
        }
    }
}

/// Which moves of the automaton an analysis reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reading {
    /// The exact moves: paths the engine takes (a lower bound).
    Exact,
    /// The moves exact where no lookahead body's run succeeds: paths it takes on a text
    /// where none does.
    WithBodies,
    /// Every move: a bound the engine cannot exceed.
    All,
}

/// The automaton's moves as the analysis sees them.
pub(super) struct View<'a> {
    pub(super) positions: &'a Positions,
    pub(super) reading: Reading,
}

impl View<'_> {
    pub(super) fn moves(&self, state: usize) -> impl Iterator<Item = &Move> + '_ {
        let reading = self.reading;
        self.positions.moves[state].iter().filter(move |mv| match reading {
            Reading::Exact => mv.exact,
            Reading::WithBodies => mv.body_exact,
            Reading::All => true,
        })
    }
}

/// The growth of the paths of `view` from state 0.
///
/// # Errors
/// [`Error::Budget`] when the pairs or triples exceed `budget`.
pub(super) fn growth(view: &View<'_>, budget: &Budget) -> Result<Growth, Error> {
    let n_states = view.positions.n_states();
    let work = Cell::new(0);
    let reachable = reachable_from(view, 0);
    let succ = |state: usize| -> Vec<usize> {
        if !reachable[state] {
            return Vec::new();
        }
        view.moves(state).map(|mv| mv.target).collect()
    };
    let comp = components(n_states, succ);
    let n_comps = comp.iter().copied().max().map_or(0, |max| max + 1);
    let mut members = vec![Vec::new(); n_comps];
    for state in (0..n_states).filter(|&state| reachable[state]) {
        members[comp[state]].push(state);
    }
    let cyclic: Vec<bool> = members
        .iter()
        .map(|states| states.iter().any(|&s| view.moves(s).any(|mv| comp[mv.target] == comp[s])))
        .collect();
    for (idx, states) in members.iter().enumerate() {
        if cyclic[idx]
            && let Some(found) = exponential(view, &comp, idx, states, budget, &work)?
        {
            return Ok(found);
        }
    }
    // IDA links between cyclic components, then the longest chain. Tarjan numbers a
    // component after every component it reaches, so higher numbers come first.
    let mut longest: Vec<(u32, Option<Link>)> = vec![(0, None); n_comps];
    for from in 0..n_comps {
        if !cyclic[from] {
            continue;
        }
        let below = reachable_comps(view, &comp, &members[from], n_comps);
        for to in (0..from).filter(|&to| cyclic[to] && below[to]) {
            if longest[to].0 < longest[from].0 {
                continue;
            }
            if let Some((entry, pump, hotspot)) =
                link(view, &comp, &members[from], &members[to], budget, &work)?
            {
                longest[from] = (longest[to].0 + 1, Some((entry, pump, hotspot)));
            }
        }
    }
    let best = longest.into_iter().filter(|(links, _)| *links > 0).max_by_key(|(links, _)| *links);
    Ok(match best {
        Some((links, Some((entry, pump, hotspot)))) => {
            Growth::Polynomial { links, entry, pump, hotspot }
        }
        _ => Growth::Linear,
    })
}

/// The states reachable from `start`.
pub(super) fn reachable_from(view: &View<'_>, start: usize) -> Vec<bool> {
    let mut seen = vec![false; view.positions.n_states()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(state) = stack.pop() {
        for mv in view.moves(state) {
            if !seen[mv.target] {
                seen[mv.target] = true;
                stack.push(mv.target);
            }
        }
    }
    seen
}

/// The components reachable from the states of one.
fn reachable_comps(view: &View<'_>, comp: &[usize], states: &[usize], n_comps: usize) -> Vec<bool> {
    let mut seen = vec![false; view.positions.n_states()];
    let mut res = vec![false; n_comps];
    let mut stack: Vec<usize> = states.to_vec();
    for &state in states {
        seen[state] = true;
    }
    while let Some(state) = stack.pop() {
        res[comp[state]] = true;
        for mv in view.moves(state) {
            if !seen[mv.target] {
                seen[mv.target] = true;
                stack.push(mv.target);
            }
        }
    }
    res
}

/// Strongly connected components (Tarjan, iterative): each state's component number,
/// a component numbered after every component it reaches.
pub(super) fn components(n_nodes: usize, succ: impl Fn(usize) -> Vec<usize>) -> Vec<usize> {
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; n_nodes];
    let mut low = vec![0; n_nodes];
    let mut on_stack = vec![false; n_nodes];
    let mut comp = vec![UNSEEN; n_nodes];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut n_comps = 0;
    for root in 0..n_nodes {
        if index[root] != UNSEEN {
            continue;
        }
        let mut frames: Vec<(usize, Vec<usize>, usize)> = vec![(root, succ(root), 0)];
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some((node, targets, at)) = frames.last_mut() {
            let node = *node;
            if let Some(&target) = targets.get(*at) {
                *at += 1;
                if index[target] == UNSEEN {
                    index[target] = next_index;
                    low[target] = next_index;
                    next_index += 1;
                    stack.push(target);
                    on_stack[target] = true;
                    let targets = succ(target);
                    frames.push((target, targets, 0));
                } else if on_stack[target] {
                    low[node] = low[node].min(index[target]);
                }
                continue;
            }
            frames.pop();
            if let Some((parent, _, _)) = frames.last() {
                low[*parent] = low[*parent].min(low[node]);
            }
            if low[node] == index[node] {
                while let Some(member) = stack.pop() {
                    on_stack[member] = false;
                    comp[member] = n_comps;
                    if member == node {
                        break;
                    }
                }
                n_comps += 1;
            }
        }
    }
    comp
}

/// The most pairs and triples one analysis makes (fewer when the budget's state limit is
/// lower): past them the degree is unknown, which keeps the analysis within tens of
/// milliseconds (docs/benchmarks.md).
pub(super) const MAX_TUPLES: usize = 100_000;

/// One more pair or triple made: the same limit as any other count of states, and at most
/// [`MAX_TUPLES`] in all.
fn count_tuple(budget: &Budget, work: &Cell<usize>) -> Result<(), Error> {
    work.set(work.get() + 1);
    let seen = work.get().max(work.get() * budget.max_states() / MAX_TUPLES);
    budget.check_states(Operation::Backtracking, seen)?;
    Ok(())
}

/// An IDA link: the state it starts from, its word, and the states its paths take.
type Link = (usize, Vec<CharSet>, Vec<usize>);

/// A node of a [`TupleSearch`]: the tuple, and its parent with the label read from it.
type TupleNode<const N: usize> = ([u32; N], Option<(usize, CharSet)>);

/// A breadth-first search over tuples of states moving in step, with the labels read:
/// from `starts` to the first tuple `is_goal` accepts; `None` if none is reached.
struct TupleSearch<'b, const N: usize> {
    index: HashMap<[u32; N], usize>,
    nodes: Vec<TupleNode<N>>,
    budget: &'b Budget,
    /// Tuples made by every search of the analysis so far: the state limit bounds them all.
    work: &'b Cell<usize>,
}

impl<'b, const N: usize> TupleSearch<'b, N> {
    fn new(budget: &'b Budget, work: &'b Cell<usize>) -> Self {
        TupleSearch { index: HashMap::new(), nodes: Vec::new(), budget, work }
    }

    fn add(
        &mut self,
        tuple: [u32; N],
        parent: Option<(usize, CharSet)>,
    ) -> Result<Option<usize>, Error> {
        if self.index.contains_key(&tuple) {
            return Ok(None);
        }
        let id = self.nodes.len();
        count_tuple(self.budget, self.work)?;
        self.index.insert(tuple, id);
        self.nodes.push((tuple, parent));
        Ok(Some(id))
    }

    /// The labels read from the start to node `id`.
    fn word(&self, mut id: usize) -> Vec<CharSet> {
        let mut res = Vec::new();
        while let Some((parent, label)) = &self.nodes[id].1 {
            res.push(label.clone());
            id = *parent;
        }
        res.reverse();
        res
    }

    /// Breadth first from `starts`, stepping with `step`, to the first goal.
    fn run(
        &mut self,
        starts: &[[u32; N]],
        step: impl Fn(&[u32; N]) -> Vec<([u32; N], CharSet)>,
        is_goal: impl Fn(&[u32; N]) -> bool,
    ) -> Result<Option<usize>, Error> {
        let mut queue = VecDeque::new();
        for &start in starts {
            if let Some(id) = self.add(start, None)? {
                queue.push_back(id);
            }
        }
        while let Some(id) = queue.pop_front() {
            let tuple = self.nodes[id].0;
            for (next, label) in step(&tuple) {
                if let Some(next_id) = self.add(next, Some((id, label)))? {
                    if is_goal(&next) {
                        return Ok(Some(next_id));
                    }
                    queue.push_back(next_id);
                }
            }
        }
        Ok(None)
    }

    /// The tuples on the path to node `id`.
    fn path(&self, mut id: usize) -> Vec<[u32; N]> {
        let mut res = vec![self.nodes[id].0];
        while let Some((parent, _)) = &self.nodes[id].1 {
            id = *parent;
            res.push(self.nodes[id].0);
        }
        res
    }
}

/// The moves of `state` that stay in component `within`.
fn moves_within<'v>(
    view: &'v View<'_>,
    comp: &'v [usize],
    state: usize,
    within: usize,
) -> impl Iterator<Item = &'v Move> + 'v {
    view.moves(state).filter(move |mv| comp[mv.target] == within)
}

/// An EDA in component `idx`: a state with two different cycles reading the same word,
/// found as (q, q, apart) reachable from (q, q, together) in step inside the component
/// (the two paths are apart once they took different moves, parallel ones included: a
/// loop inside a loop gives the same move twice, `(a+)+`).
fn exponential(
    view: &View<'_>,
    comp: &[usize],
    idx: usize,
    states: &[usize],
    budget: &Budget,
    work: &Cell<usize>,
) -> Result<Option<Growth>, Error> {
    let step = |node: &[u32; 3]| -> Vec<([u32; 3], CharSet)> {
        let mut res = Vec::new();
        for left in moves_within(view, comp, node[0] as usize, idx) {
            for right in moves_within(view, comp, node[1] as usize, idx) {
                let label = left.label.intersection(&right.label);
                if !label.is_empty() {
                    let apart = node[2] == 1 || left.id != right.id || node[0] != node[1];
                    res.push(([left.target as u32, right.target as u32, u32::from(apart)], label));
                }
            }
        }
        res
    };
    let Some(entry) = exponential_entry(view, comp, idx, states, budget, work)? else {
        return Ok(None);
    };
    // The cycles themselves, for the attack: a search from that state only.
    let mut search = TupleSearch::<3>::new(budget, work);
    let (start, goal) = ([entry as u32, entry as u32, 0], [entry as u32, entry as u32, 1]);
    let Some(home) = search.run(&[start], step, |next| *next == goal)? else {
        return Ok(None);
    };
    let pump = search.word(home);
    let mut hotspot: Vec<usize> =
        search.path(home).iter().flat_map(|node| [node[0] as usize, node[1] as usize]).collect();
    hotspot.sort_unstable();
    hotspot.dedup();
    Ok(Some(Growth::Exponential { entry, pump, hotspot }))
}

/// The pairs of states moving in step, the left one inside one component and the right one
/// inside another (or the same), reached from some start pairs.
struct PairGraph {
    pairs: Vec<(usize, usize)>,
    /// Per pair, its successors, and whether the move there is made by two different moves.
    edges: Vec<Vec<(usize, bool)>>,
    /// Per pair, its strongly connected component.
    comp: Vec<usize>,
}

impl PairGraph {
    fn build(
        view: &View<'_>,
        comp: &[usize],
        (left_comp, right_comp): (usize, usize),
        starts: &[(usize, usize)],
        budget: &Budget,
        work: &Cell<usize>,
    ) -> Result<PairGraph, Error> {
        let mut index: HashMap<(usize, usize), usize> = HashMap::new();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut edges: Vec<Vec<(usize, bool)>> = Vec::new();
        let mut add = |pair: (usize, usize), pairs: &mut Vec<_>, edges: &mut Vec<Vec<_>>| {
            if let Some(&node) = index.get(&pair) {
                return Ok(node);
            }
            count_tuple(budget, work)?;
            index.insert(pair, pairs.len());
            pairs.push(pair);
            edges.push(Vec::new());
            Ok::<usize, Error>(pairs.len() - 1)
        };
        for &start in starts {
            add(start, &mut pairs, &mut edges)?;
        }
        let mut at = 0;
        while at < pairs.len() {
            budget.check_time(Operation::Backtracking)?;
            let (left_state, right_state) = pairs[at];
            for left in moves_within(view, comp, left_state, left_comp) {
                for right in moves_within(view, comp, right_state, right_comp) {
                    if !left.label.intersection(&right.label).is_empty() {
                        let next = add((left.target, right.target), &mut pairs, &mut edges)?;
                        edges[at].push((next, left.id != right.id));
                    }
                }
            }
            at += 1;
        }
        let comp = components(pairs.len(), |node| edges[node].iter().map(|&(to, _)| to).collect());
        Ok(PairGraph { pairs, edges, comp })
    }

    /// Whether pair `node` is on a cycle.
    fn cyclic(&self, node: usize) -> bool {
        self.edges[node].iter().any(|&(to, _)| self.comp[to] == self.comp[node])
    }
}

/// A state of component `idx` with two different cycles on one word, if any: in the
/// automaton of pairs moving in step inside the component, from the pairs (q, q), a
/// component that holds some (q, q) and also a pair apart, or a move between two (q, q)
/// made by two different moves (Weber and Seidl's EDA test, one search for the whole
/// component instead of one per state).
fn exponential_entry(
    view: &View<'_>,
    comp: &[usize],
    idx: usize,
    states: &[usize],
    budget: &Budget,
    work: &Cell<usize>,
) -> Result<Option<usize>, Error> {
    let diagonal: Vec<(usize, usize)> = states.iter().map(|&state| (state, state)).collect();
    let graph = PairGraph::build(view, comp, (idx, idx), &diagonal, budget, work)?;
    let mut apart = vec![false; graph.pairs.len()];
    for (node, &(left, right)) in graph.pairs.iter().enumerate() {
        let same = graph.comp[node];
        let twice = |&(to, different): &(usize, bool)| different && graph.comp[to] == same;
        if left != right || graph.edges[node].iter().any(twice) {
            apart[same] = true;
        }
    }
    Ok(graph
        .pairs
        .iter()
        .enumerate()
        .find(|&(node, &(left, right))| left == right && apart[graph.comp[node]])
        .map(|(_, &(state, _))| state))
}

/// An IDA link from a state of `from` to a state of `to`: its start, word and states.
fn link(
    view: &View<'_>,
    comp: &[usize],
    from: &[usize],
    to: &[usize],
    budget: &Budget,
    work: &Cell<usize>,
) -> Result<Option<Link>, Error> {
    let (from_comp, to_comp) = (comp[from[0]], comp[to[0]]);
    let step = |triple: &[u32; 3]| -> Vec<([u32; 3], CharSet)> {
        let mut res = Vec::new();
        for first in moves_within(view, comp, triple[0] as usize, from_comp) {
            for middle in view.moves(triple[1] as usize) {
                let label = first.label.intersection(&middle.label);
                if label.is_empty() {
                    continue;
                }
                for last in moves_within(view, comp, triple[2] as usize, to_comp) {
                    let label = label.intersection(&last.label);
                    if !label.is_empty() {
                        res.push((
                            [first.target as u32, middle.target as u32, last.target as u32],
                            label,
                        ));
                    }
                }
            }
        }
        res
    };
    // The loops p →v p and q →v q read v's first character from p and q and its last into
    // them: a pair whose characters cannot agree needs no search. Nor one that is not on a
    // cycle of the pairs moving inside the two components, found for all pairs at once.
    let (ends_from, ends_to) = (loop_ends(view, comp, from), loop_ends(view, comp, to));
    let mut candidates = Vec::new();
    for (&p, (p_out, p_in)) in from.iter().zip(&ends_from) {
        for (&q, (q_out, q_in)) in to.iter().zip(&ends_to) {
            if !p_out.intersection(q_out).is_empty() && !p_in.intersection(q_in).is_empty() {
                candidates.push((p, q));
            }
        }
    }
    let graph = PairGraph::build(view, comp, (from_comp, to_comp), &candidates, budget, work)?;
    for (node, &(p, q)) in candidates.iter().enumerate() {
        if !graph.cyclic(node) {
            continue;
        }
        budget.check_time(Operation::Backtracking)?;
        let mut search = TupleSearch::<3>::new(budget, work);
        let start = [p as u32, p as u32, q as u32];
        let goal = [p as u32, q as u32, q as u32];
        if let Some(end) = search.run(&[start], step, |next| *next == goal)? {
            let pump = search.word(end);
            let mut hotspot: Vec<usize> =
                search.path(end).iter().flatten().map(|&s| s as usize).collect();
            hotspot.sort_unstable();
            hotspot.dedup();
            return Ok(Some((p, pump, hotspot)));
        }
    }
    Ok(None)
}

/// Per state of `states` (one component), the characters of its moves within the
/// component and of the moves into it from the component.
fn loop_ends(view: &View<'_>, comp: &[usize], states: &[usize]) -> Vec<(CharSet, CharSet)> {
    let mut res = vec![(CharSet::empty(), CharSet::empty()); states.len()];
    let at: HashMap<usize, usize> = states.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    for (from, &state) in states.iter().enumerate() {
        for mv in moves_within(view, comp, state, comp[state]) {
            res[from].0 = res[from].0.union(&mv.label);
            if let Some(&to) = at.get(&mv.target) {
                res[to].1 = res[to].1.union(&mv.label);
            }
        }
    }
    res
}

/// Whether some path of `view` from state 0 has a cycle.
pub(super) fn has_cycle(view: &View<'_>) -> bool {
    let reachable = reachable_from(view, 0);
    let succ = |state: usize| -> Vec<usize> {
        if !reachable[state] {
            return Vec::new();
        }
        view.moves(state).map(|mv| mv.target).collect()
    };
    let comp = components(view.positions.n_states(), succ);
    (0..view.positions.n_states())
        .filter(|&state| reachable[state])
        .any(|state| view.moves(state).any(|mv| comp[mv.target] == comp[state]))
}
