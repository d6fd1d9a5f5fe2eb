//! Languages read off one DFA's moves with other entries, acceptance or direction:
//! reversal, prefix closure, suffix closure (and, from `quotient.rs`, quotients).
//!
//! # Algorithm
//! - Prefix closure keeps the DFA and makes every *useful* state accepting (reachable and
//!   able to reach acceptance): a string is a prefix of a member exactly when it ends in
//!   one. No new states; then minimization.
//! - [`entered`] copies the useful part of the DFA into an NFA whose new start has ε-moves
//!   to chosen states: the strings read from any of them to acceptance. Entering at every
//!   useful state gives the suffix closure; entering where a left quotient's divisor leads
//!   gives the quotient.
//! - Reversal copies the same moves backwards, enters at the accepting states and accepts at
//!   the start.
//!
//! Each NFA has one state per DFA state plus the start; its DFA (subset construction, then
//! Hopcroft) can be exponential in it (reversing `(a|b)*a(a|b){n}` gives `n + 2` states,
//! but reversing the reverse needs 2^n), which is what the budget is for.
//!
//! # Budgets
//! NFA states count as [`Operation::Derive`]; determinization and minimization check their
//! own limits.

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::trim::Trim;
use crate::nfa::{NfaBuilder, State};
use crate::state_id::StateId;

/// Which way [`copy`] follows the DFA's moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
}

/// The strings of `dfa` with every prefix of them: the canonical minimal DFA.
pub(crate) fn prefix_closure(dfa: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    let trim = Trim::new(dfa);
    let useful = dfa.states().map(|state| trim.is_useful(state)).collect();
    dfa.with_accepting(useful).minimize(budget)
}

/// The strings of `dfa` with every suffix of them: the canonical minimal DFA.
pub(crate) fn suffix_closure(dfa: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    entered(dfa, |_| true, budget)
}

/// The strings of `dfa` read backwards: the canonical minimal DFA.
pub(crate) fn reverse(dfa: &Dfa, budget: &Budget) -> Result<Dfa, BudgetError> {
    copy(dfa, Direction::Backward, |state| dfa.is_accepting(state), budget)
}

/// The strings that lead from a state where `entry` holds to an accepting state of `dfa`:
/// the canonical minimal DFA.
pub(super) fn entered(
    dfa: &Dfa,
    entry: impl Fn(StateId) -> bool,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    copy(dfa, Direction::Forward, entry, budget)
}

/// The minimal DFA of the NFA copy of `dfa`'s useful states, its moves followed in
/// `direction`, entered by ε-moves at the useful states where `entry` holds; it accepts
/// where `dfa` does (forward) or at `dfa`'s start (backward).
fn copy(
    dfa: &Dfa,
    direction: Direction,
    entry: impl Fn(StateId) -> bool,
    budget: &Budget,
) -> Result<Dfa, BudgetError> {
    let trim = Trim::with_classes(dfa);
    let mut builder = NfaBuilder::new(budget, Operation::Derive);
    for state in dfa.states() {
        let accepting = match direction {
            Direction::Forward => dfa.is_accepting(state),
            Direction::Backward => state == dfa.start(),
        };
        builder.add(State { accepting, ..State::default() })?;
    }
    for state in dfa.states() {
        builder.check_time()?;
        for (edge, classes) in trim.edges_with_classes(state) {
            let set = classes.iter().fold(CharSet::empty(), |set, &class| {
                set.union(dfa.classes().class(class).expect("a class of the DFA"))
            });
            let label = builder.intern(&set);
            let (from, to) = match direction {
                Direction::Forward => (state, edge.target),
                Direction::Backward => (edge.target, state),
            };
            builder.state_mut(from).transitions.push((label, to));
        }
    }
    let epsilons = dfa.states().filter(|&state| trim.is_useful(state) && entry(state)).collect();
    let start = builder.add(State { epsilons, ..State::default() })?;
    Dfa::from_nfa(&builder.finish(start), budget)
}

#[cfg(test)]
mod tests {
    use super::{prefix_closure, reverse, suffix_closure};
    use crate::{Budget, BudgetError, Dfa, Operation};

    fn dfa(pattern: &str) -> Dfa {
        Dfa::from_regex(pattern).unwrap()
    }

    #[test]
    fn reverses() {
        let budget = Budget::unlimited();
        assert_eq!(reverse(&dfa("ab*c"), &budget).unwrap(), dfa("cb*a"));
        assert_eq!(reverse(&dfa("(ab|c)*d?"), &budget).unwrap(), dfa("d?(ba|c)*"));
        assert_eq!(reverse(&dfa(""), &budget).unwrap(), dfa(""));
        assert_eq!(reverse(&dfa("[]"), &budget).unwrap(), dfa("[]"));
    }

    #[test]
    fn closes_under_prefixes_and_suffixes() {
        let budget = Budget::unlimited();
        assert_eq!(prefix_closure(&dfa("abc|de"), &budget).unwrap(), dfa("|a|ab|abc|d|de"));
        assert_eq!(suffix_closure(&dfa("abc|de"), &budget).unwrap(), dfa("|c|bc|abc|e|de"));
        assert_eq!(prefix_closure(&dfa("[a-z]+@x"), &budget).unwrap(), dfa("([a-z]+(@x?)?)?"));
        assert_eq!(prefix_closure(&dfa("[]"), &budget).unwrap(), dfa("[]"));
        assert_eq!(suffix_closure(&dfa("[]"), &budget).unwrap(), dfa("[]"));
    }

    #[test]
    fn large_reversals_stop_at_the_state_limit() {
        // 15 states one way, 2^13 the other.
        let small = dfa("(a|b){12}a(a|b)*");
        let budget = Budget::unlimited().with_max_states(1_000);
        let err = reverse(&small, &budget).unwrap_err();
        assert_eq!(err, BudgetError::TooManyStates { op: Operation::Determinize, limit: 1_000 });
        let budget = Budget::unlimited().with_max_states(10);
        let err = reverse(&small, &budget).unwrap_err();
        assert_eq!(err, BudgetError::TooManyStates { op: Operation::Derive, limit: 10 });
    }
}
