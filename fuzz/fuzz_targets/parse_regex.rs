//! Fuzzes the regex front end: any pattern, parsed and compiled under a small budget.
//!
//! The input is the pattern (UTF-8 only). Building the NFA, the minimal DFA and a pattern
//! back from it must never panic, only succeed or fail with a typed error. When they succeed,
//! cheap invariants must hold: the NFA and the DFA agree on probe strings (prefixes of the
//! pattern text and strings the DFA generates), the minimal DFA is canonical (rebuilding it
//! from its graph, deterministic or as an NFA, gives the same value), and the pattern
//! `to_pattern` writes denotes the same language.

#![no_main]

use std::time::Duration;

use langcore::{Budget, Dfa, GenerateOptions, Nfa};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(pattern) = std::str::from_utf8(data) else { return };
    let budget =
        Budget::new(Duration::from_millis(200)).with_max_states(2_000).with_max_memory(16 << 20);
    let Ok(nfa) = Nfa::from_regex_with(pattern, &budget) else { return };
    let Ok(dfa) = Dfa::from_nfa(&nfa, &budget) else { return };

    let generated = dfa.generate(&GenerateOptions::default().with_limit(4), &budget);
    for string in generated.iter().flatten() {
        assert!(dfa.matches(string), "the DFA generated {string:?}, which it rejects");
        assert!(nfa.matches(string), "the DFA generated {string:?}, which the NFA rejects");
    }
    let prefixes = pattern.char_indices().map(|(idx, _)| &pattern[..idx]).take(16);
    for probe in prefixes.chain([pattern]) {
        assert_eq!(nfa.matches(probe), dfa.matches(probe), "NFA and DFA disagree on {probe:?}");
    }

    let graph = dfa.to_graph();
    if let Ok(again) = Dfa::from_graph(&graph, &budget) {
        assert_eq!(again, dfa, "the minimal DFA is not canonical through its graph");
    }
    if let Ok(again) = Dfa::from_nfa(&Nfa::from_graph(&graph), &budget) {
        assert_eq!(again, dfa, "the minimal DFA is not canonical through an NFA");
    }

    if let Ok(written) = dfa.to_pattern(&budget) {
        let reread = Budget::new(Duration::from_millis(200)).with_max_states(2_000);
        match Dfa::from_regex_with(&written, &reread) {
            Ok(again) => assert_eq!(again, dfa, "{written:?} does not denote {pattern:?}"),
            Err(langcore::Error::Budget(_)) => {}
            Err(err) => panic!("to_pattern wrote {written:?}, which does not parse: {err}"),
        }
    }
});
