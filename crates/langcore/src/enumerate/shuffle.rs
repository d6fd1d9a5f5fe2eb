//! Seeded bijections of `[0, n)`: the pseudo-random orders of shuffled generation.
//!
//! # Algorithm
//! [`Shuffles::new`] hashes its context words (a tag, the seed, and what the order is for)
//! into the state and stream of a [`Pcg64`]; each [`Shuffle`] drawn from it takes the next
//! [`ROUNDS`] round keys ([`Shuffle::new`] is the first one).
//! [`Shuffle::index`] (`n < 2^64`) is a Feistel network on the `b` bits, the fewest (at
//! least 2) that hold `n − 1`, split into a high part of `⌊b/2⌋` bits and a low part of
//! `⌈b/2⌉`: each round `H ^= F(k, L)`, then `L ^= F(k', H)`, where `F` is the top `|H|`
//! (or `|L|`) bits of the 64-bit product `(v ⊕ k) · φ` (Fibonacci hashing: two cheap
//! operations whose top bits depend on every bit of `v`), followed by cycle walking: the
//! network is applied again until the value falls below `n`. [`Shuffle::big_index`] (larger
//! `n`) is a balanced network on `2h` bits whose round function is `mix` (the SplitMix64
//! finalizer) chained over the 64-bit words of the half.
//!
//! Each round xors one part with a function of the other, so it is a bijection of
//! `[0, 2^b)` whatever the function, and cycle walking restricts a bijection of a superset
//! to a bijection of `[0, n)` (the walk from a value below `n` meets another one before it
//! could return to its start). As `2^b < 2n`, a walk takes fewer than 2 applications on
//! average (fewer than 4 for big numbers, `2^2h < 4n`): O(1) for `n < 2^64`, O(words of
//! `n`) otherwise. Black and Rogaway, "Ciphers with arbitrary finite domains"
//! (2002), give the construction; four rounds make it look random, not make it secure.
//!
//! # Invariants
//! A shuffle is a pure function of its context: no global or thread RNG, only [`Pcg64`]
//! (a fixed algorithm) and wrapping 64-bit arithmetic, so the same seed gives the same
//! orders on every platform and in every release that keeps this file's algorithm.
//!
//! # Budgets
//! None: each call is O(words of `n`) expected, and callers check the deadline per string.

use num_bigint::BigUint;
use rand::Rng as _;
use rand_pcg::Pcg64;

use super::count::Count;

/// The number of Feistel rounds.
const ROUNDS: usize = 4;

/// The SplitMix64 finalizer: a bijective mix of 64 bits.
pub(super) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seeded bijection of `[0, n)` for any `n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Shuffle {
    keys: [u64; ROUNDS],
}

/// The endless sequence of shuffles drawn for one context, each from the next round keys
/// of the same generator: the shuffles of a path's positions in one draw.
pub(super) struct Shuffles {
    rng: Pcg64,
}

impl Shuffles {
    /// The shuffles drawn for `context`; equal contexts give equal sequences.
    pub(super) fn new(context: &[u64]) -> Shuffles {
        // Four independent chains over the words: the digits of pi as starting points.
        let mut hash = [
            0x243F_6A88_85A3_08D3,
            0x1319_8A2E_0370_7344,
            0xA409_3822_299F_31D0,
            0x082E_FA98_EC4E_6C89,
        ];
        for &word in context {
            for lane in &mut hash {
                *lane = mix(*lane ^ word);
            }
        }
        let [state_hi, state_lo, stream_hi, stream_lo] = hash.map(u128::from);
        Shuffles { rng: Pcg64::new(state_hi << 64 | state_lo, stream_hi << 64 | stream_lo) }
    }

    /// The next shuffle of the sequence.
    pub(super) fn draw(&mut self) -> Shuffle {
        Shuffle { keys: std::array::from_fn(|_| self.rng.next_u64()) }
    }
}

impl Shuffle {
    /// The first shuffle drawn for `context`.
    pub(super) fn new(context: &[u64]) -> Shuffle {
        Shuffles::new(context).draw()
    }

    /// This shuffle on `[0, n)`, ready to apply to many values.
    pub(super) fn on(self, n: u64) -> Permutation {
        // The fewest bits holding `n - 1`, split into a high and a low part, so the walk
        // stays in a domain below `2n`.
        let bits = (u64::BITS - n.saturating_sub(1).leading_zeros()).max(2);
        let low_bits = bits.div_ceil(2);
        let high_bits = bits - low_bits;
        let low_mask = (1u64 << low_bits) - 1;
        let shifts = (u64::BITS - high_bits, u64::BITS - low_bits);
        Permutation { keys: self.keys, n, low_bits, low_mask, shifts }
    }

    /// The image of `x` under this shuffle of `[0, n)`; requires `x < n`.
    pub(super) fn index(&self, x: u64, n: u64) -> u64 {
        self.clone().on(n).apply(x)
    }

    /// The image of position `x` under this shuffle of `[0, n)`; requires `x < n`. Inline
    /// arithmetic when `n` fits a `u64`, [`Shuffle::big_index`] otherwise.
    pub(super) fn rank(&self, x: u128, n: &Count) -> Count {
        if let (Ok(small_x), Ok(small_n)) = (u64::try_from(x), u64::try_from(n.saturated())) {
            return Count::from(u128::from(self.index(small_x, small_n)));
        }
        Count::from_big(self.big_index(&x.into(), &n.to_big()))
    }

    /// [`Shuffle::index`] for big numbers; equal to it when `n` fits in a `u64`.
    pub(super) fn big_index(&self, x: &BigUint, n: &BigUint) -> BigUint {
        debug_assert!(x < n);
        if let (Ok(small_x), Ok(small_n)) = (u64::try_from(x), u64::try_from(n)) {
            return self.index(small_x, small_n).into();
        }
        let half = (n - 1u8).bits().div_ceil(2);
        let mask = (BigUint::from(1u8) << half) - 1u8;
        let mut y = x.clone();
        loop {
            let (mut left, mut right) = (&y >> half, &y & &mask);
            for &key in &self.keys {
                let round = big_round(key, &right, half) & &mask;
                (left, right) = (right, left ^ round);
            }
            y = left << half | right;
            if y < *n {
                return y;
            }
        }
    }
}

/// A [`Shuffle`] on one domain `[0, n)`, `n < 2^64`: the Feistel network of the module
/// docs with its split computed once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Permutation {
    keys: [u64; ROUNDS],
    n: u64,
    low_bits: u32,
    low_mask: u64,
    /// What leaves the top `|H|` and `|L|` bits of a 64-bit product.
    shifts: (u32, u32),
}

impl Permutation {
    /// The only permutation of a single value.
    pub(super) const SINGLE: Permutation =
        Permutation { keys: [0; ROUNDS], n: 1, low_bits: 1, low_mask: 1, shifts: (63, 63) };

    /// The image of `x`; requires `x < n`.
    pub(super) fn apply(&self, x: u64) -> u64 {
        debug_assert!(x < self.n);
        if self.n <= 1 {
            return x;
        }
        let mut y = x;
        loop {
            let (mut high, mut low) = (y >> self.low_bits, y & self.low_mask);
            for pair in self.keys.chunks_exact(2) {
                high ^= round(pair[0], low) >> self.shifts.0;
                low ^= round(pair[1], high) >> self.shifts.1;
            }
            y = high << self.low_bits | low;
            if y < self.n {
                return y;
            }
        }
    }
}

/// The round function of [`Permutation`]: Fibonacci hashing of `v ⊕ k`, whose top bits
/// depend on every bit of `v` (the caller keeps as many as it needs).
fn round(key: u64, v: u64) -> u64 {
    (v ^ key).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The round function on big halves: `mix` chained over the words of `right` from `key`,
/// then expanded to `half` bits (before masking) by mixing a counter into the result.
fn big_round(key: u64, right: &BigUint, half: u64) -> BigUint {
    let hash = right.iter_u64_digits().fold(key, |hash, digit| mix(hash ^ digit));
    let n_words = half.div_ceil(64);
    let bytes: Vec<u8> = (0..n_words)
        .flat_map(|word| mix(hash ^ word.wrapping_mul(0x9E37_79B9_7F4A_7C15)).to_le_bytes())
        .collect();
    BigUint::from_bytes_le(&bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `f` is a bijection of `[0, n)`.
    #[track_caller]
    fn assert_bijection(n: u64, f: impl Fn(u64) -> u64) {
        let mut seen = vec![false; usize::try_from(n).unwrap()];
        for x in 0..n {
            let y = f(x);
            assert!(y < n, "{x} ↦ {y} outside [0, {n})");
            assert!(!std::mem::replace(&mut seen[y as usize], true), "{y} hit twice");
        }
    }

    #[test]
    fn small_domains_are_permuted() {
        for n in [1, 2, 3, 4, 5, 26, 64, 100, 1000, 4097] {
            for seed in 0..4 {
                let shuffle = Shuffle::new(&[seed, n]);
                assert_bijection(n, |x| shuffle.index(x, n));
                assert_bijection(n, |x| {
                    u64::try_from(&shuffle.big_index(&x.into(), &n.into())).unwrap()
                });
            }
        }
    }

    #[test]
    fn big_domains_are_permuted() {
        // n = 2^70 + 3 and n = 3^45: map a window of values and check distinctness and range.
        for n in [(BigUint::from(1u8) << 70u32) + 3u8, BigUint::from(3u8).pow(45)] {
            let shuffle = Shuffle::new(&[7]);
            let mut images: Vec<BigUint> = (0..2000u32)
                .map(|x| shuffle.big_index(&(&n - 1u8 - x), &n))
                .inspect(|y| assert!(*y < n))
                .collect();
            images.sort();
            images.dedup();
            assert_eq!(images.len(), 2000);
        }
    }

    #[test]
    fn seeds_give_different_orders_and_stable_values() {
        let orders: Vec<Vec<u64>> = (0..8)
            .map(|seed| {
                let shuffle = Shuffle::new(&[seed]);
                (0..26).map(|x| shuffle.index(x, 26)).collect()
            })
            .collect();
        for (i, order) in orders.iter().enumerate() {
            assert!(!orders[..i].contains(order), "seed {i} repeats an order");
        }
        // Fixed values: a change here changes every shuffled output, which breaks paging
        // across releases; do it on purpose only.
        assert_eq!(orders[0][..6], [11, 7, 1, 17, 2, 14]);
    }
}
