//! Concatenation of regular languages: a string of each operand, in order.
//!
//! # Algorithm
//! The operands' trimmed parts are copied into one NFA back to front, each copy continuing
//! to the entry of the next and the last to the accepting state, and the result is that
//! NFA's canonical minimal DFA (subset construction, then Hopcroft). The NFA is linear in the
//! operands' sizes; the DFA can be exponential (`(a|b)*` followed by `a(a|b){n}` needs 2^n
//! states), which is what the budget is for.
//!
//! An operand with the empty language makes the result empty; that is answered before any
//! copy is built. With no operands the result is {""}, the unit of concatenation.
//!
//! # Budgets
//! NFA states count as [`Operation::Concat`]; determinization and minimization check their
//! own limits.

use super::minimal_dfa_of;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;

/// The canonical minimal DFA of the operands' languages concatenated in order.
pub(crate) fn concat(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
    let mut fragments = Vec::with_capacity(operands.len());
    for &operand in operands {
        fragments.push(Fragment::within(operand, budget, Operation::Concat)?);
    }
    let Some(fragments): Option<Vec<Fragment>> = fragments.into_iter().collect() else {
        return Ok(Dfa::empty());
    };
    minimal_dfa_of(budget, Operation::Concat, |builder, accept| {
        let mut entry = accept;
        for fragment in fragments.iter().rev() {
            entry = fragment.emit(builder, entry)?;
        }
        Ok(entry)
    })
}

impl Dfa {
    /// The concatenation of `self` and `other`: a string of `self` followed by one of
    /// `other`. The result is canonical, like every minimal DFA.
    ///
    /// # Errors
    /// When building the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let user = Dfa::from_regex("[a-z]+")?;
    /// let domain = Dfa::from_regex("@[a-z]+\\.org")?;
    /// let address = user.concat(&domain, &Budget::default())?;
    /// assert!(address.matches("ann@example.org"));
    /// assert_eq!(address, Dfa::from_regex("[a-z]+@[a-z]+\\.org")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn concat(&self, other: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
        concat(&[self, other], budget)
    }

    /// The concatenation of all `operands` in order: {""} when there are none, the empty
    /// language when one of them is empty.
    ///
    /// # Errors
    /// When building the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let year = Dfa::from_regex("[0-9]{4}")?;
    /// let month = Dfa::from_regex("-(0[1-9]|1[0-2])")?;
    /// let day = Dfa::from_regex("-[0-3][0-9]")?;
    /// let date = Dfa::concat_all(&[&year, &month, &day], &Budget::default())?;
    /// assert!(date.matches("2024-02-29"));
    /// assert!(!date.matches("2024-13-01"));
    /// assert_eq!(Dfa::concat_all(&[], &Budget::default())?, Dfa::from_regex("")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn concat_all(operands: &[&Dfa], budget: &Budget) -> Result<Dfa, BudgetError> {
        concat(operands, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::concat;
    use crate::{Budget, BudgetError, Dfa, Operation};

    fn dfa(pattern: &str) -> Dfa {
        Dfa::from_regex(pattern).unwrap()
    }

    #[track_caller]
    fn check(patterns: &[&str], expected: &str) {
        let operands: Vec<Dfa> = patterns.iter().map(|pattern| dfa(pattern)).collect();
        let operand_refs: Vec<&Dfa> = operands.iter().collect();
        assert_eq!(concat(&operand_refs, &Budget::unlimited()).unwrap(), dfa(expected));
    }

    #[test]
    fn concatenates_in_order() {
        check(&["a*", "b"], "a*b");
        check(&["b", "a*"], "ba*");
        check(&["(a|b)*", "abb"], "(a|b)*abb");
        check(&["x(yz)*", "y?", "z+"], "x(yz)*y?z+");
        check(&["\\w", "\\d{2}"], "\\w\\d\\d");
        check(&["a"], "a");
    }

    #[test]
    fn no_operands_give_the_empty_string() {
        check(&[], "");
    }

    #[test]
    fn the_empty_string_is_the_unit() {
        check(&["", "ab*", ""], "ab*");
        check(&["", ""], "");
    }

    #[test]
    fn an_empty_operand_makes_the_result_empty_without_building() {
        check(&["a*", "[]", "b"], "[]");
        check(&["[]"], "[]");
        // Building anything would exceed a budget of no states at all.
        let big = dfa("(a|b)*a(a|b){8}");
        let empty = dfa("[]");
        let budget = Budget::unlimited().with_max_states(0);
        assert_eq!(concat(&[&big, &empty, &big], &budget).unwrap(), empty);
    }

    #[test]
    fn large_results_stop_at_the_state_limit() {
        let any = dfa("(a|b)*");
        let tail = dfa("a(a|b){20}");
        let budget = Budget::unlimited().with_max_states(1_000);
        let err = concat(&[&any, &tail], &budget).unwrap_err();
        assert_eq!(err, BudgetError::TooManyStates { op: Operation::Determinize, limit: 1_000 });
        let err =
            concat(&[&tail, &tail, &tail], &Budget::unlimited().with_max_states(40)).unwrap_err();
        assert_eq!(err, BudgetError::TooManyStates { op: Operation::Concat, limit: 40 });
    }
}
