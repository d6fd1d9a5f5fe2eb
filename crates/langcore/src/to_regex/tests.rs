//! Unit tests of the simplification rules, the rendering and the whole conversion.

use expect_test::{Expect, expect};

use std::time::Instant;

use super::ast::Exprs;
use super::render::render;
use super::structure::build_hir;
use crate::Dialect;
use crate::alphabet::CharSet;
use crate::{Budget, BudgetError, Dfa, Language, NEST_LIMIT, Operation};

/// The pattern of `left op right` (`&` or `-`) in `dialect`, checked against the product's
/// DFA by reading it back in that dialect.
#[track_caller]
pub(super) fn combined(left: &str, op: char, right: &str, dialect: Dialect) -> String {
    // The default limits without the deadline: what is asserted is the output, which a
    // search cut short by a loaded machine would change.
    let budget = Budget::new(std::time::Duration::from_secs(3600));
    let (left, right) = (Language::from_regex(left).unwrap(), Language::from_regex(right).unwrap());
    let result = match op {
        '&' => left.intersection(&right, &budget),
        _ => left.difference(&right, &budget),
    }
    .unwrap();
    let output = result.to_pattern_in(dialect, &budget).unwrap();
    let read = Language::from_regex_in(&output, dialect, &budget).unwrap();
    assert_eq!(read.to_dfa(&budget).unwrap(), result.to_dfa(&budget).unwrap(), "{output}");
    output
}

/// The pattern rebuilt through the smart constructors and rendered: what the rules make of
/// it. The result must denote the same language.
#[track_caller]
fn check_rules(pattern: &str, expected: Expect) {
    let hir = crate::syntax::parse(pattern, &crate::Budget::default()).unwrap();
    let mut exprs = Exprs::new(Dialect::Rust);
    let node = build_hir(&mut exprs, &hir, &Budget::default()).unwrap();
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
    check_rules("(?s:.)", expect!["."]);
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
    let mut exprs = Exprs::new(Dialect::Rust);
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

/// The spelling of the set of the one-class pattern `class` in `dialect`, which must be
/// exact: read back in our dialect where it is ours, and always its text's own length.
#[track_caller]
fn check_class(dialect: Dialect, class: &str, expected: Expect) {
    let set = CharSet::parse(class).unwrap();
    let spelled = super::class::spell(&set, dialect);
    if dialect == Dialect::Rust {
        assert_eq!(CharSet::parse(&spelled.text).unwrap(), set, "{class} → {}", spelled.text);
    }
    expected.assert_eq(&spelled.text);
}

#[test]
fn sets_use_named_classes_in_our_dialect() {
    let rust = Dialect::Rust;
    check_class(rust, r"\w", expect![[r#"\w"#]]);
    check_class(rust, r"\W", expect![[r#"\W"#]]);
    check_class(rust, r"\d", expect![[r#"\d"#]]);
    check_class(rust, r"\p{Nd}", expect![[r#"\d"#]]);
    check_class(rust, r"[\w.-]", expect![[r#"[\w\-.]"#]]);
    check_class(rust, r"[^\s>]", expect![[r#"[^\s>]"#]]);
    check_class(rust, r"[\w--_]", expect![[r#"[^\W_]"#]]);
    check_class(rust, r"[\pL--a-z]", expect![[r#"[^\PLa-z]"#]]);
    check_class(rust, r"\p{Greek}", expect![[r#"\p{Greek}"#]]);
    check_class(rust, r"[\p{Greek}\d]", expect![[r#"[\d\p{Greek}]"#]]);
    check_class(rust, r"[^\n]", expect![[r#"[^\n]"#]]);
    check_class(rust, r"[a-zA-Z]", expect!["[A-Za-z]"]);
    check_class(rust, r"[\w&&[^\d]]", expect![[r#"[^\W\d]"#]]);
    check_class(rust, ".", expect!["."]);
}

#[test]
fn sets_in_other_dialects_use_what_they_read_the_same() {
    check_class(Dialect::Python, r"\d", expect![[r#"\d"#]]);
    check_class(Dialect::Python, ".", expect![[r#"[\s\S]"#]]);
    check_class(
        Dialect::Python,
        r"[^\s>]",
        expect![[r#"[^\t-\r >\x85\xA0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]"#]],
    );
    check_class(Dialect::Js, r"[0-9]", expect![[r#"\d"#]]);
    check_class(
        Dialect::Js,
        r"[\w-]",
        expect![[
            r#"([^\x00-,./:-@\[-\^`{-\xA9\xAB-\xB4\xB6-\xB9\xBB-\xBF\xD7\xF7\u02C2-\u02C5\u02D2-\u02DF\u02E5-\u02EB\u02ED\u02EF-\u02FF\u0375\u0378\u0379\u037E\u0380-\u0385\u0387\u038B\u038D\u03A2\u03F6\u0482\u0530\u0557\u0558\u055A-\u055F\u0589-\u0590\u05BE\u05C0\u05C3\u05C6\u05C8-\u05CF\u05EB-\u05EE\u05F3-\u060F\u061B-\u061F\u066A-\u066D\u06D4\u06DD\u06DE\u06E9\u06FD\u06FE\u0700-\u070F\u074B\u074C\u07B2-\u07BF\u07F6-\u07F9\u07FB\u07FC\u07FE\u07FF\u082E-\u083F\u085C-\u085F\u086B-\u086F\u0888\u088F-\u0896\u08E2\u0964\u0965\u0970\u0984\u098D\u098E\u0991\u0992\u09A9\u09B1\u09B3-\u09B5\u09BA\u09BB\u09C5\u09C6\u09C9\u09CA\u09CF-\u09D6\u09D8-\u09DB\u09DE\u09E4\u09E5\u09F2-\u09FB\u09FD\u09FF\u0A00\u0A04\u0A0B-\u0A0E\u0A11\u0A12\u0A29\u0A31\u0A34\u0A37\u0A3A\u0A3B\u0A3D\u0A43-\u0A46\u0A49\u0A4A\u0A4E-\u0A50\u0A52-\u0A58\u0A5D\u0A5F-\u0A65\u0A76-\u0A80\u0A84\u0A8E\u0A92\u0AA9\u0AB1\u0AB4\u0ABA\u0ABB\u0AC6\u0ACA\u0ACE\u0ACF\u0AD1-\u0ADF\u0AE4\u0AE5\u0AF0-\u0AF8\u0B00\u0B04\u0B0D\u0B0E\u0B11\u0B12\u0B29\u0B31\u0B34\u0B3A\u0B3B\u0B45\u0B46\u0B49\u0B4A\u0B4E-\u0B54\u0B58-\u0B5B\u0B5E\u0B64\u0B65\u0B70\u0B72-\u0B81\u0B84\u0B8B-\u0B8D\u0B91\u0B96-\u0B98\u0B9B\u0B9D\u0BA0-\u0BA2\u0BA5-\u0BA7\u0BAB-\u0BAD\u0BBA-\u0BBD\u0BC3-\u0BC5\u0BC9\u0BCE\u0BCF\u0BD1-\u0BD6\u0BD8-\u0BE5\u0BF0-\u0BFF\u0C0D\u0C11\u0C29\u0C3A\u0C3B\u0C45\u0C49\u0C4E-\u0C54\u0C57\u0C5B\u0C5C\u0C5E\u0C5F\u0C64\u0C65\u0C70-\u0C7F\u0C84\u0C8D\u0C91\u0CA9\u0CB4\u0CBA\u0CBB\u0CC5\u0CC9\u0CCE-\u0CD4\u0CD7-\u0CDC\u0CDF\u0CE4\u0CE5\u0CF0\u0CF4-\u0CFF\u0D0D\u0D11\u0D45\u0D49\u0D4F-\u0D53\u0D58-\u0D5E\u0D64\u0D65\u0D70-\u0D79\u0D80\u0D84\u0D97-\u0D99\u0DB2\u0DBC\u0DBE\u0DBF\u0DC7-\u0DC9\u0DCB-\u0DCE\u0DD5\u0DD7\u0DE0-\u0DE5\u0DF0\u0DF1\u0DF4-\u0E00\u0E3B-\u0E3F\u0E4F\u0E5A-\u0E80\u0E83\u0E85\u0E8B\u0EA4\u0EA6\u0EBE\u0EBF\u0EC5\u0EC7\u0ECF\u0EDA\u0EDB\u0EE0-\u0EFF\u0F01-\u0F17\u0F1A-\u0F1F\u0F2A-\u0F34\u0F36\u0F38\u0F3A-\u0F3D\u0F48\u0F6D-\u0F70\u0F85\u0F98\u0FBD-\u0FC5\u0FC7-\u0FFF\u104A-\u104F\u109E\u109F\u10C6\u10C8-\u10CC\u10CE\u10CF\u10FB\u1249\u124E\u124F\u1257\u1259\u125E\u125F\u1289\u128E\u128F\u12B1\u12B6\u12B7\u12BF\u12C1\u12C6\u12C7\u12D7\u1311\u1316\u1317\u135B\u135C\u1360-\u137F\u1390-\u139F\u13F6\u13F7\u13FE-\u1400\u166D\u166E\u1680\u169B-\u169F\u16EB-\u16ED\u16F9-\u16FF\u1716-\u171E\u1735-\u173F\u1754-\u175F\u176D\u1771\u1774-\u177F\u17D4-\u17D6\u17D8-\u17DB\u17DE\u17DF\u17EA-\u180A\u180E\u181A-\u181F\u1879-\u187F\u18AB-\u18AF\u18F6-\u18FF\u191F\u192C-\u192F\u193C-\u1945\u196E\u196F\u1975-\u197F\u19AC-\u19AF\u19CA-\u19CF\u19DA-\u19FF\u1A1C-\u1A1F\u1A5F\u1A7D\u1A7E\u1A8A-\u1A8F\u1A9A-\u1AA6\u1AA8-\u1AAF\u1ACF-\u1AFF\u1B4D-\u1B4F\u1B5A-\u1B6A\u1B74-\u1B7F\u1BF4-\u1BFF\u1C38-\u1C3F\u1C4A-\u1C4C\u1C7E\u1C7F\u1C8B-\u1C8F\u1CBB\u1CBC\u1CC0-\u1CCF\u1CD3\u1CFB-\u1CFF\u1F16\u1F17\u1F1E\u1F1F\u1F46\u1F47\u1F4E\u1F4F\u1F58\u1F5A\u1F5C\u1F5E\u1F7E\u1F7F\u1FB5\u1FBD\u1FBF-\u1FC1\u1FC5\u1FCD-\u1FCF\u1FD4\u1FD5\u1FDC-\u1FDF\u1FED-\u1FF1\u1FF5\u1FFD-\u200B\u200E-\u203E\u2041-\u2053\u2055-\u2070\u2072-\u207E\u2080-\u208F\u209D-\u20CF\u20F1-\u2101\u2103-\u2106\u2108\u2109\u2114\u2116-\u2118\u211E-\u2123\u2125\u2127\u2129\u212E\u213A\u213B\u2140-\u2144\u214A-\u214D\u214F-\u215F\u2189-\u24B5\u24EA-\u2BFF\u2CE5-\u2CEA\u2CF4-\u2CFF\u2D26\u2D28-\u2D2C\u2D2E\u2D2F\u2D68-\u2D6E\u2D70-\u2D7E\u2D97-\u2D9F\u2DA7\u2DAF\u2DB7\u2DBF\u2DC7\u2DCF\u2DD7\u2DDF\u2E00-\u2E2E\u2E30-\u3004\u3008-\u3020\u3030\u3036\u3037\u303D-\u3040\u3097\u3098\u309B\u309C\u30A0\u30FB\u3100-\u3104\u3130\u318F-\u319F\u31C0-\u31EF\u3200-\u33FF\u4DC0-\u4DFF\uA48D-\uA4CF\uA4FE\uA4FF\uA60D-\uA60F\uA62C-\uA63F\uA673\uA67E\uA6F2-\uA716\uA720\uA721\uA789\uA78A\uA7CE\uA7CF\uA7D2\uA7D4\uA7DD-\uA7F1\uA828-\uA82B\uA82D-\uA83F\uA874-\uA87F\uA8C6-\uA8CF\uA8DA-\uA8DF\uA8F8-\uA8FA\uA8FC\uA92E\uA92F\uA954-\uA95F\uA97D-\uA97F\uA9C1-\uA9CE\uA9DA-\uA9DF\uA9FF\uAA37-\uAA3F\uAA4E\uAA4F\uAA5A-\uAA5F\uAA77-\uAA79\uAAC3-\uAADA\uAADE\uAADF\uAAF0\uAAF1\uAAF7-\uAB00\uAB07\uAB08\uAB0F\uAB10\uAB17-\uAB1F\uAB27\uAB2F\uAB5B\uAB6A-\uAB6F\uABEB\uABEE\uABEF\uABFA-\uABFF\uD7A4-\uD7AF\uD7C7-\uD7CA\uD7FC-\uF8FF\uFA6E\uFA6F\uFADA-\uFAFF\uFB07-\uFB12\uFB18-\uFB1C\uFB29\uFB37\uFB3D\uFB3F\uFB42\uFB45\uFBB2-\uFBD2\uFD3E-\uFD4F\uFD90\uFD91\uFDC8-\uFDEF\uFDFC-\uFDFF\uFE10-\uFE1F\uFE30-\uFE32\uFE35-\uFE4C\uFE50-\uFE6F\uFE75\uFEFD-\uFF0F\uFF1A-\uFF20\uFF3B-\uFF3E\uFF40\uFF5B-\uFF65\uFFBF-\uFFC1\uFFC8\uFFC9\uFFD0\uFFD1\uFFD8\uFFD9\uFFDD-\uFFFF]|\uD800[\uDC00-\uDC0B]|\uD800[\uDC0D-\uDC26]|\uD800[\uDC28-\uDC3A]|\uD800[\uDC3C\uDC3D]|\uD800[\uDC3F-\uDC4D]|\uD800[\uDC50-\uDC5D]|\uD800[\uDC80-\uDCFA]|\uD800[\uDD40-\uDD74]|\uD800\uDDFD|\uD800[\uDE80-\uDE9C]|\uD800[\uDEA0-\uDED0]|\uD800\uDEE0|\uD800[\uDF00-\uDF1F]|\uD800[\uDF2D-\uDF4A]|\uD800[\uDF50-\uDF7A]|\uD800[\uDF80-\uDF9D]|\uD800[\uDFA0-\uDFC3]|\uD800[\uDFC8-\uDFCF]|\uD800[\uDFD1-\uDFD5]|\uD801[\uDC00-\uDC9D]|\uD801[\uDCA0-\uDCA9]|\uD801[\uDCB0-\uDCD3]|\uD801[\uDCD8-\uDCFB]|\uD801[\uDD00-\uDD27]|\uD801[\uDD30-\uDD63]|\uD801[\uDD70-\uDD7A]|\uD801[\uDD7C-\uDD8A]|\uD801[\uDD8C-\uDD92]|\uD801[\uDD94\uDD95]|\uD801[\uDD97-\uDDA1]|\uD801[\uDDA3-\uDDB1]|\uD801[\uDDB3-\uDDB9]|\uD801[\uDDBB\uDDBC]|\uD801[\uDDC0-\uDDF3]|\uD801[\uDE00-\uDF36]|\uD801[\uDF40-\uDF55]|\uD801[\uDF60-\uDF67]|\uD801[\uDF80-\uDF85]|\uD801[\uDF87-\uDFB0]|\uD801[\uDFB2-\uDFBA]|\uD802[\uDC00-\uDC05]|\uD802\uDC08|\uD802[\uDC0A-\uDC35]|\uD802[\uDC37\uDC38]|\uD802\uDC3C|\uD802[\uDC3F-\uDC55]|\uD802[\uDC60-\uDC76]|\uD802[\uDC80-\uDC9E]|\uD802[\uDCE0-\uDCF2]|\uD802[\uDCF4\uDCF5]|\uD802[\uDD00-\uDD15]|\uD802[\uDD20-\uDD39]|\uD802[\uDD80-\uDDB7]|\uD802[\uDDBE\uDDBF]|\uD802[\uDE00-\uDE03]|\uD802[\uDE05\uDE06]|\uD802[\uDE0C-\uDE13]|\uD802[\uDE15-\uDE17]|\uD802[\uDE19-\uDE35]|\uD802[\uDE38-\uDE3A]|\uD802\uDE3F|\uD802[\uDE60-\uDE7C]|\uD802[\uDE80-\uDE9C]|\uD802[\uDEC0-\uDEC7]|\uD802[\uDEC9-\uDEE6]|\uD802[\uDF00-\uDF35]|\uD802[\uDF40-\uDF55]|\uD802[\uDF60-\uDF72]|\uD802[\uDF80-\uDF91]|\uD803[\uDC00-\uDC48]|\uD803[\uDC80-\uDCB2]|\uD803[\uDCC0-\uDCF2]|\uD803[\uDD00-\uDD27]|\uD803[\uDD30-\uDD39]|\uD803[\uDD40-\uDD65]|\uD803[\uDD69-\uDD6D]|\uD803[\uDD6F-\uDD85]|\uD803[\uDE80-\uDEA9]|\uD803[\uDEAB\uDEAC]|\uD803[\uDEB0\uDEB1]|\uD803[\uDEC2-\uDEC4]|\uD803[\uDEFC-\uDF1C]|\uD803\uDF27|\uD803[\uDF30-\uDF50]|\uD803[\uDF70-\uDF85]|\uD803[\uDFB0-\uDFC4]|\uD803[\uDFE0-\uDFF6]|\uD804[\uDC00-\uDC46]|\uD804[\uDC66-\uDC75]|\uD804[\uDC7F-\uDCBA]|\uD804\uDCC2|\uD804[\uDCD0-\uDCE8]|\uD804[\uDCF0-\uDCF9]|\uD804[\uDD00-\uDD34]|\uD804[\uDD36-\uDD3F]|\uD804[\uDD44-\uDD47]|\uD804[\uDD50-\uDD73]|\uD804\uDD76|\uD804[\uDD80-\uDDC4]|\uD804[\uDDC9-\uDDCC]|\uD804[\uDDCE-\uDDDA]|\uD804\uDDDC|\uD804[\uDE00-\uDE11]|\uD804[\uDE13-\uDE37]|\uD804[\uDE3E-\uDE41]|\uD804[\uDE80-\uDE86]|\uD804\uDE88|\uD804[\uDE8A-\uDE8D]|\uD804[\uDE8F-\uDE9D]|\uD804[\uDE9F-\uDEA8]|\uD804[\uDEB0-\uDEEA]|\uD804[\uDEF0-\uDEF9]|\uD804[\uDF00-\uDF03]|\uD804[\uDF05-\uDF0C]|\uD804[\uDF0F\uDF10]|\uD804[\uDF13-\uDF28]|\uD804[\uDF2A-\uDF30]|\uD804[\uDF32\uDF33]|\uD804[\uDF35-\uDF39]|\uD804[\uDF3B-\uDF44]|\uD804[\uDF47\uDF48]|\uD804[\uDF4B-\uDF4D]|\uD804\uDF50|\uD804\uDF57|\uD804[\uDF5D-\uDF63]|\uD804[\uDF66-\uDF6C]|\uD804[\uDF70-\uDF74]|\uD804[\uDF80-\uDF89]|\uD804\uDF8B|\uD804\uDF8E|\uD804[\uDF90-\uDFB5]|\uD804[\uDFB7-\uDFC0]|\uD804\uDFC2|\uD804\uDFC5|\uD804[\uDFC7-\uDFCA]|\uD804[\uDFCC-\uDFD3]|\uD804[\uDFE1\uDFE2]|\uD805[\uDC00-\uDC4A]|\uD805[\uDC50-\uDC59]|\uD805[\uDC5E-\uDC61]|\uD805[\uDC80-\uDCC5]|\uD805\uDCC7|\uD805[\uDCD0-\uDCD9]|\uD805[\uDD80-\uDDB5]|\uD805[\uDDB8-\uDDC0]|\uD805[\uDDD8-\uDDDD]|\uD805[\uDE00-\uDE40]|\uD805\uDE44|\uD805[\uDE50-\uDE59]|\uD805[\uDE80-\uDEB8]|\uD805[\uDEC0-\uDEC9]|\uD805[\uDED0-\uDEE3]|\uD805[\uDF00-\uDF1A]|\uD805[\uDF1D-\uDF2B]|\uD805[\uDF30-\uDF39]|\uD805[\uDF40-\uDF46]|\uD806[\uDC00-\uDC3A]|\uD806[\uDCA0-\uDCE9]|\uD806[\uDCFF-\uDD06]|\uD806\uDD09|\uD806[\uDD0C-\uDD13]|\uD806[\uDD15\uDD16]|\uD806[\uDD18-\uDD35]|\uD806[\uDD37\uDD38]|\uD806[\uDD3B-\uDD43]|\uD806[\uDD50-\uDD59]|\uD806[\uDDA0-\uDDA7]|\uD806[\uDDAA-\uDDD7]|\uD806[\uDDDA-\uDDE1]|\uD806[\uDDE3\uDDE4]|\uD806[\uDE00-\uDE3E]|\uD806\uDE47|\uD806[\uDE50-\uDE99]|\uD806\uDE9D|\uD806[\uDEB0-\uDEF8]|\uD806[\uDFC0-\uDFE0]|\uD806[\uDFF0-\uDFF9]|\uD807[\uDC00-\uDC08]|\uD807[\uDC0A-\uDC36]|\uD807[\uDC38-\uDC40]|\uD807[\uDC50-\uDC59]|\uD807[\uDC72-\uDC8F]|\uD807[\uDC92-\uDCA7]|\uD807[\uDCA9-\uDCB6]|\uD807[\uDD00-\uDD06]|\uD807[\uDD08\uDD09]|\uD807[\uDD0B-\uDD36]|\uD807\uDD3A|\uD807[\uDD3C\uDD3D]|\uD807[\uDD3F-\uDD47]|\uD807[\uDD50-\uDD59]|\uD807[\uDD60-\uDD65]|\uD807[\uDD67\uDD68]|\uD807[\uDD6A-\uDD8E]|\uD807[\uDD90\uDD91]|\uD807[\uDD93-\uDD98]|\uD807[\uDDA0-\uDDA9]|\uD807[\uDEE0-\uDEF6]|\uD807[\uDF00-\uDF10]|\uD807[\uDF12-\uDF3A]|\uD807[\uDF3E-\uDF42]|\uD807[\uDF50-\uDF5A]|\uD807\uDFB0|\uD808[\uDC00-\uDF99]|\uD809[\uDC00-\uDC6E]|\uD809[\uDC80-\uDD43]|\uD80B[\uDF90-\uDFF0]|\uD80C[\uDC00-\uDFFF]|\uD80D[\uDC00-\uDC2F]|\uD80D[\uDC40-\uDC55]|\uD80D[\uDC60-\uDFFF]|[\uD80E\uD80F][\uDC00-\uDFFF]|\uD810[\uDC00-\uDFFA]|\uD811[\uDC00-\uDE46]|\uD818[\uDD00-\uDD39]|\uD81A[\uDC00-\uDE38]|\uD81A[\uDE40-\uDE5E]|\uD81A[\uDE60-\uDE69]|\uD81A[\uDE70-\uDEBE]|\uD81A[\uDEC0-\uDEC9]|\uD81A[\uDED0-\uDEED]|\uD81A[\uDEF0-\uDEF4]|\uD81A[\uDF00-\uDF36]|\uD81A[\uDF40-\uDF43]|\uD81A[\uDF50-\uDF59]|\uD81A[\uDF63-\uDF77]|\uD81A[\uDF7D-\uDF8F]|\uD81B[\uDD40-\uDD6C]|\uD81B[\uDD70-\uDD79]|\uD81B[\uDE40-\uDE7F]|\uD81B[\uDF00-\uDF4A]|\uD81B[\uDF4F-\uDF87]|\uD81B[\uDF8F-\uDF9F]|\uD81B[\uDFE0\uDFE1]|\uD81B[\uDFE3\uDFE4]|\uD81B[\uDFF0\uDFF1]|[\uD81C-\uD820][\uDC00-\uDFFF]|\uD821[\uDC00-\uDFF7]|\uD822[\uDC00-\uDFFF]|\uD823[\uDC00-\uDCD5]|\uD823[\uDCFF-\uDD08]|\uD82B[\uDFF0-\uDFF3]|\uD82B[\uDFF5-\uDFFB]|\uD82B[\uDFFD\uDFFE]|\uD82C[\uDC00-\uDD22]|\uD82C\uDD32|\uD82C[\uDD50-\uDD52]|\uD82C\uDD55|\uD82C[\uDD64-\uDD67]|\uD82C[\uDD70-\uDEFB]|\uD82F[\uDC00-\uDC6A]|\uD82F[\uDC70-\uDC7C]|\uD82F[\uDC80-\uDC88]|\uD82F[\uDC90-\uDC99]|\uD82F[\uDC9D\uDC9E]|\uD833[\uDCF0-\uDCF9]|\uD833[\uDF00-\uDF2D]|\uD833[\uDF30-\uDF46]|\uD834[\uDD65-\uDD69]|\uD834[\uDD6D-\uDD72]|\uD834[\uDD7B-\uDD82]|\uD834[\uDD85-\uDD8B]|\uD834[\uDDAA-\uDDAD]|\uD834[\uDE42-\uDE44]|\uD835[\uDC00-\uDC54]|\uD835[\uDC56-\uDC9C]|\uD835[\uDC9E\uDC9F]|\uD835\uDCA2|\uD835[\uDCA5\uDCA6]|\uD835[\uDCA9-\uDCAC]|\uD835[\uDCAE-\uDCB9]|\uD835\uDCBB|\uD835[\uDCBD-\uDCC3]|\uD835[\uDCC5-\uDD05]|\uD835[\uDD07-\uDD0A]|\uD835[\uDD0D-\uDD14]|\uD835[\uDD16-\uDD1C]|\uD835[\uDD1E-\uDD39]|\uD835[\uDD3B-\uDD3E]|\uD835[\uDD40-\uDD44]|\uD835\uDD46|\uD835[\uDD4A-\uDD50]|\uD835[\uDD52-\uDEA5]|\uD835[\uDEA8-\uDEC0]|\uD835[\uDEC2-\uDEDA]|\uD835[\uDEDC-\uDEFA]|\uD835[\uDEFC-\uDF14]|\uD835[\uDF16-\uDF34]|\uD835[\uDF36-\uDF4E]|\uD835[\uDF50-\uDF6E]|\uD835[\uDF70-\uDF88]|\uD835[\uDF8A-\uDFA8]|\uD835[\uDFAA-\uDFC2]|\uD835[\uDFC4-\uDFCB]|\uD835[\uDFCE-\uDFFF]|\uD836[\uDE00-\uDE36]|\uD836[\uDE3B-\uDE6C]|\uD836\uDE75|\uD836\uDE84|\uD836[\uDE9B-\uDE9F]|\uD836[\uDEA1-\uDEAF]|\uD837[\uDF00-\uDF1E]|\uD837[\uDF25-\uDF2A]|\uD838[\uDC00-\uDC06]|\uD838[\uDC08-\uDC18]|\uD838[\uDC1B-\uDC21]|\uD838[\uDC23\uDC24]|\uD838[\uDC26-\uDC2A]|\uD838[\uDC30-\uDC6D]|\uD838\uDC8F|\uD838[\uDD00-\uDD2C]|\uD838[\uDD30-\uDD3D]|\uD838[\uDD40-\uDD49]|\uD838\uDD4E|\uD838[\uDE90-\uDEAE]|\uD838[\uDEC0-\uDEF9]|\uD839[\uDCD0-\uDCF9]|\uD839[\uDDD0-\uDDFA]|\uD839[\uDFE0-\uDFE6]|\uD839[\uDFE8-\uDFEB]|\uD839[\uDFED\uDFEE]|\uD839[\uDFF0-\uDFFE]|\uD83A[\uDC00-\uDCC4]|\uD83A[\uDCD0-\uDCD6]|\uD83A[\uDD00-\uDD4B]|\uD83A[\uDD50-\uDD59]|\uD83B[\uDE00-\uDE03]|\uD83B[\uDE05-\uDE1F]|\uD83B[\uDE21\uDE22]|\uD83B\uDE24|\uD83B\uDE27|\uD83B[\uDE29-\uDE32]|\uD83B[\uDE34-\uDE37]|\uD83B\uDE39|\uD83B\uDE3B|\uD83B\uDE42|\uD83B\uDE47|\uD83B\uDE49|\uD83B\uDE4B|\uD83B[\uDE4D-\uDE4F]|\uD83B[\uDE51\uDE52]|\uD83B\uDE54|\uD83B\uDE57|\uD83B\uDE59|\uD83B\uDE5B|\uD83B\uDE5D|\uD83B\uDE5F|\uD83B[\uDE61\uDE62]|\uD83B\uDE64|\uD83B[\uDE67-\uDE6A]|\uD83B[\uDE6C-\uDE72]|\uD83B[\uDE74-\uDE77]|\uD83B[\uDE79-\uDE7C]|\uD83B\uDE7E|\uD83B[\uDE80-\uDE89]|\uD83B[\uDE8B-\uDE9B]|\uD83B[\uDEA1-\uDEA3]|\uD83B[\uDEA5-\uDEA9]|\uD83B[\uDEAB-\uDEBB]|\uD83C[\uDD30-\uDD49]|\uD83C[\uDD50-\uDD69]|\uD83C[\uDD70-\uDD89]|\uD83E[\uDFF0-\uDFF9]|[\uD840-\uD868][\uDC00-\uDFFF]|\uD869[\uDC00-\uDEDF]|\uD869[\uDF00-\uDFFF]|[\uD86A-\uD86C][\uDC00-\uDFFF]|\uD86D[\uDC00-\uDF39]|\uD86D[\uDF40-\uDFFF]|\uD86E[\uDC00-\uDC1D]|\uD86E[\uDC20-\uDFFF]|[\uD86F-\uD872][\uDC00-\uDFFF]|\uD873[\uDC00-\uDEA1]|\uD873[\uDEB0-\uDFFF]|[\uD874-\uD879][\uDC00-\uDFFF]|\uD87A[\uDC00-\uDFE0]|\uD87A[\uDFF0-\uDFFF]|\uD87B[\uDC00-\uDE5D]|\uD87E[\uDC00-\uDE1D]|[\uD880-\uD883][\uDC00-\uDFFF]|\uD884[\uDC00-\uDF4A]|\uD884[\uDF50-\uDFFF]|[\uD885-\uD887][\uDC00-\uDFFF]|\uD888[\uDC00-\uDFAF]|\uDB40[\uDD00-\uDDEF])"#
        ]],
    );
    check_class(
        Dialect::Js,
        r"[^a]",
        expect![[r#"([^a\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])"#]],
    );
    check_class(
        Dialect::Js,
        ".",
        expect![[r#"([^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])"#]],
    );
    check_class(Dialect::Js, r"\u{1F600}", expect![[r#"(\uD83D\uDE00)"#]]);
    check_class(
        Dialect::Js,
        r"[a\u{1F600}-\u{1F64F}\u{20000}-\u{2FFFF}]",
        expect![[r#"(a|\uD83D[\uDE00-\uDE4F]|[\uD840-\uD87F][\uDC00-\uDFFF])"#]],
    );
    check_class(Dialect::Java, r"[^0-9]", expect![[r#"\D"#]]);
    check_class(Dialect::Java, r"[\t\n\x0B\x0C\r ]", expect![[r#"\s"#]]);
    check_class(Dialect::Java, r"[\u{1F600}é]", expect![[r#"[\xE9\x{1F600}]"#]]);
    check_class(Dialect::Pcre, r"[\u{1F600}é]", expect![[r#"[\xE9\x{1F600}]"#]]);
    check_class(
        Dialect::Pcre,
        r"\d",
        expect![[
            r#"[\d\x{660}-\x{669}\x{6F0}-\x{6F9}\x{7C0}-\x{7C9}\x{966}-\x{96F}\x{9E6}-\x{9EF}\x{A66}-\x{A6F}\x{AE6}-\x{AEF}\x{B66}-\x{B6F}\x{BE6}-\x{BEF}\x{C66}-\x{C6F}\x{CE6}-\x{CEF}\x{D66}-\x{D6F}\x{DE6}-\x{DEF}\x{E50}-\x{E59}\x{ED0}-\x{ED9}\x{F20}-\x{F29}\x{1040}-\x{1049}\x{1090}-\x{1099}\x{17E0}-\x{17E9}\x{1810}-\x{1819}\x{1946}-\x{194F}\x{19D0}-\x{19D9}\x{1A80}-\x{1A89}\x{1A90}-\x{1A99}\x{1B50}-\x{1B59}\x{1BB0}-\x{1BB9}\x{1C40}-\x{1C49}\x{1C50}-\x{1C59}\x{A620}-\x{A629}\x{A8D0}-\x{A8D9}\x{A900}-\x{A909}\x{A9D0}-\x{A9D9}\x{A9F0}-\x{A9F9}\x{AA50}-\x{AA59}\x{ABF0}-\x{ABF9}\x{FF10}-\x{FF19}\x{104A0}-\x{104A9}\x{10D30}-\x{10D39}\x{10D40}-\x{10D49}\x{11066}-\x{1106F}\x{110F0}-\x{110F9}\x{11136}-\x{1113F}\x{111D0}-\x{111D9}\x{112F0}-\x{112F9}\x{11450}-\x{11459}\x{114D0}-\x{114D9}\x{11650}-\x{11659}\x{116C0}-\x{116C9}\x{116D0}-\x{116E3}\x{11730}-\x{11739}\x{118E0}-\x{118E9}\x{11950}-\x{11959}\x{11BF0}-\x{11BF9}\x{11C50}-\x{11C59}\x{11D50}-\x{11D59}\x{11DA0}-\x{11DA9}\x{11F50}-\x{11F59}\x{16130}-\x{16139}\x{16A60}-\x{16A69}\x{16AC0}-\x{16AC9}\x{16B50}-\x{16B59}\x{16D70}-\x{16D79}\x{1CCF0}-\x{1CCF9}\x{1D7CE}-\x{1D7FF}\x{1E140}-\x{1E149}\x{1E2F0}-\x{1E2F9}\x{1E4F0}-\x{1E4F9}\x{1E5F1}-\x{1E5FA}\x{1E950}-\x{1E959}\x{1FBF0}-\x{1FBF9}]"#
        ]],
    );
}

#[test]
fn products_find_their_short_unions() {
    let budget = Budget::unlimited();
    let both = Dfa::from_regex("[bc]*[ab]*")
        .unwrap()
        .intersection(&Dfa::from_regex("[ab]*[bc]*").unwrap(), &budget)
        .unwrap();
    expect!["[ab]*|[bc]*"].assert_eq(&both.to_pattern(&budget).unwrap());
}

/// Two long branches with a long common prefix factor one piece at a time, each factoring
/// an alternation inside the one before: that nesting is bounded, and it used to overflow
/// the stack here (a thousand factorings deep).
#[test]
fn long_common_prefixes_factor_within_the_stack() {
    let literal = "ab".repeat(1000);
    let pattern = format!("{literal}|{literal}x");
    let language = crate::Language::from_regex(&pattern).unwrap();
    let output = language.to_pattern(&Budget::default()).unwrap();
    assert!(output.len() <= pattern.len());
    assert_eq!(Dfa::from_regex(&output).unwrap(), Dfa::from_regex(&pattern).unwrap());
}

/// In JavaScript, a set under `*` or `+` that holds every character above U+FFFF is a
/// class of code units there: `.*` is `[^]*`, not a group of surrogate pairs; a single
/// `.` keeps the group, which a unit class would not be.
#[test]
fn javascript_stars_of_classes_match_code_units() {
    let budget = Budget::default();
    for (pattern, expected) in [
        (".*", "[^]*"),
        ("a.*b.+", "a[^b]*b[^]+"),
        ("[^,]*,", "[^,]*,"),
        ("[^0-9]+", r"\D+"),
        ("[^ab0-9]*", r"[^\dab]*"),
        ("x.?", r"x([^\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])?"),
    ] {
        let dfa = Dfa::from_regex(pattern).unwrap();
        let output = dfa.to_pattern_in(Dialect::Js, &budget).unwrap();
        assert_eq!(output, expected, "{pattern}");
        let nfa = crate::Nfa::from_regex_in(&output, Dialect::Js, &budget).unwrap();
        let back = Dfa::from_nfa(&nfa, &budget).unwrap();
        assert!(back == dfa, "{pattern} → {output} is another language");
    }
}
