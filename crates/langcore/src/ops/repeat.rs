//! Counted repetition of a regular language: `x{min,max}` and `x{min,}` for a whole DFA.
//!
//! # Algorithm
//! The operand's trimmed part is copied by the same expansion that compiles counted
//! repetition in patterns (`nfa/build.rs`): `min` copies in a row, then `max - min` nested
//! optional copies (`x(x(x)?)?`), or a loop when there is no `max`. The result is that
//! NFA's canonical minimal DFA. The NFA has O(c·n) states for c copies of an operand with n
//! trimmed states; the DFA is usually far smaller, but not always.
//!
//! Trivial operands are answered without copies, whatever the counts: the empty language
//! repeated is {""} when `min` is 0 and empty otherwise, and {""} repeated is {""}.
//!
//! # Budgets
//! NFA states count as [`Operation::Repeat`]. Every copy of a non-trivial operand adds at
//! least one state, so a huge count stops at the state limit instead of looping;
//! determinization and minimization check their own limits.

use super::minimal_dfa_of;
use crate::budget::{Budget, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::error::Error;
use crate::nfa::{NfaBuilder, compile_repetition};

/// The canonical minimal DFA of `dfa`'s language repeated `min` to `max` times (`None`:
/// unbounded).
pub(crate) fn repeat(dfa: &Dfa, min: u32, max: Option<u32>, budget: &Budget) -> Result<Dfa, Error> {
    if let Some(max) = max
        && min > max
    {
        return Err(Error::InvalidRepetition { min, max });
    }
    let Some(fragment) = Fragment::within(dfa, budget, Operation::Repeat)? else {
        // Zero copies give "", and any copy of the empty language leaves nothing.
        return Ok(if min == 0 { Dfa::empty_string() } else { Dfa::empty() });
    };
    if fragment.is_empty_string() {
        return Ok(Dfa::empty_string());
    }
    let repeated = minimal_dfa_of(budget, Operation::Repeat, |builder, accept| {
        let mut emit_copy = |builder: &mut NfaBuilder<'_>, next| fragment.emit(builder, next);
        compile_repetition(builder, min, max, accept, &mut emit_copy)
    })?;
    Ok(repeated)
}

impl Dfa {
    /// `self` repeated at least `min` and at most `max` times, like the pattern `x{min,max}`;
    /// `max: None` is unbounded, like `x{min,}`.
    ///
    /// Repeating the empty language or {""} is answered at once, whatever the counts; other
    /// languages are expanded copy by copy, so huge counts run into the budget.
    ///
    /// # Errors
    /// [`Error::InvalidRepetition`] when `min` is greater than `max`, [`Error::Budget`] when
    /// building the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let octet = Dfa::from_regex("[0-9]{1,3}")?;
    /// let dotted = Dfa::from_regex("\\.[0-9]{1,3}")?.repeat(3, Some(3), &Budget::default())?;
    /// let address = octet.concat(&dotted, &Budget::default())?;
    /// assert!(address.matches("192.168.0.1"));
    /// assert_eq!(address, Dfa::from_regex("[0-9]{1,3}(\\.[0-9]{1,3}){3}")?);
    ///
    /// let words = Dfa::from_regex("ab|c")?.repeat(1, None, &Budget::default())?;
    /// assert_eq!(words, Dfa::from_regex("(ab|c)+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn repeat(&self, min: u32, max: Option<u32>, budget: &Budget) -> Result<Dfa, Error> {
        repeat(self, min, max, budget)
    }
}

#[cfg(test)]
mod tests {
    use super::repeat;
    use crate::{Budget, BudgetError, Dfa, Error, Operation};

    fn dfa(pattern: &str) -> Dfa {
        Dfa::from_regex(pattern).unwrap()
    }

    #[track_caller]
    fn check(pattern: &str, min: u32, max: Option<u32>, expected: &str) {
        let repeated = repeat(&dfa(pattern), min, max, &Budget::unlimited()).unwrap();
        assert_eq!(repeated, dfa(expected));
    }

    #[test]
    fn repeats_like_counted_patterns() {
        check("ab|c", 2, Some(2), "(ab|c){2}");
        check("ab|c", 1, Some(3), "(ab|c){1,3}");
        check("a*b", 0, Some(2), "(a*b){0,2}");
        check("\\w\\d", 3, Some(5), "(\\w\\d){3,5}");
        check("a|()", 2, Some(4), "a{0,4}");
        check("x", 1, Some(1), "x");
    }

    #[test]
    fn unbounded_repetition_loops() {
        check("ab|c", 0, None, "(ab|c)*");
        check("ab|c", 1, None, "(ab|c)+");
        check("ab|c", 3, None, "(ab|c){3,}");
        check("a?", 5, None, "a*");
    }

    #[test]
    fn zero_copies_give_the_empty_string() {
        check("ab|c", 0, Some(0), "");
        check("[]", 0, Some(0), "");
    }

    #[test]
    fn min_above_max_is_an_error() {
        let err = repeat(&dfa("a"), 3, Some(2), &Budget::unlimited()).unwrap_err();
        assert_eq!(err, Error::InvalidRepetition { min: 3, max: 2 });
        assert_eq!(err.to_string(), "invalid repetition: min 3 is greater than max 2");
    }

    #[test]
    fn trivial_operands_are_answered_without_copies() {
        // A budget of no states proves that nothing is built.
        let budget = Budget::unlimited().with_max_states(0);
        let [empty_language, empty_string] = [dfa("[]"), dfa("")];
        for (min, max) in [(0, Some(4_000_000_000)), (0, None), (4_000_000_000, None)] {
            let expected = if min == 0 { &empty_string } else { &empty_language };
            assert_eq!(&repeat(&empty_language, min, max, &budget).unwrap(), expected);
            assert_eq!(repeat(&empty_string, min, max, &budget).unwrap(), empty_string);
        }
        assert_eq!(repeat(&empty_language, 1, Some(1), &budget).unwrap(), empty_language);
    }

    #[test]
    fn huge_counts_stop_at_the_state_limit() {
        let budget = Budget::unlimited().with_max_states(1_000);
        let too_many =
            Error::Budget(BudgetError::TooManyStates { op: Operation::Repeat, limit: 1_000 });
        for (min, max) in
            [(0, Some(4_000_000_000)), (4_000_000_000, Some(4_000_000_000)), (4_000_000_000, None)]
        {
            assert_eq!(
                repeat(&dfa("a"), min, max, &budget),
                Err(too_many.clone()),
                "{{{min},{max:?}}}"
            );
        }
        assert_eq!(repeat(&dfa("(ab)*c"), 0, Some(u32::MAX), &budget), Err(too_many));
    }
}
