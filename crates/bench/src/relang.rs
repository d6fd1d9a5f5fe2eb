//! Workloads run on relang's [`Language`](langcore::Language) API, end to end from the
//! pattern strings.
//!
//! Every term is [`Language::from_regex`](langcore::Language::from_regex) (parse); the
//! operation then does what relang does for it: union, concatenation and repetition stay
//! terms, intersection, difference and complement build the operands' canonical minimal DFAs
//! and their product, equivalence and inclusion walk both terms in one NFA, and counting
//! builds the minimal DFA. The two phases are also available apart, [`build_relang_terms`]
//! and [`apply_relang`], so a bench can tell which one is slow.

use langcore::{Budget, Cardinality, Error};

use crate::outcome::{EngineLanguage, Outcome};
use crate::workload::{Count, Operation, Workload};

/// Runs `workload` on relang under `budget`: [`build_relang_terms`], then [`apply_relang`].
///
/// # Panics
/// When relang fails (a pattern outside the dialect, or the budget runs out), naming the
/// workload.
pub fn run_relang(workload: &Workload, budget: &Budget) -> Outcome {
    apply_relang(workload, &build_relang_terms(workload), budget)
}

/// The language of each term of `workload`, in order, parsed but not built.
///
/// # Panics
/// When a term is outside the dialect, naming the workload.
pub fn build_relang_terms(workload: &Workload) -> Vec<langcore::Language> {
    let terms = workload.terms().iter().map(|pattern| langcore::Language::from_regex(pattern));
    terms.collect::<Result<_, _>>().unwrap_or_else(|err| fail(workload, &err))
}

/// Runs `workload`'s operation on `terms`, the languages of its terms.
///
/// # Panics
/// When `terms` does not have one language per term, or the budget runs out, naming the
/// workload.
pub fn apply_relang(workload: &Workload, terms: &[langcore::Language], budget: &Budget) -> Outcome {
    try_apply(workload.operation(), terms, budget).unwrap_or_else(|err| fail(workload, &err))
}

fn fail(workload: &Workload, err: &Error) -> ! {
    panic!("workload `{}`: relang failed: {err}", workload.name())
}

fn try_apply(
    operation: Operation,
    terms: &[langcore::Language],
    budget: &Budget,
) -> Result<Outcome, Error> {
    use langcore::Language as L;
    let operands: Vec<&L> = terms.iter().collect();
    let language = |language| Outcome::Language(EngineLanguage::Relang(language));
    let outcome = match (operation, terms) {
        (Operation::Intersection, _) => language(L::intersection_all(&operands, budget)?),
        (Operation::Union, _) => language(L::union_all(&operands, budget)?),
        (Operation::Concat, _) => language(L::concat_all(&operands, budget)?),
        (Operation::Difference, [left, right]) => language(left.difference(right, budget)?),
        (Operation::Complement, [only]) => language(only.complement(budget)?),
        (Operation::Repeat { min, max }, [only]) => language(only.repeat(min, max, budget)?),
        (Operation::Equivalent, [left, right]) => {
            Outcome::Answer(left.is_equivalent(right, budget)?)
        }
        (Operation::Subset, [left, right]) => Outcome::Answer(left.is_subset(right, budget)?),
        (Operation::Cardinality, _) => {
            count(L::intersection_all(&operands, budget)?.cardinality(budget)?)
        }
        (operation, _) => panic!("{operation:?} does not take {} terms", terms.len()),
    };
    Ok(outcome)
}

fn count(cardinality: Cardinality) -> Outcome {
    Outcome::Count(match cardinality {
        Cardinality::Finite(number) => Count::Finite(number.to_string()),
        Cardinality::Infinite => Count::Infinite,
    })
}
