//! The exact number of strings in a language, as a big integer or infinite.
//!
//! # Algorithm
//! The language is infinite exactly when its trim (see the module docs of `analysis`) has a
//! cycle. Otherwise the number of accepted strings from a useful state `s` is
//!
//! ```text
//! count(s) = [s accepts] + Σ over edges s → t of n_chars(s → t) · count(t)
//! ```
//!
//! computed in reverse topological order with exact [`BigUint`]s. The edges of a state are
//! already grouped by target, with the class sizes summed, so a state costs one big
//! multiplication per distinct target however many classes lead there. The numbers grow by up
//! to ~20 bits (log2 of 1,112,064) per state of depth: a chain of n states over `.` costs
//! O(n²) word operations in all.
//!
//! # Invariants
//! A count lives only until its last useful predecessor has used it (reference counting by
//! in-degree). The last use takes the count and multiplies it in place, so along a chain
//! only one count is alive at a time, not one per state.
//!
//! # Budgets
//! [`Operation::Cardinality`]: the deadline once per state, and the bytes of the live counts
//! against the memory limit after each new count.

use std::fmt;
use std::mem;

use num_bigint::BigUint;

use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::trim::Trim;

/// The number of strings in a language.
///
/// # Example
/// ```
/// use langcore::{Budget, Cardinality, Dfa};
///
/// let count = Dfa::from_regex("[a-z]{2}")?.cardinality(&Budget::default())?;
/// assert_eq!(count.to_string(), "676");
/// assert_eq!(Dfa::from_regex("x+")?.cardinality(&Budget::default())?, Cardinality::Infinite);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cardinality {
    /// Exactly this many strings; zero for the empty language.
    Finite(BigUint),
    /// Infinitely many strings.
    Infinite,
}

impl fmt::Display for Cardinality {
    /// The number in decimal, or `infinite`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cardinality::Finite(count) => write!(f, "{count}"),
            Cardinality::Infinite => f.write_str("infinite"),
        }
    }
}

/// The number of strings `dfa` accepts.
pub(crate) fn cardinality(dfa: &Dfa, budget: &Budget) -> Result<Cardinality, BudgetError> {
    let trim = Trim::new(dfa);
    if !trim.is_useful(dfa.start()) {
        return Ok(Cardinality::Finite(BigUint::ZERO));
    }
    let Some(order) = trim.topological_order(dfa.start()) else {
        return Ok(Cardinality::Infinite);
    };
    // How many useful predecessors have yet to use each count.
    let mut pending_uses = trim.in_degrees();
    // The counts computed and not yet freed; zero (which owns no memory) otherwise.
    let mut counts = vec![BigUint::ZERO; dfa.n_states()];
    let mut live_bytes: usize = 0;
    for &state in order.iter().rev() {
        budget.check_time(Operation::Cardinality)?;
        let mut count = BigUint::from(u8::from(dfa.is_accepting(state)));
        for edge in trim.edges(state) {
            let target_idx = edge.target.index();
            pending_uses[target_idx] -= 1;
            if pending_uses[target_idx] == 0 {
                let mut term = mem::take(&mut counts[target_idx]);
                live_bytes -= heap_bytes(&term);
                // The freed count's buffer becomes the new count, with no copy.
                term *= edge.n_chars;
                term += &count;
                count = term;
            } else {
                count += &counts[target_idx] * edge.n_chars;
            }
        }
        live_bytes += heap_bytes(&count);
        budget.check_memory(Operation::Cardinality, live_bytes)?;
        counts[state.index()] = count;
    }
    // The start has no useful predecessor (that would be a cycle), so its count is still here.
    Ok(Cardinality::Finite(mem::take(&mut counts[dfa.start().index()])))
}

/// The bytes of the digits of `count`, in 64-bit words.
pub(crate) fn heap_bytes(count: &BigUint) -> usize {
    usize::try_from(count.bits().div_ceil(64) * 8).unwrap_or(usize::MAX)
}

impl Dfa {
    /// The number of strings in the language, exactly, or [`Cardinality::Infinite`].
    ///
    /// Counts are big integers: `.{3}` has 1,112,064³ strings.
    ///
    /// # Errors
    /// When the deadline of `budget` passes, or the counts kept at one time would exceed its
    /// memory limit (deep finite languages over large classes have huge counts).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Cardinality, Dfa};
    ///
    /// let budget = Budget::default();
    /// assert_eq!(Dfa::from_regex("(ab|cd){0,3}")?.cardinality(&budget)?.to_string(), "15");
    /// let three_chars = Dfa::from_regex(".{3}")?.cardinality(&budget)?;
    /// assert_eq!(three_chars.to_string(), "1375274358112518144");
    /// assert_eq!(Dfa::from_regex("(ab)*")?.cardinality(&budget)?, Cardinality::Infinite);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cardinality(&self, budget: &Budget) -> Result<Cardinality, BudgetError> {
        cardinality(self, budget)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;
    use crate::analysis::tests::minimal_and_determinized;

    #[track_caller]
    fn check(pattern: &str, expected: &str) {
        for dfa in minimal_and_determinized(pattern) {
            let count = cardinality(&dfa, &Budget::unlimited()).expect("unlimited budget");
            assert_eq!(count.to_string(), expected, "{pattern}: {dfa:?}");
        }
    }

    #[test]
    fn empty_language_has_none() {
        check("[]", "0");
        check(r"(ab)*[^\s\S]", "0");
    }

    #[test]
    fn empty_string_is_one() {
        check("", "1");
        check(r"[^\s\S]*", "1");
    }

    #[test]
    fn cycles_are_infinite() {
        check(".*", "infinite");
        check("a*", "infinite");
        check("(ab)*c", "infinite");
        // The loop is in a dead end, so it does not count.
        check(r"ab|c(d*)[^\s\S]", "1");
    }

    #[test]
    fn classes_count_their_characters() {
        check(".", "1112064");
        check("[^a]", "1112063");
        check("[a-z]{2}|x", "677");
        check(".a|b.", "2224127");
    }

    #[test]
    fn shared_suffixes_are_not_counted_twice() {
        check("a?a?", "3");
        check("(a|b)(a|b)?", "6");
        check("a|b|ab|ab", "3");
        check("(ab|cd){0,20}", &((1u32 << 21) - 1).to_string());
    }

    #[test]
    fn display() {
        assert_eq!(Cardinality::Infinite.to_string(), "infinite");
        assert_eq!(Cardinality::Finite(BigUint::from(1234u32)).to_string(), "1234");
    }

    #[test]
    fn live_counts_are_charged_to_the_memory_limit() {
        // Each state of `.{200}` uses its successor's count last and frees it, so one count
        // is live at a time: the largest, 1,112,064^200. Keeping all 200 would take ~50 kB.
        let [dfa, _] = minimal_and_determinized(".{200}");
        let expected = BigUint::from(1_112_064u32).pow(200);
        let needed = heap_bytes(&expected);
        assert_eq!(needed, 504);
        let enough = Budget::unlimited().with_max_memory(needed);
        assert_eq!(cardinality(&dfa, &enough), Ok(Cardinality::Finite(expected)));
        let short = Budget::unlimited().with_max_memory(needed - 1);
        assert_eq!(
            cardinality(&dfa, &short),
            Err(BudgetError::TooMuchMemory { op: Operation::Cardinality, limit: needed - 1 })
        );
    }

    #[test]
    fn passed_deadline_times_out() {
        let [dfa, _] = minimal_and_determinized("a{3}");
        let budget = Budget::unlimited().with_deadline(Instant::now());
        assert_eq!(
            cardinality(&dfa, &budget),
            Err(BudgetError::Timeout { op: Operation::Cardinality })
        );
    }
}
