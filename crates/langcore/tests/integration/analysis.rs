//! The language analyses against brute force: short strings through the `regex` crate,
//! strings of every length up to twice the state count counted on the automaton, and closed
//! forms.

use langcore::{Budget, BudgetError, Cardinality, Dfa, Nfa, Operation};
use num_bigint::BigUint;
use proptest::prelude::*;

use crate::patterns::{all_strings, oracle, pattern};

/// The number of Unicode scalar values: all code points but the 2,048 surrogates.
const N_SCALARS: u32 = 0x11_0000 - 0x800;

/// Brute force enumerates every string over `STRING_CHARS` up to this length.
const MAX_BRUTE_LEN: usize = 5;

/// The canonical minimal DFA of `pattern` and its unminimized subset construction.
fn minimal_and_determinized(pattern: &str) -> [Dfa; 2] {
    let budget = Budget::unlimited();
    let nfa = Nfa::from_regex_with(pattern, &budget).unwrap();
    let determinized = Dfa::determinize(&nfa, &budget).unwrap();
    [determinized.minimize(&budget).unwrap(), determinized]
}

/// The number of strings of each length up to [`MAX_BRUTE_LEN`] that the `regex` crate
/// accepts. Generated patterns only mention `a`, `b` and `c`, so every other character
/// behaves like `d`: a `d` stands for all `N_SCALARS - 3` of them.
fn brute_force_counts(pattern: &str) -> Vec<BigUint> {
    let oracle = oracle(pattern);
    let mut counts = vec![BigUint::ZERO; MAX_BRUTE_LEN + 1];
    for input in all_strings(MAX_BRUTE_LEN) {
        if oracle.is_match(&input) {
            let n_others = u32::try_from(input.matches('d').count()).unwrap();
            counts[input.len()] += BigUint::from(N_SCALARS - 3).pow(n_others);
        }
    }
    counts
}

/// `layers[k][s]`: how many strings of length `k` lead from the start to state `s`, for
/// `k < 2 · n_states`. That range decides everything: a shortest accepted (or rejected)
/// string is shorter than `n_states`, and the language is infinite exactly when it has a
/// string of some length in `n_states..2 · n_states` (pumping lemma).
fn layers(dfa: &Dfa) -> Vec<Vec<BigUint>> {
    let mut layer = vec![BigUint::ZERO; dfa.n_states()];
    layer[dfa.start().index()] = BigUint::from(1u8);
    let mut layers = Vec::new();
    for _ in 0..2 * dfa.n_states() {
        let mut next = vec![BigUint::ZERO; dfa.n_states()];
        for state in dfa.states().filter(|state| layer[state.index()] != BigUint::ZERO) {
            for (class, members) in dfa.classes().iter() {
                let target = dfa.next_state(state, class).index();
                next[target] += &layer[state.index()] * members.len();
            }
        }
        layers.push(std::mem::replace(&mut layer, next));
    }
    layers
}

/// A string of length `len` that `dfa` accepts, walked back through `layers`.
fn accepted_string_of_length(dfa: &Dfa, layers: &[Vec<BigUint>], len: usize) -> String {
    let mut state = dfa
        .states()
        .find(|&state| dfa.is_accepting(state) && layers[len][state.index()] != BigUint::ZERO)
        .unwrap();
    let mut reversed = Vec::new();
    for layer in layers[..len].iter().rev() {
        let (previous, ch) = dfa
            .states()
            .filter(|previous| layer[previous.index()] != BigUint::ZERO)
            .flat_map(|previous| dfa.classes().iter().map(move |class| (previous, class)))
            .find(|&(previous, (class, _))| dfa.next_state(previous, class) == state)
            .map(|(previous, (_, members))| (previous, members.first().unwrap()))
            .unwrap();
        reversed.push(ch);
        state = previous;
    }
    reversed.into_iter().rev().collect()
}

/// Up to length [`MAX_BRUTE_LEN`], the analyses see what the `regex` crate accepts;
/// cardinality and the longest length must match it exactly when there is no longer string.
fn check_against_regex_crate(pattern: &str) -> Result<(), TestCaseError> {
    let counts = brute_force_counts(pattern);
    let accepted_lengths: Vec<usize> =
        (0..=MAX_BRUTE_LEN).filter(|&len| counts[len] != BigUint::ZERO).collect();
    let total: BigUint = counts.iter().sum();
    let every_string = (0..=MAX_BRUTE_LEN)
        .all(|len| counts[len] == BigUint::from(N_SCALARS).pow(u32::try_from(len).unwrap()));
    for dfa in minimal_and_determinized(pattern) {
        let (shortest, longest) = dfa.length();
        let cardinality = dfa.cardinality(&Budget::unlimited()).unwrap();
        match accepted_lengths.first() {
            Some(&len) => prop_assert_eq!(shortest, Some(len)),
            None => prop_assert!(shortest.is_none_or(|len| len > MAX_BRUTE_LEN)),
        }
        prop_assert_eq!(dfa.is_empty(), shortest.is_none());
        match longest {
            Some(len) if len <= MAX_BRUTE_LEN => {
                prop_assert_eq!(accepted_lengths.last(), Some(&len));
                prop_assert_eq!(&cardinality, &Cardinality::Finite(total.clone()));
            }
            Some(_) => prop_assert!(
                matches!(&cardinality, Cardinality::Finite(count) if *count > total),
                "{cardinality}"
            ),
            None => prop_assert_eq!(&cardinality, &Cardinality::Infinite),
        }
        if dfa.is_empty_string() {
            prop_assert_eq!(&accepted_lengths, &[0]);
            prop_assert_eq!(&total, &BigUint::from(1u8));
        }
        if dfa.is_total() {
            prop_assert!(every_string);
        }
    }
    Ok(())
}

/// Every analysis matches counting strings by length on the automaton, and the witness of an
/// infinite language is a long string the `regex` crate accepts.
fn check_against_counting_by_length(pattern: &str) -> Result<(), TestCaseError> {
    for dfa in minimal_and_determinized(pattern) {
        prop_assume!(dfa.n_states() <= 64, "layers grow quadratically");
        let n_states = dfa.n_states();
        let layers = layers(&dfa);
        let count_where = |accepting: bool, len: usize| -> BigUint {
            dfa.states()
                .filter(|&state| dfa.is_accepting(state) == accepting)
                .map(|state| &layers[len][state.index()])
                .sum()
        };
        let accepted: Vec<BigUint> = (0..2 * n_states).map(|len| count_where(true, len)).collect();
        let is_accepted = |len: &usize| accepted[*len] != BigUint::ZERO;
        let pumpable_len = (n_states..2 * n_states).find(is_accepted);
        let shortest = (0..n_states).find(is_accepted);
        let longest = match pumpable_len {
            Some(_) => None,
            None => (0..n_states).rfind(is_accepted),
        };

        prop_assert_eq!(dfa.length(), (shortest, longest));
        prop_assert_eq!(dfa.is_empty(), shortest.is_none());
        let only_empty =
            accepted[0] == BigUint::from(1u8) && !(1..2 * n_states).any(|len| is_accepted(&len));
        prop_assert_eq!(dfa.is_empty_string(), only_empty);
        let never_rejects = (0..n_states).all(|len| count_where(false, len) == BigUint::ZERO);
        prop_assert_eq!(dfa.is_total(), never_rejects);
        let expected = match pumpable_len {
            Some(len) => {
                let witness = accepted_string_of_length(&dfa, &layers, len);
                prop_assert!(oracle(pattern).is_match(&witness), "{witness:?}");
                Cardinality::Infinite
            }
            None => Cardinality::Finite(accepted[..n_states].iter().sum()),
        };
        prop_assert_eq!(dfa.cardinality(&Budget::unlimited()).unwrap(), expected);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn analyses_agree_with_regex_crate_on_short_strings(pattern in pattern()) {
        check_against_regex_crate(&pattern)?;
    }

    #[test]
    fn analyses_agree_with_counting_by_length(pattern in pattern()) {
        check_against_counting_by_length(&pattern)?;
    }
}

#[track_caller]
fn check_predicates(pattern: &str, empty: bool, empty_string: bool, total: bool) {
    for dfa in minimal_and_determinized(pattern) {
        let answers = (dfa.is_empty(), dfa.is_empty_string(), dfa.is_total());
        assert_eq!(answers, (empty, empty_string, total), "{pattern}");
    }
}

#[test]
fn predicates_on_hand_cases() {
    check_predicates("[]", true, false, false);
    check_predicates(r"\P{Any}", true, false, false);
    check_predicates("", false, true, false);
    check_predicates("(){3}|a{0}", false, true, false);
    check_predicates(".*", false, false, true);
    check_predicates("(a|[^a])*", false, false, true);
    check_predicates(r"[\s\S]*|a", false, false, true);
    check_predicates("[^a]*|.*a.*", false, false, true);
    // "ab" is in neither branch.
    check_predicates("a*|[^a]*", false, false, false);
    check_predicates(".+", false, false, false);
    check_predicates("a?", false, false, false);
}

#[track_caller]
fn check_count(pattern: &str, expected: BigUint) {
    for dfa in minimal_and_determinized(pattern) {
        let count = dfa.cardinality(&Budget::default()).unwrap();
        assert_eq!(count, Cardinality::Finite(expected.clone()), "{pattern}");
    }
}

/// The number of scalar values in a class, computed by `regex-syntax` rather than by
/// langcore's `CharSet`.
fn class_size(class: &str) -> u32 {
    let hir = regex_syntax::parse(class).unwrap();
    let regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(ranges)) = hir.kind()
    else {
        panic!("{class} is not a Unicode class")
    };
    ranges.iter().map(|range| u32::from(range.end()) - u32::from(range.start()) + 1).sum()
}

#[test]
fn closed_forms() {
    check_count(".{3}", BigUint::from(N_SCALARS).pow(3));
    check_count("[a-zA-Z0-9]{6,8}", (6..=8).map(|len| BigUint::from(62u8).pow(len)).sum());
    check_count("(ab|cd){0,20}", BigUint::from((1u32 << 21) - 1));
    check_count(r"\d{10}", BigUint::from(class_size(r"\d")).pow(10));
    // Case folding adds U+017F (ſ) and U+212A (Kelvin sign) to the letters.
    assert_eq!(class_size("(?i)[a-z]"), 54);
    check_count("(?i)[a-z]{3}", BigUint::from(54u8).pow(3));
    check_count("[0-9]{3}-[0-9]{4}|[0-9]{7}", BigUint::from(2 * 10_000_000u32));
}

#[test]
fn alphanumeric_passwords_with_a_digit_and_an_upper_case_letter() {
    // `[a-zA-Z0-9]{6,8} ∩ .*[0-9].* ∩ .*[A-Z].*` as one pattern: for each length, each
    // position of a digit and each other position of an upper-case letter.
    let mut branches = Vec::new();
    for len in 6..=8 {
        for digit_at in 0..len {
            for upper_at in (0..len).filter(|&position| position != digit_at) {
                let branch: String = (0..len)
                    .map(|position| match position {
                        _ if position == digit_at => "[0-9]",
                        _ if position == upper_at => "[A-Z]",
                        _ => "[a-zA-Z0-9]",
                    })
                    .collect();
                branches.push(branch);
            }
        }
    }
    let pattern = branches.join("|");
    // Inclusion-exclusion: all strings, minus those without a digit or without an upper-case
    // letter.
    let inclusion_exclusion: u64 =
        (6..=8).map(|len| 62u64.pow(len) - 52u64.pow(len) - 36u64.pow(len) + 26u64.pow(len)).sum();
    assert_eq!(inclusion_exclusion, 164_726_466_519_680);
    let dfa = Dfa::from_regex(&pattern).unwrap();
    assert_eq!(
        dfa.cardinality(&Budget::default()).unwrap(),
        Cardinality::Finite(BigUint::from(inclusion_exclusion))
    );
}

/// A deadline for tests that time nothing: generous enough for a debug build on a loaded
/// machine, so only the limit a test is about can fail it.
const LOADED_MACHINE: std::time::Duration = std::time::Duration::from_secs(60);

#[test]
fn deep_chain_counts_within_the_default_budget() {
    let dfa = Dfa::from_regex(".{20000}").unwrap();
    // The default limits of states and memory; a deadline a loaded 2-core machine keeps.
    let budget = Budget::default().with_deadline(std::time::Instant::now() + LOADED_MACHINE);
    let Cardinality::Finite(count) = dfa.cardinality(&budget).unwrap() else {
        panic!("finite language")
    };
    // 20000 · log2(1,112,064) = 401,696.6 bits.
    assert_eq!(count.bits(), 401_697);
    assert_eq!(count, BigUint::from(N_SCALARS).pow(20_000));
    assert_eq!(dfa.length(), (Some(20_000), Some(20_000)));
}

#[test]
fn deep_chain_frees_counts_and_respects_the_memory_limit() {
    // The final count takes 50 kB. Keeping every state's count would take ~500 MB.
    let dfa = Dfa::from_regex(".{20000}").unwrap();
    let roomy = Budget::default()
        .with_max_memory(1 << 20)
        .with_deadline(std::time::Instant::now() + LOADED_MACHINE);
    assert!(matches!(dfa.cardinality(&roomy), Ok(Cardinality::Finite(_))));
    let tight = Budget::default().with_max_memory(32 << 10);
    assert_eq!(
        dfa.cardinality(&tight),
        Err(BudgetError::TooMuchMemory { op: Operation::Cardinality, limit: 32 << 10 })
    );
}

#[test]
fn many_classes_leading_to_one_state_count_every_character() {
    // `.(x₁x₁|…|x₅₀₀x₅₀₀)`: each letter is a class of its own, as they lead to different
    // states after the first character, but all 501 classes lead from the start to one state.
    let letters = (0..500).filter_map(|offset| char::from_u32(0x4E00 + offset));
    let branches: Vec<String> = letters.map(|letter| format!("{letter}{letter}")).collect();
    let dfa = Dfa::from_regex(&format!(".({})", branches.join("|"))).unwrap();
    assert_eq!(dfa.classes().len(), 501);
    let expected = BigUint::from(N_SCALARS) * 500u32;
    assert_eq!(dfa.cardinality(&Budget::default()).unwrap(), Cardinality::Finite(expected));
}
