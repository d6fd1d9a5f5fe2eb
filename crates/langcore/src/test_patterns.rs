//! Random patterns for property tests: one generator, each test choosing its leaves.

use proptest::prelude::*;

/// The independent membership oracle: a string is in the language of `pattern` (in our
/// dialect) exactly when the `regex` crate's reading of it matches the whole string.
pub(crate) fn oracle(pattern: &str) -> regex::Regex {
    regex::Regex::new(&format!("^(?s:{pattern})$")).expect("a pattern the regex crate reads")
}

/// Patterns built from `leaves` by concatenation, alternation and the `quantifiers`, at most
/// `depth` levels deep and about `size` nodes large (proptest's `prop_recursive` bounds).
pub(crate) fn patterns(
    leaves: &[&'static str],
    quantifiers: &[&'static str],
    depth: u32,
    size: u32,
) -> impl Strategy<Value = String> + use<> {
    let leaf = prop::sample::select(leaves.to_vec()).prop_map(str::to_owned);
    let quantifiers = quantifiers.to_vec();
    leaf.prop_recursive(depth, size, 3, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 2..4).prop_map(|items| items.concat()),
            prop::collection::vec(inner.clone(), 2..4)
                .prop_map(|items| format!("({})", items.join("|"))),
            (inner, prop::sample::select(quantifiers.clone()))
                .prop_map(|(item, q)| format!("({item}){q}")),
        ]
    })
}
