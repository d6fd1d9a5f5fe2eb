//! The rules of the relang dialect, one test per rule.

use langcore::{Dfa, Error, Nfa};

#[track_caller]
fn check(pattern: &str, members: &[&str], non_members: &[&str]) {
    let nfa = Nfa::from_regex(pattern).unwrap();
    let dfa = Dfa::from_regex(pattern).unwrap();
    for input in members {
        assert!(nfa.matches(input) && dfa.matches(input), "{pattern} should match {input:?}");
    }
    for input in non_members {
        assert!(!nfa.matches(input) && !dfa.matches(input), "{pattern} should not match {input:?}");
    }
}

#[track_caller]
fn check_rejected(pattern: &str, message_part: &str) {
    match Dfa::from_regex(pattern) {
        Err(Error::Parse(err)) => assert!(err.message().contains(message_part), "{pattern}: {err}"),
        other => panic!("{pattern}: expected a parse error, got {other:?}"),
    }
}

#[test]
fn patterns_are_anchored_at_both_ends() {
    check("abc", &["abc"], &["", "xabc", "abcx", "ab"]);
}

#[test]
fn dot_matches_every_character_including_newline() {
    check(".", &["a", "\n", "\r", "\0", "\u{10FFFF}", "日"], &["", "ab"]);
}

#[test]
fn empty_class_is_the_empty_language() {
    check("[]", &[], &["", "[]", "a"]);
    check("^[]$", &[], &["", "a"]);
}

#[test]
fn empty_pattern_and_zero_repetition_are_the_empty_string() {
    check("", &[""], &["a", " "]);
    check("a{0}", &[""], &["a"]);
    check("(abc){0,0}", &[""], &["abc"]);
}

#[test]
fn case_insensitive_flag_folds_unicode() {
    // Simple case folding, as in the `regex` crate: ß folds to ẞ, not to "SS".
    check("(?i)straße", &["Straße", "STRAẞE"], &["strase", "STRASSE"]);
    check("(?i)k", &["k", "K", "\u{212A}"], &["x"]);
    check("a(?i:b)c", &["aBc", "abc"], &["ABC"]);
}

#[test]
fn lazy_quantifiers_mean_the_same_language() {
    check("a+?b*?c??", &["a", "aab", "abbc"], &["", "b", "acc"]);
}

#[test]
fn boundary_anchors_change_nothing() {
    check("^abc$", &["abc"], &["", "abcabc"]);
    check("\\Aa|b\\z", &["a", "b"], &["ab"]);
    check("(?i)^a$", &["A"], &[""]);
}

#[test]
fn anchors_hold_only_at_the_ends_or_lines() {
    check("a^b", &[], &["ab", "a^b"]);
    check("a(?m:$)\nb", &["a\nb"], &["ab"]);
    check("(^a)", &["a"], &[""]);
    check("x|^y$|z", &["x", "y", "z"], &["yz"]);
}

#[test]
fn word_boundaries_look_at_both_neighbours() {
    check("\\bword\\b", &["word"], &["words"]);
    check("a\\B.*", &["ab", "a1"], &["a", "a-"]);
    check(".*\\b-", &["a-"], &["-", "--"]);
}

#[test]
fn lookarounds_and_finite_backreferences_are_exact() {
    check("a(?=b).", &["ab"], &["ac", "a"]);
    check("(?<!a)b|ab", &["b", "ab"], &["cb"]);
    check("(a|bc)\\1", &["aa", "bcbc"], &["abc", "bca"]);
}

#[test]
fn constructs_not_read_exactly_are_refused_with_the_reason() {
    check_rejected("(?>(|a|ab)*b)", "atomic group not supported yet");
    check_rejected("([ab]+)\\1", "not regular");
}

#[test]
fn atomic_groups_and_possessive_quantifiers_are_exact() {
    check("(?>a|ab)b", &["ab"], &["abb"]);
    check("(ab)*+a", &["a", "aba"], &["ab"]);
}

#[test]
fn syntax_errors_carry_the_span() {
    let Err(Error::Parse(err)) = Dfa::from_regex("ab[c") else { panic!("expected an error") };
    assert_eq!(err.span(), 2..3);
    assert!(err.to_string().contains("2..3"), "{err}");
}

#[test]
fn large_counted_repetitions_build() {
    let dfa = Dfa::from_regex("a{1000}").unwrap();
    assert_eq!(dfa.n_states(), 1002);
    assert!(dfa.matches(&"a".repeat(1000)));
    assert!(!dfa.matches(&"a".repeat(999)));
    let dfa = Dfa::from_regex("[a-z]{0,500}").unwrap();
    assert!(dfa.matches(&"q".repeat(500)));
    assert!(!dfa.matches(&"q".repeat(501)));
}

#[test]
fn unicode_classes_are_ranges_not_characters() {
    check("\\w{3}", &["aé1", "日本語", "___"], &["a b", "ab"]);
    check("\\p{Greek}+", &["αβγ"], &["abc"]);
    check("[^a]", &["b", "\u{10FFFF}", "\n"], &["a", ""]);
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = "(".repeat(10_000) + "a" + &")".repeat(10_000);
    check_rejected(&deep, "nest");
}
