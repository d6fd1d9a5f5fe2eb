//! Quotients: what may follow a prefix from one language, or precede a suffix from one,
//! within another.
//!
//! # Algorithm
//! Both walk the product of the dividend's DFA `L` and the divisor's `D`
//! ([`pair_graph`]), O(pairs × product classes):
//! - left quotient `D\L = {v | u·v ∈ L for some u ∈ D}`: from the pair of starts, the
//!   states of `L` paired with an accepting state of `D` are where a prefix from `D` can
//!   leave `L`; the quotient is what `L` accepts from any of them ([`entered`]);
//! - right quotient `L/D = {u | u·v ∈ L for some v ∈ D}`: a state `q` of `L` accepts when
//!   some `v ∈ D` leads from it to acceptance, that is when the pair `(q, start of D)`
//!   reaches a pair where both accept; the walk starts from every such pair, and a
//!   backward search from the accepting pairs marks them. `L`'s moves with that acceptance
//!   are the quotient.
//!
//! # Budgets
//! Pairs count as [`Operation::Product`] (states, memory, deadline), the predecessor lists
//! of the right quotient as [`Operation::Derive`]; the NFA, determinization and
//! minimization check their own limits.

use super::product::{PairGraph, pair_graph};
use super::rewire::entered;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::state_id::StateId;

/// `divisor\dividend`: the strings that complete a prefix from `divisor` into a string of
/// `dividend`, as a canonical minimal DFA.
pub(crate) fn left_quotient(
    dividend: &Dfa,
    divisor: &Dfa,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    let graph = pair_graph(divisor, dividend, &[(divisor.start(), dividend.start())], budget)?;
    let mut entries = vec![false; dividend.n_states()];
    for &(prefix, rest) in &graph.pairs {
        if divisor.is_accepting(prefix) {
            entries[rest.index()] = true;
        }
    }
    entered(dividend, |state| entries[state.index()], budget)
}

/// `dividend/divisor`: the strings that a suffix from `divisor` completes into a string of
/// `dividend`, as a canonical minimal DFA.
pub(crate) fn right_quotient(
    dividend: &Dfa,
    divisor: &Dfa,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    let starts: Vec<_> = dividend.states().map(|state| (state, divisor.start())).collect();
    let graph = pair_graph(dividend, divisor, &starts, budget)?;
    let completes = reaches_acceptance(&graph, dividend, divisor, budget)?;
    // The starting pairs come first, in state order.
    dividend.with_accepting(completes[..dividend.n_states()].to_vec()).minimize(budget)
}

/// Whether each pair of `graph` reaches a pair where both sides accept, by a search
/// backward from those over the predecessor lists.
fn reaches_acceptance(
    graph: &PairGraph,
    left: &Dfa,
    right: &Dfa,
    budget: &Budget,
) -> Result<Vec<bool>, BudgetError> {
    let n_pairs = graph.pairs.len();
    let n_classes = graph.classes.len();
    budget.check_memory(Operation::Derive, graph.table.len().saturating_mul(size_of::<u32>()))?;
    // Predecessors, stored flat: those of pair `p` are `sources[offsets[p]..offsets[p + 1]]`.
    let mut offsets = vec![0usize; n_pairs + 1];
    for target in &graph.table {
        offsets[target.index() + 1] += 1;
    }
    for idx in 0..n_pairs {
        offsets[idx + 1] += offsets[idx];
    }
    let mut fill = offsets.clone();
    let mut sources = vec![StateId::from_index(0); graph.table.len()];
    for (idx, target) in graph.table.iter().enumerate() {
        sources[fill[target.index()]] = StateId::from_index(idx / n_classes);
        fill[target.index()] += 1;
    }
    let mut reaches: Vec<bool> =
        graph.pairs.iter().map(|&(l, r)| left.is_accepting(l) && right.is_accepting(r)).collect();
    let mut queue: Vec<usize> = (0..n_pairs).filter(|&idx| reaches[idx]).collect();
    while let Some(pair) = queue.pop() {
        budget.check_time(Operation::Derive)?;
        for source in &sources[offsets[pair]..offsets[pair + 1]] {
            if !std::mem::replace(&mut reaches[source.index()], true) {
                queue.push(source.index());
            }
        }
    }
    Ok(reaches)
}

#[cfg(test)]
mod tests {
    use super::{left_quotient, right_quotient};
    use crate::{Budget, Dfa};

    fn dfa(pattern: &str) -> Dfa {
        Dfa::from_regex(pattern).unwrap()
    }

    #[track_caller]
    fn check_left(dividend: &str, divisor: &str, expected: &str) {
        let quotient = left_quotient(&dfa(dividend), &dfa(divisor), &Budget::unlimited());
        assert_eq!(quotient.unwrap(), dfa(expected));
    }

    #[track_caller]
    fn check_right(dividend: &str, divisor: &str, expected: &str) {
        let quotient = right_quotient(&dfa(dividend), &dfa(divisor), &Budget::unlimited());
        assert_eq!(quotient.unwrap(), dfa(expected));
    }

    #[test]
    fn left_quotients_keep_what_follows_the_prefixes() {
        check_left("abc|abd|xyz", "ab", "[cd]");
        check_left("abc|abd|xyz", "a|x", "b[cd]|yz");
        check_left("a*b", "a*", "a*b");
        check_left("[0-9]{4}-[0-9]{2}", "[0-9]{4}", "-[0-9]{2}");
        check_left("abc", "", "abc");
        check_left("abc", "q", "[]");
        check_left("abc", "[]", "[]");
        check_left("abc", ".*", "|c|bc|abc");
    }

    #[test]
    fn right_quotients_keep_what_precedes_the_suffixes() {
        check_right("abc|abd|xyz", "[cd]", "ab");
        check_right("abc|abd|xyz", "z", "xy");
        check_right("a*b", "b", "a*");
        check_right("[a-z]+\\.(com|org)", "\\.com", "[a-z]+");
        check_right("abc", "", "abc");
        check_right("abc", "q", "[]");
        check_right("abc", ".*", "|a|ab|abc");
    }
}
