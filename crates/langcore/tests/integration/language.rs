//! `Language`: lazy terms give the same languages, DFAs and witnesses as the eager `Dfa`
//! operations, and deep or built operands mix freely.

use langcore::{Budget, BudgetError, Cardinality, Dfa, Error, Language};
use proptest::prelude::*;

use crate::patterns::{all_strings, pattern};

fn budget() -> Budget {
    Budget::unlimited()
}

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &budget()).expect("generated patterns are valid")
}

fn language(pattern: &str) -> Language {
    Language::from_regex(pattern).expect("generated patterns are valid")
}

/// The canonical minimal DFA of `language`.
fn built(language: &Language) -> Dfa {
    language.to_dfa(&budget()).expect("an unlimited budget never runs out").clone()
}

/// `pattern`'s language, either left as a term or built already.
fn language_as(pattern: &str, built: bool) -> Language {
    let language = language(pattern);
    if built {
        language.to_dfa(&budget()).unwrap();
    }
    language
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Union, concatenation and repetition terms build the DFA the eager operations build.
    #[test]
    fn terms_build_the_dfas_of_the_eager_operations(
        left in pattern(),
        right in pattern(),
        left_built in any::<bool>(),
        right_built in any::<bool>(),
        min in 0u32..3,
        extra in prop::option::of(0u32..3),
    ) {
        let budget = budget();
        let (a, b) = (language_as(&left, left_built), language_as(&right, right_built));
        let (da, db) = (dfa(&left), dfa(&right));
        let union = a.union(&b, &budget).unwrap();
        let eager_union = da.union(&db, &budget).unwrap();
        // Membership before the DFA exists simulates the term's NFA.
        for input in all_strings(3) {
            prop_assert_eq!(union.matches(&input, &budget).unwrap(), eager_union.matches(&input));
        }
        prop_assert_eq!(built(&union), eager_union);
        let concat = a.concat(&b, &budget).unwrap();
        prop_assert_eq!(built(&concat), da.concat(&db, &budget).unwrap());
        let max = extra.map(|extra| min + extra);
        let repeat = union.repeat(min, max, &budget).unwrap();
        let eager = da.union(&db, &budget).unwrap().repeat(min, max, &budget).unwrap();
        prop_assert_eq!(built(&repeat), eager);
    }

    /// The walk over one NFA holding both languages finds the witnesses the DFA product
    /// finds: same answer, same shortest-then-smallest string.
    #[test]
    fn nfa_walk_witnesses_equal_product_witnesses(
        left in pattern(),
        right in pattern(),
        left_built in any::<bool>(),
    ) {
        let budget = budget();
        let (da, db) = (dfa(&left), dfa(&right));
        let (a, b) = (language_as(&left, left_built), language(&right));
        prop_assert_eq!(
            a.equivalence_witness(&b, &budget).unwrap(),
            da.equivalence_witness(&db, &budget).unwrap()
        );
        prop_assert_eq!(
            a.subset_witness(&b, &budget).unwrap(),
            da.subset_witness(&db, &budget).unwrap()
        );
        prop_assert_eq!(
            b.subset_witness(&a, &budget).unwrap(),
            db.subset_witness(&da, &budget).unwrap()
        );
    }

    /// Whether two languages share a string, decided on the product of their NFAs, is
    /// whether the DFAs' intersection is empty, built operands or not.
    #[test]
    fn disjointness_agrees_with_the_dfa_intersection(
        left in pattern(),
        right in pattern(),
        left_built in any::<bool>(),
    ) {
        let budget = budget();
        let (a, b) = (language_as(&left, left_built), language(&right));
        let expected = dfa(&left).intersection(&dfa(&right), &budget).unwrap().is_empty();
        prop_assert_eq!(a.is_disjoint(&b, &budget).unwrap(), expected);
        prop_assert_eq!(b.is_disjoint(&a, &budget).unwrap(), expected);
    }

    /// Inclusion and equivalence between a language and a union holding it (answered or
    /// shrunk by the terms' structure, `language/structural.rs`) give the DFAs' witnesses.
    #[test]
    fn witnesses_against_a_union_holding_the_language_are_the_dfas(
        left in pattern(),
        right in pattern(),
        right_first in any::<bool>(),
    ) {
        let budget = budget();
        let (a, b) = (language(&left), language(&right));
        let either = if right_first { b.union(&a, &budget) } else { a.union(&b, &budget) };
        let either = either.unwrap();
        let (da, de) = (dfa(&left), dfa(&left).union(&dfa(&right), &budget).unwrap());
        prop_assert_eq!(a.subset_witness(&either, &budget).unwrap(), None);
        prop_assert_eq!(
            either.subset_witness(&a, &budget).unwrap(),
            de.subset_witness(&da, &budget).unwrap()
        );
        prop_assert_eq!(
            a.equivalence_witness(&either, &budget).unwrap(),
            da.equivalence_witness(&de, &budget).unwrap()
        );
        prop_assert_eq!(
            either.equivalence_witness(&a, &budget).unwrap(),
            de.equivalence_witness(&da, &budget).unwrap()
        );
    }

    /// Boolean operations on terms agree with the same operations on DFAs.
    #[test]
    fn boolean_operations_agree_with_dfas(left in pattern(), right in pattern()) {
        let budget = budget();
        let (a, b) = (language(&left), language(&right));
        let (da, db) = (dfa(&left), dfa(&right));
        prop_assert_eq!(
            built(&a.intersection(&b, &budget).unwrap()),
            da.intersection(&db, &budget).unwrap()
        );
        prop_assert_eq!(
            built(&a.difference(&b, &budget).unwrap()),
            da.difference(&db, &budget).unwrap()
        );
        prop_assert_eq!(built(&a.complement(&budget).unwrap()), da.complement(&budget).unwrap());
    }

    /// Questions about a term answered on its NFA (issue 22) agree with its minimal DFA,
    /// and generation in a length window the language misses is empty.
    #[test]
    fn nfa_answers_agree_with_dfas(
        pattern in pattern(),
        min_length in 0usize..4,
        extra in 0usize..3,
    ) {
        let budget = budget();
        let (term, da) = (language(&pattern), dfa(&pattern));
        prop_assert_eq!(term.is_empty(&budget).unwrap(), da.is_empty());
        prop_assert_eq!(term.is_empty_string(&budget).unwrap(), da.is_empty_string());
        prop_assert_eq!(term.is_total(&budget).unwrap(), da.is_total());
        prop_assert_eq!(term.length(&budget).unwrap(), da.length());
        prop_assert_eq!(term.cardinality(&budget).unwrap(), da.cardinality(&budget).unwrap());
        let options = langcore::GenerateOptions::default()
            .with_min_length(min_length)
            .with_max_length(min_length + extra);
        prop_assert_eq!(
            language(&pattern).generate(&options, &budget).unwrap(),
            da.generate(&options, &budget).unwrap()
        );
    }
}

#[test]
fn deep_chains_of_terms_are_built_on_the_way() {
    let budget = budget();
    let letters: Vec<Language> = ('a'..='z').map(|ch| language(&ch.to_string())).collect();
    // 200 levels of alternating union and concatenation, far deeper than a term is kept.
    let (mut acc, mut eager) = (Language::empty_string(), Dfa::empty_string());
    for level in 0..200 {
        let letter = &letters[level % letters.len()];
        let letter_dfa = built(letter);
        (acc, eager) = if level % 2 == 0 {
            (acc.union(letter, &budget).unwrap(), eager.union(&letter_dfa, &budget).unwrap())
        } else {
            (acc.concat(letter, &budget).unwrap(), eager.concat(&letter_dfa, &budget).unwrap())
        };
    }
    assert_eq!(built(&acc), eager);
    // Levels 198 and 199 add `q` and `r`; the longest string takes every concatenation.
    assert!(acc.matches("qr", &budget).unwrap());
    assert_eq!(acc.length(&budget).unwrap(), (Some(2), Some(101)));
}

#[test]
fn unions_of_unions_are_one_term() {
    let budget = budget();
    let words: Vec<Language> = ["if", "else", "for", "while"].map(language).into();
    let left = words[0].union(&words[1], &budget).unwrap();
    let right = words[2].union(&words[3], &budget).unwrap();
    let all = left.union(&right, &budget).unwrap();
    assert!(all.is_equivalent(&language("if|else|for|while"), &budget).unwrap());
}

#[test]
fn lazy_terms_fail_at_the_first_question_that_needs_the_automaton() {
    let exploding = language("(a|b)*a").concat(&language("(a|b){24}"), &budget()).unwrap();
    let small = Budget::unlimited().with_max_states(10_000);
    // Emptiness, lengths and cardinality are answered on the NFA (issue 22); the DFA is not.
    assert!(!exploding.is_empty(&small).unwrap());
    assert_eq!(exploding.length(&small).unwrap(), (Some(25), None));
    assert_eq!(exploding.cardinality(&small).unwrap(), Cardinality::Infinite);
    let err = exploding.to_dfa(&small).unwrap_err();
    assert!(matches!(err, Error::Budget(BudgetError::TooManyStates { .. })), "{err}");
    // A relation walks both terms only as far as the first difference: "" is in `b*` only.
    let witness = exploding.equivalence_witness(&language("b*"), &small).unwrap();
    assert_eq!(witness.as_deref(), Some(""));
}

#[test]
fn invalid_repetitions_are_rejected_at_once() {
    let err = language("a").repeat(3, Some(2), &budget()).unwrap_err();
    assert_eq!(err, Error::InvalidRepetition { min: 3, max: 2 });
}

#[test]
fn empty_and_total_operands_behave_as_units() {
    let budget = budget();
    let word = language("ab*");
    let empty = Language::empty();
    let none = word.concat(&empty, &budget).unwrap();
    assert!(none.is_empty(&budget).unwrap());
    assert!(word.union(&empty, &budget).unwrap().is_equivalent(&word, &budget).unwrap());
    assert!(empty.repeat(0, Some(3), &budget).unwrap().is_empty_string(&budget).unwrap());
    assert!(empty.repeat(1, None, &budget).unwrap().is_empty(&budget).unwrap());
    let total = Language::total();
    assert!(total.union(&word, &budget).unwrap().is_total(&budget).unwrap());
}
