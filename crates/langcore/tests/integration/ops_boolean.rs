//! Boolean operations and relations against the `regex` oracle, algebraic laws and brute force.

use std::time::{Duration, Instant};

use langcore::{Budget, BudgetError, Cardinality, Dfa, Error, Operation};
use num_bigint::BigUint;
use proptest::prelude::*;

use crate::patterns::{all_strings, oracle, pattern};

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).unwrap()
}

/// Characters that represent every class the random patterns can tell apart: `a`, `b`, `c`
/// and the rest (whose smallest member is U+0000).
const REPRESENTATIVES: [char; 4] = ['\0', 'a', 'b', 'c'];

/// All strings over [`REPRESENTATIVES`] of exactly `len` characters, in shortlex order.
fn strings_of_len(len: usize) -> Vec<String> {
    (0..len).fold(vec![String::new()], |layer, _| {
        layer
            .iter()
            .flat_map(|prefix| REPRESENTATIVES.iter().map(move |&ch| format!("{prefix}{ch}")))
            .collect()
    })
}

/// The longest strings [`check_minimal_witness`] enumerates: 4^7 of them. A witness can be
/// longer (`(b[^a])+` is not within `([^a]{1,3}){2,4}` from length 14 on), and all 4^14
/// strings of its length would take gigabytes.
const BRUTE_FORCE_LEN: usize = 7;

/// Checks that `witness` is the shortest, then smallest, string on which `separates` holds
/// (for a witness longer than [`BRUTE_FORCE_LEN`]: that no string up to that length does).
fn check_minimal_witness(
    witness: &str,
    separates: impl Fn(&str) -> bool,
) -> Result<(), TestCaseError> {
    prop_assert!(separates(witness), "{:?} does not separate", witness);
    let len = witness.chars().count();
    for shorter in (0..len.min(BRUTE_FORCE_LEN + 1)).flat_map(strings_of_len) {
        prop_assert!(
            !separates(&shorter),
            "{:?} is shorter than {:?} and separates",
            shorter,
            witness
        );
    }
    if len > BRUTE_FORCE_LEN {
        return Ok(());
    }
    for same in strings_of_len(len).into_iter().take_while(|s| s.as_str() < witness) {
        prop_assert!(!separates(&same), "{:?} is smaller than {:?} and separates", same, witness);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn operations_agree_with_regex_crate(left in pattern(), right in pattern()) {
        let budget = Budget::unlimited();
        let (a, b) = (dfa(&left), dfa(&right));
        let (oracle_a, oracle_b) = (oracle(&left), oracle(&right));
        let union = a.union(&b, &budget).unwrap();
        let intersection = a.intersection(&b, &budget).unwrap();
        let difference = a.difference(&b, &budget).unwrap();
        let complement = a.complement(&budget).unwrap();
        for input in all_strings(4) {
            let (in_a, in_b) = (oracle_a.is_match(&input), oracle_b.is_match(&input));
            prop_assert_eq!(union.matches(&input), in_a || in_b, "{:?}", input);
            prop_assert_eq!(intersection.matches(&input), in_a && in_b, "{:?}", input);
            prop_assert_eq!(difference.matches(&input), in_a && !in_b, "{:?}", input);
            prop_assert_eq!(complement.matches(&input), !in_a, "{:?}", input);
        }
    }

    #[test]
    fn algebraic_laws_hold(left in pattern(), middle in pattern(), right in pattern()) {
        let budget = Budget::unlimited();
        let (a, b, c) = (dfa(&left), dfa(&middle), dfa(&right));
        let not = |x: &Dfa| x.complement(&budget).unwrap();
        let or = |x: &Dfa, y: &Dfa| x.union(y, &budget).unwrap();
        let and = |x: &Dfa, y: &Dfa| x.intersection(y, &budget).unwrap();
        prop_assert_eq!(not(&or(&a, &b)), and(&not(&a), &not(&b)), "De Morgan (union)");
        prop_assert_eq!(not(&and(&a, &b)), or(&not(&a), &not(&b)), "De Morgan (intersection)");
        prop_assert_eq!(not(&not(&a)), a.clone(), "double complement");
        prop_assert_eq!(a.difference(&b, &budget).unwrap(), and(&a, &not(&b)), "A - B == A ∩ ¬B");
        prop_assert_eq!(or(&a, &b), or(&b, &a), "union commutes");
        prop_assert_eq!(and(&a, &b), and(&b, &a), "intersection commutes");
        prop_assert_eq!(or(&or(&a, &b), &c), or(&a, &or(&b, &c)), "union associates");
        prop_assert_eq!(and(&and(&a, &b), &c), and(&a, &and(&b, &c)), "intersection associates");
        prop_assert_eq!(Dfa::union_all(&[&a, &b, &c], &budget).unwrap(), or(&or(&a, &b), &c));
        prop_assert_eq!(Dfa::intersection_all(&[&a, &b, &c], &budget).unwrap(), and(&and(&a, &b), &c));
        let subset = a.is_subset(&b, &budget).unwrap();
        prop_assert_eq!(subset, and(&a, &not(&b)) == Dfa::empty(), "A ⊆ B iff A ∩ ¬B is empty");
        prop_assert_eq!(a.is_equivalent(&b, &budget).unwrap(), a == b);
    }

    #[test]
    fn equivalence_witnesses_are_minimal(left in pattern(), right in pattern()) {
        let (oracle_a, oracle_b) = (oracle(&left), oracle(&right));
        let separates = |s: &str| oracle_a.is_match(s) != oracle_b.is_match(s);
        match dfa(&left).equivalence_witness(&dfa(&right), &Budget::unlimited()).unwrap() {
            Some(witness) => check_minimal_witness(&witness, separates)?,
            None => {
                for input in all_strings(4) {
                    prop_assert!(!separates(&input), "equivalent, yet {:?} separates", input);
                }
            }
        }
    }

    #[test]
    fn subset_witnesses_are_minimal(left in pattern(), right in pattern()) {
        let (oracle_a, oracle_b) = (oracle(&left), oracle(&right));
        let separates = |s: &str| oracle_a.is_match(s) && !oracle_b.is_match(s);
        match dfa(&left).subset_witness(&dfa(&right), &Budget::unlimited()).unwrap() {
            Some(witness) => check_minimal_witness(&witness, separates)?,
            None => {
                for input in all_strings(4) {
                    prop_assert!(!separates(&input), "subset, yet {:?} is only on the left", input);
                }
            }
        }
    }
}

#[test]
fn neutral_and_absorbing_elements() {
    let budget = Budget::default();
    assert_eq!(Dfa::union_all(&[], &budget).unwrap(), Dfa::empty());
    assert_eq!(Dfa::intersection_all(&[], &budget).unwrap(), Dfa::total());
    assert_eq!(Dfa::empty(), dfa("[]"));
    assert_eq!(Dfa::total(), dfa(".*"));
    assert_eq!(Dfa::empty().complement(&budget).unwrap(), Dfa::total());
    let a = dfa("a(b|c)*");
    assert_eq!(a.union(&Dfa::total(), &budget).unwrap(), Dfa::total());
    assert_eq!(a.intersection(&Dfa::empty(), &budget).unwrap(), Dfa::empty());
}

#[test]
fn witnesses_on_unicode_and_known_cases() {
    let budget = Budget::default();
    let witness = |a: &str, b: &str| dfa(a).equivalence_witness(&dfa(b), &budget).unwrap();
    assert_eq!(witness("(a|b)*abb", "[ab]*abb"), None);
    assert_eq!(witness(".", "[^\\n]").as_deref(), Some("\n"));
    assert_eq!(witness("\\w", "[a-z]").as_deref(), Some("0"));
    assert_eq!(witness("[a-z]{2}", "[a-z]{2}|zz{2}").as_deref(), Some("zzz"));
    let subset = |a: &str, b: &str| dfa(a).subset_witness(&dfa(b), &budget).unwrap();
    assert_eq!(subset("[a-z]+", "[a-y]*").as_deref(), Some("z"));
    assert_eq!(subset("\\p{Greek}", "[α-ω]").as_deref(), Some("Ͱ"));
}

#[test]
fn exploding_intersection_chains_stop_within_the_budget() {
    let operands: Vec<Dfa> = "abcdefgh".chars().map(|ch| dfa(&format!(".*{ch}.{{12}}"))).collect();
    let operands: Vec<&Dfa> = operands.iter().collect();
    let budget = Budget::new(Duration::from_secs(1)).with_max_states(100_000);
    let started = Instant::now();
    let err = Dfa::intersection_all(&operands, &budget).unwrap_err();
    assert!(
        matches!(
            err,
            BudgetError::TooManyStates { op: Operation::Product, .. } | BudgetError::Timeout { .. }
        ),
        "{err:?}"
    );
    // Stopped, not hung: far past the 1 s budget, so that a busy machine cannot fail it.
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
}

#[test]
fn complement_of_an_exploding_pattern_stops_within_the_budget() {
    let budget = Budget::new(Duration::from_secs(1)).with_max_states(100_000);
    let started = Instant::now();
    let result = Dfa::from_regex_with("(a|b)*a(a|b){30}", &budget)
        .and_then(|dfa| Ok(dfa.complement(&budget)?));
    assert!(matches!(result, Err(Error::Budget(_))), "{result:?}");
    // Stopped, not hung: far past the 1 s budget, so that a busy machine cannot fail it.
    assert!(started.elapsed() < Duration::from_secs(10), "took {:?}", started.elapsed());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Inclusion-exclusion: |A ∪ B| + |A ∩ B| == |A| + |B| whenever both are finite.
    #[test]
    fn cardinalities_obey_inclusion_exclusion(left in pattern(), right in pattern()) {
        let budget = Budget::unlimited();
        let (a, b) = (dfa(&left), dfa(&right));
        let count = |x: &Dfa| match x.cardinality(&budget).unwrap() {
            Cardinality::Finite(n) => Some(n),
            Cardinality::Infinite => None,
        };
        let (Some(count_a), Some(count_b)) = (count(&a), count(&b)) else {
            return Ok(());
        };
        let union = count(&a.union(&b, &budget).unwrap()).expect("a union of finite languages is finite");
        let intersection = count(&a.intersection(&b, &budget).unwrap()).expect("finite");
        prop_assert_eq!(union + intersection, count_a + count_b);
    }
}

#[test]
fn password_policy_count_through_intersection() {
    let budget = Budget::default();
    let policy = [dfa("[a-zA-Z0-9]{6,8}"), dfa(".*[0-9].*"), dfa(".*[A-Z].*")];
    let policy = Dfa::intersection_all(&policy.iter().collect::<Vec<_>>(), &budget).unwrap();
    let expected: BigUint = "164726466519680".parse().unwrap();
    assert_eq!(policy.cardinality(&budget).unwrap(), Cardinality::Finite(expected));
}
