//! Inclusion and equivalence questions simplified by the terms' structure, before any
//! automaton: a language is included in a union that holds it, a union is included in a
//! language when each of its other operands is, and a language equals its union with
//! others exactly when the others are included in it.
//!
//! # Overview
//! [`reduce`] takes the question "which shortest, then smallest, string separates `left`
//! from `right`" (`found`: [`BoolOp::Difference`] for inclusion,
//! [`BoolOp::SymmetricDifference`] for equivalence) and either answers it (`None`: nothing
//! separates them) or returns a question with the same answer on fewer operands:
//! - `x ⊆ y ∪ x` holds: nothing to search;
//! - `(x ∪ z) ⊆ y` when `x` is `y` or an operand of the union `y`: the strings of
//!   `(x ∪ z) − y` are those of `z − y`, so is `z ⊆ y`, with the same witness;
//! - `x ≡ x ∪ z`: the symmetric difference is `z − x`, so is `z ⊆ x`, with the same witness.
//!
//! Two operands are the same when they are one value (a union keeps its operands as they
//! were given) or two patterns that parse to the same expression
//! (`syntax::is_same_expression`).

use std::sync::Arc;

use super::Language;
use super::term::Term;
use crate::budget::Budget;
use crate::error::Error;
use crate::syntax;
use crate::witness::BoolOp;

/// The question equivalent to separating `left` from `right` by `found`, on fewer union
/// operands, or `None` when the structure shows that nothing separates them.
///
/// # Errors
/// When rebuilding a union of the remaining operands exceeds `budget`.
pub(super) fn reduce(
    left: &Language,
    right: &Language,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<(Language, Language, BoolOp)>, Error> {
    if same(left, right) {
        return Ok(None);
    }
    let question =
        |left: &Language, right: &Language, found| Ok(Some((left.clone(), right.clone(), found)));
    if found == BoolOp::SymmetricDifference {
        // x ≡ x ∪ z exactly when z ⊆ x, either way round.
        for (whole, part) in [(right, left), (left, right)] {
            if let Some(rest) = without(whole, &|operand| same(operand, part)) {
                return match rest.as_slice() {
                    [] => Ok(None),
                    rest => question(&Language::union_all(rest, budget)?, part, BoolOp::Difference),
                };
            }
        }
        return question(left, right, found);
    }
    if operands(right).iter().any(|operand| same(operand, left)) {
        return Ok(None);
    }
    let inside = |operand: &Language| {
        same(operand, right) || operands(right).iter().any(|o| same(o, operand))
    };
    match without(left, &inside) {
        Some(rest) if rest.is_empty() => Ok(None),
        Some(rest) => question(&Language::union_all(&rest, budget)?, right, found),
        None => question(left, right, found),
    }
}

/// The operands of `language` when it is a union not built yet, else none.
fn operands(language: &Language) -> &[Language] {
    match &language.0.term {
        Term::Union(operands) if language.0.built().is_none() => operands,
        _ => &[],
    }
}

/// The operands of the union `language` that `drop` keeps out, when it keeps some out.
fn without<'l>(
    language: &'l Language,
    drop: &dyn Fn(&Language) -> bool,
) -> Option<Vec<&'l Language>> {
    let all = operands(language);
    let rest: Vec<&Language> = all.iter().filter(|operand| !drop(operand)).collect();
    (rest.len() < all.len()).then_some(rest)
}

/// Whether `left` and `right` are certainly the same language by their structure.
fn same(left: &Language, right: &Language) -> bool {
    if Arc::ptr_eq(&left.0, &right.0) {
        return true;
    }
    matches!((&left.0.term, &right.0.term),
        (Term::Pattern(left), Term::Pattern(right)) if syntax::is_same_expression(left, right))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn language(pattern: &str) -> Language {
        Language::from_regex(pattern).unwrap()
    }

    /// Each structural answer is the one the searches give on the union spelled as one
    /// pattern (no structure to read), witnesses included.
    #[test]
    fn answers_and_witnesses_match_the_searches_on_one_pattern() {
        let budget = Budget::default();
        let patterns = ["[a-c]+", "b{2,}", "x?", "[0-9]{3}", "a+", "(ab)*", "[^a]"];
        for p in patterns {
            for q in patterns {
                let (left, right) = (language(p), language(q));
                let either = left.union(&right, &budget).unwrap();
                let spelled = language(&format!("(?:{p})|(?:{q})"));
                let cases = [
                    (
                        left.subset_witness(&either, &budget),
                        language(p).subset_witness(&spelled, &budget),
                    ),
                    (
                        either.subset_witness(&left, &budget),
                        spelled.subset_witness(&language(p), &budget),
                    ),
                    (
                        left.equivalence_witness(&either, &budget),
                        language(p).equivalence_witness(&spelled, &budget),
                    ),
                    (
                        either.equivalence_witness(&left, &budget),
                        spelled.equivalence_witness(&language(p), &budget),
                    ),
                ];
                for (index, (structural, searched)) in cases.into_iter().enumerate() {
                    assert_eq!(structural.unwrap(), searched.unwrap(), "{p} | {q}: case {index}");
                }
            }
        }
    }

    #[test]
    fn a_language_is_in_a_union_holding_it_without_a_search() {
        let budget = Budget::default();
        let (p, q) = (language("[a-z]+@[a-z]+"), language(".*[0-9]{3}.*"));
        let either = q.union(&language("[a-z]+@[a-z]+"), &budget).unwrap();
        assert!(reduce(&p, &either, BoolOp::Difference, &budget).unwrap().is_none());
        let (rest, right, found) =
            reduce(&either, &p, BoolOp::SymmetricDifference, &budget).unwrap().unwrap();
        assert!(same(&rest, &q) && same(&right, &p) && found == BoolOp::Difference);
        assert!(reduce(&q, &p, BoolOp::Difference, &budget).unwrap().is_some());
    }
}
