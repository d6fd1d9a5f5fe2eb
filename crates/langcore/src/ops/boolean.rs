//! Boolean operations on languages: n-ary union and intersection, difference, complement.
//!
//! # Algorithm
//! Binary operations are one product walk ([`product`]). N-ary ones fold pairwise from the
//! left, minimizing after each step so intermediate products stay as small as the languages
//! allow, and stop early once the result can no longer change (an empty intersection, a
//! total union). Complement swaps accepting and rejecting states: every [`Dfa`] is complete
//! over all scalar values, so this is the complement relative to all strings.
//!
//! # Budgets
//! Each product and minimization checks the budget; see `product.rs`.

use super::product::{BoolOp, product};
use crate::budget::{Budget, BudgetError};
use crate::dfa::Dfa;

/// The union of `operands`; the empty language for none.
pub(crate) fn union_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
    fold(operands, BoolOp::Union, Dfa::empty(), budget)
}

/// The intersection of `operands`; all strings for none.
pub(crate) fn intersection_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
    fold(operands, BoolOp::Intersection, Dfa::total(), budget)
}

/// `left` minus `right`.
pub(crate) fn difference(left: &Dfa, right: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    product(left, right, BoolOp::Difference, budget)
}

/// All strings not in `dfa`.
pub(crate) fn complement(dfa: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    dfa.complemented().minimize(budget)
}

/// Combines `operands` left to right with `op`, which has `neutral` as its neutral element.
fn fold(operands: &[&Dfa], op: BoolOp, neutral: Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    let Some((first, rest)) = operands.split_first() else { return Ok(neutral) };
    // The absorbing element: once there, the result cannot change any more.
    let absorbing = neutral.complemented();
    let mut acc = first.minimize(budget)?;
    for operand in rest {
        if acc == absorbing {
            break;
        }
        acc = product(&acc, operand, op, budget)?;
    }
    Ok(acc)
}
