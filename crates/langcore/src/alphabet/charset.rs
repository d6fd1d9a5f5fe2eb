//! Sets of Unicode scalar values, stored as canonical lists of inclusive ranges.
//!
//! # Overview
//! [`CharSet`] is the transition label of every automaton: a set of scalar values
//! (U+0000..=U+10FFFF without the surrogates U+D800..=U+DFFF) kept as a sorted `Vec` of
//! inclusive `(char, char)` ranges. Sets are built from ranges ([`CharSet::from_ranges`]) or
//! characters (`FromIterator<char>`) and combined with the boolean operations; [`CharSet::nth`]
//! and [`CharSet::index_of`] number the members, for enumeration.
//!
//! # Algorithm
//! Nothing enumerates characters. Positions are measured by *rank*, the index of a scalar value
//! among all scalar values in ascending order (U+E000 has rank 0xD800): in rank space the scalar
//! values are contiguous, so adjacency and counting across the surrogate gap are plain integer
//! arithmetic. With `n` and `m` ranges in the operands:
//! - `union`, `intersection`, `difference`, `is_subset` and `is_disjoint` are single merge
//!   passes, O(n + m); `complement`, `len`, `nth` and `index_of` are O(n).
//! - `contains` is a binary search, O(log n).
//! - `from_ranges` sorts its input, O(k log k) for `k` input pairs.
//!
//! # Invariants
//! The range vector is canonical: every range has `lo <= hi`, and the ranges are sorted,
//! disjoint and non-adjacent, where adjacency counts scalar values, so U+D7FF and U+E000 are
//! adjacent and the full set is the single range `('\0', '\u{10FFFF}')`. Hence equal sets have
//! identical vectors, and the derived `Eq`, `Hash` and `Ord` are those of the set. Every
//! constructor and operation preserves the invariant.

use std::fmt::{self, Write as _};

use regex_syntax::hir::Class;

/// The first surrogate code point: scalar values from here on have rank `value - SURROGATE_LEN`.
const SURROGATE_START: u32 = 0xD800;
/// The number of surrogate code points, U+D800..=U+DFFF.
const SURROGATE_LEN: u32 = 0x800;

/// The rank of `c`: its index among all scalar values in ascending order.
fn rank(c: char) -> u32 {
    let value = u32::from(c);
    if value < SURROGATE_START { value } else { value - SURROGATE_LEN }
}

/// The scalar value of rank `rank`, or `None` past the last one.
fn unrank(rank: u32) -> Option<char> {
    let value = if rank < SURROGATE_START { rank } else { rank.checked_add(SURROGATE_LEN)? };
    char::from_u32(value)
}

/// The scalar value right after `c` (U+E000 after U+D7FF), or `None` after U+10FFFF.
pub(crate) fn succ(c: char) -> Option<char> {
    unrank(rank(c) + 1)
}

/// The scalar value right before `c` (U+D7FF before U+E000), or `None` before U+0000.
pub(crate) fn pred(c: char) -> Option<char> {
    unrank(rank(c).checked_sub(1)?)
}

/// The scalar value `offset` places after `c` (U+E000 one place after U+D7FF), or `None`
/// past U+10FFFF.
pub(crate) fn nth_after(c: char, offset: u64) -> Option<char> {
    unrank(rank(c).checked_add(u32::try_from(offset).ok()?)?)
}

/// The number of scalar values in `lo..=hi`; requires `lo <= hi`.
pub(crate) fn span_len(&(lo, hi): &(char, char)) -> u64 {
    u64::from(rank(hi) - rank(lo)) + 1
}

/// Appends `(lo, hi)` to the canonical `out`, whose last range must not start after `lo`,
/// merging it into that range when the two overlap or are adjacent.
fn push_merged(out: &mut Vec<(char, char)>, lo: char, hi: char) {
    if let Some(last) = out.last_mut()
        && rank(lo) <= rank(last.1) + 1
    {
        last.1 = last.1.max(hi);
    } else {
        out.push((lo, hi));
    }
}

/// A set of Unicode scalar values, stored as canonical inclusive ranges.
///
/// Ordering (`Ord`) is lexicographic on the range lists: arbitrary but total and consistent
/// with equality, for use as a map key. `Default` is the empty set.
///
/// # Example
/// ```
/// use langcore::alphabet::CharSet;
///
/// let hex = CharSet::from_ranges([('a', 'f'), ('0', '9'), ('A', 'F')]);
/// assert_eq!(hex.ranges(), [('0', '9'), ('A', 'F'), ('a', 'f')]);
/// assert_eq!(hex.len(), 22);
/// assert!(hex.contains('c') && !hex.contains('g'));
/// assert_eq!(hex.to_string(), "[0-9A-Fa-f]");
///
/// let digits = CharSet::range('0', '9');
/// assert!(digits.is_subset(&hex));
/// assert_eq!(hex.difference(&digits).union(&digits), hex);
/// assert_eq!(hex.complement().complement(), hex);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CharSet {
    /// Canonical: sorted, disjoint, non-adjacent, each `lo <= hi` (see the module docs).
    ranges: Vec<(char, char)>,
}

impl CharSet {
    /// The empty set.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert!(CharSet::empty().is_empty());
    /// assert_eq!(CharSet::empty(), CharSet::full().complement());
    /// ```
    pub fn empty() -> Self {
        CharSet { ranges: Vec::new() }
    }

    /// The set of all 1,112,064 scalar values.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert!(CharSet::full().is_full());
    /// assert_eq!(CharSet::full().len(), 1_112_064);
    /// ```
    pub fn full() -> Self {
        CharSet { ranges: vec![('\0', char::MAX)] }
    }

    /// The set containing just `c`.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let x = CharSet::singleton('x');
    /// assert!(x.contains('x') && !x.contains('y'));
    /// assert_eq!(x, CharSet::range('x', 'x'));
    /// ```
    pub fn singleton(c: char) -> Self {
        CharSet { ranges: vec![(c, c)] }
    }

    /// The scalar values from `lo` to `hi` inclusive; empty when `lo > hi`.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert_eq!(CharSet::range('a', 'z').len(), 26);
    /// assert!(CharSet::range('z', 'a').is_empty());
    /// ```
    pub fn range(lo: char, hi: char) -> Self {
        if lo <= hi { CharSet { ranges: vec![(lo, hi)] } } else { CharSet::empty() }
    }

    /// The union of the inclusive ranges in `ranges`, which may come in any order and overlap
    /// or touch; pairs with `lo > hi` are skipped. O(k log k) for `k` pairs.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let set = CharSet::from_ranges([('d', 'f'), ('a', 'c'), ('x', 'x'), ('z', 'y')]);
    /// assert_eq!(set.ranges(), [('a', 'f'), ('x', 'x')]);
    /// ```
    pub fn from_ranges(ranges: impl IntoIterator<Item = (char, char)>) -> Self {
        let ranges = ranges.into_iter();
        // Sized by the input: the filter would hide its length, and a class of `\w` would
        // grow through ten reallocations.
        let mut input: Vec<(char, char)> = Vec::with_capacity(ranges.size_hint().0);
        input.extend(ranges.filter(|&(lo, hi)| lo <= hi));
        // Most callers pass ranges that are canonical already (from another set or a HIR
        // class): one linear check instead of a sort and a merge.
        if input.windows(2).all(|pair| rank(pair[0].1) + 1 < rank(pair[1].0)) {
            return CharSet { ranges: input };
        }
        input.sort_unstable();
        let mut out = Vec::with_capacity(input.len());
        for (lo, hi) in input {
            push_merged(&mut out, lo, hi);
        }
        CharSet { ranges: out }
    }

    /// The set of `ranges`, which must be canonical already (sorted, disjoint, non-adjacent):
    /// for a caller that built them so, without [`CharSet::from_ranges`]'s check.
    pub(crate) fn from_canonical(ranges: Vec<(char, char)>) -> Self {
        debug_assert!(
            ranges.iter().all(|&(lo, hi)| lo <= hi)
                && ranges.windows(2).all(|pair| rank(pair[0].1) + 1 < rank(pair[1].0)),
            "ranges not canonical"
        );
        CharSet { ranges }
    }

    /// The characters of a `regex-syntax` HIR class. Byte classes only occur for ASCII in
    /// UTF-8 mode.
    pub(crate) fn from_hir_class(class: &Class) -> CharSet {
        match class {
            Class::Unicode(class) => CharSet::from_ranges(
                class.ranges().iter().map(|range| (range.start(), range.end())),
            ),
            Class::Bytes(class) => {
                CharSet::from_ranges(
                    class.ranges().iter().filter(|range| range.start().is_ascii()).map(|range| {
                        (char::from(range.start()), char::from(range.end().min(0x7F)))
                    }),
                )
            }
        }
    }

    /// The canonical ranges: sorted, disjoint, non-adjacent (U+D7FF and U+E000 are adjacent).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let set = CharSet::from_iter("abcxz".chars());
    /// assert_eq!(set.ranges(), [('a', 'c'), ('x', 'x'), ('z', 'z')]);
    /// ```
    pub fn ranges(&self) -> &[(char, char)] {
        &self.ranges
    }

    /// Whether the set has no members.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert!(CharSet::parse("[]")?.is_empty());
    /// assert!(!CharSet::singleton('a').is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Whether the set contains every scalar value.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert!(CharSet::parse(".")?.is_full());
    /// assert!(!CharSet::parse("[^a]")?.is_full());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_full(&self) -> bool {
        self.ranges == [('\0', char::MAX)]
    }

    /// Whether `c` is a member. O(log n).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let digits = CharSet::parse(r"\d")?;
    /// assert!(digits.contains('7') && digits.contains('\u{660}'));
    /// assert!(!digits.contains('x'));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn contains(&self, c: char) -> bool {
        let i = self.ranges.partition_point(|&(_, hi)| hi < c);
        self.ranges.get(i).is_some_and(|&(lo, _)| lo <= c)
    }

    /// The number of members; surrogates are never counted, so `full().len()` is 1,112,064.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert_eq!(CharSet::parse("[a-z0-9]")?.len(), 36);
    /// assert_eq!(CharSet::range('\u{D7FF}', '\u{E000}').len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(span_len).sum()
    }

    /// The smallest member, if any. (Named like `BTreeSet::first`: a `min` method would be
    /// shadowed by `Ord::min` on owned sets.)
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert_eq!(CharSet::parse("[x-z0-9]")?.first(), Some('0'));
    /// assert_eq!(CharSet::empty().first(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first(&self) -> Option<char> {
        self.ranges.first().map(|&(lo, _)| lo)
    }

    /// The largest member, if any.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert_eq!(CharSet::parse("[x-z0-9]")?.last(), Some('z'));
    /// assert_eq!(CharSet::full().last(), Some(char::MAX));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn last(&self) -> Option<char> {
        self.ranges.last().map(|&(_, hi)| hi)
    }

    /// The members of either set. O(n + m).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let hex = CharSet::range('0', '9').union(&CharSet::range('a', 'f'));
    /// assert_eq!(hex, CharSet::parse("[0-9a-f]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn union(&self, other: &Self) -> Self {
        let mut out = Vec::with_capacity(self.ranges.len() + other.ranges.len());
        let (mut a, mut b) = (self.ranges.iter().peekable(), other.ranges.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if y.0 < x.0 => b.next(),
                (Some(_), _) => a.next(),
                (None, _) => b.next(),
            };
            let Some(&(lo, hi)) = next else { break };
            push_merged(&mut out, lo, hi);
        }
        CharSet { ranges: out }
    }

    /// The members of both sets. O(n + m).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let both = CharSet::range('a', 'm').intersection(&CharSet::range('k', 'z'));
    /// assert_eq!(both, CharSet::range('k', 'm'));
    /// ```
    pub fn intersection(&self, other: &Self) -> Self {
        // Each piece ends where one operand's range ends; the scalar after it is outside that
        // operand, so consecutive pieces are never adjacent and the result is canonical.
        let mut out = Vec::new();
        let (mut a, mut b) = (self.ranges.as_slice(), other.ranges.as_slice());
        while let (Some((&(a_lo, a_hi), a_rest)), Some((&(b_lo, b_hi), b_rest))) =
            (a.split_first(), b.split_first())
        {
            let (lo, hi) = (a_lo.max(b_lo), a_hi.min(b_hi));
            if lo <= hi {
                out.push((lo, hi));
            }
            if a_hi < b_hi {
                a = a_rest;
            } else {
                b = b_rest;
            }
        }
        CharSet { ranges: out }
    }

    /// The members of `self` that are not in `other`. O(n + m).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let consonants = CharSet::range('a', 'z').difference(&CharSet::parse("[aeiou]")?);
    /// assert_eq!(consonants.len(), 21);
    /// assert!(!consonants.contains('e'));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn difference(&self, other: &Self) -> Self {
        CharSet { ranges: self.difference_ranges(other).collect() }
    }

    /// The ranges of [`difference`](CharSet::difference), in order, computed as they are
    /// read: a caller that only measures them can stop early.
    pub(crate) fn difference_ranges<'a>(
        &'a self,
        other: &'a Self,
    ) -> impl Iterator<Item = (char, char)> + 'a {
        Difference { ours: &self.ranges, theirs: &other.ranges, piece: None }
    }

    /// All scalar values not in the set. O(n).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let not_a = CharSet::singleton('a').complement();
    /// assert_eq!(not_a.ranges(), [('\0', '`'), ('b', char::MAX)]);
    /// assert_eq!(not_a.complement(), CharSet::singleton('a'));
    /// ```
    pub fn complement(&self) -> Self {
        let mut out = Vec::with_capacity(self.ranges.len() + 1);
        // The smallest scalar value above every range seen so far; `None` past U+10FFFF.
        let mut gap_start = Some('\0');
        for &(lo, hi) in &self.ranges {
            if let (Some(start), Some(end)) = (gap_start, pred(lo))
                && start <= end
            {
                out.push((start, end));
            }
            gap_start = succ(hi);
        }
        if let Some(start) = gap_start {
            out.push((start, char::MAX));
        }
        CharSet { ranges: out }
    }

    /// Whether every member of `self` is in `other`. O(n + m).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let letters = CharSet::parse("[a-zA-Z]")?;
    /// assert!(CharSet::range('a', 'f').is_subset(&letters));
    /// assert!(!CharSet::range('0', 'f').is_subset(&letters));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_subset(&self, other: &Self) -> bool {
        // Canonical ranges of `other` are separated by non-members, so each range of `self`
        // must lie within a single range of `other`.
        let mut theirs = other.ranges.iter().peekable();
        self.ranges.iter().all(|&(lo, hi)| {
            while theirs.next_if(|&&(_, their_hi)| their_hi < lo).is_some() {}
            theirs.peek().is_some_and(|&&(their_lo, their_hi)| their_lo <= lo && hi <= their_hi)
        })
    }

    /// Whether the sets have no member in common. O(n + m).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let digits = CharSet::range('0', '9');
    /// assert!(digits.is_disjoint(&CharSet::range('a', 'z')));
    /// assert!(!digits.is_disjoint(&CharSet::parse("[0-9a-f]")?));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_disjoint(&self, other: &Self) -> bool {
        let (mut a, mut b) = (self.ranges.as_slice(), other.ranges.as_slice());
        while let (Some((&(a_lo, a_hi), a_rest)), Some((&(b_lo, b_hi), b_rest))) =
            (a.split_first(), b.split_first())
        {
            if a_lo.max(b_lo) <= a_hi.min(b_hi) {
                return false;
            }
            if a_hi < b_hi {
                a = a_rest;
            } else {
                b = b_rest;
            }
        }
        true
    }

    /// The member at position `index` in ascending order (counting from 0 and skipping
    /// surrogates), or `None` when `index >= self.len()`. The inverse of
    /// [`index_of`](Self::index_of). O(n).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let set = CharSet::range('\u{D7FE}', '\u{E001}');
    /// assert_eq!(set.len(), 4);
    /// assert_eq!(set.nth(2), Some('\u{E000}'));
    /// assert_eq!(set.index_of('\u{E000}'), Some(2));
    /// assert_eq!(set.nth(4), None);
    /// ```
    pub fn nth(&self, index: u64) -> Option<char> {
        let mut rest = index;
        for range in &self.ranges {
            let len = span_len(range);
            if rest < len {
                // `rest` < `len` <= 1,112,064, and rank(lo) + rest <= rank(hi).
                return unrank(rank(range.0) + u32::try_from(rest).ok()?);
            }
            rest -= len;
        }
        None
    }

    /// The position of `c` among the members in ascending order, or `None` when `c` is not a
    /// member. The inverse of [`nth`](Self::nth). O(n).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let set = CharSet::parse("[a-cx-z]")?;
    /// assert_eq!(set.index_of('x'), Some(3));
    /// assert_eq!(set.index_of('d'), None);
    /// assert_eq!(set.nth(3), Some('x'));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index_of(&self, c: char) -> Option<u64> {
        let i = self.ranges.partition_point(|&(_, hi)| hi < c);
        let &(lo, _) = self.ranges.get(i).filter(|&&(lo, _)| lo <= c)?;
        let before: u64 = self.ranges.iter().take(i).map(span_len).sum();
        Some(before + u64::from(rank(c) - rank(lo)))
    }
}

impl FromIterator<char> for CharSet {
    /// The set of the given characters, in any order and with repeats. O(k log k).
    fn from_iter<I: IntoIterator<Item = char>>(chars: I) -> Self {
        CharSet::from_ranges(chars.into_iter().map(|c| (c, c)))
    }
}

/// The iterator of [`CharSet::difference_ranges`]. Each piece ends before a range of
/// `theirs` or where a range of `ours` ends, and the next starts after a member of `theirs`
/// or of no range of `ours`: pieces are never adjacent, so they are canonical.
struct Difference<'a> {
    ours: &'a [(char, char)],
    theirs: &'a [(char, char)],
    /// What is left of the range of `ours` being cut.
    piece: Option<(char, char)>,
}

impl Iterator for Difference<'_> {
    type Item = (char, char);

    fn next(&mut self) -> Option<(char, char)> {
        loop {
            let (lo, hi) = match self.piece.take() {
                Some(piece) => piece,
                None => {
                    let (&range, rest) = self.ours.split_first()?;
                    self.ours = rest;
                    range
                }
            };
            while let Some((&(_, their_hi), rest)) = self.theirs.split_first()
                && their_hi < lo
            {
                self.theirs = rest;
            }
            let Some(&(their_lo, their_hi)) = self.theirs.first().filter(|r| r.0 <= hi) else {
                return Some((lo, hi));
            };
            // `their_hi < hi`, so there is a scalar after it within the range.
            self.piece = if their_hi < hi { succ(their_hi).map(|next| (next, hi)) } else { None };
            if their_lo > lo
                && let Some(end) = pred(their_lo)
            {
                return Some((lo, end));
            }
        }
    }
}

/// Writes one member in [`CharSet`]'s `Display` notation.
fn write_member(f: &mut fmt::Formatter<'_>, c: char) -> fmt::Result {
    if c.is_ascii_graphic() {
        if matches!(c, '\\' | '[' | ']' | '-' | '^' | '.') {
            f.write_char('\\')?;
        }
        f.write_char(c)
    } else {
        write!(f, "\\u{{{:02X}}}", u32::from(c))
    }
}

/// Writes the ranges between the brackets of a class: `a-c` for three or more members,
/// `ab` for two, `a` for one.
fn write_ranges(f: &mut fmt::Formatter<'_>, ranges: &[(char, char)]) -> fmt::Result {
    for &(lo, hi) in ranges {
        write_member(f, lo)?;
        if hi != lo {
            if succ(lo) != Some(hi) {
                f.write_char('-')?;
            }
            write_member(f, hi)?;
        }
    }
    Ok(())
}

impl fmt::Display for CharSet {
    /// A compact, unambiguous class notation for DOT and debug output:
    /// - the empty set is `[]`, the full set is `.`, and a single member is printed bare;
    /// - a set containing both U+0000 and U+10FFFF (but not everything) is printed as the
    ///   negation `[^…]` of its complement, any other set as `[…]`;
    /// - inside, a run of three or more members is `lo-hi` and a run of two is `lo` `hi`;
    /// - printable ASCII prints as itself, with `\ [ ] - ^ .` escaped by a backslash; every
    ///   other character (space, controls, non-ASCII) prints as `\u{XX}`, upper-case hex of at
    ///   least two digits.
    ///
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// let set = CharSet::from_ranges([('a', 'c'), ('x', 'x'), ('-', '-'), ('é', 'é')]);
    /// assert_eq!(set.to_string(), r"[\-a-cx\u{E9}]");
    /// assert_eq!(CharSet::singleton('\n').complement().to_string(), r"[^\u{0A}]");
    /// assert_eq!(CharSet::singleton('.').to_string(), r"\.");
    /// assert_eq!(CharSet::full().to_string(), ".");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ranges.as_slice() {
            [] => f.write_str("[]"),
            [('\0', char::MAX)] => f.write_char('.'),
            &[(lo, hi)] if lo == hi => write_member(f, lo),
            [('\0', _), .., (_, char::MAX)] => {
                f.write_str("[^")?;
                write_ranges(f, &self.complement().ranges)?;
                f.write_char(']')
            }
            ranges => {
                f.write_char('[')?;
                write_ranges(f, ranges)?;
                f.write_char(']')
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;

    const D7FF: char = '\u{D7FF}';
    const E000: char = '\u{E000}';

    /// Asserts the canonical-form invariant of the module docs.
    fn assert_canonical(set: &CharSet) {
        for &(lo, hi) in set.ranges() {
            assert!(lo <= hi, "reversed range in {set:?}");
        }
        for pair in set.ranges().windows(2) {
            let (prev_hi, next_lo) = (pair[0].1, pair[1].0);
            assert!(rank(prev_hi) + 1 < rank(next_lo), "unsorted or adjacent ranges in {set:?}");
        }
    }

    #[test]
    fn surrogate_gap_is_adjacency() {
        let across = CharSet::range(D7FF, E000);
        assert_eq!(across.len(), 2);
        assert_eq!(across.nth(1), Some(E000));
        let halves = CharSet::range('\0', D7FF).union(&CharSet::range(E000, char::MAX));
        assert!(halves.is_full());
        assert_eq!(halves, CharSet::full());
        let touching = CharSet::from_ranges([(E000, E000), ('a', D7FF)]);
        assert_eq!(touching.ranges(), [('a', E000)]);
        assert_eq!(CharSet::range('\0', D7FF).complement().ranges(), [(E000, char::MAX)]);
        assert_eq!(succ(D7FF), Some(E000));
        assert_eq!(pred(E000), Some(D7FF));
    }

    #[test]
    fn extremes() {
        assert_eq!(CharSet::full().len(), 1_112_064);
        assert_eq!(CharSet::empty().len(), 0);
        assert_eq!(CharSet::empty().complement(), CharSet::full());
        assert_eq!(CharSet::full().complement(), CharSet::empty());
        assert_eq!(CharSet::default(), CharSet::empty());
        assert_eq!(CharSet::range('b', 'a'), CharSet::empty());
        assert_eq!(CharSet::from_ranges([('z', 'a')]), CharSet::empty());
        let ends = CharSet::from_iter(['\0', char::MAX]);
        assert_eq!(ends.complement().ranges(), [('\u{1}', '\u{10FFFE}')]);
        assert!(ends.contains('\0') && ends.contains(char::MAX) && !ends.contains('\u{1}'));
        assert_eq!((ends.first(), ends.last()), (Some('\0'), Some(char::MAX)));
        assert_eq!((CharSet::empty().first(), CharSet::empty().last()), (None, None));
        assert_eq!(ends.index_of(char::MAX), Some(1));
        assert_eq!(CharSet::full().nth(1_112_063), Some(char::MAX));
        assert_eq!(CharSet::full().nth(1_112_064), None);
        assert_eq!(CharSet::full().nth(u64::MAX), None);
        assert_eq!(CharSet::full().index_of(char::MAX), Some(1_112_063));
        assert_eq!((succ(char::MAX), pred('\0')), (None, None));
    }

    #[test]
    fn nth_and_index_of_step_over_the_gap() {
        let full = CharSet::full();
        assert_eq!(full.nth(0xD7FF), Some(D7FF));
        assert_eq!(full.nth(0xD800), Some(E000));
        assert_eq!(full.index_of(E000), Some(0xD800));
        let set = CharSet::from_ranges([('a', 'b'), (D7FF, '\u{E001}')]);
        assert_eq!(set.nth(2), Some(D7FF));
        assert_eq!(set.nth(3), Some(E000));
        assert_eq!(set.index_of('\u{E001}'), Some(4));
        assert_eq!(set.index_of('c'), None);
        assert_eq!(set.nth(5), None);
    }

    #[test]
    fn display() {
        let show = |set: CharSet| set.to_string();
        assert_eq!(show(CharSet::from_ranges([('a', 'c'), ('x', 'x')])), "[a-cx]");
        assert_eq!(show(CharSet::singleton('a')), "a");
        assert_eq!(show(CharSet::full()), ".");
        assert_eq!(show(CharSet::empty()), "[]");
        assert_eq!(show(CharSet::range('a', 'b')), "[ab]");
        assert_eq!(show("\\[]-^.".chars().collect()), r"[\-\.\[-\^]");
        assert_eq!(show(CharSet::singleton(' ')), r"\u{20}");
        assert_eq!(show(CharSet::range(D7FF, E000)), r"[\u{D7FF}\u{E000}]");
        assert_eq!(show(CharSet::range('\0', 'a')), r"[\u{00}-a]");
        assert_eq!(show(CharSet::range('\u{1}', char::MAX)), r"[\u{01}-\u{10FFFF}]");
        assert_eq!(show(CharSet::from_iter(['a', 'c']).complement()), "[^ac]");
    }

    /// Interesting code points; every generated range has its endpoints here.
    fn pool() -> Vec<char> {
        let mut pool = vec!['\0', '\u{D7FE}', D7FF, E000, '\u{E001}', '\u{10FFFE}', char::MAX];
        pool.extend('a'..='z');
        pool
    }

    /// The pool and each pool point's neighbours, sorted. Every generated set is constant on
    /// each run from one probe up to the next, as each such run starts at a range start or
    /// right after a range end, so agreeing on the probes means agreeing everywhere.
    fn probes() -> Vec<char> {
        let mut probes = pool();
        probes.extend(pool().into_iter().filter_map(succ));
        probes.extend(pool().into_iter().filter_map(pred));
        probes.sort_unstable();
        probes.dedup();
        probes
    }

    /// Raw input for `from_ranges`: unsorted, overlapping, sometimes reversed pairs.
    fn raw_ranges() -> impl Strategy<Value = Vec<(char, char)>> {
        prop::collection::vec((select(pool()), select(pool())), 0..6)
    }

    /// The brute-force model: membership in the union of the raw pairs.
    fn model(raw: &[(char, char)], c: char) -> bool {
        raw.iter().any(|&(lo, hi)| lo <= c && c <= hi)
    }

    /// The number of scalar values in `lo..hi` (exclusive), counted by code point arithmetic.
    fn scalars_between(lo: u32, hi: u32) -> u64 {
        let surrogates = hi.min(0xE000).saturating_sub(lo.max(0xD800));
        u64::from(hi - lo - surrogates)
    }

    /// The model's count of members below `limit` (a probe), summed run by run over probes.
    fn model_count_below(member: impl Fn(char) -> bool, limit: u32) -> u64 {
        let probes = probes();
        let ends = probes.iter().skip(1).map(|&c| u32::from(c)).chain([0x11_0000]);
        probes
            .iter()
            .zip(ends)
            .filter(|&(&start, _)| member(start))
            .map(|(&start, end)| {
                scalars_between(u32::from(start), end.min(limit).max(u32::from(start)))
            })
            .sum()
    }

    proptest! {
        #[test]
        fn from_ranges_agrees_with_model(raw in raw_ranges()) {
            let set = CharSet::from_ranges(raw.iter().copied());
            assert_canonical(&set);
            for c in probes() {
                prop_assert_eq!(set.contains(c), model(&raw, c), "probe {:?}", c);
            }
            prop_assert_eq!(set.len(), model_count_below(|c| model(&raw, c), 0x11_0000));
            prop_assert_eq!(set.is_empty(), raw.iter().all(|&(lo, hi)| lo > hi));
            prop_assert_eq!(set.is_full(), set.len() == 1_112_064);
            let shuffled: Vec<_> = raw.iter().rev().chain(&raw).copied().collect();
            prop_assert_eq!(&CharSet::from_ranges(shuffled), &set);
            let chars = probes().into_iter().filter(|&c| model(&raw, c));
            prop_assert_eq!(CharSet::from_iter(chars.clone()).len(), chars.count() as u64);
        }

        #[test]
        fn operations_agree_with_model(a in raw_ranges(), b in raw_ranges()) {
            let (x, y) = (CharSet::from_ranges(a.clone()), CharSet::from_ranges(b.clone()));
            let ops = [x.union(&y), x.intersection(&y), x.difference(&y), x.complement()];
            for set in &ops {
                assert_canonical(set);
            }
            let [union, inter, diff, compl] = ops;
            let mut subset = true;
            let mut disjoint = true;
            for c in probes() {
                let (in_a, in_b) = (model(&a, c), model(&b, c));
                prop_assert_eq!(union.contains(c), in_a || in_b);
                prop_assert_eq!(inter.contains(c), in_a && in_b);
                prop_assert_eq!(diff.contains(c), in_a && !in_b);
                prop_assert_eq!(compl.contains(c), !in_a);
                subset &= !in_a || in_b;
                disjoint &= !(in_a && in_b);
            }
            prop_assert_eq!(x.is_subset(&y), subset);
            prop_assert_eq!(x.is_disjoint(&y), disjoint);
            prop_assert_eq!(union.len() + inter.len(), x.len() + y.len());
            prop_assert_eq!(compl.len(), 1_112_064 - x.len());
        }

        #[test]
        fn boolean_laws(a in raw_ranges(), b in raw_ranges()) {
            let (x, y) = (CharSet::from_ranges(a), CharSet::from_ranges(b));
            prop_assert_eq!(x.union(&y).complement(), x.complement().intersection(&y.complement()));
            prop_assert_eq!(x.intersection(&y).complement(), x.complement().union(&y.complement()));
            prop_assert_eq!(x.complement().complement(), x.clone());
            prop_assert_eq!(x.difference(&y), x.intersection(&y.complement()));
            prop_assert_eq!(x.union(&y), y.union(&x));
            prop_assert_eq!(x.intersection(&y), y.intersection(&x));
            prop_assert_eq!(x.is_subset(&y), x.union(&y) == y);
            prop_assert_eq!(x.is_disjoint(&y), x.intersection(&y).is_empty());
            prop_assert!(x.union(&x.complement()).is_full());
        }

        #[test]
        fn nth_and_index_of_invert_each_other(raw in raw_ranges(), sample in any::<u64>()) {
            let set = CharSet::from_ranges(raw.clone());
            let len = set.len();
            prop_assert_eq!(set.nth(len), None);
            prop_assert_eq!(set.nth(0), set.first());
            prop_assert_eq!(len.checked_sub(1).and_then(|last| set.nth(last)), set.last());
            if len > 0 {
                let index = sample % len;
                let c = set.nth(index);
                prop_assert!(c.is_some_and(|c| set.contains(c)));
                prop_assert_eq!(c.and_then(|c| set.index_of(c)), Some(index));
            }
            for c in probes() {
                let expected = model(&raw, c)
                    .then(|| model_count_below(|p| model(&raw, p), u32::from(c)));
                prop_assert_eq!(set.index_of(c), expected, "probe {:?}", c);
                if let Some(index) = expected {
                    prop_assert_eq!(set.nth(index), Some(c));
                }
            }
        }
    }
}
