//! Workloads run on regexsolver 1.1.0 through its `Term` API, end to end from the pattern
//! strings.
//!
//! Every term is `Term::from_pattern` (parse and simplify); the operation then does what
//! regexsolver does for it, which for union, concatenation and repetition of patterns is
//! rewriting the regular expression without building an automaton. Default features
//! (`parallel`: rayon for n-ary operations on more than three terms), default
//! `ExecutionProfile` (no limits).

use regexsolver::Term;
use regexsolver::cardinality::Cardinality;
use regexsolver::error::EngineError;

use crate::outcome::{EngineLanguage, Outcome};
use crate::workload::{Count, Operation, Workload};

/// Runs `workload` on regexsolver.
///
/// # Panics
/// When regexsolver fails, naming the workload.
pub fn run_peer(workload: &Workload) -> Outcome {
    try_run(workload)
        .unwrap_or_else(|err| panic!("workload `{}`: regexsolver failed: {err}", workload.name()))
}

fn try_run(workload: &Workload) -> Result<Outcome, EngineError> {
    let terms = workload
        .terms()
        .iter()
        .map(|pattern| Term::from_pattern(pattern))
        .collect::<Result<Vec<_>, _>>()?;
    let language = |term| Outcome::Language(EngineLanguage::Peer(term));
    let outcome = match (workload.operation(), terms.as_slice()) {
        (Operation::Intersection, [first, rest @ ..]) => language(first.intersection(rest)?),
        (Operation::Union, [first, rest @ ..]) => language(first.union(rest)?),
        (Operation::Concat, [first, rest @ ..]) => language(first.concat(rest)?),
        (Operation::Difference, [left, right]) => language(left.difference(right)?),
        (Operation::Complement, [only]) => language(only.complement()?),
        (Operation::Repeat { min, max: Some(max) }, [only]) => language(only.repeat(min..=max)?),
        (Operation::Repeat { min, max: None }, [only]) => language(only.repeat(min..)?),
        (Operation::Equivalent, [left, right]) => Outcome::Answer(left.equivalent(right)?),
        (Operation::Subset, [left, right]) => Outcome::Answer(left.subset(right)?),
        (Operation::Cardinality, [only]) => count(only.cardinality()?),
        (Operation::Cardinality, [first, rest @ ..]) => {
            count(first.intersection(rest)?.cardinality()?)
        }
        (operation, _) => unreachable!("validated arity: {operation:?} on {} terms", terms.len()),
    };
    Ok(outcome)
}

fn count(cardinality: Cardinality<u32>) -> Outcome {
    Outcome::Count(match cardinality {
        Cardinality::Integer(number) => Count::Finite(number.to_string()),
        Cardinality::BigInteger => Count::Large,
        Cardinality::Infinite => Count::Infinite,
    })
}
