//! Interleave and shuffled path orders: rounds in which every remaining path gives one string.
//!
//! # Overview
//! Round `k` holds the `k`-th string (in the character order) of every path that has more
//! than `k` strings. Inside a round, shorter paths come first; within one length the paths
//! come in lexicographic order ([`PathOrder::Interleave`]) or in the order of a [`Shuffle`]
//! drawn from the seed and the length ([`PathOrder::Shuffled`]), applied to their
//! lexicographic ranks among the paths of that length still in the round.
//!
//! # Algorithm
//! A position in the order is (round, length, index within the length). Finding the one at
//! an offset:
//! - Round 0 holds every path once: if the offset is below the number of paths (the sum of
//!   P(start, ℓ)), it is in round 0. O(lengths) big-integer operations.
//! - Otherwise, with S(k) the number of strings before round `k` ([`Thresholds`]), a binary
//!   search over `k` in `[1, offset]` finds the round with S(k) ≤ offset < S(k + 1):
//!   O(log offset) threshold queries.
//!
//! Each string then costs one unranking: the `i`-th path of a length among those with more
//! than `k` strings, descending edge by edge and skipping, at each node, the paths through
//! earlier edges with more than `⌊k / product so far⌋` strings, then the `k`-th odometer
//! value of that path. In round 0 the counts are the path counts P, so a page costs
//! O(limit × length × edges) big-integer operations whatever the offset; later rounds go
//! through [`Thresholds`] (see its cost). A shuffled order maps the index through the
//! length's shuffle first, O(words of P) expected.
//!
//! # Invariants
//! - A round's paths of one length are ranked among themselves, so the shuffle of a round
//!   is a bijection of exactly those paths: no gaps, no repeats. Rounds with the same paths
//!   (round 0 and every round before the first path runs out) list them in the same order;
//!   once paths run out, the rest may come in another order.
//! - When no path has more than `k` strings, no later round has any path either, so the
//!   order ends there.
//!
//! # Budgets
//! [`Operation::Generate`]: the deadline once per string, and whatever [`Thresholds`]
//! checks.

use num_bigint::BigUint;

use super::options::{GenerateOptions, PathOrder};
use super::path::{Spelling, Step, digits_of};
use super::shuffle::Shuffle;
use super::threshold::Thresholds;
use super::{Language, find_block};
use crate::budget::{Budget, BudgetError, Operation};

/// The [`Shuffle`] context tag of path orders.
pub(super) const PATH_ORDER_TAG: u64 = u64::from_be_bytes(*b"\0\0\0paths");

/// Up to `options.limit()` strings of `language` in interleave or shuffled order, from
/// `options.offset()`.
pub(super) fn generate(
    language: &Language,
    options: &GenerateOptions,
    budget: &Budget,
) -> Result<Vec<String>, BudgetError> {
    let mut thresholds = Thresholds::new(language, budget);
    let mut out = Vec::new();
    let Some(mut turn) = Turn::at(language, &mut thresholds, options.offset())? else {
        return Ok(out);
    };
    loop {
        budget.check_time(Operation::Generate)?;
        let rank = match options.path_order() {
            PathOrder::Shuffled => {
                let length = u64::try_from(turn.length).unwrap_or(u64::MAX);
                let shuffle = Shuffle::new(&[PATH_ORDER_TAG, options.seed(), length]);
                shuffle.big_index(&turn.index, &turn.n_paths)
            }
            PathOrder::Sweep | PathOrder::Interleave => turn.index.clone(),
        };
        let steps = path_with_rank(language, &mut thresholds, &turn, rank)?;
        let digits = digits_of(&language.routes, &steps, turn.round);
        out.push(Spelling::new(&steps, options).spell(&language.routes, &steps, &digits));
        if out.len() >= options.limit() || !turn.advance(language, &mut thresholds)? {
            return Ok(out);
        }
    }
}

/// A position in round order.
struct Turn {
    round: u128,
    length: usize,
    /// The index among the paths of `length` in `round`.
    index: BigUint,
    /// The number of paths of `length` in `round`: those with more than `round` strings.
    n_paths: BigUint,
}

impl Turn {
    /// The position at `offset`, or `None` past the last string.
    fn at(
        language: &Language,
        thresholds: &mut Thresholds<'_>,
        offset: u64,
    ) -> Result<Option<Turn>, BudgetError> {
        let start = language.routes.start();
        let offset_big = BigUint::from(offset);
        let first_round: BigUint =
            language.lengths().map(|length| &language.counts.cell(start, length).paths).sum();
        let total: BigUint =
            language.lengths().map(|length| &language.counts.cell(start, length).strings).sum();
        let (round, mut rest) = if offset_big < first_round {
            (0, offset_big)
        } else if offset_big >= total {
            return Ok(None);
        } else {
            // S(low) <= offset < S(high): S(1) is the first round's size, and S(offset + 1)
            // exceeds the offset (a path with more strings contributes offset + 1, and
            // otherwise S is the total).
            let (mut low, mut high) = (1, u128::from(offset) + 1);
            while high - low > 1 {
                let middle = low + (high - low) / 2;
                if thresholds.strings_before(middle)? <= offset_big {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            (low, offset_big - thresholds.strings_before(low)?)
        };
        let n_paths = |&length: &usize| thresholds.paths_above(start, length, round);
        let Some(length) = find_block(language.lengths(), &mut rest, n_paths)? else {
            return Ok(None);
        };
        let n_paths = thresholds.paths_above(start, length, round)?.into_owned();
        Ok(Some(Turn { round, length, index: rest, n_paths }))
    }

    /// Moves to the next position: the next path of the length, the first path of the
    /// next length in the round, or the first path of the next round. `false` at the end.
    fn advance(
        &mut self,
        language: &Language,
        thresholds: &mut Thresholds<'_>,
    ) -> Result<bool, BudgetError> {
        self.index += 1u8;
        if self.index < self.n_paths {
            return Ok(true);
        }
        let start = language.routes.start();
        let later_lengths = language.lengths().skip_while(|&length| length <= self.length);
        let next_round_lengths = language.lengths().map(|length| (self.round + 1, length));
        for (round, length) in
            later_lengths.map(|length| (self.round, length)).chain(next_round_lengths)
        {
            let n_paths = thresholds.paths_above(start, length, round)?;
            if *n_paths != BigUint::ZERO {
                *self = Turn { round, length, index: BigUint::ZERO, n_paths: n_paths.into_owned() };
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// The path of `turn.length` with lexicographic rank `rank` among those with more than
/// `turn.round` strings.
fn path_with_rank(
    language: &Language,
    thresholds: &mut Thresholds<'_>,
    turn: &Turn,
    mut rank: BigUint,
) -> Result<Vec<Step>, BudgetError> {
    let routes = &language.routes;
    let mut steps = Vec::with_capacity(turn.length);
    let mut node = routes.start();
    // The strings the rest of the path needs more than of.
    let mut threshold = turn.round;
    for remaining in (0..turn.length).rev() {
        let edges = routes.edges(node).iter().enumerate();
        let n_paths = |&(_, edge): &(usize, &super::counts::Edge)| {
            thresholds.paths_above(edge.target, remaining, threshold / u128::from(edge.size))
        };
        // The rank is below the number of qualifying paths from here, so an edge holds it.
        let Some((edge_idx, edge)) = find_block(edges, &mut rank, n_paths)? else { break };
        steps.push(Step { node, edge: edge_idx });
        threshold /= u128::from(edge.size);
        node = edge.target;
    }
    Ok(steps)
}
