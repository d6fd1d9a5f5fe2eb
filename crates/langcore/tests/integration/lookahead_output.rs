//! Intersections and differences written with a lookahead, run in their home engines.
//!
//! Products of "contains" patterns (literal and counted pieces joined by `.*`, some
//! anchored at an end) over `a`, `b`, `-`, converted with `options.response.dialect`
//! `python`, `js`, `java` and `pcre`: every output, with a lookahead or not, must be fully
//! matched by its home engine (`re.fullmatch`, `RegExp`, `matches()`, PCRE through Perl)
//! on exactly the strings of the product, for every string up to length 6. One process per
//! engine answers the whole batch (`tests/dialects/`); a missing engine is skipped, unless
//! `RELANG_REQUIRE_ENGINES=1`.

use langcore::{Budget, Dialect, Language};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

use crate::home_engines::{engine, engines_required, run_engine};

/// A pattern that contains one to three pieces in order, each maybe at an end.
fn contains() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec!["ab", "a-b", "b{2}", "[ab]{3}", "-a", "ba", "a-?b"]);
    (prop::collection::vec(piece, 1..=3), any::<bool>(), any::<bool>()).prop_map(
        |(pieces, open_start, open_end)| {
            let start = if open_start { ".*" } else { "" };
            let end = if open_end { ".*" } else { "" };
            format!("{start}{}{end}", pieces.join(".*"))
        },
    )
}

/// Every string over `a`, `b`, `-` up to length 6.
fn inputs() -> Vec<String> {
    let mut res = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..6 {
        level =
            level.iter().flat_map(|head| ["a", "b", "-"].map(|c| format!("{head}{c}"))).collect();
        res.extend(level.iter().cloned());
    }
    res
}

#[test]
fn lookahead_outputs_agree_with_their_home_engines() {
    let mut runner = TestRunner::deterministic();
    let products: Vec<(String, bool, String)> = (0..40)
        .map(|_| {
            let tree = (contains(), any::<bool>(), contains()).new_tree(&mut runner);
            tree.expect("a product").current()
        })
        .collect();
    let strings = inputs();
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre] {
        let mut batch = Vec::new();
        let mut results = Vec::new();
        for (left, difference, right) in &products {
            // A budget per conversion: a default one's deadline runs from its creation.
            let budget = Budget::default();
            let (left, right) =
                (Language::from_regex(left).unwrap(), Language::from_regex(right).unwrap());
            let result = if *difference {
                left.difference(&right, &budget)
            } else {
                left.intersection(&right, &budget)
            }
            .unwrap();
            let output = result.to_pattern_in(dialect, &budget).unwrap();
            if output != "[]" {
                batch.push((output, strings.clone()));
                results.push(result);
            }
        }
        let n_looking = batch
            .iter()
            .filter(|(output, _)| output.starts_with("(?=") || output.starts_with("(?!"))
            .count();
        // Many of the generator's products are ones the lookahead writes shorter.
        eprintln!("{dialect}: {n_looking} of {} outputs with a lookahead", batch.len());
        assert!(n_looking * 3 >= batch.len(), "{dialect}: {n_looking} of {}", batch.len());
        let Some(answers) = engine(dialect).and_then(|command| run_engine(command, &batch)) else {
            assert!(!engines_required(), "the {dialect} engine is not installed");
            eprintln!("SKIPPED {dialect}: its engine is not installed");
            continue;
        };
        for (((output, strings), result), answer) in batch.iter().zip(&results).zip(answers) {
            let answer = answer.unwrap_or_else(|| panic!("{dialect} refuses {output}"));
            for (text, want) in strings.iter().zip(answer) {
                let got = result.matches(text, &Budget::default()).unwrap();
                assert_eq!(
                    got, want,
                    "{output} ({dialect}) on {text:?}: relang {got}, engine {want}"
                );
            }
        }
    }
}
