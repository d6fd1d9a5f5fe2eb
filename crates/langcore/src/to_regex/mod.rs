//! From an automaton back to a pattern: short, readable, and valid in our dialect and in
//! Python's `re`.
//!
//! # Overview
//! [`to_pattern`] is what [`Dfa::to_pattern`] delegates to. The files:
//! - `ast.rs`: the interned expression arena and the facts kept per node;
//! - `simplify.rs`: smart constructors that apply algebraic laws as they build;
//! - `eliminate.rs`: state elimination with cost-guided orders;
//! - `search.rs`: verified local search for shorter equivalent expressions;
//! - `render.rs`: printing, with escaping and the fewest parentheses.
//!
//! # Algorithm
//! 1. Minimize, trim (the dead state goes) and handle the empty language (`[]`).
//! 2. Build candidates by state elimination: on the minimal DFA and on the minimal DFA of the
//!    *reversed* language (its expression is then reversed back), each with several orders
//!    (two tie-breaks of Delgado and Morais' weight; trial removals for small automata). The
//!    reversed automaton is what turns `(a|b)*abb` into `[ab]*abb`: forwards, the minimal DFA
//!    of a suffix language has the KMP-like back edges that make elimination produce
//!    `b*a(a|b(…))*…`, while the reversed language `bba[ab]*` has a chain and one loop. The
//!    smaller automaton goes first, so the first candidate is the cheapest to get.
//! 3. Keep the shortest candidate, then improve it by verified rewrites (`search.rs`).
//! 4. Render it (`render.rs`).
//!
//! The cost is dominated by elimination, polynomial in the states when the edges stay small
//! and exponential in the worst case (that is the size of the shortest regex for some
//! automata); the extra candidates and the search only run while the budget allows.
//!
//! # Budgets
//! [`Operation::ToRegex`]. The reversed language's automaton gets a quarter of the time left
//! and is skipped past that. The first candidate must complete: if the deadline passes before
//! it does, the conversion fails, and if its rendering would exceed the memory limit, it
//! fails with [`BudgetError::TooMuchMemory`]. Afterwards every extra candidate is abandoned
//! once its edges grow past a size limit (a few times the best so far), and running out of
//! time returns the best pattern found so far. The search is capped at a number of checks.
//!
//! # Invariants
//! - The result parses in our dialect and denotes exactly the language of the DFA; its
//!   nesting stays within [`NEST_LIMIT`](crate::NEST_LIMIT) (otherwise the conversion fails
//!   with [`BudgetError::TooDeep`]).
//! - The result is a pure function of the language (the canonical minimal DFA), not of the
//!   DFA's numbering or of timing, except when the budget cuts the work short (a skipped
//!   reversal, a candidate or a search round left out).
//! - `[]` is the empty language (the contract's spelling, which Python's `re` rejects: a
//!   client must special-case it), the empty string is {""}.

mod ast;
mod eliminate;
mod escape;
mod render;
mod search;
mod simplify;

#[cfg(test)]
mod tests;

use std::time::Instant;

use rustc_hash::FxHashMap as HashMap;

use ast::{Exprs, NodeId};
use eliminate::{Gnfa, Order};
use search::Verifier;

use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::nfa::{Nfa, NfaBuilder, State};
use crate::syntax::NEST_LIMIT;

/// Trial-removal orders only run on automata with at most this many states.
const MAX_EXACT_ORDER_STATES: usize = 40;
/// The reversed language's automaton may take at most this fraction (1/n) of the time left:
/// it is an extra, and the elimination of the DFA itself must still have time.
const REVERSAL_SHARE: u32 = 4;
/// Once there is a candidate, automata this many times larger than the smallest are skipped.
const LARGER_AUTOMATON_FACTOR: usize = 4;
/// Extra candidates are abandoned once an edge is this many times the best size so far.
const SIZE_LIMIT_FACTOR: usize = 4;
/// The search checks at most this many candidates.
const MAX_SEARCH_CHECKS: usize = 400;
/// The search only runs on expressions up to this size: every round rebuilds the expression
/// once per node and rewrite, and it rarely pays off on large ones.
const MAX_SEARCH_SIZE: usize = 512;

/// A pattern for the language of `dfa`.
pub(crate) fn to_pattern(dfa: &Dfa, budget: &Budget) -> Result<String, BudgetError> {
    let minimal = dfa.minimize(budget)?;
    let Some(fragment) = Fragment::within(&minimal, budget, Operation::ToRegex)? else {
        return Ok("[]".to_owned());
    };
    let mut automata = vec![(fragment, false)];
    // The reversed language's automaton is only worth it when it is not much larger.
    let max_reversed_states = 2 * automata[0].0.n_states() + 16;
    if let Some(reversed) = reversed_fragment(&automata[0].0, budget, max_reversed_states)? {
        automata.push((reversed, true));
        automata.sort_by_key(|(fragment, _)| fragment.n_states());
    }
    let max_states = LARGER_AUTOMATON_FACTOR * automata[0].0.n_states() + 16;
    let mut exprs = Exprs::new();
    let mut best: Option<NodeId> = None;
    let mut out_of_time = None;
    'candidates: for (fragment, reversed) in automata {
        if best.is_some() && fragment.n_states() > max_states {
            continue;
        }
        let gnfa = Gnfa::new(&fragment, &mut exprs, budget)?;
        let mut orders =
            vec![Order::Weight { prefer_last: false }, Order::Weight { prefer_last: true }];
        if gnfa.n_inner() <= MAX_EXACT_ORDER_STATES {
            orders.push(Order::Exact);
        }
        for order in orders {
            let size_limit =
                best.map_or(usize::MAX, |best| exprs.size(best).saturating_mul(SIZE_LIMIT_FACTOR));
            let candidate = match gnfa.clone().eliminate(&mut exprs, order, budget, size_limit) {
                Ok(Some(candidate)) => candidate,
                Ok(None) => continue,
                Err(err) if best.is_some() => {
                    out_of_time = Some(err);
                    break 'candidates;
                }
                Err(err) => return Err(err),
            };
            let candidate = if reversed && exprs.info(candidate).depth <= 2 * NEST_LIMIT {
                exprs.reverse(candidate, &mut HashMap::default())
            } else if reversed {
                continue;
            } else {
                candidate
            };
            if best.is_none_or(|best| is_better(&exprs, candidate, best)) {
                best = Some(candidate);
            }
        }
    }
    let mut best = best.expect("the forward automaton always gives a candidate");
    if out_of_time.is_none()
        && exprs.size(best) <= MAX_SEARCH_SIZE
        && exprs.info(best).depth <= NEST_LIMIT
    {
        let mut verifier = Verifier::new(&minimal, budget);
        // Running out of time keeps the best expression found so far.
        let _ = search::improve(&mut exprs, &mut best, &mut verifier, MAX_SEARCH_CHECKS);
    }
    finish(&exprs, best, budget)
}

impl Dfa {
    /// A short pattern for the language, valid in our dialect and in Python's `re`.
    ///
    /// The pattern is found by state elimination on the minimal DFA (and on that of the
    /// reversed language) in several cost-guided orders, simplified algebraically and then by
    /// verified rewrites; the shortest wins. It is printable ASCII: metacharacters are
    /// escaped, other characters written `\xHH`, `\uHHHH` or `\UHHHHHHHH`, the full set
    /// `[\s\S]`, with plain groups and no anchors. The empty language is `[]` (which Python's
    /// `re` does not accept: callers special-case it) and {""} is the empty pattern.
    ///
    /// # Errors
    /// When the deadline of `budget` passes before a first pattern is found (later, the best
    /// pattern so far is returned instead), when the pattern would exceed the memory limit,
    /// or, for pathological automata, when it would nest deeper than the dialect allows
    /// ([`BudgetError::TooDeep`]).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// assert_eq!(Dfa::from_regex("(a|b)*abb")?.to_pattern(&budget)?, "[ab]*abb");
    /// let both = Dfa::from_regex("(abc|de|fg){2,}")?.intersection(&Dfa::from_regex("de.*")?, &budget)?;
    /// assert_eq!(both.to_pattern(&budget)?, "de(abc|de|fg)+");
    /// assert_eq!(Dfa::from_regex("[]")?.to_pattern(&budget)?, "[]");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pattern(&self, budget: &Budget) -> Result<String, BudgetError> {
        to_pattern(self, budget)
    }
}

/// The pattern of `best`, unless it nests too deep to be read back or is too large.
fn finish(exprs: &Exprs, best: NodeId, budget: &Budget) -> Result<String, BudgetError> {
    let info = exprs.info(best);
    if info.depth > NEST_LIMIT {
        return Err(BudgetError::TooDeep { op: Operation::ToRegex, limit: NEST_LIMIT });
    }
    budget.check_memory(Operation::ToRegex, info.size)?;
    Ok(render::render(exprs, best))
}

/// Whether `candidate` should replace `best`: within the nesting limit if possible, then
/// shorter, then with fewer groups.
fn is_better(exprs: &Exprs, candidate: NodeId, best: NodeId) -> bool {
    let key = |node: NodeId| {
        let info = exprs.info(node);
        (info.depth > NEST_LIMIT, info.size, info.groups)
    };
    key(candidate) < key(best)
}

/// The trimmed minimal DFA of the reversed language of `fragment`, or `None` when it would
/// have more than `max_states` states, exceed the memory limit or take more than its share
/// of the time left.
fn reversed_fragment(
    fragment: &Fragment,
    budget: &Budget,
    max_states: usize,
) -> Result<Option<Fragment>, BudgetError> {
    let mut capped = budget.with_max_states(max_states.min(budget.max_states()));
    if let Some(deadline) = budget.deadline() {
        let now = Instant::now();
        capped =
            capped.with_deadline(now + deadline.saturating_duration_since(now) / REVERSAL_SHARE);
    }
    match reversed_nfa(fragment, &capped).and_then(|nfa| Dfa::from_nfa(&nfa, &capped)) {
        Ok(reversed) => Fragment::within(&reversed, budget, Operation::ToRegex),
        Err(BudgetError::TooManyStates { .. } | BudgetError::TooMuchMemory { .. }) => Ok(None),
        // Out of its share of the time, but the elimination still has the rest.
        Err(BudgetError::Timeout { .. }) if budget.check_time(Operation::ToRegex).is_ok() => {
            Ok(None)
        }
        Err(err) => Err(err),
    }
}

/// The NFA of the reversed language of `fragment`: every move turned around, the old
/// accepting states as the entries and the old start as the only accepting state.
fn reversed_nfa(fragment: &Fragment, budget: &Budget) -> Result<Nfa, BudgetError> {
    let mut builder = NfaBuilder::new(budget, Operation::ToRegex);
    let mut ids = Vec::with_capacity(fragment.n_states());
    for idx in 0..fragment.n_states() {
        ids.push(builder.add(State { accepting: idx == 0, ..State::default() })?);
    }
    for idx in 0..fragment.n_states() {
        for (set, target) in fragment.moves(idx) {
            let label = builder.intern(set);
            builder.state_mut(ids[*target]).transitions.push((label, ids[idx]));
        }
    }
    let finals = (0..fragment.n_states())
        .filter(|&idx| fragment.is_accepting(idx))
        .map(|idx| ids[idx])
        .collect();
    let start = builder.add(State { epsilons: finals, ..State::default() })?;
    Ok(builder.finish(start))
}
