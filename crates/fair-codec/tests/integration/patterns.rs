//! Random patterns over a small alphabet, valid in both our dialect and the `regex` crate.
//!
//! The same idea as langcore's integration tests: literals, classes, `.`, groups,
//! alternation and quantifiers, nested a few levels deep.

use proptest::prelude::*;

/// Strings for membership checks use `d` too, which only `.` and negated classes match.
pub(crate) const STRING_CHARS: [char; 4] = ['a', 'b', 'c', 'd'];

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

/// Every string over [`STRING_CHARS`] of length at most `max_len`.
pub(crate) fn all_strings(max_len: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut layer = vec![String::new()];
    for _ in 0..max_len {
        layer = layer
            .iter()
            .flat_map(|prefix| STRING_CHARS.iter().map(move |&ch| format!("{prefix}{ch}")))
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

/// The `regex` crate's whole-string verdict, with `.` matching newlines.
pub(crate) fn oracle(pattern: &str) -> regex::Regex {
    regex::Regex::new(&format!("^(?s:{pattern})$")).expect("generated patterns are valid")
}

/// Proptest cases: a quick run by default, many more with `RELANG_SLOW_TESTS=1`.
pub(crate) fn cases() -> u32 {
    if std::env::var_os("RELANG_SLOW_TESTS").is_some() { 4096 } else { 256 }
}
