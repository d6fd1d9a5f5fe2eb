//! `Language::match_strings` against the `regex` crate (membership, and every prefix that
//! a short continuation completes) and against the product construction (the viable
//! prefix is viable, one character more is not).

use langcore::{Budget, Language};
use proptest::prelude::*;

use crate::patterns::{STRING_CHARS, all_strings, oracle, pattern};

fn language(pattern: &str) -> Language {
    Language::from_regex(pattern).expect("generated patterns are valid")
}

/// Whether some string of `pattern`'s language starts with `prefix`, by intersecting it
/// with `prefix.*` and asking whether that is empty: another road than the trimmed walk.
fn has_string_starting_with(pattern: &str, prefix: &str) -> bool {
    let budget = Budget::unlimited();
    let starts = language(&format!("{}(?s:.)*", regex::escape(prefix)));
    let both = language(pattern).intersection(&starts, &budget).expect("unlimited");
    !both.is_empty(&budget).expect("unlimited")
}

fn inputs() -> impl Strategy<Value = Vec<String>> {
    let string = prop::collection::vec(prop::sample::select(STRING_CHARS.to_vec()), 0..7)
        .prop_map(|chars| chars.into_iter().collect::<String>());
    prop::collection::vec(string, 1..8)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn verdicts_and_viable_prefixes_agree_with_the_oracles(pattern in pattern(), inputs in inputs()) {
        let regex = oracle(&pattern);
        let answers = language(&pattern)
            .match_strings(inputs.iter().map(String::as_str), &Budget::unlimited())
            .expect("unlimited");
        prop_assert_eq!(answers.len(), inputs.len());
        let continuations = all_strings(3);
        for (input, answer) in inputs.iter().zip(answers) {
            let chars: Vec<char> = input.chars().collect();
            prop_assert_eq!(answer.is_match, regex.is_match(input), "{} on {:?}", pattern, input);
            let viable = answer.viable_prefix_chars;
            prop_assert!(viable <= chars.len());
            if answer.is_match {
                prop_assert_eq!(viable, chars.len());
            }
            // Every prefix that a short continuation completes (regex crate) is viable.
            for len in 0..=chars.len() {
                let prefix: String = chars[..len].iter().collect();
                let completed = continuations
                    .iter()
                    .any(|rest| regex.is_match(&format!("{prefix}{rest}")));
                prop_assert!(!completed || len <= viable, "{} on {:?}: {} completes", pattern, input, prefix);
            }
            // The viable prefix starts a string of the language (unless the language is
            // empty), and one character more does not.
            let prefix: String = chars[..viable].iter().collect();
            let empty = !has_string_starting_with(&pattern, "");
            prop_assert_eq!(has_string_starting_with(&pattern, &prefix), !empty);
            if viable < chars.len() {
                let longer: String = chars[..=viable].iter().collect();
                prop_assert!(!has_string_starting_with(&pattern, &longer), "{} on {:?}", pattern, input);
            }
        }
    }
}
