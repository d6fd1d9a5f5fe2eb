//! Printing an expression as a pattern of the arena's output dialect.
//!
//! # Overview
//! - [`render`] writes a node with the fewest parentheses its precedence allows.
//!
//! Classes are written as `class.rs` spelled them when their node was built (under `*` and
//! `+`, their [`Exprs::repeated_text`] where they have one); how a
//! repetition is spelled was chosen then too (`spell_repeat` in `ast.rs`). Groups are plain
//! `( )`: capture groups mean nothing for a language, and every engine accepts them.

use super::ast::{Exprs, Kind, NodeId, Prec, Tail};

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
            match exprs
                .repeated_text(inner)
                .filter(|_| matches!(spelling.tail, Tail::Star | Tail::Plus))
            {
                Some(text) => out.push_str(text),
                None => write_grouped(exprs, inner, Prec::Atom, out),
            }
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
