//! How a [`Language`] was built, kept until an automaton is needed, and its NFA.
//!
//! # Overview
//! A [`Term`] is a parsed pattern, an automaton (a DFA, or an NFA not yet determinized), or
//! a union, concatenation or repetition of other languages. [`emit`] copies a term into an [`NfaBuilder`] back to front, like the
//! regex front end (`nfa/build.rs`): a pattern is compiled from its HIR, a language whose
//! automaton exists is copied as a trimmed [`Fragment`], and the combinations add the same
//! states as `|`, concatenation and `{min,max}` in a pattern. So the union of two patterns
//! costs what the pattern `p|q` costs, and no intermediate DFA is built.
//!
//! # Invariants
//! - A term's depth (combinations above a leaf) is at most [`MAX_DEPTH`]; [`emit`] recurses
//!   along it and then along the HIR, whose nesting the front end limits.

use std::sync::OnceLock;

use regex_syntax::hir::{self, Class, Hir, HirKind};

use super::Language;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::error::Error;
use crate::nfa::{Nfa, NfaBuilder, NfaTrim, State, compile_hir, compile_repetition};
use crate::state_id::StateId;
use crate::to_regex::Shape;
use crate::witness::BoolOp;

/// The deepest combination of languages kept as a term; deeper ones are built first.
pub(super) const MAX_DEPTH: u32 = 32;

/// A language as built.
#[derive(Debug)]
pub(super) enum Term {
    /// A parsed pattern.
    Pattern(Hir),
    /// A canonical minimal DFA.
    Automaton(Dfa),
    /// An automaton of a pattern that is determinized only when a question needs it: a
    /// JavaScript pattern read over UTF-16 code units and composed into characters.
    Nfa(Nfa),
    /// The canonical minimal DFA of an intersection or difference (`op`) of `operands`
    /// (at least two, built), kept for the conversion to a pattern, which can read the
    /// result off the operands' own patterns.
    Product { dfa: Dfa, op: BoolOp, operands: Vec<Language> },
    /// The strings of any operand (at least two).
    Union(Vec<Language>),
    /// A string of each operand, in order (at least two).
    Concat(Vec<Language>),
    /// `operand{min,max}`, `max: None` unbounded; `min <= max`.
    Repeat { operand: Language, min: u32, max: Option<u32> },
}

/// What the trimmed NFA of a language says of it: the answers of `nfa_first::trim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TrimFacts {
    pub(super) is_empty: bool,
    pub(super) is_empty_string: bool,
    pub(super) is_infinite: bool,
    /// The shortest and longest lengths (see [`Language::length`]).
    pub(super) length: (Option<usize>, Option<usize>),
}

impl TrimFacts {
    /// The facts of the language whose trimmed NFA is `trim` (each linear in the NFA).
    pub(super) fn of(trim: &NfaTrim<'_>) -> TrimFacts {
        let length = trim.length();
        TrimFacts {
            is_empty: trim.is_empty(),
            is_empty_string: trim.is_empty_string(),
            // A non-empty language has no longest string exactly when it is infinite: one
            // search of the trim's components for both.
            is_infinite: length.0.is_some() && length.1.is_none(),
            length,
        }
    }
}

/// A term with its depth and, once built, its canonical minimal DFA.
#[derive(Debug)]
pub(super) struct Node {
    pub(super) term: Term,
    pub(super) depth: u32,
    pub(super) dfa: OnceLock<Dfa>,
    /// What its trimmed NFA says, once a question asked (`nfa_first.rs`).
    pub(super) facts: OnceLock<TrimFacts>,
    /// The text of a pattern of our dialect, a candidate for its shortest spelling.
    pub(super) source: Option<Box<str>>,
}

impl Node {
    pub(super) fn new(term: Term) -> Node {
        let depth = match &term {
            Term::Pattern(_) | Term::Automaton(_) | Term::Nfa(_) => 0,
            Term::Union(operands) | Term::Concat(operands) | Term::Product { operands, .. } => {
                1 + operands.iter().map(|operand| operand.0.depth).max().unwrap_or(0)
            }
            Term::Repeat { operand, .. } => 1 + operand.0.depth,
        };
        Node { term, depth, dfa: OnceLock::new(), facts: OnceLock::new(), source: None }
    }

    /// The canonical minimal DFA, if it exists already.
    pub(super) fn built(&self) -> Option<&Dfa> {
        match &self.term {
            Term::Automaton(dfa) | Term::Product { dfa, .. } => Some(dfa),
            _ => self.dfa.get(),
        }
    }
}

/// About how many bytes `language` holds on the heap: its term (a pattern's HIR, an
/// automaton, the operands of a combination) and its DFA once built. A term's depth is
/// bounded by [`MAX_DEPTH`], and so this recursion; the HIR is walked by `regex-syntax`'s
/// visitor, which keeps its stack on the heap.
pub(super) fn heap_bytes(language: &Language) -> usize {
    let node = &*language.0;
    let own = size_of::<Node>()
        + node.source.as_ref().map_or(0, |source| source.len())
        + node.dfa.get().map_or(0, Dfa::heap_bytes);
    own + match &node.term {
        Term::Pattern(hir) => hir::visit(hir, HirBytes(0)).unwrap_or(0),
        Term::Automaton(dfa) => dfa.heap_bytes(),
        Term::Nfa(nfa) => nfa.heap_bytes(),
        Term::Product { dfa, operands, .. } => {
            dfa.heap_bytes() + operands.iter().map(heap_bytes).sum::<usize>()
        }
        Term::Union(operands) | Term::Concat(operands) => operands.iter().map(heap_bytes).sum(),
        Term::Repeat { operand, .. } => heap_bytes(operand),
    }
}

/// Sums what an HIR's nodes hold: each node and its properties, a class's ranges, a
/// literal's bytes.
struct HirBytes(usize);

impl hir::Visitor for HirBytes {
    type Output = usize;
    type Err = std::convert::Infallible;

    fn finish(self) -> Result<usize, Self::Err> {
        Ok(self.0)
    }

    fn visit_pre(&mut self, hir: &Hir) -> Result<(), Self::Err> {
        /// A node's properties, boxed beside it (`regex-syntax` keeps their type private).
        const PROPERTIES_BYTES: usize = 80;
        let own = match hir.kind() {
            HirKind::Class(Class::Unicode(class)) => class.ranges().len() * 8,
            HirKind::Class(Class::Bytes(class)) => class.ranges().len() * 2,
            HirKind::Literal(literal) => literal.0.len(),
            HirKind::Concat(children) | HirKind::Alternation(children) => {
                children.len() * size_of::<Hir>()
            }
            HirKind::Repetition(_) | HirKind::Capture(_) => size_of::<Hir>(),
            HirKind::Empty | HirKind::Look(_) => 0,
        };
        self.0 += size_of::<Hir>() + PROPERTIES_BYTES + own;
        Ok(())
    }
}

/// How `language` was built, for the conversion to a pattern: a term's depth is bounded by
/// [`MAX_DEPTH`], and so this recursion. An automaton not determinized yet is, now: the
/// conversion reads DFAs.
///
/// # Errors
/// When determinizing exceeds `budget`.
pub(super) fn shape<'l>(language: &'l Language, budget: &Budget) -> Result<Shape<'l>, Error> {
    let node = &*language.0;
    let shapes = |operands: &'l [Language]| -> Result<Vec<Shape<'l>>, Error> {
        operands.iter().map(|operand| shape(operand, budget)).collect()
    };
    Ok(match &node.term {
        Term::Pattern(hir) => Shape::Pattern(hir),
        Term::Automaton(dfa) => Shape::Automaton(dfa),
        Term::Nfa(_) => Shape::Automaton(language.to_dfa(budget)?),
        Term::Union(operands) => Shape::Union(shapes(operands)?),
        Term::Concat(operands) => Shape::Concat(shapes(operands)?),
        Term::Repeat { operand, min, max } => {
            Shape::Repeat { operand: Box::new(shape(operand, budget)?), min: *min, max: *max }
        }
        Term::Product { dfa, op, operands } => {
            let built: Option<Vec<_>> = operands.iter().map(|operand| operand.0.built()).collect();
            match built {
                Some(built) => Shape::Product {
                    dfa,
                    op: *op,
                    operands: shapes(operands)?.into_iter().zip(built).collect(),
                },
                None => Shape::Automaton(dfa),
            }
        }
    })
}

/// The NFA of `language` alone, its states counted as `op`.
pub(super) fn to_nfa(
    language: &Language,
    op: Operation,
    budget: &Budget,
) -> Result<Nfa, BudgetError> {
    nfa_of(language, op, budget, emit)
}

/// The NFA of `language` as `emit_one` appends it, ending in one accepting state.
fn nfa_of(
    language: &Language,
    op: Operation,
    budget: &Budget,
    emit_one: fn(&Language, &mut NfaBuilder<'_>, StateId) -> Result<StateId, BudgetError>,
) -> Result<Nfa, BudgetError> {
    let mut builder = NfaBuilder::new(budget, op);
    let accept = builder.add(State { accepting: true, ..State::default() })?;
    let entry = emit_one(language, &mut builder, accept)?;
    Ok(builder.finish(entry))
}

/// One NFA holding `left` and `right` side by side, each ending in an accepting state of
/// its own: the NFA and the two accepting states. Its states count as
/// [`Operation::Product`], since walking it is the product of the two languages.
pub(super) fn to_pair_nfa(
    left: &Language,
    right: &Language,
    budget: &Budget,
) -> Result<(Nfa, StateId, StateId), BudgetError> {
    let mut builder = NfaBuilder::new(budget, Operation::Product);
    let left_accept = builder.add(State { accepting: true, ..State::default() })?;
    let right_accept = builder.add(State { accepting: true, ..State::default() })?;
    let left_entry = emit(left, &mut builder, left_accept)?;
    let right_entry = emit(right, &mut builder, right_accept)?;
    let start =
        builder.add(State { epsilons: vec![left_entry, right_entry], ..State::default() })?;
    Ok((builder.finish(start), left_accept, right_accept))
}

/// Appends an automaton of `language` that continues to `next`, and returns its entry.
pub(super) fn emit(
    language: &Language,
    builder: &mut NfaBuilder<'_>,
    next: StateId,
) -> Result<StateId, BudgetError> {
    if let Some(dfa) = language.0.dfa.get() {
        return emit_built(dfa, builder, next);
    }
    emit_term(language, builder, next)
}

/// The NFA of `language` from its term even when its DFA is built (the DFA of `.*a.{10}`
/// has 2^11 states, the NFA of its pattern a few dozen), its states counted as `op`.
pub(super) fn to_term_nfa(
    language: &Language,
    op: Operation,
    budget: &Budget,
) -> Result<Nfa, BudgetError> {
    nfa_of(language, op, budget, emit_term)
}

/// [`emit`] from the term of `language`, whether or not its DFA is built.
fn emit_term(
    language: &Language,
    builder: &mut NfaBuilder<'_>,
    next: StateId,
) -> Result<StateId, BudgetError> {
    match &language.0.term {
        Term::Pattern(hir) => compile_hir(builder, hir, next),
        Term::Automaton(dfa) | Term::Product { dfa, .. } => emit_built(dfa, builder, next),
        Term::Nfa(nfa) => nfa.emit(builder, next),
        Term::Union(operands) => {
            let mut entries = Vec::with_capacity(operands.len());
            for operand in operands {
                entries.push(emit(operand, builder, next)?);
            }
            builder.add(State { epsilons: entries, ..State::default() })
        }
        Term::Concat(operands) => {
            let mut entry = next;
            for operand in operands.iter().rev() {
                entry = emit(operand, builder, entry)?;
            }
            Ok(entry)
        }
        Term::Repeat { operand, min, max } => match operand.0.built().map(Fragment::new) {
            // Trim a built operand once, not once per copy.
            Some(Some(fragment)) => {
                compile_repetition(builder, *min, *max, next, &mut |b, n| fragment.emit(b, n))
            }
            Some(None) if *min == 0 => Ok(next),
            Some(None) => dead_end(builder),
            None => compile_repetition(builder, *min, *max, next, &mut |b, n| emit(operand, b, n)),
        },
    }
}

/// Appends a copy of the trimmed `dfa` that continues to `next`, and returns its entry.
fn emit_built(
    dfa: &Dfa,
    builder: &mut NfaBuilder<'_>,
    next: StateId,
) -> Result<StateId, BudgetError> {
    match Fragment::new(dfa) {
        Some(fragment) => fragment.emit(builder, next),
        None => dead_end(builder),
    }
}

/// A state with no moves that does not accept: the entry of the empty language.
fn dead_end(builder: &mut NfaBuilder<'_>) -> Result<StateId, BudgetError> {
    builder.add(State::default())
}
