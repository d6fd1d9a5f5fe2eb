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
//!   P(start, ℓ)), it is in round 0. O(lengths) operations.
//! - Otherwise, with S(k) the number of strings before round `k`: while `k` is at most the
//!   fewest strings `m` of any path, every path takes part, S(k) = k · P, so the round is
//!   `offset div P` when that is below `m` (O(1): `[a-z]{6}` at offset 10^7 is round 10^7 of
//!   its one path). Beyond, a binary search over `k` in `[m, offset]` ([`Thresholds`])
//!   finds the round with S(k) ≤ offset < S(k + 1): O(log offset) threshold queries.
//!
//! Each string then costs one unranking: the `i`-th path of a length among those with more
//! than `k` strings, descending edge by edge and skipping, at each node, the paths through
//! earlier edges with more than `⌊k / product so far⌋` strings, then the `k`-th odometer
//! value of that path. In round 0 the counts are the path counts P, so a page costs
//! O(limit × length × edges) count operations whatever the offset; later rounds go
//! through [`Thresholds`] (see its cost). A shuffled order maps the index through the
//! length's shuffle first, O(words of P) expected. While every path of a length takes part
//! in the round, a path depends on its rank only, and a page that spans several rounds
//! spells each path once ([`Speller`]).
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
//! [`Operation::Generate`]: the deadline once per [`STRINGS_PER_CHECK`] strings, and whatever [`Thresholds`]
//! checks.

use std::collections::hash_map::Entry;
use std::ops::SubAssign;

use rustc_hash::FxHashMap as HashMap;

use super::count::Count;
use super::options::{GenerateOptions, PathOrder};
use super::path::{Spelling, Step};
use super::shuffle::Shuffle;
use super::tables::Edge;
use super::threshold::Thresholds;
use super::{Catalog, STRINGS_PER_CHECK, find_block, page};
use crate::budget::{Budget, BudgetError, Operation};

/// The [`Shuffle`] context tag of path orders.
pub(super) const PATH_ORDER_TAG: u64 = u64::from_be_bytes(*b"\0\0\0paths");

/// Up to `options.limit()` strings of `language` in interleave or shuffled order, from
/// `options.offset()`.
pub(super) fn generate(
    language: &Catalog,
    options: &GenerateOptions,
    budget: &Budget,
) -> Result<Vec<String>, BudgetError> {
    let mut thresholds = Thresholds::new(language, budget);
    let mut out = page(options);
    let Some(mut turn) = Turn::at(language, &mut thresholds, options.offset())? else {
        return Ok(out);
    };
    // The shuffle of the current length's paths, drawn again only when the length changes.
    let mut shuffle = (turn.length, length_shuffle(options, turn.length));
    let mut speller = Speller::new(language, options);
    let mut digits = Vec::new();
    loop {
        if out.len().is_multiple_of(STRINGS_PER_CHECK) {
            budget.check_time(Operation::Generate)?;
        }
        let rank = match options.path_order() {
            PathOrder::Shuffled => {
                if shuffle.0 != turn.length {
                    shuffle = (turn.length, length_shuffle(options, turn.length));
                }
                shuffle.1.rank(turn.index, &turn.n_paths)
            }
            PathOrder::Sweep | PathOrder::Interleave => Count::from(turn.index),
        };
        let spelling = speller.spelling(&mut thresholds, &turn, rank)?;
        spelling.digits(turn.round, &mut digits);
        out.push(spelling.spell(&language.routes, &digits));
        if out.len() >= options.limit() || !turn.advance(language, &mut thresholds)? {
            return Ok(out);
        }
    }
}

/// The most paths a page keeps spelled for reuse (each holds its edges and permutations).
const MAX_SPELLED: usize = 256;

/// Finds and spells the path of each turn of a page.
///
/// Below the fewest strings of any path of its length, a round holds every path of that
/// length, so a path depends only on its length and rank. A page longer than a round (a
/// language with fewer paths than the page has strings) meets the same paths again: then
/// each is spelled once and kept, up to [`MAX_SPELLED`].
struct Speller<'a> {
    language: &'a Catalog,
    options: &'a GenerateOptions,
    revisits: bool,
    spelled: HashMap<(usize, Count), Spelling>,
    /// Buffers for paths that are not kept.
    steps: Vec<Step>,
    spelling: Spelling,
}

impl<'a> Speller<'a> {
    fn new(language: &'a Catalog, options: &'a GenerateOptions) -> Speller<'a> {
        let paths_in_round = language.total(|cell| &cell.paths);
        let revisits =
            paths_in_round < options.limit() as u128 && paths_in_round <= MAX_SPELLED as u128;
        Speller {
            language,
            options,
            revisits,
            spelled: HashMap::default(),
            steps: Vec::new(),
            spelling: Spelling::default(),
        }
    }

    /// The spelling of the path with rank `rank` at `turn`.
    fn spelling(
        &mut self,
        thresholds: &mut Thresholds<'_>,
        turn: &Turn,
        rank: Count,
    ) -> Result<&Spelling, BudgetError> {
        let (language, routes) = (self.language, &self.language.routes);
        let every_path = turn.round < language.counts.cell(routes.start(), turn.length).min_product;
        if !(self.revisits && every_path) {
            path_with_rank(language, thresholds, turn, rank, &mut self.steps)?;
            self.spelling.set_path(routes, &self.steps, self.options);
            return Ok(&self.spelling);
        }
        Ok(match self.spelled.entry((turn.length, rank)) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => {
                let rank = new.key().1.clone();
                path_with_rank(language, thresholds, turn, rank, &mut self.steps)?;
                new.insert(Spelling::new(routes, &self.steps, self.options))
            }
        })
    }
}

/// The order of the paths of `length` in [`PathOrder::Shuffled`].
fn length_shuffle(options: &GenerateOptions, length: usize) -> Shuffle {
    Shuffle::new(&[PATH_ORDER_TAG, options.seed(), u64::try_from(length).unwrap_or(u64::MAX)])
}

/// A position in round order.
struct Turn {
    round: u128,
    length: usize,
    /// The index among the paths of `length` in `round`: at most the offset plus the limit.
    index: u128,
    /// The number of paths of `length` in `round`: those with more than `round` strings.
    n_paths: Count,
}

impl Turn {
    /// The position at `offset`, or `None` past the last string.
    fn at(
        language: &Catalog,
        thresholds: &mut Thresholds<'_>,
        offset: u64,
    ) -> Result<Option<Turn>, BudgetError> {
        let start = language.routes.start();
        let offset = u128::from(offset);
        let first_round = language.total(|cell| &cell.paths);
        let total = language.total(|cell| &cell.strings);
        // The strings of the path with fewest: every path has a string in each round before.
        let fewest = language
            .lengths()
            .map(|length| language.counts.cell(start, length).min_product)
            .min()
            .unwrap_or(u128::MAX);
        let (round, mut rest) = if offset < first_round {
            (0, offset)
        } else if offset >= total {
            return Ok(None);
        } else if let Some(round) = offset.checked_div(first_round).filter(|&round| round < fewest)
        {
            // Every path takes part in the rounds up to this one: S(k) = k · paths there.
            (round, offset % first_round)
        } else {
            // S(low) <= offset < S(high): S(fewest) = fewest · paths, and S(offset + 1)
            // exceeds the offset (a path with more strings contributes offset + 1, and
            // otherwise S is the total).
            let (mut low, mut high) = (fewest.max(1), offset + 1);
            while high - low > 1 {
                let middle = low + (high - low) / 2;
                if thresholds.strings_before(middle)? <= offset {
                    low = middle;
                } else {
                    high = middle;
                }
            }
            (low, offset - thresholds.strings_before(low)?)
        };
        let n_paths = |&length: &usize| {
            thresholds.paths_above(start, length, round).map(|paths| paths.saturated())
        };
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
        language: &Catalog,
        thresholds: &mut Thresholds<'_>,
    ) -> Result<bool, BudgetError> {
        self.index += 1;
        if self.index < self.n_paths.saturated() {
            return Ok(true);
        }
        let start = language.routes.start();
        let later_lengths = language.lengths().skip_while(|&length| length <= self.length);
        let next_round_lengths = language.lengths().map(|length| (self.round + 1, length));
        for (round, length) in
            later_lengths.map(|length| (self.round, length)).chain(next_round_lengths)
        {
            let n_paths = thresholds.paths_above(start, length, round)?;
            if !n_paths.is_zero() {
                *self = Turn { round, length, index: 0, n_paths: n_paths.into_owned() };
                return Ok(true);
            }
        }
        Ok(false)
    }
}

/// Sets `steps` to the path of `turn.length` with lexicographic rank `rank` among those with
/// more than `turn.round` strings.
fn path_with_rank(
    language: &Catalog,
    thresholds: &mut Thresholds<'_>,
    turn: &Turn,
    rank: Count,
    steps: &mut Vec<Step>,
) -> Result<(), BudgetError> {
    steps.clear();
    match rank {
        // Below u128::MAX, saturated counts rank exactly (see `count.rs`), with no big
        // integer in sight: the case of every language with fewer than 2^128 paths.
        Count::Small(rank) if rank < u128::MAX => {
            descend(language, thresholds, turn, (rank, Count::saturated), steps)
        }
        rank => descend(language, thresholds, turn, (rank, Count::clone), steps),
    }
}

/// [`path_with_rank`] with positions of type `N`, made from counts by `position`.
fn descend<N, P>(
    language: &Catalog,
    thresholds: &mut Thresholds<'_>,
    turn: &Turn,
    (mut rank, position): (N, P),
    steps: &mut Vec<Step>,
) -> Result<(), BudgetError>
where
    N: PartialOrd + for<'n> SubAssign<&'n N>,
    P: Fn(&Count) -> N,
{
    let routes = &language.routes;
    let mut node = routes.start();
    // The strings the rest of the path needs more than of.
    let mut threshold = turn.round;
    for remaining in (0..turn.length).rev() {
        if threshold < language.counts.cell(node, remaining + 1).min_product {
            // Every path from here has more strings, and so every continuation qualifies
            // at its own threshold: plain path counts rank the rest.
            threshold = 0;
        }
        let edges = routes.edges(node).iter().enumerate();
        let n_paths = |&(_, edge): &(usize, &Edge)| match threshold {
            // The common case, inline: every path qualifies, P counts them.
            0 => Ok(position(&language.counts.cell(edge.target, remaining).paths)),
            _ => thresholds
                .paths_above(edge.target, remaining, threshold / u128::from(edge.size))
                .map(|paths| position(&paths)),
        };
        // The rank is below the number of qualifying paths from here, so an edge holds it.
        let Some((edge_idx, edge)) = find_block(edges, &mut rank, n_paths)? else { break };
        steps.push(Step { node, edge: edge_idx });
        if threshold != 0 {
            threshold /= u128::from(edge.size);
        }
        node = edge.target;
    }
    Ok(())
}
