//! Budgets stop exponential work cleanly and on time.

use std::time::{Duration, Instant};

use langcore::{Budget, BudgetError, Dfa, Error, Nfa, Operation};

#[test]
fn exponential_determinization_stops_at_the_state_limit() {
    let budget = Budget::new(Duration::from_secs(1)).with_max_states(100_000);
    let started = Instant::now();
    let err = Dfa::from_regex_with("(a|b)*a(a|b){40}", &budget).unwrap_err();
    let elapsed = started.elapsed();
    // In release builds the state limit is hit first (about 0.1 s); an unoptimized test
    // build may reach the deadline instead. Either way it stops within the budget.
    assert!(
        matches!(err, Error::Budget(BudgetError::TooManyStates { op: Operation::Determinize, .. }))
            || matches!(err, Error::Budget(BudgetError::Timeout { op: Operation::Determinize })),
        "{err:?}"
    );
    assert!(elapsed < Duration::from_millis(1500), "took {elapsed:?}");
}

#[test]
fn deadline_is_kept_with_no_state_limit() {
    let nfa = Nfa::from_regex("(a|b)*a(a|b){30}").unwrap();
    let budget = Budget::new(Duration::from_millis(200)).with_max_states(usize::MAX);
    let started = Instant::now();
    let err = Dfa::from_nfa(&nfa, &budget).unwrap_err();
    let elapsed = started.elapsed();
    assert_eq!(err, BudgetError::Timeout { op: Operation::Determinize });
    assert!(elapsed < Duration::from_millis(200 + 300), "took {elapsed:?}");
}

#[test]
fn budget_errors_say_which_limit_and_operation() {
    let budget = Budget::unlimited().with_max_states(50);
    let err = Dfa::from_regex_with("(a|b)*a(a|b){10}", &budget).unwrap_err();
    assert_eq!(err.to_string(), "determinization would exceed the limit of 50 states");
}

#[test]
fn many_classes_times_many_states_stop_at_the_memory_limit() {
    // 1,000 distinct letters in a row: 1,001 classes and 1,002 states, so the table would
    // need about a million 4-byte cells; the limit allows 2 MB.
    let pattern: String = (0..1000).filter_map(|offset| char::from_u32(0x4E00 + offset)).collect();
    let budget = Budget::unlimited().with_max_memory(2_000_000);
    let err = Dfa::from_regex_with(&pattern, &budget).unwrap_err();
    assert_eq!(
        err,
        Error::Budget(BudgetError::TooMuchMemory { op: Operation::Determinize, limit: 2_000_000 })
    );
    // Minimization holds 20 bytes per transition at its peak (issue 17): about 20 MB here.
    let err = Dfa::from_regex_with(&pattern, &budget.with_max_memory(8_000_000)).unwrap_err();
    assert_eq!(
        err,
        Error::Budget(BudgetError::TooMuchMemory { op: Operation::Minimize, limit: 8_000_000 })
    );
    assert!(Dfa::from_regex_with(&pattern, &budget.with_max_memory(24_000_000)).is_ok());
}
