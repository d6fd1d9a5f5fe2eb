//! The questions a [`Language`] answers from its NFA, while its DFA is not built.
//!
//! # Overview
//! A language's NFA is linear in its term; its DFA can be exponential, and most questions
//! do not need it. Each function here answers one question from the smallest structure
//! that decides it, and returns `None` when the language is built (its DFA answers
//! directly):
//! - [`trim`]: emptiness, {""}, infiniteness and lengths on the trimmed NFA
//!   (`nfa/analysis.rs`);
//! - [`separating_string`]: inclusion and equivalence witnesses by the antichain search of
//!   `nfa/inclusion.rs`, shortest then smallest;
//! - [`intersection_is_empty`]: the product of the operands' NFAs explored up to its first
//!   accepting tuple (`ops/lazy_product.rs`);
//! - [`is_total`]: whether every string is in it, as the inclusion of all strings.
//!
//! Minimal DFAs stay the canonical form of every returned language: these answers only
//! decide, or decide that nothing needs to be built (an empty intersection).
//!
//! # Budgets
//! The NFAs count their states against the budget as they are built; the searches charge
//! their own states ([`Operation::Product`]).

use super::{Language, term};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::error::Error;
use crate::nfa::{Nfa, NfaTrim, inclusion_witness};
use crate::ops::product;
use crate::witness::BoolOp;

/// The answer `question` gives on the trimmed NFA of `language`, or `None` when its DFA is
/// built.
pub(super) fn trim<T>(
    language: &Language,
    budget: &Budget,
    question: impl FnOnce(&NfaTrim<'_>) -> T,
) -> Result<Option<T>, Error> {
    if language.0.built().is_some() {
        return Ok(None);
    }
    let nfa = term::to_nfa(language, Operation::BuildNfa, budget)?;
    Ok(Some(question(&NfaTrim::new(&nfa))))
}

/// Whether `language` holds every string, or `None` when its DFA is built.
pub(super) fn is_total(language: &Language, budget: &Budget) -> Result<Option<bool>, Error> {
    if language.0.built().is_some() {
        return Ok(None);
    }
    let witness = separating_string(&Language::total(), language, BoolOp::Difference, budget)?;
    Ok(Some(witness.is_none()))
}

/// The shortest, then smallest, string after which `found(in left, in right)` holds;
/// `found` is [`BoolOp::Difference`] or [`BoolOp::SymmetricDifference`].
///
/// Unless both are built, the antichain search runs first under a state limit of 8 per
/// NFA state (plus 4,096): when it outgrows that, the DFAs may well be small (the
/// simulation of `dfa/determinize.rs` collapses counted repetitions that the search
/// cannot), so they are built and compared; when they do not fit either, the search goes
/// on under the whole budget.
pub(super) fn separating_string(
    left: &Language,
    right: &Language,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, Error> {
    if let (Some(left), Some(right)) = (left.0.built(), right.0.built()) {
        return Ok(product::separating_string(left, right, found, budget)?);
    }
    let left_nfa = term::to_nfa(left, Operation::BuildNfa, budget)?;
    let right_nfa = term::to_nfa(right, Operation::BuildNfa, budget)?;
    let first_limit =
        (left_nfa.n_states() + right_nfa.n_states()).saturating_mul(8).saturating_add(4096);
    if first_limit < budget.max_states() {
        let limited = budget.with_max_states(first_limit);
        match search(&left_nfa, &right_nfa, found, &limited) {
            Err(BudgetError::TooManyStates { limit, .. }) if limit == first_limit => {}
            other => return Ok(other?),
        }
        if let (Ok(left), Ok(right)) = (left.to_dfa(budget), right.to_dfa(budget)) {
            return Ok(product::separating_string(left, right, found, budget)?);
        }
    }
    Ok(search(&left_nfa, &right_nfa, found, budget)?)
}

/// [`separating_string`] on NFAs, by the antichain search.
fn search(
    left: &Nfa,
    right: &Nfa,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    let only_left = inclusion_witness(left, right, None, budget)?;
    if found == BoolOp::Difference {
        return Ok(only_left);
    }
    // A string only in `right` counts if it is no longer than the one found.
    let bound = only_left.as_ref().map(|witness| witness.chars().count());
    let only_right = inclusion_witness(right, left, bound, budget)?;
    Ok([only_left, only_right]
        .into_iter()
        .flatten()
        .min_by(|a, b| a.chars().count().cmp(&b.chars().count()).then_with(|| a.cmp(b))))
}

/// Whether no string is in every one of `operands`, decided on their NFAs.
pub(super) fn intersection_is_empty(
    operands: &[&Language],
    budget: &Budget,
) -> Result<bool, Error> {
    let nfas = operands
        .iter()
        .map(|operand| term::to_nfa(operand, Operation::BuildNfa, budget))
        .collect::<Result<Vec<Nfa>, _>>()?;
    Ok(crate::ops::intersection_is_empty(&nfas.iter().collect::<Vec<_>>(), budget)?)
}

/// The DFAs of `operands`, or `None` when their intersection is empty: decided first on
/// their NFAs, so that an empty intersection builds no DFA.
pub(super) fn intersection_operands<'l>(
    operands: &[&'l Language],
    budget: &Budget,
) -> Result<Option<Vec<&'l Dfa>>, Error> {
    if operands.iter().any(|operand| operand.0.built().is_none())
        && intersection_is_empty(operands, budget)?
    {
        return Ok(None);
    }
    operands.iter().map(|operand| operand.to_dfa(budget)).collect::<Result<_, _>>().map(Some)
}
