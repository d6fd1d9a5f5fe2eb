//! Workloads run on relang, end to end from the pattern strings.
//!
//! Every term goes through [`Dfa::from_regex_with`] (parse, NFA, subset construction,
//! minimization) and the operation then runs on the minimal DFAs, as the service does for a
//! request. The two phases are also available apart, [`build_relang_terms`] and
//! [`apply_relang`], so a bench can tell which one is slow.

use langcore::{Budget, Cardinality, Dfa, Error};

use crate::outcome::{Language, Outcome};
use crate::workload::{Count, Operation, Workload};

/// Runs `workload` on relang under `budget`: [`build_relang_terms`], then [`apply_relang`].
///
/// # Panics
/// When relang fails (a pattern outside the dialect, or the budget runs out), naming the
/// workload.
pub fn run_relang(workload: &Workload, budget: &Budget) -> Outcome {
    apply_relang(workload, &build_relang_terms(workload, budget), budget)
}

/// The canonical minimal DFA of each term of `workload`, in order.
///
/// # Panics
/// When a term is outside the dialect or the budget runs out, naming the workload.
pub fn build_relang_terms(workload: &Workload, budget: &Budget) -> Vec<Dfa> {
    let dfas = workload.terms().iter().map(|pattern| Dfa::from_regex_with(pattern, budget));
    dfas.collect::<Result<_, _>>().unwrap_or_else(|err| fail(workload, &err))
}

/// Runs `workload`'s operation on `dfas`, the DFAs of its terms.
///
/// # Panics
/// When `dfas` does not have one DFA per term, or the budget runs out, naming the workload.
pub fn apply_relang(workload: &Workload, dfas: &[Dfa], budget: &Budget) -> Outcome {
    try_apply(workload.operation(), dfas, budget).unwrap_or_else(|err| fail(workload, &err))
}

fn fail(workload: &Workload, err: &Error) -> ! {
    panic!("workload `{}`: relang failed: {err}", workload.name())
}

fn try_apply(operation: Operation, dfas: &[Dfa], budget: &Budget) -> Result<Outcome, Error> {
    let operands: Vec<&Dfa> = dfas.iter().collect();
    let language = |dfa| Outcome::Language(Language::Relang(dfa));
    let outcome = match (operation, dfas) {
        (Operation::Intersection, _) => language(Dfa::intersection_all(&operands, budget)?),
        (Operation::Union, _) => language(Dfa::union_all(&operands, budget)?),
        (Operation::Concat, _) => language(Dfa::concat_all(&operands, budget)?),
        (Operation::Difference, [left, right]) => language(left.difference(right, budget)?),
        (Operation::Complement, [only]) => language(only.complement(budget)?),
        (Operation::Repeat { min, max }, [only]) => language(only.repeat(min, max, budget)?),
        (Operation::Equivalent, [left, right]) => {
            Outcome::Answer(left.is_equivalent(right, budget)?)
        }
        (Operation::Subset, [left, right]) => Outcome::Answer(left.is_subset(right, budget)?),
        (Operation::Cardinality, [only]) => count(only.cardinality(budget)?),
        (Operation::Cardinality, _) => {
            count(Dfa::intersection_all(&operands, budget)?.cardinality(budget)?)
        }
        (operation, _) => panic!("{operation:?} does not take {} terms", dfas.len()),
    };
    Ok(outcome)
}

fn count(cardinality: Cardinality) -> Outcome {
    Outcome::Count(match cardinality {
        Cardinality::Finite(number) => Count::Finite(number.to_string()),
        Cardinality::Infinite => Count::Infinite,
    })
}
