//! From an automaton, or from how a language was built, back to a pattern: short, readable,
//! and exact in the output [`Dialect`].
//!
//! # Overview
//! [`to_pattern`] is what [`Dfa::to_pattern_in`] (here) delegates to, [`term_to_pattern`] what
//! `Language::to_pattern_in` does. The files:
//! - `ast.rs`: the interned expression arena and the facts kept per node;
//! - `simplify.rs`: smart constructors that apply algebraic laws as they build;
//! - `eliminate.rs`: state elimination with cost-guided orders;
//! - `structure.rs`: the expression of a term as built (patterns, unions, ...);
//! - `product.rs`: intersections and differences read off their operands' expressions;
//! - `gaps.rs`: products of patterns with `.*` gaps, as the interleavings of their segments;
//! - `paired.rs`: products eliminated from the pairs of their operands' own automata;
//! - `lookahead.rs`: in dialects with lookaround, products as a lookahead and a pattern;
//! - `search.rs`: verified local search for shorter equivalent expressions;
//! - `class.rs`: the shortest spelling of a character set in a dialect;
//! - `render.rs`: printing, with the fewest parentheses.
//!
//! # Algorithm
//! From an automaton:
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
//! From a term (a `Language` not built from an automaton), the candidates are, shortest
//! first: the structural expression (`structure.rs`: the pattern itself normalized, `A|B`
//! for a union, and so on, automaton leaves eliminated), which is linear to get; for an
//! intersection or difference, the candidate read off its operands' expressions
//! (`product.rs`, checked against the result's DFA; without one, the result is an
//! automaton leaf); the elimination of the whole language's minimal DFA, abandoned once it
//! grows past a few times the structural candidate, within a share of the time left and
//! when the automaton is small for the bound ([`MAX_ELIMINATION_WORK`]), both improved by
//! the search before they compete ([`compete`]: an elimination a little longer may improve
//! to shorter); and in our dialect the pattern text as given, when it is plain Rust `regex`
//! syntax in printable ASCII. So a pattern never comes back longer than it was sent, a
//! product never longer than its automaton gives (time permitting), and a language whose
//! automaton is too large to eliminate (or to build) still gets a pattern.
//!
//! In a dialect with lookaround, an intersection or difference of two operands also gets
//! the candidate `(?=(?:A)$)(?:B)` or `(?!(?:B)$)(?:A)` (`lookahead.rs`): written first,
//! so that the classic candidates are sought only up to its length, and checked last,
//! only when shorter than the classic form, which wins a tie (checking builds the
//! lookahead's automaton, in JavaScript over code units: seconds for an empty product).
//!
//! A pattern written for another dialect enters as its parse tree after that dialect's
//! reading (classes, case folding, possessive quantifiers, edge anchors all resolved), so
//! its structural candidate is printed in any output dialect. Its text as written is not
//! a candidate, even in its own dialect: other engines' `\w`, `\d`, properties and case
//! folding follow their own Unicode tables, which the output does not rely on (`class.rs`).
//! A pattern with lookaround left after the reading has only its automaton: the expression
//! AST has no lookaround, and our dialect none.
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
//! time returns the best pattern found so far. The search is capped at a number of checks
//! and at a number of DFA states built by them, a multiple of the target's, and the
//! searches of one conversion together at about the conversion's own work (`search.rs`).
//! For a term, the whole language's automaton and its elimination get half of the time
//! left, and any failure there keeps the structural candidate.
//!
//! The budget's pattern limit ([`Budget::with_max_pattern`]) bounds every elimination
//! without a bound of its own, so a conversion stops once its expressions grow past it, and
//! a pattern longer than it is never returned: both fail with
//! [`BudgetError::PatternTooLong`].
//!
//! # Invariants
//! - The result parses in our dialect and denotes exactly the language, read in the output
//!   dialect; its nesting stays within [`NEST_LIMIT`](crate::NEST_LIMIT) (otherwise the
//!   conversion fails with [`BudgetError::TooDeep`]).
//! - The result is a pure function of the language (the canonical minimal DFA) and the
//!   dialect when converted from an automaton, and of the term when converted from a term,
//!   except when the budget cuts the work short (a skipped reversal, a candidate or a
//!   search round left out).
//! - `[]` is the empty language (the contract's spelling in every dialect, which Python's
//!   `re` rejects: a client must special-case it), the empty string is {""}.

mod ast;
mod class;
mod eliminate;
mod gaps;
mod lookahead;
mod paired;
mod product;
mod render;
mod search;
mod simplify;
mod structure;
#[cfg(test)]
mod tests;

use std::time::Instant;

use rustc_hash::FxHashMap as HashMap;

use ast::{Exprs, NodeId};
use eliminate::Gnfa;
use lookahead::Lookaheads;
use search::Searches;
pub(crate) use structure::Shape;

use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::dialect::Dialect;
use crate::error::Error;
use crate::nfa::{Nfa, NfaBuilder, State};
use crate::syntax::NEST_LIMIT;
use crate::witness::BoolOp;

/// Trial-removal orders only run on automata with at most this many states.
const MAX_EXACT_ORDER_STATES: usize = 40;
/// The reversed language's automaton may take at most this fraction (1/n) of the time left:
/// it is an extra, and the elimination of the DFA itself must still have time.
const REVERSAL_SHARE: u32 = 4;
/// A term's whole automaton and its elimination may take this fraction (1/n) of the time
/// left: the structural candidate is there already.
const ELIMINATION_SHARE: u32 = 2;
/// A term's automaton is only eliminated when its states times the size to beat are at most
/// this: elimination builds edges up to that size for about every state, so past it (a
/// long literal, say) it costs far more than the structural candidate and rarely wins.
pub(super) const MAX_ELIMINATION_WORK: usize = 1 << 20;
/// How many times the states of a minimal DFA its subset construction may take, when the
/// construction is only worth it for a minimal DFA of a given size.
const SUBSET_SLACK: usize = 8;
/// Once there is a candidate, automata this many times larger than the smallest are skipped.
const LARGER_AUTOMATON_FACTOR: usize = 4;
/// Extra candidates are abandoned once an edge is this many times the best size so far.
const SIZE_LIMIT_FACTOR: usize = 4;
/// The search checks at most this many candidates.
const MAX_SEARCH_CHECKS: usize = 400;
/// The search only runs on expressions up to this size: every round rebuilds the expression
/// once per node and rewrite, and it rarely pays off on large ones.
const MAX_SEARCH_SIZE: usize = 512;

/// A pattern for the language of `dfa`, in `dialect`.
pub(crate) fn to_pattern(
    dfa: &Dfa,
    dialect: Dialect,
    budget: &Budget,
) -> Result<String, BudgetError> {
    let minimal = dfa.minimize(budget)?;
    let mut exprs = Exprs::new(dialect);
    let eliminated = eliminate(&minimal, &mut exprs, budget, None)?.ok_or(too_long(budget))?;
    let mut best = eliminated.node;
    if eliminated.complete {
        improve(&mut exprs, &mut best, &mut Searches::new(&minimal, budget));
    }
    finish(&exprs, best, budget)
}

impl Dfa {
    /// A short pattern for the language, exact in our dialect (the contract's).
    ///
    /// The pattern is found by state elimination on the minimal DFA (and on that of the
    /// reversed language) in several cost-guided orders, simplified algebraically and then by
    /// verified rewrites; the shortest wins. It is printable ASCII: metacharacters are
    /// escaped, other characters written `\xHH`, `\uHHHH` or `\UHHHHHHHH`; sets take their
    /// shortest spelling (`\w`, `[^\s>]`, `\p{Greek}`, `[\pL--a]`), the full set is `.`;
    /// plain groups and no anchors. The empty language is `[]` and {""} is the empty pattern.
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
        self.to_pattern_in(Dialect::Rust, budget)
    }

    /// A pattern for the language, exact and valid in `dialect` (see
    /// [`to_pattern`](Dfa::to_pattern), which is this in [`Dialect::Rust`]). Character
    /// sets are spelled with ranges and the dialect's class escapes (`\d`, `\w`, `\s`,
    /// negations) as relang reads them in it (ASCII in Java, PCRE and JavaScript, but
    /// JavaScript's `\s`; Unicode 16.0's in Python, as Python 3.14 reads them); in
    /// JavaScript (without the `u` flag), surrogate pairs above U+FFFF, except under `*`
    /// and `+`, where a class of code units is exact for a set with all of them (`[^]*`).
    ///
    /// # Errors
    /// As [`to_pattern`](Dfa::to_pattern).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Dialect};
    ///
    /// let budget = Budget::default();
    /// let digits = Dfa::from_regex(r"\d+")?;
    /// assert_eq!(digits.to_pattern_in(Dialect::Rust, &budget)?, r"\d+");
    /// let ascii = Dfa::from_regex("[0-9]+")?;
    /// assert_eq!(ascii.to_pattern_in(Dialect::Js, &budget)?, r"\d+");
    /// assert_eq!(ascii.to_pattern_in(Dialect::Python, &budget)?, "[0-9]+");
    /// assert_eq!(digits.to_pattern_in(Dialect::Python, &budget)?, r"\d+");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pattern_in(&self, dialect: Dialect, budget: &Budget) -> Result<String, BudgetError> {
        to_pattern(self, dialect, budget)
    }
}

/// A pattern for the language that `shape` builds, in `dialect`; `source` is the text of a
/// pattern of our dialect when the language is one, and `minimal` gives the language's
/// canonical minimal DFA under a budget.
pub(crate) fn term_to_pattern<'a>(
    shape: &Shape<'_>,
    source: Option<&str>,
    dialect: Dialect,
    budget: &Budget,
    minimal: impl FnOnce(&Budget) -> Result<&'a Dfa, Error>,
) -> Result<String, Error> {
    let mut exprs = Exprs::new(dialect);
    let mut leaf = |exprs: &mut Exprs, dfa: &Dfa| eliminate_all(dfa, exprs, budget);
    let built = match shape {
        Shape::Automaton(dfa) => return Ok(to_pattern(dfa, dialect, budget)?),
        Shape::Product { dfa, op, operands } => {
            let looks = Lookaheads::new(*op, operands, dialect, budget);
            let Some(longest) = looks.longest() else {
                return Ok(classic_product(&mut exprs, *op, operands, dfa, dialect, budget)?);
            };
            // The classic form, sought only up to the longest lookahead's length, wins a
            // tie; a lookahead is checked only where it would be shorter (an empty product,
            // `[]`, checks none).
            let bounded = budget.with_max_pattern(longest);
            let classic = classic_product(&mut exprs, *op, operands, dfa, dialect, &bounded);
            let beat = classic.as_ref().map_or(usize::MAX, String::len);
            return Ok(match (looks.first_exact(dfa, beat), classic) {
                (Some(looked), _) => looked,
                (None, Ok(classic)) => classic,
                (None, Err(_)) => classic_product(&mut exprs, *op, operands, dfa, dialect, budget)?,
            });
        }
        _ => product::build(&mut exprs, shape, budget, &mut leaf),
    };
    let structural = match built {
        Ok(node) => node,
        // An automaton leaf too large to convert: the whole language may be small.
        Err(
            BudgetError::TooManyStates { .. }
            | BudgetError::TooMuchMemory { .. }
            | BudgetError::PatternTooLong { .. },
        ) => {
            return Ok(to_pattern(minimal(budget)?, dialect, budget)?);
        }
        Err(err) => return Err(err.into()),
    };
    let verbatim = source.filter(|source| {
        dialect == Dialect::Rust && source.len() <= budget.max_pattern() && is_plain_rust(source)
    });
    let mut best = structural;
    let share = time_share(budget, ELIMINATION_SHARE);
    let bound = exprs.size(structural).min(verbatim.map_or(usize::MAX, str::len));
    // Past MAX_SEARCH_SIZE the automaton only serves the elimination, which takes at most
    // MAX_ELIMINATION_WORK / bound states: a subset construction many times past that
    // (a 2,000-character validator: 75,615 states, seconds) is not worth the share.
    let attempt = if exprs.size(structural) > MAX_SEARCH_SIZE {
        let useful = (MAX_ELIMINATION_WORK / bound.max(1)).saturating_mul(SUBSET_SLACK);
        share.with_max_states(useful.min(share.max_states()))
    } else {
        share
    };
    // Any failure here (time, states, memory) keeps the structural candidate.
    let automaton = minimal(&attempt).ok();
    if let Some(dfa) = automaton {
        if dfa.n_states().saturating_mul(bound) <= MAX_ELIMINATION_WORK {
            compete(&mut exprs, &mut best, dfa, &share, bound);
        } else {
            improve(&mut exprs, &mut best, &mut Searches::new(dfa, &share));
        }
    }
    let rendered = finish(&exprs, best, budget);
    Ok(match (rendered, verbatim) {
        (Ok(text), Some(verbatim)) if verbatim.len() < text.len() => verbatim.to_owned(),
        (Err(_), Some(verbatim)) => verbatim.to_owned(),
        (rendered, _) => rendered?,
    })
}

/// The pattern of the product `op` of `operands` without lookaround: the shortest of the
/// candidates read off its operands (`product.rs`) and its minimal DFA `dfa`'s.
fn classic_product(
    exprs: &mut Exprs,
    op: BoolOp,
    operands: &[(Shape<'_>, &Dfa)],
    dfa: &Dfa,
    dialect: Dialect,
    budget: &Budget,
) -> Result<String, BudgetError> {
    match product::candidates(exprs, op, operands, dfa, budget)[..] {
        // Without a candidate of its own, a product has only its automaton.
        [] => to_pattern(dfa, dialect, budget),
        [first, ref others @ ..] => product_pattern(exprs, first, others, dfa, budget),
    }
}

/// The pattern of a product whose language has the minimal DFA `minimal`, with the best
/// `candidate` read off its operands and `others` (see [`compete`]): each is improved by
/// the search, since a longer one may improve to the shortest.
fn product_pattern(
    exprs: &mut Exprs,
    candidate: NodeId,
    others: &[NodeId],
    minimal: &Dfa,
    budget: &Budget,
) -> Result<String, BudgetError> {
    let bound = exprs.size(candidate);
    let mut best = candidate;
    let mut searches = Searches::new(minimal, budget);
    improve(exprs, &mut best, &mut searches);
    for &other in others {
        let mut node = other;
        improve(exprs, &mut node, &mut searches);
        if is_better(exprs, node, best) {
            best = node;
        }
    }
    compete_improved(exprs, &mut best, minimal, budget, bound, &mut searches);
    finish(exprs, best, budget)
}

/// Improves `best` by the search, then lets the elimination of the minimal DFA `minimal`,
/// improved too (as [`to_pattern`] does), replace it when shorter: so a candidate from how
/// the language was built only ever shortens the automaton's pattern, as far as the time
/// goes. Eliminations that grow past [`SIZE_LIMIT_FACTOR`] times `bound` are abandoned, and
/// any failure (time, memory) keeps `best`.
fn compete(exprs: &mut Exprs, best: &mut NodeId, minimal: &Dfa, budget: &Budget, bound: usize) {
    let mut searches = Searches::new(minimal, budget);
    improve(exprs, best, &mut searches);
    compete_improved(exprs, best, minimal, budget, bound, &mut searches);
}

/// [`compete`] for a `best` already improved by `searches` (against `minimal`).
fn compete_improved(
    exprs: &mut Exprs,
    best: &mut NodeId,
    minimal: &Dfa,
    budget: &Budget,
    bound: usize,
    searches: &mut Searches<'_>,
) {
    let size_limit = bound.saturating_mul(SIZE_LIMIT_FACTOR);
    if let Ok(Some(eliminated)) = eliminate(minimal, exprs, budget, Some(size_limit)) {
        let mut node = eliminated.node;
        if eliminated.complete {
            improve(exprs, &mut node, searches);
        }
        if is_better(exprs, node, *best) {
            *best = node;
        }
    }
}

/// Whether `source` can be returned as it is: printable ASCII, and valid in the Rust
/// `regex` crate's own syntax (no look-around, no backreference, no empty class), which is
/// what the contract's dialect is.
fn is_plain_rust(source: &str) -> bool {
    source.bytes().all(|byte| matches!(byte, b' '..=b'~'))
        && regex_syntax::Parser::new().parse(source).is_ok()
}

/// `budget` with a deadline `1/share` of the time left.
pub(crate) fn time_share(budget: &Budget, share: u32) -> Budget {
    match budget.deadline() {
        Some(deadline) => {
            let now = Instant::now();
            budget.with_deadline(now + deadline.saturating_duration_since(now) / share)
        }
        None => *budget,
    }
}

/// An expression from state elimination; `complete` when no candidate was cut short.
struct Eliminated {
    node: NodeId,
    complete: bool,
}

/// The shortest expression that elimination finds for the language of `dfa`, bound only by
/// the budget's pattern limit: the leaves of structural renderings.
fn eliminate_all(dfa: &Dfa, exprs: &mut Exprs, budget: &Budget) -> Result<NodeId, BudgetError> {
    Ok(eliminate(dfa, exprs, budget, None)?.ok_or(too_long(budget))?.node)
}

/// The error of a conversion whose every candidate grew past the budget's pattern limit.
fn too_long(budget: &Budget) -> BudgetError {
    BudgetError::PatternTooLong { op: Operation::ToRegex, limit: budget.max_pattern() }
}

/// The shortest expression that elimination finds for the language of the minimal `dfa`,
/// or `None` when every candidate grows past `bound` (without one, the budget's pattern
/// limit).
fn eliminate(
    minimal: &Dfa,
    exprs: &mut Exprs,
    budget: &Budget,
    bound: Option<usize>,
) -> Result<Option<Eliminated>, BudgetError> {
    let Some(fragment) = Fragment::within(minimal, budget, Operation::ToRegex)? else {
        return Ok(Some(Eliminated { node: exprs.empty(), complete: true }));
    };
    let mut automata = vec![(fragment, false)];
    // The reversed language's automaton is only worth it when it is not much larger.
    let max_reversed_states = 2 * automata[0].0.n_states() + 16;
    if let Some(reversed) = reversed_fragment(&automata[0].0, budget, max_reversed_states)? {
        automata.push((reversed, true));
        automata.sort_by_key(|(fragment, _)| fragment.n_states());
    }
    let max_states = LARGER_AUTOMATON_FACTOR * automata[0].0.n_states() + 16;
    let mut best: Option<NodeId> = None;
    let mut complete = true;
    'candidates: for (fragment, reversed) in automata {
        if best.is_some() && fragment.n_states() > max_states {
            continue;
        }
        let gnfa = Gnfa::new(&fragment, exprs, budget)?;
        for order in gnfa.orders(MAX_EXACT_ORDER_STATES) {
            let size_limit = match best {
                Some(best) => exprs.size(best).saturating_mul(SIZE_LIMIT_FACTOR),
                None => bound.unwrap_or(budget.max_pattern()),
            };
            let candidate = match gnfa.clone().eliminate(exprs, order, budget, size_limit) {
                Ok(Some(candidate)) => candidate,
                Ok(None) => continue,
                Err(_) if best.is_some() => {
                    complete = false;
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
            if best.is_none_or(|best| is_better(exprs, candidate, best)) {
                best = Some(candidate);
            }
        }
    }
    Ok(best.map(|node| Eliminated { node, complete }))
}

/// Improves `best` by verified rewrites (`searches`, against the language's minimal DFA),
/// when it is small enough.
fn improve(exprs: &mut Exprs, best: &mut NodeId, searches: &mut Searches<'_>) {
    if exprs.size(*best) <= MAX_SEARCH_SIZE && exprs.info(*best).depth <= NEST_LIMIT {
        // Running out of time keeps the best expression found so far.
        let _ = searches.improve(exprs, best, MAX_SEARCH_CHECKS);
    }
}

/// The pattern of `best`, unless it nests too deep to be read back or is too large.
fn finish(exprs: &Exprs, best: NodeId, budget: &Budget) -> Result<String, BudgetError> {
    let info = exprs.info(best);
    if info.depth > NEST_LIMIT {
        return Err(BudgetError::TooDeep { op: Operation::ToRegex, limit: NEST_LIMIT });
    }
    budget.check_pattern(Operation::ToRegex, info.size)?;
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
    let capped =
        time_share(budget, REVERSAL_SHARE).with_max_states(max_states.min(budget.max_states()));
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
