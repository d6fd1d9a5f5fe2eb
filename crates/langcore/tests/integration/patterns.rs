//! Random patterns over a small alphabet, valid in both our dialect and the `regex` crate.

use proptest::prelude::*;

/// Characters the random patterns use; test strings add `d`, which only `.` and negated
/// classes match.
pub(crate) const PATTERN_CHARS: [&str; 3] = ["a", "b", "c"];
pub(crate) const STRING_CHARS: [char; 4] = ['a', 'b', 'c', 'd'];

/// A random pattern built from literals, classes, `.`, groups, alternation and every
/// quantifier (greedy and lazy, counted), nested a few levels deep.
pub(crate) fn pattern() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        4 => prop::sample::select(PATTERN_CHARS.to_vec()).prop_map(str::to_owned),
        1 => Just("[ab]".to_owned()),
        1 => Just("[^a]".to_owned()),
        1 => Just(".".to_owned()),
        1 => Just("()".to_owned()),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            3 => prop::collection::vec(inner.clone(), 2..4).prop_map(|items| items.concat()),
            2 => prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|items| format!("({})", items.join("|"))),
            3 => (inner, quantifier()).prop_map(|(item, q)| format!("({item}){q}")),
        ]
    })
}

fn quantifier() -> impl Strategy<Value = String> {
    let counted = (0u32..3, 0u32..3, any::<bool>()).prop_map(|(min, extra, unbounded)| {
        if unbounded { format!("{{{min},}}") } else { format!("{{{min},{}}}", min + extra) }
    });
    let simple =
        prop::sample::select(vec!["*", "+", "?", "*?", "+?", "??"]).prop_map(str::to_owned);
    prop_oneof![3 => simple, 1 => counted]
}

/// Every string over [`STRING_CHARS`] of length at most `max_len`, shortest first.
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

/// The `regex` crate's verdict, the membership oracle: whole-string match with `.` matching
/// newlines.
pub(crate) fn oracle(pattern: &str) -> regex::Regex {
    regex::Regex::new(&format!("^(?s:{pattern})$")).expect("generated patterns are valid")
}
