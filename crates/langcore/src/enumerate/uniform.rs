//! The uniform order: [`PathOrder::Shuffled`](super::PathOrder::Shuffled) with
//! [`CharOrder::Shuffled`](super::CharOrder::Shuffled), a seeded random permutation of the
//! whole language within the length band.
//!
//! # Overview
//! With `N` the number of strings of the language with a length in the band, the string at
//! position `k` is the string of rank `π(k)`, where `π` is a [`Shuffle`] of `[0, N)` drawn
//! from the seed, and strings are ranked in the *reflected sweep order*: by length, then
//! path (lexicographically), then within a path by the odometer read with the first
//! position least significant (`[ab]{2}`: `aa`, `ba`, `ab`, `bb`), which unranks without
//! rebuilding an index ([`locate`]). So every prefix of the sequence is a sample without
//! replacement in which every string is equally likely (as far as `π` looks random):
//! `a{0,100}` gives strings of every length in proportion to their number, not short ones
//! first.
//!
//! # Algorithm
//! The count tables cover the whole band (`N` needs every length), O(max_length × edges)
//! count operations. Each string then costs `π(k)`: O(1) expected for `N ≤ 2^128`, O(words
//! of `N`) beyond, and unranking: O(length × edges) operations on `u128`, or on big
//! integers when `N` exceeds 2^128 (`.{100}`). The cost of a string does not depend on the
//! offset.
//!
//! # Invariants
//! `π` is a bijection of `[0, N)` and unranking is a bijection onto the band's strings, so
//! pages tile the permutation without gaps or repeats, and equal languages and options give
//! equal pages.
//!
//! # Budgets
//! [`Operation::Generate`]: the deadline once per [`STRINGS_PER_CHECK`] strings (and the
//! count tables check their own).

use num_bigint::BigUint;

use super::count::Count;
use super::options::GenerateOptions;
use super::path::{Step, spell_digits};
use super::position::Position;
use super::shuffle::Shuffle;
use super::sweep::locate;
use super::{Catalog, STRINGS_PER_CHECK, page};
use crate::budget::{Budget, BudgetError, Operation};

/// The [`Shuffle`] context tag of the uniform order.
pub(super) const UNIFORM_TAG: u64 = u64::from_be_bytes(*b"\0uniform");

/// Up to `options.limit()` strings of `language` in the uniform order, from
/// `options.offset()`.
pub(super) fn generate(
    language: &Catalog,
    options: &GenerateOptions,
    budget: &Budget,
) -> Result<Vec<String>, BudgetError> {
    let mut out = page(options);
    let start = language.routes.start();
    let mut total = Count::ZERO;
    for length in language.lengths() {
        total += &language.counts.cell(start, length).strings;
    }
    let shuffle = Shuffle::new(&[UNIFORM_TAG, options.seed()]);
    let mut permutation = match &total {
        // Never zero: the language has a string in the band.
        Count::Small(n) => Ok(shuffle.on_last(n.saturating_sub(1))),
        Count::Big(n) => Err(shuffle.on_big(n)),
    };
    let mut unranker = Unranker::default();
    let mut position = u128::from(options.offset());
    while out.len() < options.limit() && Count::from(position) < total {
        if out.len().is_multiple_of(STRINGS_PER_CHECK) {
            budget.check_time(Operation::Generate)?;
        }
        let string = match &mut permutation {
            Ok(permutation) => unranker.string_at(language, permutation.apply(position)),
            Err(permutation) => {
                let rank = permutation.apply(&BigUint::from(position));
                unranker.string_at::<BigUint>(language, rank)
            }
        };
        // The rank is below the total, so the string exists.
        out.extend(string);
        position += 1;
    }
    Ok(out)
}

/// The buffers of unranking, reused across a page (and a sample, `sample.rs`).
#[derive(Default)]
pub(super) struct Unranker {
    steps: Vec<Step>,
    digits: Vec<u64>,
}

impl Unranker {
    /// The string at position `rank` of the reflected sweep order (see [`locate`]).
    pub(super) fn string_at<N: Position>(&mut self, catalog: &Catalog, rank: N) -> Option<String> {
        locate(catalog, rank, &mut self.steps, &mut self.digits)?;
        let (routes, steps) = (&catalog.routes, &self.steps);
        // Each digit is below its edge's size, so the member exists.
        let member = |position: usize, digit: u64| {
            routes.nth(steps[position].edge(routes), digit).unwrap_or_default()
        };
        Some(spell_digits(&mut self.digits, member))
    }
}
