//! Atomic groups and possessive quantifiers against Python's `re` (3.11+), Java's
//! `java.util.regex` and Perl as membership oracles.
//!
//! Random patterns mixing atomic groups, possessive, greedy and lazy quantifiers,
//! alternations and lookaheads over `a` and `b`, every string up to length 5 and longer
//! random ones: each pattern relang reads must agree with the engine's full match on all of
//! them, and each one it does not read must be refused as "not supported yet". An engine
//! that is not installed is skipped, unless `RELANG_REQUIRE_ENGINES=1`.

use langcore::{Budget, Dialect, Language};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

use crate::home_engines::{engine, engines_required, run_engine};

fn pattern() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec!["a", "b", "[ab]", "ab", ""]).prop_map(String::from);
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("{left}{right}")),
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("(?:{left}|{right})")),
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("(?>{left}|{right})")),
            inner.clone().prop_map(|sub| format!("(?>{sub})")),
            (inner.clone(), prop::sample::select(vec!["*", "+", "?", "{0,2}", "{1,3}", "{2}"]))
                .prop_map(|(sub, quantifier)| format!("(?:{sub}){quantifier}")),
            (inner.clone(), prop::sample::select(vec!["*+", "++", "?+", "{0,2}+", "{1,2}+"]))
                .prop_map(|(sub, quantifier)| format!("(?:{sub}){quantifier}")),
            (inner.clone(), prop::sample::select(vec!["*?", "+?", "??", "{1,2}?"]))
                .prop_map(|(sub, quantifier)| format!("(?:{sub}){quantifier}")),
            // A repetition followed by more of the same atomic group (rules 4 and 5).
            (
                inner.clone(),
                prop::sample::select(vec![
                    "*", "+", "{0,2}", "{0,3}", "{1,3}", "*?", "+?", "{0,3}?"
                ]),
                inner.clone()
            )
                .prop_map(|(sub, quantifier, rest)| format!("(?>(?:{sub}){quantifier}{rest})")),
            inner.clone().prop_map(|sub| format!("(?={sub})")),
            inner.clone().prop_map(|sub| format!("(?!{sub})")),
        ]
    })
}

/// Every string over `a` and `b` up to length 5, and some longer ones.
fn inputs(runner: &mut TestRunner) -> Vec<String> {
    let mut res = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..5 {
        level = level.iter().flat_map(|head| ["a", "b"].map(|c| format!("{head}{c}"))).collect();
        res.extend(level.iter().cloned());
    }
    let long = prop::collection::vec(prop::sample::select(vec!['a', 'b']), 6..12);
    for _ in 0..20 {
        res.push(long.new_tree(runner).expect("a string").current().into_iter().collect());
    }
    res
}

#[test]
fn atomic_groups_agree_with_python_java_and_perl() {
    let mut runner = TestRunner::deterministic();
    let strings = inputs(&mut runner);
    let batch: Vec<(String, Vec<String>)> = (0..500)
        .map(|_| (pattern().new_tree(&mut runner).expect("a pattern").current(), strings.clone()))
        .collect();
    for dialect in [Dialect::Python, Dialect::Java, Dialect::Pcre] {
        let Some(answers) = engine(dialect).and_then(|command| run_engine(command, &batch)) else {
            assert!(!engines_required(), "the {dialect} engine is not installed");
            eprintln!("skipping {dialect}: its engine is not installed");
            continue;
        };
        let (mut n_read, mut n_refused) = (0, 0);
        for ((pattern, strings), answer) in batch.iter().zip(answers) {
            let answer = answer.unwrap_or_else(|| panic!("{pattern}: {dialect} refuses it"));
            // A budget per pattern: a default one's deadline runs from its creation.
            let budget = Budget::default();
            let language = match Language::from_regex_in(pattern, dialect, &budget) {
                Ok(language) => language,
                Err(err) => {
                    assert!(err.to_string().contains("not supported yet"), "{pattern}: {err}");
                    n_refused += 1;
                    continue;
                }
            };
            n_read += 1;
            for (text, want) in strings.iter().zip(answer) {
                let got = language.matches(text, &budget).unwrap();
                assert_eq!(
                    got, want,
                    "{pattern} ({dialect}) on {text:?}: relang {got}, engine {want}"
                );
            }
        }
        eprintln!("{dialect}: {n_read} patterns read and agreeing, {n_refused} refused");
        assert!(n_read >= 4 * n_refused, "{dialect}: {n_read} read, {n_refused} refused");
    }
}
