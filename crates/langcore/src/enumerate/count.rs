//! Exact counts of strings and paths: a machine word while they fit, a big integer beyond.
//!
//! # Overview
//! The count tables of generation hold numbers of strings and paths, which overflow 128 bits
//! for long strings over big classes (`.{100}` has about 2^2000 strings), yet nearly every
//! count met in practice fits one `u128`. [`Count`] keeps such counts inline and falls back
//! to [`BigUint`] only beyond `u128::MAX`, so building a table and unranking allocate
//! nothing in the common case.
//!
//! Positions in an order (offsets, ranks below a page's end) fit a `u128`: they are at most
//! the offset (a `u64`) plus the limit. [`Count::saturated`] compares a count with one
//! exactly: a count above `u128::MAX` saturates to it, which is still above every position.
//!
//! # Invariants
//! - A value is [`Count::Small`] exactly when it fits a `u128`, so the derived equality is
//!   equality of values and `Small < Big` always holds.
//! - Subtraction requires the left side to be at least the right side (callers subtract
//!   what they know is part of a total).

use std::cmp::Ordering;
use std::ops::{AddAssign, Mul, Sub, SubAssign};

use num_bigint::BigUint;

use crate::analysis::heap_bytes;

/// A count of strings or paths, exact at every size.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Count {
    /// A count up to `u128::MAX`.
    Small(u128),
    /// A count above `u128::MAX`.
    Big(BigUint),
}

impl Count {
    pub(super) const ZERO: Count = Count::Small(0);
    pub(super) const ONE: Count = Count::Small(1);

    /// The count of value `big`, inline when it fits.
    pub(super) fn from_big(big: BigUint) -> Count {
        u128::try_from(&big).map_or(Count::Big(big), Count::Small)
    }

    /// The value as a big integer.
    pub(super) fn to_big(&self) -> BigUint {
        match self {
            Count::Small(small) => BigUint::from(*small),
            Count::Big(big) => big.clone(),
        }
    }

    /// The value, or `u128::MAX` when it is larger: exact for comparisons with positions.
    pub(super) fn saturated(&self) -> u128 {
        match self {
            Count::Small(small) => *small,
            Count::Big(_) => u128::MAX,
        }
    }

    pub(super) fn is_zero(&self) -> bool {
        *self == Count::ZERO
    }

    /// The bytes this count holds on the heap, for memory budgets.
    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Count::Small(_) => 0,
            Count::Big(big) => heap_bytes(big),
        }
    }
}

impl From<u128> for Count {
    fn from(small: u128) -> Count {
        Count::Small(small)
    }
}

impl Ord for Count {
    fn cmp(&self, other: &Count) -> Ordering {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => a.cmp(b),
            (Count::Small(_), Count::Big(_)) => Ordering::Less,
            (Count::Big(_), Count::Small(_)) => Ordering::Greater,
            (Count::Big(a), Count::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Count {
    fn partial_cmp(&self, other: &Count) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl AddAssign<&Count> for Count {
    fn add_assign(&mut self, other: &Count) {
        if let (Count::Small(a), Count::Small(b)) = (&*self, other)
            && let Some(sum) = a.checked_add(*b)
        {
            *self = Count::Small(sum);
            return;
        }
        *self = Count::Big(self.to_big() + other.to_big());
    }
}

impl SubAssign<&Count> for Count {
    fn sub_assign(&mut self, other: &Count) {
        *self = &*self - other;
    }
}

impl Sub<&Count> for &Count {
    type Output = Count;

    fn sub(self, other: &Count) -> Count {
        match (self, other) {
            (Count::Small(a), Count::Small(b)) => Count::Small(a - b),
            _ => Count::from_big(self.to_big() - other.to_big()),
        }
    }
}

impl Mul<u64> for &Count {
    type Output = Count;

    fn mul(self, factor: u64) -> Count {
        match self {
            Count::Small(small) => small
                .checked_mul(u128::from(factor))
                .map_or_else(|| Count::Big(BigUint::from(*small) * factor), Count::Small),
            Count::Big(big) => Count::Big(big * factor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(count: &Count) -> BigUint {
        count.to_big()
    }

    #[test]
    fn arithmetic_crosses_the_word_boundary_exactly() {
        let max = Count::from(u128::MAX);
        let mut sum = max.clone();
        sum += &Count::ONE;
        assert!(matches!(sum, Count::Big(_)));
        assert_eq!(big(&sum), BigUint::from(u128::MAX) + 1u8);
        assert_eq!(&sum - &Count::ONE, max, "back below the boundary is inline again");
        let product = &max * 3;
        assert_eq!(big(&product), BigUint::from(u128::MAX) * 3u8);
        assert_eq!(&Count::from(5) * 7, Count::from(35));
        let mut rest = product.clone();
        rest -= &max;
        assert_eq!(big(&rest), BigUint::from(u128::MAX) * 2u8);
    }

    #[test]
    fn order_and_saturation_agree_with_values() {
        let huge = Count::from_big(BigUint::from(u128::MAX) * 5u8);
        let values = [Count::ZERO, Count::from(7), Count::from(u128::MAX), huge.clone()];
        for a in &values {
            for b in &values {
                assert_eq!(a.cmp(b), big(a).cmp(&big(b)), "{a:?} vs {b:?}");
            }
        }
        assert_eq!(huge.saturated(), u128::MAX);
        assert_eq!(Count::from(9).saturated(), 9);
        assert_eq!(Count::from_big(BigUint::from(12u8)), Count::from(12));
    }
}
