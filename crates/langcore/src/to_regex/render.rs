//! Printing an expression as a pattern that both our dialect and Python's `re` accept.
//!
//! # Overview
//! - [`render`] writes a node with the fewest parentheses its precedence allows.
//! - [`spell_repeat`] picks the shortest way to write a repetition: `x{2,}` is written `xx+`,
//!   `x{1,2}` `xx?`, `x{0,2}` `x?x?`, `(ab){2}` `abab`, and `x{3}` stays `x{3}` for a group.
//! - [`write_class`] writes a character set as a single character, a `[...]` class or a
//!   negated `[^...]` class, whichever is shorter.
//!
//! # Escaping
//! The output is printable ASCII only, so it survives any transport and reads the same in
//! every font:
//! - Outside classes, `\ . + * ? ( ) | [ ] { } ^ $` get a backslash. Inside classes,
//!   `\ [ ] ^ - & ~ | #` do: `&&`, `--` and `~~` are class operators in `regex-syntax`, and
//!   Python warns about doubled `& ~ | -` and about `[` as possible future set syntax.
//! - Tab, line feed and carriage return are `\t`, `\n`, `\r`; other characters below U+0020,
//!   U+007F and everything above it are hexadecimal escapes in the three fixed-width forms
//!   that both engines accept: `\xHH` up to U+00FF, `\uHHHH` up to U+FFFF and `\UHHHHHHHH`
//!   above. (`\x{...}` is not valid in Python, and `\u{...}` is not either.)
//! - The full set is `[\s\S]`, the same everywhere whatever the flags: `.` would exclude
//!   `\n` in Python without `re.DOTALL`. No Unicode property classes (`\p{..}`, `\d`, `\w`)
//!   are ever written: their tables differ between engines and versions.
//! - Groups are plain `( )`: capture groups mean nothing for a language, and both engines
//!   accept them without limit.

use std::fmt::Write as _;

use super::ast::{Exprs, Grouped, Info, Kind, NodeId, Prec, Spelling, Tail, grouped};
use crate::alphabet::CharSet;

/// Writes the pattern of `node`.
pub(super) fn render(exprs: &Exprs, node: NodeId) -> String {
    let mut out = String::with_capacity(exprs.size(node));
    write_node(exprs, node, &mut out);
    out
}

fn write_node(exprs: &Exprs, node: NodeId, out: &mut String) {
    match exprs.kind(node) {
        Kind::Empty => out.push_str("[]"),
        Kind::Epsilon => {}
        Kind::Class(set) => write_class(set, out),
        Kind::Concat(items) => {
            for &item in items {
                write_grouped(exprs, item, Prec::Seq, out);
            }
        }
        Kind::Alt(branches) => {
            for (idx, &branch) in branches.iter().enumerate() {
                if idx > 0 {
                    out.push('|');
                }
                write_node(exprs, branch, out);
            }
        }
        &Kind::Repeat { inner, .. } => {
            let spelling = exprs.info(node).spelling.expect("repetitions have a spelling");
            for _ in 0..spelling.copies {
                write_grouped(exprs, inner, Prec::Seq, out);
            }
            let quantifier = match spelling.tail {
                Tail::Nothing => return,
                Tail::Optional(n) => {
                    for _ in 0..n {
                        write_grouped(exprs, inner, Prec::Atom, out);
                        out.push('?');
                    }
                    return;
                }
                Tail::Star => "*".to_owned(),
                Tail::Plus => "+".to_owned(),
                Tail::Exact(n) => format!("{{{n}}}"),
                Tail::AtLeast(n) => format!("{{{n},}}"),
                Tail::Between(lo, hi) => format!("{{{lo},{hi}}}"),
            };
            write_grouped(exprs, inner, Prec::Atom, out);
            out.push_str(&quantifier);
        }
    }
}

/// Writes `node` where the surroundings bind like `parent`, in a group if it binds looser.
fn write_grouped(exprs: &Exprs, node: NodeId, parent: Prec, out: &mut String) {
    if exprs.info(node).prec > parent {
        out.push('(');
        write_node(exprs, node, out);
        out.push(')');
    } else {
        write_node(exprs, node, out);
    }
}

/// The number of decimal digits of `n`.
fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// The shortest spelling of `inner{min,max}`, with its precedence and rendering.
///
/// The spelling is `k` literal copies of `inner` followed by a tail for the remaining
/// `{min - k, max - k}`; `k` runs up to `min` (at most 8: more copies never beat a counted
/// tail). Ties go to fewer pieces, so `a{0,3}` beats `a?a?a?`, then fewer groups.
pub(super) fn spell_repeat(inner: &Info, min: u32, max: Option<u32>) -> (Spelling, Prec, Grouped) {
    let operand = grouped(inner, Prec::Atom);
    let copy = grouped(inner, Prec::Seq);
    let mut best: Option<((usize, u32, usize), Spelling)> = None;
    for copies in 0..=min.min(8) {
        let lo = min - copies;
        let hi = max.map(|max| max - copies);
        let counted = |extra: usize| operand.size + extra;
        let (tail, tail_size, tail_pieces) = match (lo, hi) {
            (0, Some(0)) => (Tail::Nothing, 0, 0),
            (0, Some(1)) => (Tail::Optional(1), counted(1), 1),
            (0, None) => (Tail::Star, counted(1), 1),
            (1, None) => (Tail::Plus, counted(1), 1),
            (1, Some(1)) => continue, // the same as one more copy
            (lo, None) => (Tail::AtLeast(lo), counted(3 + digits(lo)), 1),
            (lo, Some(hi)) if lo == hi => (Tail::Exact(lo), counted(2 + digits(lo)), 1),
            (lo, Some(hi)) => {
                let between = counted(3 + digits(lo) + digits(hi));
                if lo == 0 && hi <= 4 && hi as usize * counted(1) < between {
                    (Tail::Optional(hi), hi as usize * counted(1), hi)
                } else {
                    (Tail::Between(lo, hi), between, 1)
                }
            }
        };
        let size = (copies as usize).saturating_mul(copy.size).saturating_add(tail_size);
        let groups = copies as usize * copy.groups + tail_pieces as usize * operand.groups;
        let key = (size, copies + tail_pieces, groups);
        if best.is_none_or(|(best_key, _)| key < best_key) {
            best = Some((key, Spelling { copies, tail }));
        }
    }
    let ((size, pieces, groups), spelling) = best.expect("a counted tail always fits");
    let tail_depth = if spelling.tail == Tail::Nothing { 0 } else { operand.depth + 1 };
    if pieces == 1 && spelling.copies == 0 {
        (spelling, Prec::Quantified, Grouped { size, depth: tail_depth, groups })
    } else {
        let copy_depth = if spelling.copies > 0 { copy.depth } else { 0 };
        (spelling, Prec::Seq, Grouped { size, depth: 1 + tail_depth.max(copy_depth), groups })
    }
}

/// The length of [`write_class`]'s output for `set`.
pub(super) fn class_size(set: &CharSet) -> usize {
    let mut out = String::new();
    write_class(set, &mut out);
    out.len()
}

/// Writes a non-empty set as one character, `[...]` or `[^...]`, whichever is shortest
/// (ties to the positive class).
pub(super) fn write_class(set: &CharSet, out: &mut String) {
    if set.is_full() {
        out.push_str(r"[\s\S]");
        return;
    }
    if let [(lo, hi)] = set.ranges()
        && lo == hi
    {
        write_char(*lo, false, out);
        return;
    }
    let positive = bracketed(set.ranges(), "[");
    let complement = set.complement();
    let negative = (!complement.is_empty()).then(|| bracketed(complement.ranges(), "[^"));
    match negative {
        Some(negative) if negative.len() < positive.len() => out.push_str(&negative),
        _ => out.push_str(&positive),
    }
}

fn bracketed(ranges: &[(char, char)], open: &str) -> String {
    let mut out = String::from(open);
    for &(lo, hi) in ranges {
        let mut lo_text = String::new();
        write_char(lo, true, &mut lo_text);
        out.push_str(&lo_text);
        if lo == hi {
            continue;
        }
        let mut hi_text = String::new();
        write_char(hi, true, &mut hi_text);
        // Two members side by side when that is shorter than a range (`ab`, not `a-b`).
        // Not U+D7FF and U+E000: `regex-syntax` negates `[^\uD7FF\uE000]` into everything,
        // while `[^\uD7FF-\uE000]` is read right.
        if u32::from(hi) != u32::from(lo) + 1 {
            out.push('-');
        }
        out.push_str(&hi_text);
    }
    out.push(']');
    out
}

/// Writes one character, escaped for use outside or inside a class.
pub(super) fn write_char(c: char, in_class: bool, out: &mut String) {
    let special = if in_class {
        matches!(c, '\\' | '[' | ']' | '^' | '-' | '&' | '~' | '|' | '#')
    } else {
        matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        )
    };
    match c {
        _ if special => {
            out.push('\\');
            out.push(c);
        }
        '\t' => out.push_str(r"\t"),
        '\n' => out.push_str(r"\n"),
        '\r' => out.push_str(r"\r"),
        ' '..='~' => out.push(c),
        _ => {
            let value = u32::from(c);
            // Infallible: writing to a String.
            let _ = match value {
                0..=0xFF => write!(out, r"\x{value:02X}"),
                0x100..=0xFFFF => write!(out, r"\u{value:04X}"),
                _ => write!(out, r"\U{value:08X}"),
            };
        }
    }
}
