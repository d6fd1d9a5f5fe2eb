//! One path through the edges of a DFA and the strings it spells, in either character order.
//!
//! # Overview
//! A path is a sequence of [`Step`]s, each an edge chosen at a node. Its strings are numbered
//! like an odometer: one digit per position, the first position most significant, digit `d`
//! at a position standing for member `σ(d)` of that edge's label, where `σ` is the identity
//! for [`CharOrder::Ascending`] and, for [`CharOrder::Shuffled`], the `i`-th [`Shuffle`]
//! drawn for the seed and the path: one generator per path, one draw per position with more
//! than one character. [`Spelling`] holds those `σ` for one path.
//!
//! # Algorithm
//! The path's identity is a 64-bit hash of its length and edge indices; building a
//! [`Spelling`] costs O(length) shuffle draws, and each character O(log ranges) to find the
//! member of the label plus O(1) expected for the shuffle.
//!
//! # Invariants
//! - Each `σ` is a bijection of the label's index space, so distinct digit vectors spell
//!   distinct strings; distinct paths spell disjoint sets of strings (the DFA is
//!   deterministic).
//! - The identity depends only on the edge indices, which depend only on the language.
//!
//! # Budgets
//! None: callers check the deadline once per string.

use super::options::{CharOrder, GenerateOptions};
use super::shuffle::{Permutation, Shuffles, mix};
use super::tables::{Edge, Routes};
use crate::state_id::StateId;

/// The [`Shuffle`] context tag of character orders.
const CHAR_ORDER_TAG: u64 = u64::from_be_bytes(*b"\0\0\0chars");

/// One step of a path: edge number `edge` of `node`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Step {
    pub(super) node: StateId,
    pub(super) edge: usize,
}

impl Step {
    /// The edge this step takes.
    pub(super) fn edge<'g>(&self, routes: &'g Routes) -> &'g Edge {
        &routes.edges(self.node)[self.edge]
    }
}

/// One path ready to spell: each position's edge and, for shuffled characters, its
/// permutation of the edge's members.
#[derive(Clone, Debug, Default)]
pub(super) struct Spelling {
    edges: Vec<Edge>,
    /// Empty for ascending order.
    orders: Vec<Permutation>,
}

impl Spelling {
    /// The path `steps` in the character order of `options`.
    pub(super) fn new(routes: &Routes, steps: &[Step], options: &GenerateOptions) -> Spelling {
        let mut spelling = Spelling::default();
        spelling.set_path(routes, steps, options);
        spelling
    }

    /// Makes this the spelling of `steps`, reusing the buffers (a page spells many paths).
    pub(super) fn set_path(&mut self, routes: &Routes, steps: &[Step], options: &GenerateOptions) {
        self.edges.clear();
        self.edges.extend(steps.iter().map(|step| *step.edge(routes)));
        self.orders.clear();
        if options.char_order() == CharOrder::Shuffled {
            let context = [CHAR_ORDER_TAG, options.seed(), path_identity(steps)];
            let mut shuffles = Shuffles::new(&context);
            // A position with one character has one order: it takes no draw.
            let orders = self.edges.iter().map(|edge| match edge.size {
                1 => Permutation::SINGLE,
                size => shuffles.draw().on(size),
            });
            self.orders.extend(orders);
        }
    }

    /// Sets `digits` to the digits of `index` in the mixed radix of the path's label sizes,
    /// the first position most significant; `index` must be below the product of the sizes.
    pub(super) fn digits(&self, index: u128, digits: &mut Vec<u64>) {
        digits.clear();
        digits.resize(self.edges.len(), 0);
        let sizes = self.edges.iter().rev().map(|edge| edge.size);
        match u64::try_from(index) {
            // 64-bit division is several times cheaper than 128-bit division.
            Ok(mut index) => {
                for (digit, size) in digits.iter_mut().rev().zip(sizes) {
                    *digit = index % size;
                    index /= size;
                }
            }
            Err(_) => {
                let mut index = index;
                for (digit, size) in digits.iter_mut().rev().zip(sizes) {
                    // The remainder is below the size, a u64.
                    *digit = u64::try_from(index % u128::from(size)).unwrap_or_default();
                    index /= u128::from(size);
                }
            }
        }
    }

    /// The number of characters at `position`.
    pub(super) fn size(&self, position: usize) -> u64 {
        self.edges[position].size
    }

    /// The character that digit `digit` stands for at `position`.
    pub(super) fn char_at(&self, routes: &Routes, position: usize, digit: u64) -> char {
        let index = self.orders.get(position).map_or(digit, |order| order.apply(digit));
        // `index < size`, so the member exists.
        routes.nth(&self.edges[position], index).unwrap_or_default()
    }

    /// The string that `digits` stand for.
    pub(super) fn spell(&self, routes: &Routes, digits: &[u64]) -> String {
        (0..digits.len()).map(|position| self.char_at(routes, position, digits[position])).collect()
    }
}

/// A hash of the path's length and edge choices, the same for the same path in every mode.
fn path_identity(steps: &[Step]) -> u64 {
    let as_word = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
    steps.iter().fold(mix(as_word(steps.len())), |hash, step| mix(hash ^ as_word(step.edge)))
}

/// A string edited one position at a time and copied out after each edit: only the
/// characters from the first one changed on are encoded again (an odometer mostly turns its
/// last position).
#[derive(Debug, Default)]
pub(super) struct Text {
    chars: Vec<char>,
    /// `chars[..encoded]` encoded.
    text: String,
    /// The byte offset in `text` of each position below `encoded`.
    starts: Vec<usize>,
    encoded: usize,
}

impl Text {
    /// Replaces the whole string.
    pub(super) fn set_all(&mut self, chars: impl IntoIterator<Item = char>) {
        self.chars.clear();
        self.chars.extend(chars);
        self.starts.resize(self.chars.len(), 0);
        self.encoded = 0;
    }

    /// Replaces the character at `position`.
    pub(super) fn set(&mut self, position: usize, c: char) {
        self.chars[position] = c;
        self.encoded = self.encoded.min(position);
    }

    /// The string.
    pub(super) fn copy_out(&mut self) -> String {
        let from = self.encoded;
        // Nothing encoded, or everything before `from` (all of it when nothing changed).
        let mut at = match from {
            0 => 0,
            _ => self.starts.get(from).copied().unwrap_or(self.text.len()),
        };
        self.text.truncate(at);
        let tail = &self.chars[from..];
        for (start, c) in self.starts[from..].iter_mut().zip(tail) {
            *start = at;
            at += c.len_utf8();
        }
        self.text.extend(tail);
        self.encoded = self.chars.len();
        self.text.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::Text;

    #[test]
    fn text_follows_edits_of_every_width() {
        let mut text = Text::default();
        text.set_all("aé€".chars());
        assert_eq!(text.copy_out(), "aé€");
        assert_eq!(text.copy_out(), "aé€", "unchanged");
        text.set(2, 'z');
        assert_eq!(text.copy_out(), "aéz");
        text.set(1, '\u{10FFFF}');
        text.set(2, 'y');
        assert_eq!(text.copy_out(), "a\u{10FFFF}y");
        text.set(0, 'é');
        assert_eq!(text.copy_out(), "é\u{10FFFF}y");
        text.set_all("ab".chars());
        text.set(1, '€');
        assert_eq!(text.copy_out(), "a€");
        text.set_all([]);
        assert_eq!(text.copy_out(), "");
    }
}
