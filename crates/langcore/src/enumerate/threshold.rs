//! Counting paths by how many strings they have: the sizes of the rounds after the first.
//!
//! # Overview
//! In round `k` of the interleaved orders, only paths with more than `k` strings take part.
//! [`Thresholds`] answers, for a node `s`, a remaining length `r` and a threshold `x`:
//! - how many paths of `r` characters from `s` have more than `x` strings
//!   ([`Thresholds::paths_above`]), which sizes the rounds and unranks paths inside one;
//! - how many strings all rounds before round `x` hold ([`Thresholds::strings_before`]):
//!   Σ over paths of min(Π(p), x), where Π(p) is the number of strings of path `p`.
//!
//! # Algorithm
//! Both follow from A(s, r, x) = (the number of paths with Π(p) ≤ x, the sum of their Π(p)),
//! because Π(e·p') = |e|·Π(p') and, for whole numbers, `|e|·b ≤ x ⟺ b ≤ ⌊x / |e|⌋`:
//!
//! ```text
//! A(s, r, x) = Σ_e (count, |e| · sum) of A(t, r−1, ⌊x / |e|⌋)
//! ```
//!
//! with two shortcuts from the [`Cell`] of `(s, r)`: nothing when `x` is below its smallest
//! product, everything (P(s, r), W(s, r)) when `x` is at least its largest. Values are
//! memoised by `(s, r, x)` and computed bottom-up with an explicit stack, so deep lengths
//! use no call stack. Each edge of at least two characters at least halves `x`, so the
//! thresholds met below one query are few for realistic patterns: the cost is
//! O(distinct (node, length, threshold) triples × edges) count operations, at most
//! O(nodes × max_length × √x) and usually far less (a chain like `[a-z]{8}` meets one
//! threshold per position).
//!
//! # Invariants
//! - `paths_above(s, r, 0)` is P(s, r): every path has at least one string.
//! - Only lookups touch the memo map, never its iteration order, so answers are
//!   deterministic.
//!
//! # Budgets
//! [`Operation::Generate`]: the deadline once per memo entry computed, and the bytes of the
//! memo together with the count table against the memory limit.

use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;

use super::Catalog;
use super::count::Count;
use super::tables::Cell;
use crate::budget::{Budget, BudgetError, Operation};
use crate::state_id::StateId;

/// A node, a remaining length and a threshold.
type Key = (StateId, usize, u128);

/// The paths with at most a threshold of strings each: how many, and their strings.
#[derive(Clone, Debug, PartialEq, Eq)]
struct AtMost {
    paths: Count,
    strings: Count,
}

/// An answer known without computing: none of the paths, all of them, or a memo entry.
enum Known<'s> {
    Nothing,
    All(&'s Cell),
    Memo(&'s AtMost),
}

/// The memoised split of paths by their number of strings.
pub(super) struct Thresholds<'a> {
    language: &'a Catalog,
    budget: &'a Budget,
    memo: HashMap<Key, AtMost>,
    /// The bytes of `memo` and of the count table, as charged to the budget.
    bytes: usize,
}

impl<'a> Thresholds<'a> {
    pub(super) fn new(language: &'a Catalog, budget: &'a Budget) -> Thresholds<'a> {
        Thresholds { language, budget, memo: HashMap::default(), bytes: language.counts.bytes() }
    }

    /// The number of paths of exactly `remaining` characters from `node` to acceptance with
    /// more than `threshold` strings each.
    pub(super) fn paths_above(
        &mut self,
        node: StateId,
        remaining: usize,
        threshold: u128,
    ) -> Result<Cow<'a, Count>, BudgetError> {
        let cell = self.language.counts.cell(node, remaining);
        // The two answers the cell alone gives, before any memo lookup.
        if threshold < cell.min_product {
            return Ok(Cow::Borrowed(&cell.paths));
        }
        if threshold >= cell.max_product {
            return Ok(Cow::Owned(Count::ZERO));
        }
        self.compute((node, remaining, threshold))?;
        let at_most = match self.known((node, remaining, threshold)) {
            Some(Known::All(_)) => return Ok(Cow::Owned(Count::ZERO)),
            Some(Known::Memo(at_most)) => &at_most.paths,
            Some(Known::Nothing) | None => return Ok(Cow::Borrowed(&cell.paths)),
        };
        Ok(Cow::Owned(&cell.paths - at_most))
    }

    /// The number of strings in the rounds before round `round`, over the lengths of the
    /// language: Σ over its paths `p` of min(Π(p), round), saturated at `u128::MAX` (it is
    /// compared with positions only).
    pub(super) fn strings_before(&mut self, round: u128) -> Result<u128, BudgetError> {
        let start = self.language.routes.start();
        let mut total = 0u128;
        for length in self.language.lengths() {
            let key = (start, length, round);
            self.compute(key)?;
            let cell = self.language.counts.cell(start, length);
            let (paths, strings) = match self.known(key) {
                Some(Known::All(cell)) => (&cell.paths, &cell.strings),
                Some(Known::Memo(at_most)) => (&at_most.paths, &at_most.strings),
                Some(Known::Nothing) | None => (&Count::ZERO, &Count::ZERO),
            };
            let above = (&cell.paths - paths).saturated().saturating_mul(round);
            total = total.saturating_add(strings.saturated()).saturating_add(above);
        }
        Ok(total)
    }

    /// What is known about `key` without computing.
    fn known(&self, (node, remaining, threshold): Key) -> Option<Known<'_>> {
        let cell = self.language.counts.cell(node, remaining);
        if threshold < cell.min_product {
            Some(Known::Nothing)
        } else if threshold >= cell.max_product {
            Some(Known::All(cell))
        } else {
            self.memo.get(&(node, remaining, threshold)).map(Known::Memo)
        }
    }

    /// The keys `key` depends on: one per viable edge.
    fn children(&self, (node, remaining, threshold): Key) -> impl Iterator<Item = (Key, u64)> + 'a {
        let counts = &self.language.counts;
        let below = remaining.checked_sub(1);
        self.language.routes.edges(node).iter().filter_map(move |edge| {
            let below = below.filter(|&below| counts.cell(edge.target, below).is_viable())?;
            Some(((edge.target, below, threshold / u128::from(edge.size)), edge.size))
        })
    }

    /// Makes `key` known, computing it and whatever it depends on bottom-up.
    fn compute(&mut self, key: Key) -> Result<(), BudgetError> {
        if self.known(key).is_some() {
            return Ok(());
        }
        let mut stack = vec![key];
        while let Some(&top) = stack.last() {
            if self.known(top).is_some() {
                stack.pop();
                continue;
            }
            let missing: Vec<Key> = self
                .children(top)
                .map(|(child, _)| child)
                .filter(|&child| self.known(child).is_none())
                .collect();
            if !missing.is_empty() {
                stack.extend(missing);
                continue;
            }
            self.budget.check_time(Operation::Generate)?;
            let mut at_most = AtMost { paths: Count::ZERO, strings: Count::ZERO };
            for (child, size) in self.children(top) {
                let (paths, strings) = match self.known(child) {
                    Some(Known::All(cell)) => (&cell.paths, &cell.strings),
                    Some(Known::Memo(part)) => (&part.paths, &part.strings),
                    Some(Known::Nothing) | None => continue,
                };
                at_most.paths += paths;
                at_most.strings += &(strings * size);
            }
            self.bytes += size_of::<(Key, AtMost)>()
                + at_most.paths.heap_bytes()
                + at_most.strings.heap_bytes();
            self.budget.check_memory(Operation::Generate, self.bytes)?;
            self.memo.insert(top, at_most);
            stack.pop();
        }
        Ok(())
    }
}
