//! The structural candidate: an expression read off how a language was built, without any
//! automaton.
//!
//! # Overview
//! A [`Shape`] is what a `Language` term is made of: a parsed pattern (its HIR), an
//! automaton, or a union, concatenation or repetition of shapes. [`build`] turns it into
//! an expression through the smart constructors of `simplify.rs`, so the pattern is
//! normalized as it is rebuilt (`aa*` is `a+`, `a|b` is `[ab]`, classes get their shortest
//! spelling), and the combination of two patterns costs what their own expressions cost:
//! the union of `A` and `B` is `A|B` simplified, never the elimination of the product.
//! Automaton leaves (FAIR values, and intersections and differences without a shorter
//! candidate from their operands, `product.rs`) are converted by state elimination
//! (`mod.rs`).
//!
//! The cost is linear in the size of the HIR (a literal of n characters is n class nodes
//! and one sequence), plus the elimination of the automaton leaves.
//!
//! # Invariants
//! The expression denotes exactly the language of the shape: every HIR construct maps to
//! the same language (a `Look` left by the front end is a boundary anchor, which means `ε`
//! under full-match semantics; capture groups mean nothing for a language).

use regex_syntax::hir::{Hir, HirKind};

use super::ast::{Exprs, NodeId};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::witness::BoolOp;

/// How a language was built, as far as the conversion can use it.
#[derive(Debug)]
pub(crate) enum Shape<'a> {
    /// A parsed pattern of our dialect.
    Pattern(&'a Hir),
    /// A canonical minimal DFA.
    Automaton(&'a Dfa),
    /// The strings of any operand.
    Union(Vec<Shape<'a>>),
    /// A string of each operand, in order.
    Concat(Vec<Shape<'a>>),
    /// `operand{min,max}`, `max: None` unbounded.
    Repeat { operand: Box<Shape<'a>>, min: u32, max: Option<u32> },
    /// The intersection or difference (`op`) of the operands, each with its canonical
    /// minimal DFA; `dfa` is the result's.
    Product { dfa: &'a Dfa, op: BoolOp, operands: Vec<(Shape<'a>, &'a Dfa)> },
}

/// The expression of `shape`; `leaf` converts the shapes this module does not take apart:
/// automata, and products (whose candidates are `product.rs`'s, see `product::build`).
pub(super) fn build(
    exprs: &mut Exprs,
    shape: &Shape<'_>,
    budget: &Budget,
    leaf: &mut dyn FnMut(&mut Exprs, &Shape<'_>) -> Result<NodeId, BudgetError>,
) -> Result<NodeId, BudgetError> {
    budget.check_time(Operation::ToRegex)?;
    Ok(match shape {
        Shape::Pattern(hir) => build_hir(exprs, hir, budget)?,
        Shape::Automaton(_) | Shape::Product { .. } => leaf(exprs, shape)?,
        Shape::Union(operands) | Shape::Concat(operands) => {
            let mut nodes = Vec::with_capacity(operands.len());
            for operand in operands {
                nodes.push(build(exprs, operand, budget, leaf)?);
            }
            if matches!(shape, Shape::Union(_)) { exprs.alt(&nodes) } else { exprs.concat(&nodes) }
        }
        Shape::Repeat { operand, min, max } => {
            let inner = build(exprs, operand, budget, leaf)?;
            exprs.repeat(inner, *min, *max)
        }
    })
}

/// Builds `hir` through the smart constructors, so the rules apply bottom-up. The front
/// end bounds the nesting of `hir`, and so this recursion.
pub(super) fn build_hir(
    exprs: &mut Exprs,
    hir: &Hir,
    budget: &Budget,
) -> Result<NodeId, BudgetError> {
    Ok(match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => exprs.epsilon(),
        HirKind::Literal(literal) => {
            let chars: Vec<NodeId> = String::from_utf8_lossy(&literal.0)
                .chars()
                .map(|ch| exprs.class(CharSet::singleton(ch)))
                .collect();
            exprs.concat(&chars)
        }
        HirKind::Class(class) => exprs.class(CharSet::from_hir_class(class)),
        HirKind::Capture(capture) => build_hir(exprs, &capture.sub, budget)?,
        HirKind::Concat(items) => {
            budget.check_time(Operation::ToRegex)?;
            let mut nodes = Vec::with_capacity(items.len());
            for item in items {
                nodes.push(build_hir(exprs, item, budget)?);
            }
            exprs.concat(&nodes)
        }
        HirKind::Alternation(branches) => {
            budget.check_time(Operation::ToRegex)?;
            let mut nodes = Vec::with_capacity(branches.len());
            for branch in branches {
                nodes.push(build_hir(exprs, branch, budget)?);
            }
            exprs.alt(&nodes)
        }
        HirKind::Repetition(repetition) => {
            let inner = build_hir(exprs, &repetition.sub, budget)?;
            exprs.repeat(inner, repetition.min, repetition.max)
        }
    })
}
