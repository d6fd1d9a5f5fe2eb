//! Products written from the operands' own automata: each state a pair of positions, one in
//! the operand's expression as written, one in the other operand's automaton.
//!
//! # Overview
//! The minimal DFA of `A − B` or `A ∩ B` merges states that the operands kept apart, and
//! with them the shape the operands were written in. `.*timed out after [0-9]+ ms.*` minus
//! "contains `Connection refused`" eliminated from its minimal DFA gives 3,112 characters;
//! the same elimination on the product of `A`'s automaton as written (its `.*` one state
//! with a loop) with the automaton of `¬B` gives the structure a person would write: the
//! loop of strings avoiding `Connection refused` (`[^C]*(C…)*`), the text of `A`, the loop
//! again. [`candidate`] builds that product and eliminates it.
//!
//! # Algorithm
//! The left operand's expression becomes an NFA (`search::build_nfa`) and then one
//! without ε-moves: its states are the start and the targets of labelled moves, each
//! standing for its ε-closure (accepting when the closure holds an accepting state, with
//! every labelled move of the closure). The right operand is, for an intersection, its own
//! expression's NFA alike, and for a difference the trimmed complement of its minimal DFA.
//! Their product is built breadth-first from the pairs of entries (a move for each pair of
//! moves whose labels meet, labelled by their common characters, merged per target),
//! trimmed to the pairs that can still accept, and eliminated (`eliminate.rs`) with the
//! weight orders, and with trial removals when it is small.
//!
//! # Budgets
//! [`Operation::ToRegex`]: the operands' NFAs are built under the budget, the deadline is
//! checked once per state of the automata without ε-moves and of the product, at most
//! [`MAX_STATES`] pairs (past them there is no candidate, which also bounds the labels
//! held), and eliminations are abandoned past the size limit the caller gives.
//!
//! # Invariants
//! The expression returned denotes exactly the product of the operands' languages (the
//! automata are exact); the caller (`product.rs`) still checks it against the result's
//! minimal DFA.

use std::collections::{BTreeMap, VecDeque};

use rustc_hash::FxHashMap as HashMap;

use super::ast::{Exprs, NodeId};
use super::eliminate::Gnfa;
use super::{MAX_EXACT_ORDER_STATES, search};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::nfa::{ClosureScratch, Nfa};
use crate::state_id::StateId;

/// Products with more pairs than this are not built: their elimination would cost more
/// than the minimal DFA's, which the caller has anyway.
const MAX_STATES: usize = 1024;

/// An automaton without ε-moves, its states numbered from 0.
#[derive(Debug, Default)]
struct Moves {
    entries: Vec<usize>,
    accepting: Vec<bool>,
    /// Per state, (label, target), one label per target.
    moves: Vec<Vec<(CharSet, usize)>>,
}

/// The operand that `left` is paired with.
pub(super) enum Other<'a> {
    /// An intersection's other operand, by its expression.
    Expr(NodeId),
    /// A difference's right operand, by its minimal DFA.
    Subtracted(&'a Dfa),
}

/// The product (`Other::Expr`: intersection; `Other::Subtracted`: difference) of the
/// language of `left` and `other`, eliminated from the automaton of their pairs; `None`
/// when it has more than [`MAX_STATES`] pairs or every order grows past `size_limit`.
pub(super) fn candidate(
    exprs: &mut Exprs,
    left: NodeId,
    other: Other<'_>,
    size_limit: usize,
    budget: &Budget,
) -> Result<Option<NodeId>, BudgetError> {
    let first = without_epsilons(&search::build_nfa(exprs, left, budget)?, budget)?;
    let second = match other {
        Other::Expr(right) => without_epsilons(&search::build_nfa(exprs, right, budget)?, budget)?,
        Other::Subtracted(dfa) => {
            match Fragment::within(&dfa.complement(budget)?, budget, Operation::ToRegex)? {
                Some(fragment) => of_fragment(&fragment),
                None => return Ok(Some(exprs.empty())),
            }
        }
    };
    let Some(paired) = product(&first, &second, budget)? else { return Ok(None) };
    let gnfa = Gnfa::with_moves(exprs, budget, &paired.entries, &paired.accepting, |idx| {
        paired.moves[idx].as_slice()
    })?;
    let mut best: Option<NodeId> = None;
    for order in gnfa.orders(MAX_EXACT_ORDER_STATES) {
        let limit = best.map_or(size_limit, |best| exprs.size(best));
        if let Some(node) = gnfa.clone().eliminate(exprs, order, budget, limit)?
            && best.is_none_or(|best| super::is_better(exprs, node, best))
        {
            best = Some(node);
        }
    }
    Ok(best)
}

/// `nfa` without ε-moves (see the module's documentation).
fn without_epsilons(nfa: &Nfa, budget: &Budget) -> Result<Moves, BudgetError> {
    let mut index: HashMap<StateId, usize> = HashMap::default();
    let mut roots = vec![nfa.start()];
    index.insert(nfa.start(), 0);
    let mut scratch = ClosureScratch::new(nfa.n_states());
    let mut closure = Vec::new();
    let mut out = Moves { entries: vec![0], ..Moves::default() };
    let mut at = 0;
    while at < roots.len() {
        budget.check_time(Operation::ToRegex)?;
        nfa.closure(&[roots[at]], &mut scratch, &mut closure);
        let mut targets: BTreeMap<usize, CharSet> = BTreeMap::new();
        let mut accepting = false;
        for &state_id in &closure {
            let state = nfa.state(state_id);
            accepting |= state.accepting;
            for &(label, target) in &state.transitions {
                let next = *index.entry(target).or_insert_with(|| {
                    roots.push(target);
                    roots.len() - 1
                });
                let set = targets.entry(next).or_insert_with(CharSet::empty);
                *set = set.union(nfa.label(label));
            }
        }
        out.accepting.push(accepting);
        out.moves.push(targets.into_iter().map(|(target, set)| (set, target)).collect());
        at += 1;
    }
    Ok(out)
}

/// The moves of a trimmed DFA.
fn of_fragment(fragment: &Fragment) -> Moves {
    Moves {
        entries: vec![0],
        accepting: (0..fragment.n_states()).map(|idx| fragment.is_accepting(idx)).collect(),
        moves: (0..fragment.n_states()).map(|idx| fragment.moves(idx).to_vec()).collect(),
    }
}

/// The product of `first` and `second` (pairs accepting where both do), trimmed to the pairs
/// reachable from the entries that can reach an accepting pair; `None` past [`MAX_STATES`].
fn product(first: &Moves, second: &Moves, budget: &Budget) -> Result<Option<Moves>, BudgetError> {
    let mut index: HashMap<(usize, usize), usize> = HashMap::default();
    let mut pairs = Vec::new();
    let mut queue = VecDeque::new();
    let mut entries = Vec::new();
    for &a in &first.entries {
        for &b in &second.entries {
            index.insert((a, b), pairs.len());
            entries.push(pairs.len());
            pairs.push((a, b));
            queue.push_back(pairs.len() - 1);
        }
    }
    let mut moves: Vec<Vec<(CharSet, usize)>> = Vec::new();
    while let Some(at) = queue.pop_front() {
        budget.check_time(Operation::ToRegex)?;
        let (a, b) = pairs[at];
        let mut targets: BTreeMap<usize, CharSet> = BTreeMap::new();
        for (left, next_a) in &first.moves[a] {
            for (right, next_b) in &second.moves[b] {
                let common = left.intersection(right);
                if common.is_empty() {
                    continue;
                }
                let next = match index.get(&(*next_a, *next_b)) {
                    Some(&next) => next,
                    None => {
                        if pairs.len() == MAX_STATES {
                            return Ok(None);
                        }
                        index.insert((*next_a, *next_b), pairs.len());
                        pairs.push((*next_a, *next_b));
                        queue.push_back(pairs.len() - 1);
                        pairs.len() - 1
                    }
                };
                let set = targets.entry(next).or_insert_with(CharSet::empty);
                *set = set.union(&common);
            }
        }
        if moves.len() <= at {
            moves.resize(at + 1, Vec::new());
        }
        moves[at] = targets.into_iter().map(|(target, set)| (set, target)).collect();
    }
    moves.resize(pairs.len(), Vec::new());
    let accepting: Vec<bool> =
        pairs.iter().map(|&(a, b)| first.accepting[a] && second.accepting[b]).collect();
    Ok(Some(trim(Moves { entries, accepting, moves })))
}

/// `moves` without the states that cannot reach an accepting state, renumbered.
fn trim(moves: Moves) -> Moves {
    let n = moves.accepting.len();
    let mut into: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (from, out) in moves.moves.iter().enumerate() {
        for &(_, to) in out {
            into[to].push(from);
        }
    }
    let mut alive = moves.accepting.clone();
    let mut stack: Vec<usize> = (0..n).filter(|&state| alive[state]).collect();
    while let Some(state) = stack.pop() {
        for &from in &into[state] {
            if !alive[from] {
                alive[from] = true;
                stack.push(from);
            }
        }
    }
    let mut renumber = vec![usize::MAX; n];
    let mut kept = 0;
    for state in 0..n {
        if alive[state] {
            renumber[state] = kept;
            kept += 1;
        }
    }
    let keep = |state: &usize| alive[*state];
    Moves {
        entries: moves.entries.iter().filter(|s| keep(s)).map(|&s| renumber[s]).collect(),
        accepting: (0..n).filter(keep).map(|s| moves.accepting[s]).collect(),
        moves: (0..n)
            .filter(keep)
            .map(|s| {
                moves.moves[s]
                    .iter()
                    .filter(|(_, to)| alive[*to])
                    .map(|(set, to)| (set.clone(), renumber[*to]))
                    .collect()
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;
    use proptest::prelude::*;

    use super::*;
    use crate::dialect::Dialect;
    use crate::to_regex::render::render;
    use crate::to_regex::structure::build_hir;

    /// The expression of `pattern`, as the structural candidate builds it.
    fn expr(exprs: &mut Exprs, pattern: &str, budget: &Budget) -> NodeId {
        let hir = crate::syntax::parse(pattern, budget).unwrap();
        build_hir(exprs, &hir, budget).unwrap()
    }

    /// The paired candidate of `left ∩ right` (`difference`: `left − right`) rendered, and
    /// the product's minimal DFA.
    fn paired(left: &str, right: &str, difference: bool) -> (Option<String>, Dfa) {
        let budget = Budget::default();
        let mut exprs = Exprs::new(Dialect::Rust);
        let node = expr(&mut exprs, left, &budget);
        let (left_dfa, right_dfa) =
            (Dfa::from_regex(left).unwrap(), Dfa::from_regex(right).unwrap());
        let (other, expected) = if difference {
            (Other::Subtracted(&right_dfa), left_dfa.difference(&right_dfa, &budget).unwrap())
        } else {
            let other = expr(&mut exprs, right, &budget);
            (Other::Expr(other), left_dfa.intersection(&right_dfa, &budget).unwrap())
        };
        let candidate = candidate(&mut exprs, node, other, 1 << 16, &budget).unwrap();
        (candidate.map(|node| render(&exprs, node)), expected)
    }

    /// Literals and counted parts over `a`, `b`, `x`, some with gaps `.*` around them.
    fn operand() -> impl Strategy<Value = String> {
        let piece =
            prop::sample::select(vec!["a", "ab", "ba", "b{2}", "[ab]x", "x?a", "[ax]{3}", ".*"]);
        prop::collection::vec(piece, 1..5).prop_map(|pieces| pieces.concat())
    }

    proptest! {
        /// The candidate is the product itself, before any check.
        #[test]
        fn the_pairs_are_the_product(left in operand(), right in operand(), difference: bool) {
            let (candidate, expected) = paired(&left, &right, difference);
            let output = candidate.expect("small operands have a candidate");
            prop_assert_eq!(Dfa::from_regex(&output).unwrap(), expected, "{}", output);
        }
    }

    /// "Contains X and not Y" keeps the loop that avoids Y around X's text, where the
    /// minimal DFA's elimination writes X's progress into every branch.
    #[test]
    fn a_difference_keeps_the_left_text() {
        let (candidate, expected) = paired(".*timed out.*", ".*refused.*", true);
        let output = candidate.unwrap();
        assert_eq!(Dfa::from_regex(&output).unwrap(), expected);
        assert!(output.contains("timed out"), "{output}");
        let eliminated = expected.to_pattern(&Budget::default()).unwrap();
        assert!(output.len() < eliminated.len(), "{output} against {eliminated}");
        expect!["([^r]|r(e?r|ef(u?r|use?r))*([^er]|e[^fr]|ef([^ru]|u[^rs]|us([^er]|e[^dr]))))*(r(e?r|ef(u?r|use?r))*(e?t|ef(u?t|use?t))imed out|timed out)([^r]|r(e?r|ef(u?r|use?r))*([^er]|e[^fr]|ef([^ru]|u[^rs]|us([^er]|e[^dr]))))*(r(e?r|ef(u?r|use?r))*(e?|ef(u?|use?)))?"]
        .assert_eq(&output);
    }

    /// Products past the pairs' limit have no candidate.
    #[test]
    fn large_products_are_left_to_the_automaton() {
        let (candidate, _) = paired("[ab]{1100}", "[ab]*", false);
        assert_eq!(candidate, None);
    }

    /// An empty difference is the empty expression.
    #[test]
    fn nothing_left_is_empty() {
        let (candidate, expected) = paired("ab", ".*", true);
        assert_eq!(candidate.as_deref(), Some("[]"));
        assert_eq!(expected, Dfa::empty());
    }
}
