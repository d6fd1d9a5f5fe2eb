//! Random patterns over a small alphabet, valid in both our dialect and the `regex` crate.
//!
//! The same idea as langcore's integration tests: literals, classes, `.`, groups,
//! alternation and quantifiers, nested a few levels deep.

use proptest::prelude::*;

/// Strings for membership checks; `d` is matched only by `.`, `\w` and negated classes.
pub(crate) fn inputs() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[abcd]{0,5}", 24)
}

pub(crate) fn pattern() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        4 => prop::sample::select(vec!["a", "b", "c"]).prop_map(str::to_owned),
        1 => Just("[ab]".to_owned()),
        1 => Just("[^a]".to_owned()),
        1 => Just(".".to_owned()),
        1 => Just("()".to_owned()),
        1 => Just("\\w".to_owned()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        let quantifier = prop::sample::select(vec!["*", "+", "?", "{2}", "{0,2}", "{1,}"]);
        prop_oneof![
            3 => prop::collection::vec(inner.clone(), 2..4).prop_map(|items| items.concat()),
            2 => prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|items| format!("({})", items.join("|"))),
            3 => (inner, quantifier).prop_map(|(item, q)| format!("({item}){q}")),
        ]
    })
}

/// The `regex` crate's whole-string verdict, with `.` matching newlines.
pub(crate) fn oracle(pattern: &str) -> regex::Regex {
    regex::Regex::new(&format!("^(?s:{pattern})$")).expect("generated patterns are valid")
}

/// Proptest cases: a quick run by default, many more with `RELANG_SLOW_TESTS=1`.
pub(crate) fn cases() -> u32 {
    if std::env::var_os("RELANG_SLOW_TESTS").is_some() { 4096 } else { 256 }
}
