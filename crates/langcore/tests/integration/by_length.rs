//! Counts by length agree with brute force: every string up to length 4 over a, b, c, d,
//! matched by the `regex` crate, on random patterns restricted to that alphabet.

use langcore::{Budget, Cardinality, Language};
use num_bigint::BigUint;
use proptest::prelude::*;

use crate::patterns::{STRING_CHARS, all_strings, oracle, pattern};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn counts_by_length_agree_with_brute_force(pattern in pattern(), min in 0usize..3) {
        let budget = Budget::unlimited();
        let expected = oracle(&pattern);
        let alphabet: String = STRING_CHARS.iter().collect();
        let within = Language::from_regex(&format!("[{alphabet}]*")).unwrap();
        let language = Language::from_regex(&pattern).unwrap().intersection(&within, &budget).unwrap();
        let counts = language.count_by_length(min..=4, &budget).unwrap();
        let mut brute = vec![BigUint::ZERO; 5 - min];
        for input in all_strings(4).iter().filter(|input| expected.is_match(input)) {
            if input.len() >= min {
                brute[input.len() - min] += 1u8;
            }
        }
        prop_assert_eq!(counts, brute, "{}", pattern);
    }

    /// A finite language's counts add up to its cardinality.
    #[test]
    fn counts_add_up_to_the_cardinality(pattern in pattern()) {
        let budget = Budget::unlimited();
        let language = Language::from_regex(&pattern).unwrap();
        if let (Cardinality::Finite(total), (_, Some(longest))) =
            (language.cardinality(&budget).unwrap(), language.length(&budget).unwrap())
        {
            let counts = language.count_by_length(0..=longest, &budget).unwrap();
            prop_assert_eq!(counts.into_iter().sum::<BigUint>(), total, "{}", pattern);
        }
    }
}
