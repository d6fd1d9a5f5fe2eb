//! The minimal DFA is minimal, reachable and canonical.

use langcore::alphabet::ClassId;
use langcore::{Budget, Dfa};
use proptest::prelude::*;

use crate::patterns::pattern;

/// For each state, which class words of length `<= depth` it accepts (brute force).
fn signatures(dfa: &Dfa, depth: usize) -> Vec<Vec<bool>> {
    let classes: Vec<ClassId> = dfa.classes().iter().map(|(id, _)| id).collect();
    dfa.states()
        .map(|state| {
            let mut frontier = vec![state];
            let mut signature = vec![dfa.is_accepting(frontier[0])];
            for _ in 0..depth {
                frontier = frontier
                    .iter()
                    .flat_map(|&s| classes.iter().map(move |&c| dfa.next_state(s, c)))
                    .collect();
                signature.extend(frontier.iter().map(|&s| dfa.is_accepting(s)));
            }
            signature
        })
        .collect()
}

fn reachable_count(dfa: &Dfa) -> usize {
    let mut seen = vec![false; dfa.n_states()];
    let mut stack = vec![dfa.start()];
    seen[dfa.start().index()] = true;
    while let Some(state) = stack.pop() {
        for (class, _) in dfa.classes().iter() {
            let next = dfa.next_state(state, class);
            if !std::mem::replace(&mut seen[next.index()], true) {
                stack.push(next);
            }
        }
    }
    seen.iter().filter(|&&s| s).count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No two states accept the same language: in an n-state DFA two states that differ
    /// are told apart by a word of length < n, so brute force over short words decides it.
    #[test]
    fn no_two_states_are_equivalent(pattern in pattern()) {
        let dfa = Dfa::from_regex_with(&pattern, &Budget::unlimited()).unwrap();
        let n_classes = dfa.classes().len();
        prop_assume!(dfa.n_states().saturating_sub(1) as f64 * (n_classes as f64).log2() <= 14.0);
        let signatures = signatures(&dfa, dfa.n_states().saturating_sub(1));
        for i in 0..signatures.len() {
            for j in i + 1..signatures.len() {
                prop_assert_ne!(&signatures[i], &signatures[j], "{}: states {} and {}", pattern, i, j);
            }
        }
        prop_assert_eq!(reachable_count(&dfa), dfa.n_states());
    }

    /// Rewriting a pattern without changing its language gives the identical DFA.
    #[test]
    fn rewrites_give_identical_dfas(pattern in pattern()) {
        let budget = Budget::unlimited();
        let dfa = Dfa::from_regex_with(&pattern, &budget).unwrap();
        for rewrite in [format!("({pattern})|({pattern})"), format!("(({pattern}){{1}})"), format!("(){pattern}")] {
            prop_assert_eq!(&Dfa::from_regex_with(&rewrite, &budget).unwrap(), &dfa, "{}", rewrite);
        }
        let star = Dfa::from_regex_with(&format!("({pattern})*"), &budget).unwrap();
        prop_assert_eq!(Dfa::from_regex_with(&format!("(({pattern})*)*"), &budget).unwrap(), star);
    }
}

#[test]
fn equivalent_patterns_give_identical_dfas() {
    let pairs = [
        ("(a|b)*", "(a*b*)*"),
        ("(a|b)*abb", "[ab]*abb"),
        ("a+", "aa*"),
        ("(?i)abc", "[aA][bB][cC]"),
        ("a{2,3}", "aa|aaa"),
        (".", "[\\s\\S]"),
        ("[]", "[^\\s\\S]"),
        ("", "a{0}"),
        ("^abc$", "abc"),
        ("a*?b", "a*b"),
        ("[a-c]|[b-e]", "[a-e]"),
    ];
    for (left, right) in pairs {
        assert_eq!(
            Dfa::from_regex(left).unwrap(),
            Dfa::from_regex(right).unwrap(),
            "{left} vs {right}"
        );
    }
}

#[test]
fn different_languages_give_different_dfas() {
    assert_ne!(Dfa::from_regex("a*").unwrap(), Dfa::from_regex("a+").unwrap());
    assert_ne!(Dfa::from_regex("[a-c]").unwrap(), Dfa::from_regex("[a-d]").unwrap());
}

#[test]
fn known_minimal_sizes() {
    // (a|b)*a(a|b){n} needs 2^(n+1) states; plus a class for "anything else" and its dead state.
    assert_eq!(Dfa::from_regex("(a|b)*a(a|b){3}").unwrap().n_states(), 16 + 1);
    assert_eq!(Dfa::from_regex(".*").unwrap().n_states(), 1);
    assert_eq!(Dfa::from_regex("[]").unwrap().n_states(), 1);
    assert_eq!(Dfa::from_regex("").unwrap().n_states(), 2);
    assert_eq!(Dfa::from_regex("\\w{20}").unwrap().n_states(), 22);
    assert_eq!(Dfa::from_regex("\\w{20}").unwrap().classes().len(), 2);
}
