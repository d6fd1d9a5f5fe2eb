//! Membership on the NFA and the minimal DFA agrees with the `regex` crate.

use langcore::{Budget, Dfa, Nfa};
use proptest::prelude::*;

use crate::patterns::{STRING_CHARS, all_strings, oracle, pattern};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every string up to length 4 over a,b,c,d, on random patterns.
    #[test]
    fn nfa_and_dfa_agree_with_regex_crate_on_short_strings(pattern in pattern()) {
        let expected = oracle(&pattern);
        let nfa = Nfa::from_regex_with(&pattern, &Budget::unlimited()).unwrap();
        let dfa = Dfa::from_nfa(&nfa, &Budget::unlimited()).unwrap();
        for input in all_strings(4) {
            let want = expected.is_match(&input);
            prop_assert_eq!(nfa.matches(&input), want, "NFA of {} on {:?}", pattern, input);
            prop_assert_eq!(dfa.matches(&input), want, "DFA of {} on {:?}", pattern, input);
        }
    }

    /// Longer random strings, so loops and counted repetitions are exercised deeper.
    #[test]
    fn dfa_agrees_with_regex_crate_on_long_strings(
        pattern in pattern(),
        inputs in prop::collection::vec(
            prop::collection::vec(prop::sample::select(STRING_CHARS.to_vec()), 5..16),
            20,
        ),
    ) {
        let expected = oracle(&pattern);
        let dfa = Dfa::from_regex_with(&pattern, &Budget::unlimited()).unwrap();
        for input in inputs {
            let input: String = input.into_iter().collect();
            prop_assert_eq!(dfa.matches(&input), expected.is_match(&input), "{} on {:?}", pattern, input);
        }
    }
}

#[test]
fn unicode_patterns_agree_with_regex_crate() {
    let patterns = ["\\w{3}", "\\p{Greek}+", "(?i)straße", "[^\\x00-\\x7f]*", "\\d\\s\\D", "(?i)k"];
    let inputs = [
        "",
        "aé1",
        "日本語",
        "αβγ",
        "STRASSE",
        "straße",
        "STRAẞE",
        "k",
        "K",
        "\u{212A}",
        "1 x",
        "١\u{a0}x",
    ];
    for pattern in patterns {
        let dfa = Dfa::from_regex(pattern).unwrap();
        let expected = oracle(pattern);
        for input in inputs {
            assert_eq!(dfa.matches(input), expected.is_match(input), "{pattern} on {input:?}");
        }
    }
}
