//! One path through the edges of a DFA and the strings it spells, in either character order.
//!
//! # Overview
//! A path is a sequence of [`Step`]s, each an edge chosen at a node. Its strings are numbered
//! like an odometer: one digit per position, the first position most significant, digit `d`
//! at a position standing for member `d` of that edge's label in ascending order. For
//! [`CharOrder::Ascending`] the `i`-th string of the path is the one of index `i`; for
//! [`CharOrder::Shuffled`] it is the one whose digits are the image of `i`'s digits under a
//! [`Scramble`] keyed by the seed and the path: a bijection of the path's whole index space,
//! so consecutive strings differ at every position. [`Spelling`] holds a path's edges and
//! scramble.
//!
//! # Algorithm
//! The path's identity is a 64-bit hash of its length and edge indices; building a
//! [`Spelling`] costs O(length) random draws, and each string O(length) to scramble (in the
//! shuffled order) plus O(log ranges) per character to find the member of the label.
//!
//! # Invariants
//! - A scramble is a bijection of the digit vectors, so distinct indices spell distinct
//!   strings; distinct paths spell disjoint sets of strings (the DFA is deterministic).
//! - The identity depends only on the edge indices, which depend only on the language.
//!
//! # Budgets
//! None: callers check the deadline once per string.

use super::options::CharOrder;
use super::position::Position;
use super::shuffle::{Scramble, Shuffles, mix};
use super::tables::{Edge, Routes};
use crate::state_id::StateId;

/// The [`Shuffles`] context tag of character orders.
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

/// One path ready to spell: each position's edge and, for shuffled characters, the scramble
/// of its index space.
#[derive(Clone, Debug, Default)]
pub(super) struct Spelling {
    edges: Vec<Edge>,
    /// For each position, the first member of its label when the members are consecutive
    /// (see [`Routes::consecutive_from`]): a character without a search.
    consecutive: Vec<Option<u32>>,
    /// `None` for ascending order.
    scramble: Option<Scramble>,
}

impl Spelling {
    /// The path `steps` in `char_order`, keyed by `seed` when shuffled.
    pub(super) fn new(
        routes: &Routes,
        steps: &[Step],
        (char_order, seed): (CharOrder, u64),
    ) -> Spelling {
        let mut spelling = Spelling::default();
        spelling.set_path(routes, steps, (char_order, seed));
        spelling
    }

    /// Makes this the spelling of `steps`, reusing the buffers (a page spells many paths).
    pub(super) fn set_path(
        &mut self,
        routes: &Routes,
        steps: &[Step],
        (char_order, seed): (CharOrder, u64),
    ) {
        self.edges.clear();
        self.edges.extend(steps.iter().map(|step| *step.edge(routes)));
        self.consecutive.clear();
        self.consecutive.extend(self.edges.iter().map(|edge| routes.consecutive_from(edge)));
        match char_order {
            CharOrder::Ascending => self.scramble = None,
            CharOrder::Shuffled => {
                let mut keys = Shuffles::new(&[CHAR_ORDER_TAG, seed, path_identity(steps)]);
                let sizes = self.edges.iter().map(|edge| edge.size);
                self.scramble.get_or_insert_default().set(sizes, &mut keys);
            }
        }
    }

    /// Sets `digits` to the digits of `index` in the mixed radix of the path's label sizes,
    /// the first position most significant; `index` must be below the product of the sizes.
    pub(super) fn digits(&self, index: u128, digits: &mut Vec<u64>) {
        digits.clear();
        digits.resize(self.edges.len(), 0);
        let mut index = index;
        for (digit, edge) in digits.iter_mut().zip(&self.edges).rev() {
            *digit = index.div_rem(edge.size);
        }
    }

    /// The number of characters at `position`.
    pub(super) fn size(&self, position: usize) -> u64 {
        self.edges[position].size
    }

    /// Whether the digits of an index differ from the digits spelled (shuffled order).
    pub(super) fn is_scrambled(&self) -> bool {
        self.scramble.is_some()
    }

    /// Replaces the digits of an index by the digits spelled: the same in ascending order.
    fn scramble(&self, digits: &mut [u64]) {
        if let Some(scramble) = &self.scramble {
            scramble.apply(digits);
        }
    }

    /// The character that spelled digit `digit` stands for at `position`.
    pub(super) fn char_at(&self, routes: &Routes, position: usize, digit: u64) -> char {
        // `digit < size`, so the member exists (below the surrogates when consecutive).
        match self.consecutive[position] {
            Some(first) => char::from_u32(first + digit as u32).unwrap_or_default(),
            None => routes.nth(&self.edges[position], digit).unwrap_or_default(),
        }
    }

    /// The string of the index whose digits are `digits`, which it overwrites.
    pub(super) fn spell(&self, routes: &Routes, digits: &mut [u64]) -> String {
        self.scramble(digits);
        spell_digits(digits, |position, digit| self.char_at(routes, position, digit))
    }
}

/// The string whose character at each position is `char_of(position, digit)`; the
/// characters replace the digits, so that the string is allocated once, exactly.
pub(super) fn spell_digits(digits: &mut [u64], char_of: impl Fn(usize, u64) -> char) -> String {
    let mut bytes = 0;
    for (position, digit) in digits.iter_mut().enumerate() {
        let c = char_of(position, *digit);
        bytes += c.len_utf8();
        *digit = u64::from(c);
    }
    let mut string = String::with_capacity(bytes);
    // Each value was a character.
    string.extend(digits.iter().map(|&c| char::from_u32(c as u32).unwrap_or_default()));
    string
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
