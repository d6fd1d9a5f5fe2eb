//! Concatenation and repetition of DFAs agree with the patterns that spell them.

use langcore::{Budget, Dfa};
use proptest::prelude::*;

use crate::patterns::{STRING_CHARS, all_strings, oracle, pattern};

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).expect("generated patterns are valid")
}

fn concat(left: &Dfa, right: &Dfa) -> Dfa {
    left.concat(right, &Budget::unlimited()).expect("an unlimited budget never runs out")
}

/// Repetition counts `min <= max <= 3`, or `min <= 3` with no `max`.
fn counts() -> impl Strategy<Value = (u32, Option<u32>)> {
    let bounded = (0u32..=3).prop_flat_map(|max| (0..=max, Just(Some(max))));
    let unbounded = (0u32..=3).prop_map(|min| (min, None));
    prop_oneof![bounded, unbounded]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// `A.concat(B)` accepts what the `regex` crate matches with `(?:A)(?:B)`: every string
    /// up to length 4 over a,b,c,d, and random longer ones.
    #[test]
    fn concat_agrees_with_regex_crate(
        left in pattern(),
        right in pattern(),
        long_inputs in prop::collection::vec(
            prop::collection::vec(prop::sample::select(STRING_CHARS.to_vec()), 5..16),
            20,
        ),
    ) {
        let concatenated = concat(&dfa(&left), &dfa(&right));
        let expected = oracle(&format!("(?:{left})(?:{right})"));
        let long_inputs = long_inputs.into_iter().map(String::from_iter);
        for input in all_strings(4).into_iter().chain(long_inputs) {
            prop_assert_eq!(
                concatenated.matches(&input),
                expected.is_match(&input),
                "({})({}) on {:?}", left, right, input
            );
        }
    }

    /// Three operands give the canonical DFA of the three patterns in a row.
    #[test]
    fn concat_all_equals_the_concatenated_pattern(
        first in pattern(),
        second in pattern(),
        third in pattern(),
    ) {
        let operands = [dfa(&first), dfa(&second), dfa(&third)];
        let operand_refs: Vec<&Dfa> = operands.iter().collect();
        let concatenated = Dfa::concat_all(&operand_refs, &Budget::unlimited()).unwrap();
        prop_assert_eq!(concatenated, dfa(&format!("(?:{first})(?:{second})(?:{third})")));
    }

    /// `(AB)C == A(BC)`: both sides are canonical, so equal languages are equal values.
    #[test]
    fn concat_is_associative(first in pattern(), second in pattern(), third in pattern()) {
        let [first, second, third] = [&first, &second, &third].map(|pattern| dfa(pattern));
        prop_assert_eq!(
            concat(&concat(&first, &second), &third),
            concat(&first, &concat(&second, &third))
        );
    }

    /// `A.repeat(m, n)` is the canonical DFA of `(?:A){m,n}`, and of `(?:A){m,}` unbounded.
    #[test]
    fn repeat_equals_the_counted_pattern(operand in pattern(), (min, max) in counts()) {
        let repeated = dfa(&operand).repeat(min, max, &Budget::unlimited()).unwrap();
        let counted = match max {
            Some(max) => format!("(?:{operand}){{{min},{max}}}"),
            None => format!("(?:{operand}){{{min},}}"),
        };
        prop_assert_eq!(repeated, dfa(&counted), "{}", counted);
    }
}
