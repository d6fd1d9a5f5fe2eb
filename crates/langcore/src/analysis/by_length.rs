//! The exact number of strings of each length in a range.
//!
//! # Algorithm
//! Forward over the trim: `paths_k(s)` is the number of strings of length `k` leading from
//! the start to the useful state `s`, with `paths_0` one at the start, and
//!
//! ```text
//! paths_{k+1}(t) = Σ over edges s → t of n_chars(s → t) · paths_k(s)
//! count(k)       = Σ over accepting s of paths_k(s)
//! ```
//!
//! with exact [`BigUint`]s, up to the longest length asked for: O(max length × edges) big
//! additions, on numbers of up to ~20 bits (log2 of 1,112,064) per length. Once no state
//! has a path (a finite language, past its longest string), the remaining counts are zero
//! and the walk stops.
//!
//! # Budgets
//! [`Operation::Cardinality`]: the deadline once per length, and the bytes of the two rows
//! of counts against the memory limit after each length.

use std::ops::RangeInclusive;

use num_bigint::BigUint;

use super::cardinality::heap_bytes;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::trim::Trim;

/// The number of strings of `dfa` of each length of `lengths`, in order.
pub(crate) fn count_by_length(
    dfa: &Dfa,
    lengths: RangeInclusive<usize>,
    budget: &Budget,
) -> Result<Vec<BigUint>, BudgetError> {
    let (&min, &max) = (lengths.start(), lengths.end());
    let mut counts = Vec::with_capacity((max + 1).saturating_sub(min));
    let trim = Trim::new(dfa);
    let mut paths = vec![BigUint::ZERO; dfa.n_states()];
    if trim.is_useful(dfa.start()) {
        paths[dfa.start().index()] = BigUint::from(1u8);
    }
    for length in 0..=max {
        budget.check_time(Operation::Cardinality)?;
        if length >= min {
            let accepted = dfa.states().filter(|&state| dfa.is_accepting(state));
            counts.push(accepted.map(|state| &paths[state.index()]).sum());
        }
        if length == max || paths.iter().all(|count| *count == BigUint::ZERO) {
            break;
        }
        let mut next = vec![BigUint::ZERO; dfa.n_states()];
        for state in dfa.states() {
            let here = &paths[state.index()];
            if *here != BigUint::ZERO {
                for edge in trim.edges(state) {
                    next[edge.target.index()] += here * edge.n_chars;
                }
            }
        }
        let live_bytes: usize = paths.iter().chain(&next).map(heap_bytes).sum();
        budget.check_memory(Operation::Cardinality, live_bytes)?;
        paths = next;
    }
    // Lengths past the last one reached have no strings.
    counts.resize((max + 1).saturating_sub(min), BigUint::ZERO);
    Ok(counts)
}

impl Dfa {
    /// The number of strings of each length in `lengths`, in order (none for an empty
    /// range).
    ///
    /// # Errors
    /// When the deadline of `budget` passes, or the counts kept at one time would exceed its
    /// memory limit.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default();
    /// let counts = Dfa::from_regex("[ab]{2,}|c")?.count_by_length(0..=3, &budget)?;
    /// assert_eq!(counts, [0u8, 1, 4, 8].map(Into::into));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_by_length(
        &self,
        lengths: RangeInclusive<usize>,
        budget: &Budget,
    ) -> Result<Vec<BigUint>, BudgetError> {
        count_by_length(self, lengths, budget)
    }
}

#[cfg(test)]
mod tests {
    use num_bigint::BigUint;

    use super::count_by_length;
    use crate::analysis::tests::minimal_and_determinized;
    use crate::{Budget, BudgetError, Dfa, Operation};

    #[track_caller]
    fn check(pattern: &str, lengths: std::ops::RangeInclusive<usize>, expected: &[u64]) {
        let expected: Vec<BigUint> = expected.iter().map(|&n| n.into()).collect();
        for dfa in minimal_and_determinized(pattern) {
            let counts = count_by_length(&dfa, lengths.clone(), &Budget::unlimited()).unwrap();
            assert_eq!(counts, expected, "{pattern} {lengths:?}");
        }
    }

    #[test]
    fn counts_each_length() {
        check("[ab]{2,}|c", 0..=4, &[0, 1, 4, 8, 16]);
        check("[ab]{2,}|c", 3..=3, &[8]);
        check("(ab|cd){0,3}", 0..=7, &[1, 0, 2, 0, 4, 0, 8, 0]);
        check("a*", 5..=7, &[1, 1, 1]);
        check("[]", 0..=2, &[0, 0, 0]);
        check("", 0..=2, &[1, 0, 0]);
        check("abc", 10..=12, &[0, 0, 0]);
        #[allow(clippy::reversed_empty_ranges)]
        check("a*", 3..=2, &[]);
    }

    #[test]
    fn counts_are_exact_beyond_machine_words() {
        let dfa = Dfa::from_regex(".*").unwrap();
        let counts = count_by_length(&dfa, 6..=6, &Budget::unlimited()).unwrap();
        assert_eq!(counts, [BigUint::from(1_112_064u32).pow(6)]);
    }

    #[test]
    fn long_ranges_stop_at_the_memory_limit() {
        let dfa = Dfa::from_regex(".*").unwrap();
        let budget = Budget::unlimited().with_max_memory(1 << 12);
        let err = count_by_length(&dfa, 0..=100_000, &budget).unwrap_err();
        assert!(matches!(err, BudgetError::TooMuchMemory { op: Operation::Cardinality, .. }));
    }
}
