//! Thompson-style construction of an [`Nfa`] from a validated HIR.
//!
//! # Algorithm
//! The HIR is compiled back to front: `compile(hir, next)` returns the entry state of an
//! automaton for `hir` that continues to `next`. This needs no fragment patching and adds
//! one state per character position plus one per alternation or loop, so the NFA is linear
//! in the size of the expanded pattern. Counted repetition `x{n,m}` is expanded into `n`
//! copies of `x` followed by `m - n` nested optional copies (`x(x(x)?)?`), which keeps the
//! subset construction small; `x{n,}` ends in a loop. The expansion takes a callback that
//! emits one copy of `x`, so the same code repeats whole automata.
//!
//! # Budgets
//! Every state added is checked against the state limit and the deadline
//! ([`Operation::BuildNfa`]), so `a{1000000}` or `((a{100}){100}){100}` stop cleanly.
//! Repeating a sub-pattern that adds no state (`(){1000000000}`) stops after the first copy.
//!
//! # Invariants
//! - Recursion follows the HIR's nesting, which the front end limits to
//!   [`NEST_LIMIT`](crate::syntax::NEST_LIMIT); long concatenations and alternations are loops.

use regex_syntax::hir::{Hir, HirKind};

use super::{Nfa, NfaBuilder, State};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::state_id::StateId;

/// Builds the NFA of `hir`.
pub(super) fn build(hir: &Hir, budget: &Budget) -> Result<Nfa, BudgetError> {
    let mut builder = NfaBuilder::new(budget, Operation::BuildNfa);
    let accept = builder.add(State { accepting: true, ..State::default() })?;
    let start = compile(&mut builder, hir, accept)?;
    Ok(builder.finish(start))
}

pub(crate) fn compile(
    builder: &mut NfaBuilder<'_>,
    hir: &Hir,
    next: StateId,
) -> Result<StateId, BudgetError> {
    match hir.kind() {
        // Anchors left by the front end sit at the pattern's ends: they match "" there.
        HirKind::Empty | HirKind::Look(_) => Ok(next),
        HirKind::Literal(literal) => {
            let mut entry = next;
            for ch in String::from_utf8_lossy(&literal.0).chars().rev() {
                entry = builder.add_move(CharSet::singleton(ch), entry)?;
            }
            Ok(entry)
        }
        HirKind::Class(class) => builder.add_class_move(class, next),
        HirKind::Capture(capture) => compile(builder, &capture.sub, next),
        HirKind::Concat(items) => {
            let mut entry = next;
            for item in items.iter().rev() {
                entry = compile(builder, item, entry)?;
            }
            Ok(entry)
        }
        HirKind::Alternation(alternatives) => {
            let mut entries = Vec::with_capacity(alternatives.len());
            for alternative in alternatives {
                entries.push(compile(builder, alternative, next)?);
            }
            builder.add(State { epsilons: entries, ..State::default() })
        }
        HirKind::Repetition(repetition) => {
            let sub = &repetition.sub;
            let mut emit_copy = |builder: &mut NfaBuilder<'_>, next| compile(builder, sub, next);
            compile_repetition(builder, repetition.min, repetition.max, next, &mut emit_copy)
        }
    }
}

/// Emits one copy of a repeated operand that continues to the given state and returns the
/// copy's entry, so that one expansion serves pattern parts and whole automata alike.
pub(crate) type EmitCopy<'e> =
    dyn FnMut(&mut NfaBuilder<'_>, StateId) -> Result<StateId, BudgetError> + 'e;

/// Compiles `x{min,max}` (`max: None` is unbounded) before `next`, where `emit_copy` emits
/// one `x`; returns the entry state.
///
/// A copy that adds no state matches only "", so further copies would add nothing either and
/// the expansion stops there: `(){1000000000}` costs one copy, not a billion loop turns.
pub(crate) fn compile_repetition(
    builder: &mut NfaBuilder<'_>,
    min: u32,
    max: Option<u32>,
    next: StateId,
    emit_copy: &mut EmitCopy<'_>,
) -> Result<StateId, BudgetError> {
    let mut entry = next;
    let n_required = match max {
        // x{n,}: x^(n-1) x+, or x* when n is 0.
        None => {
            let (exit, entry_of_loop) = compile_loop(builder, next, emit_copy)?;
            entry = if min == 0 { exit } else { entry_of_loop };
            min.saturating_sub(1)
        }
        // x{n,m}: x^n (x(x(x)?)?)? with m - n optional copies.
        Some(max) => {
            for _ in min..max {
                let n_before = builder.n_states();
                let body = emit_copy(builder, entry)?;
                if builder.n_states() == n_before {
                    break; // `x` only matches "": further copies add nothing.
                }
                entry = builder.add(State { epsilons: vec![body, next], ..State::default() })?;
            }
            min
        }
    };
    for _ in 0..n_required {
        let n_before = builder.n_states();
        entry = emit_copy(builder, entry)?;
        if builder.n_states() == n_before {
            break;
        }
        builder.check_time()?;
    }
    Ok(entry)
}

/// Compiles `x*` before `next`, where `emit_copy` emits one `x`: returns the loop state (the
/// entry of `x*`) and the entry of the body (the entry of `x+`).
fn compile_loop(
    builder: &mut NfaBuilder<'_>,
    next: StateId,
    emit_copy: &mut EmitCopy<'_>,
) -> Result<(StateId, StateId), BudgetError> {
    let loop_state = builder.add(State { epsilons: vec![next], ..State::default() })?;
    let body = emit_copy(builder, loop_state)?;
    builder.state_mut(loop_state).epsilons.push(body);
    Ok((loop_state, body))
}

#[cfg(test)]
mod tests {
    use crate::{Budget, BudgetError, Error, Nfa};

    #[test]
    fn size_is_linear_in_the_expanded_pattern() {
        assert_eq!(Nfa::from_regex("abc").unwrap().n_states(), 4);
        assert_eq!(Nfa::from_regex("a{1000}").unwrap().n_states(), 1001);
        assert!(Nfa::from_regex("[a-z]{0,500}").unwrap().n_states() <= 1001);
    }

    #[test]
    fn huge_repetitions_stop_at_the_state_limit() {
        let budget = Budget::unlimited().with_max_states(10_000);
        for pattern in ["a{1000000}", "((a{100}){100}){100}", "(a|b){20000,}"] {
            let err = Nfa::from_regex_with(pattern, &budget).unwrap_err();
            assert!(matches!(err, Error::Budget(BudgetError::TooManyStates { .. })), "{pattern}");
        }
    }

    #[test]
    fn empty_repetitions_do_not_loop() {
        let nfa = Nfa::from_regex("(){1000000000}a(a{0}){4000000000,}").unwrap();
        assert!(nfa.n_states() < 10);
        assert!(nfa.matches("a"));
    }
}
