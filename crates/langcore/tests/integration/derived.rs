//! Reversal, prefix and suffix closure and quotients obey their laws: on every short
//! string against the `regex` crate's reading of the operands' patterns, and exactly on
//! short strings against concatenation and intersection.

use langcore::{Budget, Language};
use proptest::prelude::*;

use crate::patterns::{all_strings, oracle, pattern};

fn language(pattern: &str) -> Language {
    Language::from_regex(pattern).unwrap()
}

/// Whether `left · right` and `within` share a string.
fn meets(left: &Language, right: &Language, within: &Language) -> bool {
    let budget = Budget::unlimited();
    let both = left.concat(right, &budget).unwrap().intersection(within, &budget).unwrap();
    !both.is_empty(&budget).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// `w ∈ L` iff `reverse(w) ∈ reverse(L)`.
    #[test]
    fn reversal_reads_members_backwards(pattern in pattern()) {
        let budget = Budget::unlimited();
        let expected = oracle(&pattern);
        let reversed = language(&pattern).reverse(&budget).unwrap();
        for input in all_strings(4) {
            let backwards: String = input.chars().rev().collect();
            prop_assert_eq!(reversed.matches(&backwards, &budget).unwrap(), expected.is_match(&input),
                "{} on {:?}", pattern, input);
        }
    }

    /// Every prefix (suffix) of a member is in the prefix (suffix) closure, and a short
    /// string is in it exactly when it starts (ends) some member.
    #[test]
    fn closures_hold_the_prefixes_and_suffixes_of_members(pattern in pattern()) {
        let budget = Budget::unlimited();
        let expected = oracle(&pattern);
        let source = language(&pattern);
        let prefixes = source.prefix_closure(&budget).unwrap();
        let suffixes = source.suffix_closure(&budget).unwrap();
        for member in all_strings(4).iter().filter(|input| expected.is_match(input)) {
            for at in 0..=member.len() {
                let (head, tail) = member.split_at(at);
                prop_assert!(prefixes.matches(head, &budget).unwrap(), "{} {:?}", pattern, head);
                prop_assert!(suffixes.matches(tail, &budget).unwrap(), "{} {:?}", pattern, tail);
            }
        }
        let anything = language("(?s:.*)");
        for candidate in all_strings(3) {
            let literal = language(&regex::escape(&candidate));
            prop_assert_eq!(prefixes.matches(&candidate, &budget).unwrap(),
                meets(&literal, &anything, &source), "{} {:?}", pattern, candidate);
            prop_assert_eq!(suffixes.matches(&candidate, &budget).unwrap(),
                meets(&anything, &literal, &source), "{} {:?}", pattern, candidate);
        }
    }

    /// `v ∈ U\L` iff `u·v ∈ L` for some `u ∈ U`, and `u ∈ L/V` iff `u·v ∈ L` for some
    /// `v ∈ V`: against the `regex` crate with `u`, `v` up to length 3, and exactly on
    /// short candidates against concatenation and intersection.
    #[test]
    fn quotients_keep_the_completions(dividend in pattern(), divisor in pattern()) {
        let budget = Budget::unlimited();
        let (whole, part) = (oracle(&dividend), oracle(&divisor));
        let (dividend_language, divisor_language) = (language(&dividend), language(&divisor));
        let left = dividend_language.left_quotient(&divisor_language, &budget).unwrap();
        let right = dividend_language.right_quotient(&divisor_language, &budget).unwrap();
        let short = all_strings(3);
        let parts: Vec<&String> = short.iter().filter(|input| part.is_match(input)).collect();
        for candidate in &short {
            // Longer completions may exist: the oracle's side only implies membership.
            if parts.iter().any(|u| whole.is_match(&format!("{u}{candidate}"))) {
                prop_assert!(left.matches(candidate, &budget).unwrap(),
                    "{}\\{} {:?}", divisor, dividend, candidate);
            }
            if parts.iter().any(|v| whole.is_match(&format!("{candidate}{v}"))) {
                prop_assert!(right.matches(candidate, &budget).unwrap(),
                    "{}/{} {:?}", dividend, divisor, candidate);
            }
            let literal = language(&regex::escape(candidate));
            prop_assert_eq!(left.matches(candidate, &budget).unwrap(),
                meets(&divisor_language, &literal, &dividend_language));
            prop_assert_eq!(right.matches(candidate, &budget).unwrap(),
                meets(&literal, &divisor_language, &dividend_language));
        }
    }
}

#[test]
fn lookarounds_are_derived_from_their_automaton() {
    let budget = Budget::default();
    let dialect = langcore::Dialect::Python;
    let rules = Language::from_regex_in("(?=.*[0-9])[a-z0-9]{2}", dialect, &budget).unwrap();
    let reversed = rules.reverse(&budget).unwrap();
    assert!(reversed.is_equivalent(&rules, &budget).unwrap());
    let after_a = rules.left_quotient(&language("a"), &budget).unwrap();
    assert!(after_a.is_equivalent(&language("[0-9]"), &budget).unwrap());
}
