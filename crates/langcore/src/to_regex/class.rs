//! Spelling one character set in an output [`Dialect`], the shortest exact way it allows.
//!
//! # Overview
//! [`spell`] is called once per distinct set of an expression arena and returns the text
//! with its nesting depth. The candidates, shortest first (ties to the earlier one):
//! - one character, escaped; `.` for every character in our dialect (read with the `s`
//!   flag, as the contract says); `[\s\S]` elsewhere (the same in every engine whatever the
//!   flags);
//! - a named class or property that is exactly the set (`\d`, `\W`, `\pL`, `\p{Greek}`);
//! - a bracket `[...]` of named classes contained in the set and ranges for the rest
//!   (`[\w.-]`), chosen greedily by the length they save;
//! - the negated bracket of the complement, built the same way (`[^\s>]`);
//! - in our dialect, a class difference `[N--R]` where a named class `N` holds the set and
//!   `R` is the little it holds beyond (`[\pL--a]`).
//!
//! # Dialects
//! Which names are exact depends on the engine ([`named`]): in ours, every Perl class and
//! Unicode property of `regex-syntax`; in the others, their class escapes without flags as
//! relang reads their patterns (`pattern/class.rs`, one definition for both ways): ASCII
//! `\d`, `\w`, `\s` and their negations in Java and PCRE, JavaScript's ASCII `\d`, `\w`
//! and Unicode `\s`, Python's Unicode ones (its tables as relang reads them, Unicode 16.0,
//! Python 3.14's: see docs/dialects.md). No property outside ours: Python has none, and
//! PCRE's and Java's follow their own Unicode versions. Escapes outside
//! printable ASCII are `\xHH`, `\uHHHH`, then `\UHHHHHHHH` (ours, Python), `\x{..}` (Java
//! above U+FFFF, PCRE above U+FF). JavaScript without the `u` flag matches UTF-16 code
//! units, so a set with characters above U+FFFF becomes a group of its BMP part and
//! surrogate pairs (`([a-z]|\uD83D[\uDE00-\uDE4F])`), and a negated BMP class also excludes
//! the surrogates.
//!
//! # Invariants
//! The text is printable ASCII, denotes exactly the set in its dialect, and binds as one
//! atom (a quantifier may follow it).

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::alphabet::CharSet;
use crate::dialect::Dialect;

/// The first and last surrogate code units.
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);
/// The first scalar value outside the Basic Multilingual Plane.
const ASTRAL: u32 = 0x1_0000;
/// Named classes added greedily to one bracket at most.
const MAX_NAMED_ITEMS: usize = 3;
/// The shortest bracket of a set of two members or more: `[ab]`, `[^a]`.
const MIN_BRACKET: usize = 4;
/// A class difference `[N--R]` is only tried when `R` has at most this many ranges.
const MAX_DIFFERENCE_RANGES: usize = 8;

/// A set's spelling and its nesting depth as `regex-syntax` counts it (an upper bound).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Spelled {
    pub(super) text: Box<str>,
    pub(super) depth: u32,
}

impl Spelled {
    /// Takes `text`, of nesting `depth`, if it is shorter.
    fn keep_shorter(&mut self, text: String, depth: u32) {
        if text.len() < self.text.len() {
            *self = Spelled { text: text.into(), depth };
        }
    }
}

/// A named class of a dialect: its text (the same inside and outside a bracket), its set
/// and the set's size.
#[derive(Debug)]
pub(super) struct Named {
    text: Box<str>,
    set: CharSet,
    len: u64,
}

/// The shortest exact spelling of the non-empty `set` in `dialect`.
pub(super) fn spell(set: &CharSet, dialect: Dialect) -> Spelled {
    debug_assert!(!set.is_empty(), "the empty set is the expression `[]`");
    if dialect == Dialect::Js && set.last().is_some_and(|last| u32::from(last) >= ASTRAL) {
        return spell_js_astral(set);
    }
    if let [(lo, hi)] = set.ranges()
        && lo == hi
    {
        let mut text = String::new();
        write_code(u32::from(*lo), false, dialect, &mut text);
        return Spelled { text: text.into(), depth: 0 };
    }
    if set.is_full() {
        return Spelled {
            text: if dialect == Dialect::Rust { "." } else { r"[\s\S]" }.into(),
            depth: 0,
        };
    }
    let named = named(dialect);
    let exact = named.iter().find(|named| named.len == set.len() && named.set == *set);
    // Brackets of two or more members are four characters or more.
    if let Some(exact) = exact.filter(|exact| exact.text.len() < MIN_BRACKET) {
        return Spelled { text: exact.text.clone(), depth: 0 };
    }
    let mut best = Spelled { text: bracket(set, false, named, dialect).into(), depth: 2 };
    if let Some(exact) = exact {
        best.keep_shorter(exact.text.to_string(), 0);
    }
    let complement = if dialect == Dialect::Js {
        // One code unit of the BMP: the astral characters are not the negation's to match.
        set.complement().difference(&astral_plane())
    } else {
        set.complement()
    };
    best.keep_shorter(bracket(&complement, true, named, dialect), 2);
    if dialect == Dialect::Rust {
        let len = set.len();
        // `[N--R]` is at least five characters longer than `N`.
        let fits = |outer: &Named, best: &Spelled| outer.text.len() + 5 < best.text.len();
        for outer in named.iter().filter(|named| named.len > len && set.is_subset(&named.set)) {
            if !fits(outer, &best) {
                continue;
            }
            // Only a small rest can make this shortest; spelling large ones for every
            // outer class would cost more than the whole conversion.
            if outer.set.difference_ranges(set).nth(MAX_DIFFERENCE_RANGES).is_some() {
                continue;
            }
            let rest = outer.set.difference(set);
            let rest_text = if let Some(only) = rest.first().filter(|_| rest.len() == 1) {
                let mut text = String::new();
                write_code(u32::from(only), true, dialect, &mut text);
                text
            } else {
                format!("[{}]", ranges_text(&rest, dialect))
            };
            best.keep_shorter(format!("[{}--{rest_text}]", outer.text), 3);
        }
    }
    best
}

/// In JavaScript, the spelling of `set` under `*` or `+`, where it is shorter than
/// [`spell`]'s: there a class that matches single code units may stand for a set whose
/// characters above U+FFFF are all of them, since any run of units that makes a string
/// splits into the set's characters and the two halves of each pair. So `.*` is `[^]*`,
/// `[^,]*` needs no surrogate pairs, and `\D+` is every run without an ASCII digit.
pub(super) fn spell_repeated(set: &CharSet, dialect: Dialect) -> Option<Box<str>> {
    let astral = astral_plane();
    if dialect != Dialect::Js || !astral.is_subset(set) {
        return None;
    }
    // The complement is within the BMP, outside the surrogates.
    let outside = set.complement();
    if outside.is_empty() {
        return Some("[^]".into());
    }
    let named = named(dialect);
    // `\D`, `\W`, `\S`: single units outside the positive class.
    if let Some(exact) =
        named.iter().find(|named| named.len == outside.len() && named.set == outside)
    {
        return Some(exact.text.to_uppercase().into());
    }
    Some(bracket_of(&outside, true, named, dialect, false).into())
}

/// A bracket, `[...]` or `[^...]` when `negated`, of the members of `set`: named classes
/// within it chosen greedily while they shorten the text, and ranges for the rest.
fn bracket(set: &CharSet, negated: bool, named: &[Named], dialect: Dialect) -> String {
    bracket_of(set, negated, named, dialect, dialect == Dialect::Js && negated)
}

/// [`bracket`]; in a negated JavaScript bracket, `surrogates_out` keeps single surrogate
/// units out of what it matches.
fn bracket_of(
    set: &CharSet,
    negated: bool,
    named: &[Named],
    dialect: Dialect,
    surrogates_out: bool,
) -> String {
    let len = set.len();
    let within: Vec<&Named> =
        named.iter().filter(|named| named.len <= len && named.set.is_subset(set)).collect();
    let mut chosen: Vec<&Named> = Vec::new();
    let mut rest = set.clone();
    let mut cost =
        ranges_len_within(rest.ranges().iter().copied(), dialect, usize::MAX).unwrap_or(usize::MAX);
    while chosen.len() < MAX_NAMED_ITEMS {
        let mut step: Option<(usize, &Named)> = None;
        for &item in &within {
            // The cost to beat: the text so far, and the best item of this step.
            let to_beat = step.map_or(cost, |(best, _)| cost.min(best));
            if item.text.len() >= to_beat || item.set.is_disjoint(&rest) {
                continue;
            }
            // Measured, not written, and only while it can still beat `to_beat`: the rest
            // beside a large property runs to kilobytes.
            let left = rest.difference_ranges(&item.set);
            if let Some(left_len) = ranges_len_within(left, dialect, to_beat - 1 - item.text.len())
            {
                step = Some((item.text.len() + left_len, item));
            }
        }
        let Some((item_cost, item)) = step else { break };
        chosen.push(item);
        rest = rest.difference(&item.set);
        cost = item_cost;
    }
    let mut out = String::from(if negated { "[^" } else { "[" });
    for item in chosen {
        out.push_str(&item.text);
    }
    if surrogates_out {
        // `[^...]` matches one UTF-16 code unit: a lone surrogate must stay out, and with it
        // a range may run through the surrogates.
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        let mut with_surrogates: Vec<(u32, u32)> =
            rest.ranges().iter().map(|&(lo, hi)| (u32::from(lo), u32::from(hi))).collect();
        with_surrogates.push(SURROGATES);
        with_surrogates.sort_unstable();
        for (lo, hi) in with_surrogates {
            match ranges.last_mut() {
                Some(last) if last.1 + 1 >= lo => last.1 = last.1.max(hi),
                _ => ranges.push((lo, hi)),
            }
        }
        for (lo, hi) in ranges {
            write_range(lo, hi, dialect, &mut out);
        }
    } else {
        out.push_str(&ranges_text(&rest, dialect));
    }
    out.push(']');
    out
}

/// The ranges of `set` as they are written inside a bracket.
fn ranges_text(set: &CharSet, dialect: Dialect) -> String {
    let mut out = String::new();
    for &(lo, hi) in set.ranges() {
        write_bracket_range(u32::from(lo), u32::from(hi), dialect, &mut out);
    }
    out
}

/// The length of [`ranges_text`] of a set of `ranges`, or `None` once it is over `limit`.
fn ranges_len_within(
    ranges: impl Iterator<Item = (char, char)>,
    dialect: Dialect,
    limit: usize,
) -> Option<usize> {
    let mut len = Length(0);
    for (lo, hi) in ranges {
        write_bracket_range(u32::from(lo), u32::from(hi), dialect, &mut len);
        if len.0 > limit {
            return None;
        }
    }
    Some(len.0)
}

/// Where spellings go: a string, or the [`Length`] they would have.
trait Sink {
    fn push(&mut self, c: char);
    fn push_code(&mut self, code: Escape);
}

impl Sink for String {
    fn push(&mut self, c: char) {
        String::push(self, c);
    }

    fn push_code(&mut self, code: Escape) {
        code.write(self);
    }
}

/// The length of what would have been written: measuring candidates costs no formatting.
struct Length(usize);

impl Sink for Length {
    fn push(&mut self, c: char) {
        self.0 += c.len_utf8();
    }

    fn push_code(&mut self, code: Escape) {
        self.0 += code.len();
    }
}

/// Writes a range of code points inside a bracket.
fn write_bracket_range(lo: u32, hi: u32, dialect: Dialect, out: &mut impl Sink) {
    // JavaScript reads code units: a range must not span the surrogates.
    if dialect == Dialect::Js && lo < SURROGATES.0 && hi > SURROGATES.1 {
        write_range(lo, SURROGATES.0 - 1, dialect, out);
        write_range(SURROGATES.1 + 1, hi, dialect, out);
    } else {
        write_range(lo, hi, dialect, out);
    }
}

fn write_range(lo: u32, hi: u32, dialect: Dialect, out: &mut impl Sink) {
    out.push_code(Escape::of(lo, true, dialect));
    if lo == hi {
        return;
    }
    // Two members side by side when that is shorter than a range (`ab`, not `a-b`).
    // Not U+D7FF and U+E000: `regex-syntax` negates `[^\uD7FF\uE000]` into everything,
    // while `[^\uD7FF-\uE000]` is read right.
    if hi != lo + 1 {
        out.push('-');
    }
    out.push_code(Escape::of(hi, true, dialect));
}

/// A JavaScript set with members above U+FFFF: a group of its BMP part and the surrogate
/// pairs of the rest.
fn spell_js_astral(set: &CharSet) -> Spelled {
    let astral = astral_plane();
    let bmp = set.difference(&astral);
    let mut branches = Vec::new();
    if !bmp.is_empty() {
        branches.push(spell(&bmp, Dialect::Js).text.into_string());
    }
    for (highs, lows) in surrogate_pairs(&set.intersection(&astral)) {
        let mut branch = String::new();
        for (lo, hi) in [highs, lows] {
            if lo == hi {
                write_code(lo, false, Dialect::Js, &mut branch);
            } else {
                branch.push('[');
                write_range(lo, hi, Dialect::Js, &mut branch);
                branch.push(']');
            }
        }
        branches.push(branch);
    }
    Spelled { text: format!("({})", branches.join("|")).into(), depth: 4 }
}

/// Every character above U+FFFF.
fn astral_plane() -> CharSet {
    CharSet::range(char::from_u32(ASTRAL).expect("a scalar value"), char::MAX)
}

/// The astral `set` as UTF-16 surrogate pairs: (high range, low range) products whose
/// union is the set, pairs with the same low range and adjacent high ranges merged.
fn surrogate_pairs(set: &CharSet) -> Vec<((u32, u32), (u32, u32))> {
    const LOW: (u32, u32) = (0xDC00, 0xDFFF);
    let split = |c: u32| (0xD800 + ((c - ASTRAL) >> 10), 0xDC00 + ((c - ASTRAL) & 0x3FF));
    let mut pairs: Vec<((u32, u32), (u32, u32))> = Vec::new();
    let mut push = |highs: (u32, u32), lows: (u32, u32)| match pairs.last_mut() {
        Some((last_highs, last_lows)) if *last_lows == lows && last_highs.1 + 1 == highs.0 => {
            last_highs.1 = highs.1;
        }
        _ => pairs.push((highs, lows)),
    };
    for &(lo, hi) in set.ranges() {
        let ((high_lo, low_lo), (high_hi, low_hi)) = (split(u32::from(lo)), split(u32::from(hi)));
        if high_lo == high_hi {
            push((high_lo, high_lo), (low_lo, low_hi));
            continue;
        }
        push((high_lo, high_lo), (low_lo, LOW.1));
        if high_lo + 1 < high_hi {
            push((high_lo + 1, high_hi - 1), LOW);
        }
        push((high_hi, high_hi), (LOW.0, low_hi));
    }
    pairs
}

/// Writes one code point, escaped for use outside or inside a bracket of `dialect`.
pub(super) fn write_code(value: u32, in_class: bool, dialect: Dialect, out: &mut String) {
    Escape::of(value, in_class, dialect).write(out);
}

/// How one code point is written: decided once, then written or measured.
#[derive(Clone, Copy, Debug)]
enum Escape {
    /// The character itself, after a backslash when `escaped`.
    Char { c: char, escaped: bool },
    /// `\t`, `\n` or `\r`.
    Control(&'static str),
    /// `prefix`, the value in upper-case hexadecimal of at least `width` digits, `suffix`.
    Hex { prefix: &'static str, width: usize, value: u32, suffix: &'static str },
}

impl Escape {
    /// The escape of `value` outside or inside (`in_class`) a bracket of `dialect`.
    fn of(value: u32, in_class: bool, dialect: Dialect) -> Escape {
        let hex = |prefix, width, suffix| Escape::Hex { prefix, width, value, suffix };
        if let Some(c) = char::from_u32(value).filter(|c| matches!(c, ' '..='~')) {
            let escaped = if in_class {
                matches!(c, '\\' | '[' | ']' | '^' | '-' | '&' | '~' | '|' | '#')
            } else {
                matches!(
                    c,
                    '\\' | '.'
                        | '+'
                        | '*'
                        | '?'
                        | '('
                        | ')'
                        | '|'
                        | '['
                        | ']'
                        | '{'
                        | '}'
                        | '^'
                        | '$'
                )
            };
            return Escape::Char { c, escaped };
        }
        match value {
            0x09 => Escape::Control(r"\t"),
            0x0A => Escape::Control(r"\n"),
            0x0D => Escape::Control(r"\r"),
            0..=0xFF => hex(r"\x", 2, ""),
            _ if dialect == Dialect::Pcre => hex(r"\x{", 1, "}"),
            0x100..=0xFFFF => hex(r"\u", 4, ""),
            _ if dialect == Dialect::Java => hex(r"\x{", 1, "}"),
            _ => hex(r"\U", 8, ""),
        }
    }

    /// The length of the escape's text.
    fn len(self) -> usize {
        match self {
            Escape::Char { escaped, .. } => 1 + usize::from(escaped),
            Escape::Control(text) => text.len(),
            Escape::Hex { prefix, width, value, suffix } => {
                let digits = (u32::BITS - value.leading_zeros()).div_ceil(4).max(1);
                prefix.len() + width.max(digits as usize) + suffix.len()
            }
        }
    }

    fn write(self, out: &mut String) {
        // Infallible: writing to a String.
        let _ = match self {
            Escape::Char { c, escaped: true } => write!(out, "\\{c}"),
            Escape::Char { c, escaped: false } => write!(out, "{c}"),
            Escape::Control(text) => write!(out, "{text}"),
            Escape::Hex { prefix, width, value, suffix } => {
                write!(out, "{prefix}{value:0width$X}{suffix}")
            }
        };
    }
}

/// The named classes that are exact in `dialect`, shorter names first.
pub(super) fn named(dialect: Dialect) -> &'static [Named] {
    static RUST: OnceLock<Vec<Named>> = OnceLock::new();
    static JAVA: OnceLock<Vec<Named>> = OnceLock::new();
    static JS: OnceLock<Vec<Named>> = OnceLock::new();
    static PYTHON: OnceLock<Vec<Named>> = OnceLock::new();
    static PCRE: OnceLock<Vec<Named>> = OnceLock::new();
    let table = match dialect {
        Dialect::Rust => return RUST.get_or_init(rust_named),
        Dialect::Java => &JAVA,
        Dialect::Js => &JS,
        Dialect::Python => &PYTHON,
        Dialect::Pcre => &PCRE,
    };
    table.get_or_init(|| shorthand_named(dialect))
}

/// The class escapes of `dialect` (`\d`, `\W`, ...) as its patterns are read
/// (`pattern::shorthands`): ASCII `\d`, `\w`, `\s` in Java and PCRE, Unicode ones in
/// Python, JavaScript's Unicode `\s`. Without the `u` flag, JavaScript's `\D`, `\W` and
/// `\S` would match single surrogates: positive ones only there.
fn shorthand_named(dialect: Dialect) -> Vec<Named> {
    let mut named: Vec<Named> = crate::pattern::shorthands(dialect)
        .into_iter()
        .filter(|(text, _)| dialect != Dialect::Js || text.ends_with(|c: char| c.is_lowercase()))
        .map(|(text, set)| Named { text: text.into(), len: set.len(), set })
        .collect();
    named.sort_by_key(|named| named.text.len());
    named
}

/// Our dialect's Perl classes, general categories and common scripts, with negations.
fn rust_named() -> Vec<Named> {
    const PERL: [&str; 6] = [r"\d", r"\D", r"\w", r"\W", r"\s", r"\S"];
    const SHORT: [&str; 14] = [
        r"\pL", r"\PL", r"\pM", r"\PM", r"\pN", r"\PN", r"\pP", r"\PP", r"\pS", r"\PS", r"\pZ",
        r"\PZ", r"\pC", r"\PC",
    ];
    const LONG: [&str; 42] = [
        "Lu",
        "Ll",
        "Lt",
        "Lm",
        "Lo",
        "Mn",
        "Mc",
        "Me",
        "Nd",
        "Nl",
        "No",
        "Pc",
        "Pd",
        "Ps",
        "Pe",
        "Pi",
        "Pf",
        "Po",
        "Sm",
        "Sc",
        "Sk",
        "So",
        "Zs",
        "Cc",
        "Cf",
        "Co",
        "Latin",
        "Greek",
        "Cyrillic",
        "Armenian",
        "Hebrew",
        "Arabic",
        "Devanagari",
        "Thai",
        "Georgian",
        "Hangul",
        "Hiragana",
        "Katakana",
        "Han",
        "ASCII",
        "Emoji",
        "Alphabetic",
    ];
    let mut named: Vec<Named> = Vec::new();
    let mut add = |text: String| {
        let set = CharSet::parse(&text).expect("a valid class of our dialect");
        // `\d` and `\p{Nd}` are the same set: keep the first, shorter name.
        if !set.is_empty() && !set.is_full() && named.iter().all(|named| named.set != set) {
            named.push(Named { text: text.into(), len: set.len(), set });
        }
    };
    PERL.into_iter().chain(SHORT).for_each(|text| add(text.to_owned()));
    for name in LONG {
        add(format!(r"\p{{{name}}}"));
        add(format!(r"\P{{{name}}}"));
    }
    named.sort_by_key(|named| named.text.len());
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Candidates are compared by measured lengths: they must be the written ones.
    #[test]
    fn measured_lengths_are_written_lengths() {
        let edges = [0xD7FF, 0xE000, 0xFFFF, 0x1_0000, 0x1_F600, 0xF_FFFF, 0x10_FFFF];
        let values: Vec<u32> = (0..0x300).chain(edges).collect();
        for dialect in Dialect::ALL {
            for &value in &values {
                for in_class in [false, true] {
                    let mut text = String::new();
                    write_code(value, in_class, dialect, &mut text);
                    let measured = Escape::of(value, in_class, dialect).len();
                    assert_eq!(measured, text.len(), "{value:#X} in {dialect:?}: {text}");
                }
            }
            let set = CharSet::parse(r"[\x00-\x20a-c\u{D000}-\u{E100}\u{10000}\pN]").unwrap();
            let text = ranges_text(&set, dialect);
            let ranges = || set.ranges().iter().copied();
            assert_eq!(ranges_len_within(ranges(), dialect, text.len()), Some(text.len()));
            assert_eq!(ranges_len_within(ranges(), dialect, text.len() - 1), None);
        }
    }
}
