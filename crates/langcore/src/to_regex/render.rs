//! Printing an expression as a pattern of the arena's output dialect.
//!
//! # Overview
//! - [`render`] writes a node with the fewest parentheses its precedence allows; classes
//!   are written as `class.rs` spelled them when they were interned.
//! - [`spell_repeat`] picks the shortest way to write a repetition: `x{2,}` is written `xx+`,
//!   `x{1,2}` `xx?`, `x{0,2}` `x?x?`, `(ab){2}` `abab`, and `x{3}` stays `x{3}` for a group.
//!
//! # Escaping
//! The output is printable ASCII only, so it survives any transport and reads the same in
//! every font (the escapes are `class.rs`'s). Groups are plain `( )`: capture groups mean
//! nothing for a language, and every engine accepts them without limit.

use super::ast::{Exprs, Grouped, Info, Kind, NodeId, Prec, Spelling, Tail, grouped};

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
        Kind::Class(_) => out.push_str(exprs.class_text(node)),
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
