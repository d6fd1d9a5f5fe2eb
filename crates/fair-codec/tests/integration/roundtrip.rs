//! decode(encode(x)) is x: same graph, same language, same flag, same text again.

use fair_codec::FairCodec;
use langcore::graph::Graph;
use langcore::{Budget, Dfa, Nfa};
use proptest::prelude::*;

use crate::patterns::{cases, inputs, oracle, pattern};
use crate::support::codec;

/// Encodes and decodes `graph`, checking the graph, the flag and that re-encoding is stable.
fn round_trip(codec: &FairCodec, graph: &Graph) -> Result<Graph, TestCaseError> {
    let text = codec.encode(graph);
    let decoded = codec.decode(&text).map_err(|err| TestCaseError::fail(err.to_string()))?;
    prop_assert_eq!(&decoded, graph);
    prop_assert_eq!(decoded.is_deterministic(), graph.is_deterministic());
    prop_assert_eq!(codec.encode(&decoded), text, "encoding is deterministic");
    Ok(decoded)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn dfa_graphs_keep_their_language(pattern in pattern()) {
        let budget = Budget::unlimited();
        let dfa = Dfa::from_regex(&pattern).expect("valid pattern");
        let decoded = round_trip(&codec(), &dfa.to_graph())?;
        prop_assert!(decoded.is_deterministic());
        prop_assert_eq!(Dfa::from_graph(&decoded, &budget).expect("deterministic"), dfa);
    }

    #[test]
    fn nfa_graphs_keep_their_language(pattern in pattern(), inputs in inputs()) {
        let budget = Budget::unlimited();
        let graph = Nfa::from_regex(&pattern).expect("valid pattern").to_graph(&budget)
            .expect("unlimited");
        let nfa = Nfa::from_graph(&round_trip(&codec(), &graph)?);
        let oracle = oracle(&pattern);
        for input in inputs {
            prop_assert_eq!(nfa.matches(&input), oracle.is_match(&input), "{:?}", input);
        }
        let dfa = Dfa::from_nfa(&nfa, &budget).expect("unlimited");
        prop_assert_eq!(dfa, Dfa::from_regex(&pattern).expect("valid pattern"));
    }
}

#[test]
fn the_same_language_gives_the_same_text() {
    let codec = codec();
    let text = |pattern| codec.encode(&Dfa::from_regex(pattern).unwrap().to_graph());
    assert_eq!(text("(a|b)*abb"), text("[ab]*abb"));
    assert_eq!(text("x{2,3}"), text("xx|xxx"));
    assert_ne!(text("x{2,3}"), text("x{2,4}"));
}

#[test]
fn extreme_labels_round_trip() {
    let budget = Budget::unlimited();
    for pattern in ["[]", "", ".*", "[\u{D7FF}\u{E000}]+", "\u{10FFFF}\0", "[^a]", "\\p{L}{2}"] {
        let dfa = Dfa::from_regex(pattern).unwrap();
        let decoded = codec().decode(&codec().encode(&dfa.to_graph())).unwrap();
        assert_eq!(Dfa::from_graph(&decoded, &budget).unwrap(), dfa, "{pattern:?}");
    }
}
