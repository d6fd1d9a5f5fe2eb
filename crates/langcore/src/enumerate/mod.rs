//! String generation: the strings of a language in a documented order, one page at a time.
//!
//! # Overview
//! [`Dfa::generate`] delegates to [`generate`], which returns the strings at positions
//! `offset .. offset + limit` of an order fixed by the language and the
//! [`GenerateOptions`]. One concept per file:
//! - `options.rs`: [`GenerateOptions`], [`PathOrder`], [`CharOrder`].
//! - `count.rs`: [`count::Count`], exact counts that stay machine words while they fit.
//! - `tables.rs`: the labelled edges of the DFA, and the tables W (strings) and P (paths)
//!   per node and remaining length.
//! - `path.rs`: a path's odometer and the characters it spells in either character order.
//! - `sweep.rs`: [`PathOrder::Sweep`].
//! - `rounds.rs`: [`PathOrder::Interleave`] and [`PathOrder::Shuffled`] with ascending
//!   characters; `threshold.rs` counts paths by their number of strings, for rounds after
//!   the first.
//! - `uniform.rs`: both orders shuffled, a uniform random permutation of the band.
//! - `sample.rs`: uniform random samples with replacement, [`SampleMode`], by the ranks of
//!   the uniform order.
//! - `position.rs`: positions in an order, `u128` or big integers.
//! - `shuffle.rs`: the seeded bijections behind every shuffled order.
//! - `window.rs`: pages from an NFA whose DFA does not fit, restricted to the length band
//!   and determinized only where the page reaches, with orders of its own;
//!   [`Language::generate`](crate::Language::generate) chooses. Without the minimal DFA
//!   there are no paths, so: shortlex for sweep and interleave with ascending
//!   characters; for every shuffled order, seeded draws (a length uniformly among those
//!   holding strings, then each character uniformly among those that can complete one;
//!   distinct strings in the order first drawn), which are *not* the uniform order of
//!   the semantics below: a short string in a band of long ones comes early.
//!
//! # Semantics
//! 1. The language is first restricted to the charset (intersected with `[charset]*`) and
//!    made canonical (minimized), so the output depends only on the language and the
//!    options, never on how a term was written: equivalent terms give identical sequences.
//!    The length band is *not* intersected into the automaton: lengths are selected by
//!    counting per length, which is cheaper. (So two languages that agree only inside the
//!    band may give different sequences; equal languages never do.)
//! 2. A *path* is a sequence of edges from the start to an accepting state of that DFA,
//!    where an edge is the set of all characters leading from one useful state to the
//!    same useful state. A string lies on exactly one path; a path's strings are the
//!    product of its edges. Within one length, paths are ordered lexicographically by
//!    their edges, and a state's edges by their smallest character.
//! 3. Sweep: lengths ascending, paths lexicographically, each path expanded completely
//!    as an odometer (first position most significant). Interleave, and shuffled paths
//!    with ascending characters: rounds, see `rounds.rs`. The character order maps the
//!    index of a string inside its path to the odometer value spelled: ascending
//!    (identity) or a seeded bijection of the path's whole index space (`shuffle.rs`).
//!    Both shuffled: the uniform order, a seeded permutation of all the band's strings
//!    (`uniform.rs`).
//! 4. Only strings with a length in `[min_length, max_length]` and every character in the
//!    charset exist for the order, so they alone count for `offset`. `max_length <
//!    min_length`, `limit` 0 and an offset past the end give no strings; an infinite
//!    language stops at `max_length`.
//!
//! # Algorithm
//! Preparation: the restriction (one product and minimization with a charset; nothing when
//! the DFA is canonical already), the nodes and edges read off the canonical DFA (its useful
//! states are all but the dead one), then the count tables, one length at a time, up to the
//! first length where the page ends (the band's strings, or paths for the round orders,
//! reach `offset + limit`; the uniform order needs every length) or no node has a path any more (the language is finite and
//! exhausted), at most `max_length`: O(L × edges) count operations for `L` lengths, on
//! machine words below 2^128 ([`count::Count`]). The first page of an infinite language is
//! cheap, a deep one costs the tables up to its length. Cost of a page after that:
//! - sweep: O(max_length × edges) to find the offset, independent of how deep it is, then
//!   O(1) amortised per string (the odometer turns, the changed tail is re-encoded) plus
//!   O(length × edges) per new path;
//! - uniform: the tables of every length of the band, then O(length × edges) count
//!   operations per string, independent of the offset (`uniform.rs`);
//! - interleave and shuffled, offset in round 0 (below the number of paths, which is
//!   astronomically large for most infinite languages): O(length × edges) count
//!   operations per string, independent of the offset;
//! - interleave and shuffled, later rounds: O(1) to find the round while every path takes
//!   part in it (below the fewest strings of any path: `[a-z]{6}` at offset 10^7), where a
//!   string's path also depends on its rank only and is reused; otherwise a binary search
//!   over rounds, O(log offset) threshold queries, each O(distinct (node, length,
//!   threshold) triples × edges); cheap for languages with few paths (where later rounds
//!   are reached), but not bounded by the table size in general (see `threshold.rs`).
//!
//! # Invariants
//! - Output is a pure function of (language, options): no hashing order, clocks or global
//!   RNG; seeded orders use `rand_pcg` (see `shuffle.rs`).
//! - A page has no repeats, and pages of any size concatenate to the same sequence.
//!
//! # Budgets
//! [`Operation::Generate`]: the deadline per 64 table cells, per memoised threshold and per
//! 16 strings; the count tables and threshold memo against the memory limit. The restriction
//! checks its own operations ([`Operation::Product`], [`Operation::Minimize`]).

mod count;
mod options;
mod path;
mod position;
#[cfg(test)]
mod randomness;
mod rounds;
mod sample;
mod shuffle;
mod sweep;
mod tables;

#[cfg(test)]
mod tests;
mod threshold;
mod uniform;
mod window;

pub use options::{CharOrder, DEFAULT_LIMIT, DEFAULT_MAX_LENGTH, GenerateOptions, PathOrder};
pub use sample::SampleMode;
pub(crate) use sample::sample;
pub(crate) use window::generate as generate_in_window;

use std::borrow::{Borrow, Cow};
use std::ops::{RangeInclusive, SubAssign};

use self::count::Count;
use self::tables::{Cell, Counts, Routes};
use crate::alphabet::{CharSet, Classes};
use crate::budget::{Budget, BudgetError};
use crate::dfa::Dfa;
use crate::error::Error;
use crate::state_id::StateId;

/// The strings of `dfa`'s language at the positions `options` asks for (see the module docs).
pub(crate) fn generate(
    dfa: &Dfa,
    options: &GenerateOptions,
    budget: &Budget,
) -> Result<Vec<String>, Error> {
    if options.limit() == 0 || options.max_length() < options.min_length() {
        return Ok(Vec::new());
    }
    let Some(language) = Catalog::new(dfa, options, budget)? else {
        return Ok(Vec::new());
    };
    let strings = match (options.path_order(), options.char_order()) {
        (PathOrder::Sweep, _) => sweep::generate(&language, options, budget)?,
        (PathOrder::Shuffled, CharOrder::Shuffled) => {
            uniform::generate(&language, options, budget)?
        }
        (PathOrder::Interleave | PathOrder::Shuffled, _) => {
            rounds::generate(&language, options, budget)?
        }
    };
    Ok(strings)
}

impl Dfa {
    /// One page of the strings of the language, in the order `options` chooses: up to
    /// `options.limit()` distinct strings, skipping the first `options.offset()`.
    ///
    /// Every string is in the language, has a length in `options`' band and only characters
    /// of its charset; only such strings count for the offset. The order depends only on
    /// the language (after restriction to the charset) and the options, never on how the
    /// DFA was built, so pages of any size concatenate without gaps or repeats, and
    /// equivalent DFAs give identical pages. [`GenerateOptions`], [`PathOrder`](crate::PathOrder)
    /// and [`CharOrder`](crate::CharOrder) define the orders.
    ///
    /// Skipped strings are counted, never built: a page costs count tables up to the length
    /// it reaches, then a walk down the automaton per page (sweep) or per string (the other
    /// orders), whatever the offset. In the interleaved orders, offsets past the first round
    /// (one string per path) also search for their round by counting paths by size.
    ///
    /// # Errors
    /// When building the restricted automaton or the count tables (one big integer per state
    /// and length up to the longest length generated) exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, CharOrder, Dfa, GenerateOptions, PathOrder};
    ///
    /// let budget = Budget::default();
    /// let words = Dfa::from_regex("[a-z]{8}")?;
    /// let page = GenerateOptions::default().with_limit(2).with_offset(10_000_000_000);
    /// // 10^10 is "bgjqzrkq" in base 26, with a..z as the digits.
    /// assert_eq!(words.generate(&page, &budget)?, ["bgjqzrkq", "bgjqzrkr"]);
    ///
    /// let ids = Dfa::from_regex("x[0-9]{2}|y[0-9]")?;
    /// let first = GenerateOptions::default().with_limit(4);
    /// assert_eq!(ids.generate(&first, &budget)?, ["y0", "y1", "y2", "y3"]);
    /// let mixed = first.with_path_order(PathOrder::Interleave);
    /// assert_eq!(ids.generate(&mixed, &budget)?, ["y0", "x00", "y1", "x01"]);
    /// let seeded = mixed.with_char_order(CharOrder::Shuffled).with_seed(7);
    /// assert_eq!(ids.generate(&seeded, &budget)?, ids.generate(&seeded, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate(
        &self,
        options: &GenerateOptions,
        budget: &Budget,
    ) -> Result<Vec<String>, Error> {
        generate(self, options, budget)
    }
}

/// The catalog of a restricted language, ready to page through: its edges, its count tables and the
/// lengths that hold strings.
struct Catalog {
    routes: Routes,
    counts: Counts,
    min_length: usize,
    /// At most the requested maximum and the longest string of the language, and no longer
    /// than the page needs (see [`Catalog::new`]).
    max_length: usize,
}

impl Catalog {
    /// The language of `dfa` restricted to `options`' charset, or `None` when it has no
    /// string in the length band.
    ///
    /// The count tables stop at the first length where the band's strings (sweep) or
    /// paths (round orders) reach `offset + limit`: the page lies entirely in the lengths up
    /// to there (in round 0 for the round orders), and it ends before looking further.
    fn new(
        dfa: &Dfa,
        options: &GenerateOptions,
        budget: &Budget,
    ) -> Result<Option<Catalog>, BudgetError> {
        let restricted = match options.charset() {
            Some(charset) if !charset.is_full() => {
                Cow::Owned(dfa.intersection(&strings_over(charset, budget)?, budget)?)
            }
            _ => Cow::Borrowed(dfa),
        };
        let restricted = match restricted {
            dfa if dfa.is_canonical() => dfa,
            dfa => Cow::Owned(dfa.minimize(budget)?),
        };
        let Some(routes) = Routes::new(&restricted) else { return Ok(None) };
        // The tables only need to reach the length where the strings (sweep) or paths (round
        // 0 of the other orders) of the band first cover positions up to `offset + limit`, or
        // the first length without any path from any node: there are none longer either.
        let needed = u128::from(options.offset()) + options.limit() as u128;
        let mut counts = Counts::new(&routes);
        let mut covered = 0u128;
        let mut shortest = None;
        for length in 0..=options.max_length() {
            if length > 0 && !counts.push_level(&routes, budget)? {
                break;
            }
            let cell = counts.cell(routes.start(), length);
            if cell.is_viable() {
                shortest.get_or_insert(length);
            }
            if length >= options.min_length() {
                let found = match (options.path_order(), options.char_order()) {
                    // The uniform order draws from every length.
                    (PathOrder::Shuffled, CharOrder::Shuffled) => &Count::ZERO,
                    (PathOrder::Sweep, _) => &cell.strings,
                    (PathOrder::Interleave | PathOrder::Shuffled, _) => &cell.paths,
                };
                covered = covered.saturating_add(found.saturated());
                if covered >= needed {
                    break;
                }
            }
        }
        let Some(shortest) = shortest else { return Ok(None) };
        let min_length = options.min_length().max(shortest);
        if counts.max_length() < min_length {
            return Ok(None);
        }
        let max_length = counts.max_length();
        Ok(Some(Catalog { routes, counts, min_length, max_length }))
    }

    /// The lengths generated, ascending.
    fn lengths(&self) -> RangeInclusive<usize> {
        self.min_length..=self.max_length
    }

    /// The sum over the lengths generated of what `count` reads from the start's cell,
    /// saturated (compared with positions only).
    fn total(&self, count: fn(&Cell) -> &Count) -> u128 {
        let cells = self.lengths().map(|length| self.counts.cell(self.routes.start(), length));
        cells.fold(0, |sum, cell| sum.saturating_add(count(cell).saturated()))
    }
}

/// The strings generated between two deadline checks: each costs O(length × edges), and
/// reading the clock per string would be a tenth of a page's time.
const STRINGS_PER_CHECK: usize = 16;

/// An empty page with room for the strings `options` asks for (up to a bound: the limit may be
/// far beyond what the language holds).
fn page(options: &GenerateOptions) -> Vec<String> {
    Vec::with_capacity(options.limit().min(1024))
}

/// The DFA of `[charset]*`: every string whose characters are all in `charset`.
pub(crate) fn strings_over(charset: &CharSet, budget: &Budget) -> Result<Dfa, BudgetError> {
    let (classes, inside) = Classes::new(&[charset], budget)?;
    let (looping, dead) = (StateId::from_index(0), StateId::from_index(1));
    let mut table = vec![dead; 2 * classes.len()];
    for class in &inside[0] {
        table[class.index()] = looping;
    }
    Ok(Dfa::from_parts(classes, table, vec![true, false]))
}

/// The first of `items` whose block holds position `rest`, where the blocks lie one after
/// another with the sizes `size_of` gives; `rest` becomes the position inside that block.
/// `None` (with `rest` reduced by all sizes) when `rest` is past the last block.
/// Positions are `u128` ([`count::Count::saturated`] sizes) or exact counts.
fn find_block<T, N, S, E>(
    items: impl IntoIterator<Item = T>,
    rest: &mut N,
    mut size_of: impl FnMut(&T) -> Result<S, E>,
) -> Result<Option<T>, E>
where
    N: PartialOrd + for<'n> SubAssign<&'n N>,
    S: Borrow<N>,
{
    for item in items {
        let size = size_of(&item)?;
        if *rest < *size.borrow() {
            return Ok(Some(item));
        }
        *rest -= size.borrow();
    }
    Ok(None)
}
