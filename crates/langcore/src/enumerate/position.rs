//! Positions in an order: machine words while the language is small, big integers beyond.
//!
//! # Overview
//! Unranking walks a position down the count tables: it compares it with block sizes,
//! subtracts them and splits it into digits. [`Position`] is what that walk needs, for
//! `u128` (offsets and ranks below 2^128, compared with saturated counts, exact as
//! `count.rs` explains) and for [`BigUint`] (ranks of a uniform order of a language with
//! more than 2^128 strings).
//!
//! # Invariants
//! - `u128` positions are below `u128::MAX`, so saturated block sizes compare exactly.
//! - Arithmetic stays below the position it starts from (remainders and quotients), so
//!   nothing overflows.

use std::ops::SubAssign;

use num_bigint::BigUint;

use super::count::Count;

/// A position or rank in an order (see the module docs).
pub(super) trait Position: Sized + PartialOrd + for<'n> SubAssign<&'n Self> {
    /// `count · factor` as a position: saturated for `u128`, exact for big integers.
    fn scaled(count: &Count, factor: u64) -> Self;

    /// Divides this position by `divisor` (at least 1) and returns the remainder.
    fn div_rem(&mut self, divisor: u64) -> u64;

    /// This big position as a `u128` when it fits (below `u128::MAX`, so that saturated
    /// counts compare exactly): the rest of an unranking is then cheaper. `None` for `u128`.
    fn narrowed(&self) -> Option<u128>;
}

impl Position for u128 {
    fn scaled(count: &Count, factor: u64) -> Self {
        count.saturated().saturating_mul(u128::from(factor))
    }

    fn div_rem(&mut self, divisor: u64) -> u64 {
        // 64-bit division is several times cheaper than 128-bit division.
        if let Ok(small) = u64::try_from(*self) {
            *self = u128::from(small / divisor);
            return small % divisor;
        }
        let remainder = *self % u128::from(divisor);
        *self /= u128::from(divisor);
        // Below the divisor, a u64.
        u64::try_from(remainder).unwrap_or_default()
    }

    fn narrowed(&self) -> Option<u128> {
        None
    }
}

impl Position for BigUint {
    fn scaled(count: &Count, factor: u64) -> Self {
        count.to_big() * factor
    }

    fn div_rem(&mut self, divisor: u64) -> u64 {
        if let Ok(half_word) = u32::try_from(divisor) {
            // num-bigint divides by a half word in place, without a big divisor.
            let remainder = &*self % half_word;
            *self /= half_word;
            // Below the divisor, a u32.
            return remainder.iter_u64_digits().next().unwrap_or(0);
        }
        // Long division by one word: each step divides a remainder below the divisor
        // followed by one word, so the quotient word fits a u64.
        let mut words = self.to_u64_digits();
        let divisor = u128::from(divisor);
        let mut remainder = 0u128;
        for word in words.iter_mut().rev() {
            let dividend = remainder << 64 | u128::from(*word);
            (*word, remainder) = ((dividend / divisor) as u64, dividend % divisor);
        }
        let halves = words.iter().flat_map(|&word| [word as u32, (word >> 32) as u32]);
        self.assign_from_slice(&halves.collect::<Vec<u32>>());
        // Below the divisor, a u64.
        remainder as u64
    }

    fn narrowed(&self) -> Option<u128> {
        u128::try_from(self).ok().filter(|&small| small < u128::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splits `value` into digits of `radices` in both representations.
    #[test]
    fn words_and_big_integers_agree() {
        let radices = [26, 1, 7, 1_112_064, 10, u64::MAX];
        for value in [0u128, 1, 12_345_678_901_234, u128::from(u64::MAX) * 1_000 + 17] {
            let (mut small, mut big) = (value, BigUint::from(value));
            let mut rebuilt = 0u128;
            for (place, &radix) in radices.iter().enumerate() {
                let digit = small.div_rem(radix);
                assert_eq!(digit, big.div_rem(radix), "{value} at {place}");
                assert_eq!(BigUint::from(small), big);
                let scale: u128 = radices[..place].iter().map(|&r| u128::from(r)).product();
                rebuilt += u128::from(digit) * scale;
                if small == 0 {
                    break;
                }
            }
            assert_eq!(rebuilt, value);
        }
        let huge = Count::from_big(BigUint::from(u128::MAX) * 3u8);
        assert_eq!(u128::scaled(&huge, 2), u128::MAX);
        assert_eq!(BigUint::scaled(&huge, 2), BigUint::from(u128::MAX) * 6u8);
        assert_eq!(u128::scaled(&Count::from(5), 3), 15);
        assert_eq!(BigUint::from(5u8).narrowed(), Some(5));
        assert_eq!(BigUint::from(u128::MAX).narrowed(), None, "saturated: not exact");
        assert_eq!(7u128.narrowed(), None);
    }
}
