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

use super::product::product;
use crate::budget::{Budget, BudgetError};
use crate::dfa::Dfa;
use crate::witness::BoolOp;

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

impl Dfa {
    /// The strings in `self` or in `other`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let either = Dfa::from_regex("a+")?.union(&Dfa::from_regex("b+")?, &budget)?;
    /// assert_eq!(either, Dfa::from_regex("a+|b+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product exceeds `budget`.
    pub fn union(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        union_all(&[self, other], budget)
    }

    /// The strings in any of `operands`; the empty language for none.
    ///
    /// # Errors
    /// When a product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let [a, b, c] = ["a+", "b+", "c"].map(Dfa::from_regex);
    /// assert_eq!(Dfa::union_all(&[&a?, &b?, &c?], &budget)?, Dfa::from_regex("a+|b+|c")?);
    /// assert_eq!(Dfa::union_all(&[], &budget)?, Dfa::empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn union_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
        union_all(operands, budget)
    }

    /// The strings in both `self` and `other`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let both = Dfa::from_regex("(abc|de){2}")?.intersection(&Dfa::from_regex("de.*")?, &budget)?;
    /// assert_eq!(both, Dfa::from_regex("de(abc|de)")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product exceeds `budget`.
    pub fn intersection(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        intersection_all(&[self, other], budget)
    }

    /// The strings in every one of `operands`; all strings for none. Stops early once the
    /// intersection is empty.
    ///
    /// # Errors
    /// When a product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let [short, digit, upper] = ["[A-Z0-9]{2}", ".*[0-9].*", ".*[A-Z].*"].map(Dfa::from_regex);
    /// let rule = Dfa::intersection_all(&[&short?, &digit?, &upper?], &budget)?;
    /// assert_eq!(rule, Dfa::from_regex("[A-Z][0-9]|[0-9][A-Z]")?);
    /// assert_eq!(Dfa::intersection_all(&[], &budget)?, Dfa::total());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn intersection_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
        intersection_all(operands, budget)
    }

    /// The strings in `self` but not in `other`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let rest = Dfa::from_regex("[a-z]")?.difference(&Dfa::from_regex("[aeiou]")?, &budget)?;
    /// assert!(rest.matches("b") && !rest.matches("e"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When the product exceeds `budget`.
    pub fn difference(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        difference(self, other, budget)
    }

    /// All strings over all Unicode scalar values that are not in `self`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let not_a = Dfa::from_regex("a")?.complement(&Budget::default())?;
    /// assert!(not_a.matches("") && not_a.matches("aa") && !not_a.matches("a"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// When minimization exceeds `budget`.
    pub fn complement(&self, budget: &Budget) -> Result<Dfa, BudgetError> {
        complement(self, budget)
    }
}
