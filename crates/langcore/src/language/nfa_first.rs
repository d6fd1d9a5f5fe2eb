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
use crate::budget::{Budget, Operation};
use crate::dfa::Dfa;
use crate::error::Error;
use crate::nfa::{Nfa, NfaTrim, inclusion_witness};
use crate::ops::product::{self, BoolOp};

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
    let all = term::to_nfa(&Language::total(), Operation::BuildNfa, budget)?;
    let nfa = term::to_nfa(language, Operation::BuildNfa, budget)?;
    Ok(Some(inclusion_witness(&all, &nfa, None, budget)?.is_none()))
}

/// The shortest, then smallest, string after which `found(in left, in right)` holds;
/// `found` is [`BoolOp::Difference`] or [`BoolOp::SymmetricDifference`].
pub(super) fn separating_string(
    left: &Language,
    right: &Language,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, Error> {
    if let (Some(left), Some(right)) = (left.0.built(), right.0.built()) {
        return Ok(product::separating_string(left, right, found, budget)?);
    }
    let left = term::to_nfa(left, Operation::BuildNfa, budget)?;
    let right = term::to_nfa(right, Operation::BuildNfa, budget)?;
    let only_left = inclusion_witness(&left, &right, None, budget)?;
    if found == BoolOp::Difference {
        return Ok(only_left);
    }
    // A string only in `right` counts if it is no longer than the one found.
    let bound = only_left.as_ref().map(|witness| witness.chars().count());
    let only_right = inclusion_witness(&right, &left, bound, budget)?;
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
