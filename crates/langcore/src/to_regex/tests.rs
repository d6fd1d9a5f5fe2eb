//! Unit tests of the simplification rules, the rendering and the whole conversion.

use expect_test::{Expect, expect};
use regex_syntax::hir::{Class, Hir, HirKind};

use std::time::Instant;

use super::ast::{Exprs, NodeId};
use super::render::render;
use crate::alphabet::CharSet;
use crate::{Budget, BudgetError, Dfa, NEST_LIMIT, Operation};

/// Builds `hir` through the smart constructors, so the rules apply bottom-up.
fn build(exprs: &mut Exprs, hir: &Hir) -> NodeId {
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => exprs.epsilon(),
        HirKind::Literal(literal) => {
            let chars: Vec<NodeId> = String::from_utf8_lossy(&literal.0)
                .chars()
                .map(|ch| exprs.class(CharSet::singleton(ch)))
                .collect();
            exprs.concat(&chars)
        }
        HirKind::Class(Class::Unicode(class)) => {
            exprs.class(CharSet::from_ranges(class.ranges().iter().map(|r| (r.start(), r.end()))))
        }
        HirKind::Class(Class::Bytes(_)) => unreachable!("the front end is in Unicode mode"),
        HirKind::Capture(capture) => build(exprs, &capture.sub),
        HirKind::Concat(items) => {
            let items: Vec<NodeId> = items.iter().map(|item| build(exprs, item)).collect();
            exprs.concat(&items)
        }
        HirKind::Alternation(branches) => {
            let branches: Vec<NodeId> =
                branches.iter().map(|branch| build(exprs, branch)).collect();
            exprs.alt(&branches)
        }
        HirKind::Repetition(repetition) => {
            let inner = build(exprs, &repetition.sub);
            exprs.repeat(inner, repetition.min, repetition.max)
        }
    }
}

/// The pattern rebuilt through the smart constructors and rendered: what the rules make of
/// it. The result must denote the same language.
#[track_caller]
fn check_rules(pattern: &str, expected: Expect) {
    let hir = crate::syntax::parse(pattern, &crate::Budget::default()).unwrap();
    let mut exprs = Exprs::new();
    let node = build(&mut exprs, &hir);
    let rendered = render(&exprs, node);
    assert_eq!(rendered.len(), exprs.size(node), "size of {rendered}");
    assert_eq!(
        Dfa::from_regex(&rendered).unwrap(),
        Dfa::from_regex(pattern).unwrap(),
        "{pattern} → {rendered}"
    );
    expected.assert_eq(&rendered);
}

/// The whole conversion, from the pattern's minimal DFA.
#[track_caller]
fn check(pattern: &str, expected: Expect) {
    let dfa = Dfa::from_regex(pattern).unwrap();
    let output = dfa.to_pattern(&Budget::default()).unwrap();
    assert_eq!(Dfa::from_regex(&output).unwrap(), dfa, "{pattern} → {output}");
    expected.assert_eq(&output);
}

#[test]
fn runs_become_counted_repetitions() {
    check_rules("aa*", expect!["a+"]);
    check_rules("a*a", expect!["a+"]);
    check_rules("aaa", expect!["aaa"]);
    check_rules("aaaaa", expect!["a{5}"]);
    check_rules("a?a?", expect!["a?a?"]);
    check_rules("a?a?a?", expect!["a{0,3}"]);
    check_rules("aa?", expect!["aa?"]);
    check_rules("a{2}a{1,3}", expect!["a{3,5}"]);
    check_rules("a+a+", expect!["aa+"]);
    check_rules("a*a*", expect!["a*"]);
    check_rules("(ab)(ab)(ab)", expect!["ababab"]);
    check_rules("(abc){2}abc", expect!["(abc){3}"]);
    check_rules("(ab)*ab", expect!["(ab)+"]);
    check_rules("ab(ab)*", expect!["(ab)+"]);
    check_rules("[0-9a-f]{4}-[0-9a-f]{4}-", expect!["([0-9a-f]{4}-){2}"]);
    check_rules("[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-", expect!["([0-9a-f]{4}-){3}"]);
}

#[test]
fn stars_absorb_what_they_contain() {
    check_rules("[ab]*a*", expect!["[ab]*"]);
    check_rules("a?[ab]*", expect!["[ab]*"]);
    check_rules("[ab]*a+", expect!["[ab]*a"]);
    check_rules("b{2,}[ab]*", expect!["bb[ab]*"]);
    check_rules("[ab]*(a|bb)?", expect!["[ab]*"]);
}

#[test]
fn optional_and_absorbed_branches() {
    check_rules("a|", expect!["a?"]);
    check_rules("(ab|)", expect!["(ab)?"]);
    check_rules("a*|", expect!["a*"]);
    check_rules("a+|", expect!["a*"]);
    check_rules("a|a*", expect!["a*"]);
    check_rules("a|[ab]*", expect!["[ab]*"]);
    check_rules("ab|[a-c]*", expect!["[a-c]*"]);
    check_rules("a|a{2,3}", expect!["aa?a?"]);
    check_rules("a{5}|a{2,3}", expect!["a{5}|aaa?"]);
    check_rules("a|b|c|x", expect!["[a-cx]"]);
    check_rules("b|a", expect!["[ab]"]);
}

#[test]
fn common_prefixes_and_suffixes_are_factored() {
    check_rules("abc|abd", expect!["ab[cd]"]);
    check_rules("ab|ac", expect!["a[bc]"]);
    check_rules("a|ab", expect!["ab?"]);
    check_rules("ab|b", expect!["a?b"]);
    check_rules("aa|ab", expect!["a[ab]"]);
    check_rules("xay|xby|z", expect!["x[ab]y|z"]);
    // Factoring that would lengthen the pattern is left out.
    check_rules("ab|acd", expect!["ab|acd"]);
    // Unless it lets the other side factor: `(\.[0-9]+)?Z` is longer than `\.[0-9]+Z|Z`.
    check_rules(r"\.[0-9]+Z|Z|(\.[0-9]+)?[+-]", expect![[r"(\.[0-9]+)?[+\-Z]"]]);
}

#[test]
fn nested_repetitions_merge_when_every_count_is_reachable() {
    check_rules("(a?){3}", expect!["a{0,3}"]);
    check_rules("(a{2}){3}", expect!["a{6}"]);
    check_rules("(a+)*", expect!["a*"]);
    check_rules("(a*)+", expect!["a*"]);
    check_rules("(a?)+", expect!["a*"]);
    check_rules("(a{1,2}){2,}", expect!["aa+"]);
    // ε, aa, aaaa, ...: the odd counts are missing.
    check_rules("(a{2})*", expect!["(aa)*"]);
    check_rules("(a{2,4})?", expect!["(a{2,4})?"]);
}

#[test]
fn stars_of_nullable_parts_lose_optionality() {
    check_rules("(a|b*)*", expect!["[ab]*"]);
    check_rules("(a*b*)*", expect!["[ab]*"]);
    check_rules("(a?bc*)*", expect!["(a?bc*)*"]);
    check_rules("(ab|c?)*", expect!["(ab|c)*"]);
}

#[test]
fn units_and_zeros() {
    check_rules("a{0}b", expect!["b"]);
    check_rules("()a()", expect!["a"]);
    check_rules("a{1}", expect!["a"]);
    check_rules("", expect![""]);
}

#[test]
fn every_metacharacter_is_escaped() {
    check_rules(r"\\\.\+\*\?\(\)\|\[\]\{\}\^\$", expect![[r"\\\.\+\*\?\(\)\|\[\]\{\}\^\$"]]);
    check_rules(r"[#&~\-]", expect![[r"[\#\&\-\~]"]]);
    check_rules(r"[\]\[\\^]", expect![[r"[\[-\^]"]]);
    check_rules(r"[|a]", expect![[r"[a\|]"]]);
    // Outside classes, `#&~-` and space are plain characters.
    check_rules(r"#&~\- ", expect!["#&~- "]);
}

#[test]
fn control_and_non_ascii_characters_use_fixed_width_escapes() {
    check_rules(r"\t\n\r\x00\x1F\x7F\x0B", expect![[r"\t\n\r\x00\x1F\x7F\x0B"]]);
    check_rules("é\u{FF}\u{100}\u{4E00}\u{FFFF}", expect![[r"\xE9\xFF\u0100\u4E00\uFFFF"]]);
    check_rules("\u{10000}\u{1F600}\u{10FFFF}", expect![[r"\U00010000\U0001F600\U0010FFFF"]]);
    check_rules(r"[\x00-\x1F]", expect![[r"[\x00-\x1F]"]]);
}

#[test]
fn classes_take_their_shortest_form() {
    check_rules("(?s:.)", expect![[r"[\s\S]"]]);
    check_rules(r"[^\n]", expect![[r"[^\n]"]]);
    check_rules("[^a-z]", expect!["[^a-z]"]);
    check_rules("[ab]", expect!["[ab]"]);
    check_rules("[abc]", expect!["[a-c]"]);
    check_rules(r"[\x00-\u{10FFFE}]", expect![[r"[^\U0010FFFF]"]]);
}

#[test]
fn surrogate_adjacent_ranges() {
    // U+D7FF and U+E000 are neighbours among scalar values, but a run of the two is written
    // as a range: `regex-syntax` negates `[^\uD7FF\uE000]` into the full set.
    check_rules(r"[\u{D7FF}\u{E000}]", expect![[r"[\uD7FF-\uE000]"]]);
    check_rules(r"[\u{D7FE}-\u{E001}]", expect![[r"[\uD7FE-\uE001]"]]);
    check_rules(r"[^\u{D7FF}-\u{E000}]", expect![[r"[^\uD7FF-\uE000]"]]);
    check_rules(r"[^\u{D7FE}-\u{D7FF}]", expect![[r"[^\uD7FE\uD7FF]"]]);
}

#[test]
fn repetitions_group_only_when_needed() {
    check_rules("(ab)*", expect!["(ab)*"]);
    check_rules("(a|b)c", expect!["[ab]c"]);
    check_rules("(ab|c)d", expect!["(ab|c)d"]);
    check_rules("((ab)*c)+", expect!["((ab)*c)+"]);
    // A quantified atom under another quantifier needs a group: `a{2}?` would be lazy.
    check_rules("((a{2,3})c?)?", expect!["(aaa?c?)?"]);
    check_rules("(a{2,3})?", expect!["(aaa?)?"]);
}

#[test]
fn conversions_of_classic_languages() {
    check("(a|b)*abb", expect!["[ab]*abb"]);
    check("(0|1(01*0)*1)*", expect!["(0|1(01*0)*1)*"]);
    check("[a-z]+@[a-z]+\\.(com|org)", expect![[r"[a-z]+@[a-z]+\.(com|org)"]]);
    check("(a|b)*a(a|b){3}", expect!["[ab]*a[ab]{3}"]);
    check("[ab]*ab[ab]*", expect!["b*a+b[ab]*"]);
    check("(ab)*|c", expect!["(ab)*|c"]);
}

#[test]
fn budgets_stop_the_conversion() {
    let dfa = Dfa::from_regex("(a|b)*abb").unwrap();
    let expired = Budget::unlimited().with_deadline(Instant::now());
    let err = dfa.to_pattern(&expired).unwrap_err();
    assert!(matches!(err, BudgetError::Timeout { .. }), "{err:?}");
    let tiny = Budget::unlimited().with_max_memory(4);
    let err = Dfa::from_regex("abcdefgh").unwrap().to_pattern(&tiny).unwrap_err();
    assert_eq!(err, BudgetError::TooMuchMemory { op: Operation::ToRegex, limit: 4 });
}

#[test]
fn patterns_nested_past_the_limit_are_refused() {
    // `a(b(c(…)?)?)?` with distinct letters: each level adds a group, a repetition and a
    // sequence to the nesting that `regex-syntax` counts.
    let mut exprs = Exprs::new();
    let mut node = exprs.epsilon();
    for letter in (0..100).filter_map(|offset| char::from_u32(0x4E00 + offset)) {
        let class = exprs.class(CharSet::singleton(letter));
        let sequence = exprs.concat(&[class, node]);
        node = exprs.opt(sequence);
    }
    assert!(exprs.info(node).depth > NEST_LIMIT);
    let err = super::finish(&exprs, node, &Budget::default()).unwrap_err();
    assert_eq!(err, BudgetError::TooDeep { op: Operation::ToRegex, limit: NEST_LIMIT });
    assert_eq!(err.to_string(), "conversion to a pattern would exceed the nesting limit of 250");
}
