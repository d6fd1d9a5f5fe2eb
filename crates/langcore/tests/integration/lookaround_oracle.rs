//! Lookarounds, word boundaries and anchors against Python's `re` and JavaScript's `RegExp`
//! as membership oracles.
//!
//! Random patterns (nested lookaheads, lookarounds inside stars, lookbehinds inside
//! lookaheads and the reverse, `\b`, `\B`, `^`, `$`) over a small alphabet, every string
//! up to length 4 and longer random ones: relang's `Language::from_regex_in` must agree
//! with `re.fullmatch` and with `RegExp` on all, in each one's dialect. One process per
//! engine answers the whole batch (`tests/dialects/check.py`, `check.js`); a missing engine
//! is skipped, unless `RELANG_REQUIRE_ENGINES=1`.

use langcore::{Budget, Dialect, Language};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

use crate::home_engines::{engine, engines_required, run_engine};

/// A lookbehind body of fixed width, as Python requires.
fn behind_body() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "a",
        "b",
        "-",
        "[ab]",
        "ab",
        "a|b",
        "(?<!a)b",
        "-a",
        // Lookaheads inside lookbehinds look to the end of the whole string.
        "a(?=b)",
        "(?!a)[ab]",
        "a\\b",
        "\\Bb",
        "b(?=.*a)",
        "a$",
    ])
    .prop_map(String::from)
}

fn pattern() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec!["a", "b", "-", "[ab]", ".", "\\b", "\\B", "^", "$", ""])
        .prop_map(String::from);
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("{left}{right}")),
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("(?:{left}|{right})")),
            inner.clone().prop_map(|sub| format!("(?:{sub})*")),
            inner.clone().prop_map(|sub| format!("(?:{sub}){{0,2}}")),
            inner.clone().prop_map(|sub| format!("(?={sub})")),
            inner.clone().prop_map(|sub| format!("(?!{sub})")),
            behind_body().prop_map(|body| format!("(?<={body})")),
            behind_body().prop_map(|body| format!("(?<!{body})")),
        ]
    })
}

/// Every string over `a`, `b`, `-` up to length 4, and some longer ones.
fn inputs(runner: &mut TestRunner) -> Vec<String> {
    let mut res = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..4 {
        level =
            level.iter().flat_map(|head| ["a", "b", "-"].map(|c| format!("{head}{c}"))).collect();
        res.extend(level.iter().cloned());
    }
    let long = prop::collection::vec(prop::sample::select(vec!['a', 'b', '-']), 5..10);
    for _ in 0..20 {
        res.push(long.new_tree(runner).expect("a string").current().into_iter().collect());
    }
    res
}

#[test]
fn lookarounds_agree_with_python_and_javascript() {
    let mut runner = TestRunner::deterministic();
    let strings = inputs(&mut runner);
    let batch: Vec<(String, Vec<String>)> = (0..600)
        .map(|_| (pattern().new_tree(&mut runner).expect("a pattern").current(), strings.clone()))
        .collect();
    for dialect in [Dialect::Python, Dialect::Js] {
        let Some(answers) = engine(dialect).and_then(|command| run_engine(command, &batch)) else {
            assert!(!engines_required(), "the {dialect} engine is not installed");
            eprintln!("skipping {dialect}: its engine is not installed");
            continue;
        };
        let mut n_compared = 0;
        for ((pattern, strings), answer) in batch.iter().zip(answers) {
            // The engines refuse some shapes (Python: a lookbehind of varying width).
            let Some(answer) = answer else { continue };
            // A budget per pattern: a default one's deadline runs from its creation.
            let budget = Budget::default();
            let language = Language::from_regex_in(pattern, dialect, &budget)
                .unwrap_or_else(|err| panic!("{pattern} ({dialect}): {err}"));
            for (text, want) in strings.iter().zip(answer) {
                let got = language.matches(text, &budget).unwrap();
                assert_eq!(
                    got, want,
                    "{pattern} ({dialect}) on {text:?}: relang {got}, engine {want}"
                );
                n_compared += 1;
            }
        }
        assert!(n_compared > 400 * strings.len(), "{dialect}: only {n_compared} comparisons");
    }
}
