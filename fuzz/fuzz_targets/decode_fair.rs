//! Fuzzes `FairCodec::decode`: arbitrary text, and arbitrary payloads under a valid MAC.
//!
//! The first input byte picks the mode. Even: the rest is the text a client sends, which
//! exercises the checks up to the MAC (a fuzzer cannot forge one). Odd: the rest is
//! `flags ‖ payload`, sealed here with the development key exactly as the crate docs specify
//! the format, which exercises everything after the MAC. A value that decodes must re-encode
//! to the same text, and its automaton must survive langcore's conversions under a budget.

#![no_main]

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use fair_codec::{DEVELOPMENT_KEY, FORMAT_VERSION, FairCodec, Keyring, Limits};
use hmac::{KeyInit, Mac};
use langcore::graph::GraphLimits;
use langcore::{Budget, Dfa, Nfa};
use libfuzzer_sys::fuzz_target;

fn seal(flags_and_payload: &[u8]) -> String {
    let mut bytes = vec![FORMAT_VERSION];
    bytes.extend_from_slice(flags_and_payload);
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(DEVELOPMENT_KEY).unwrap();
    mac.update(&bytes);
    bytes.extend_from_slice(&mac.finalize().into_bytes());
    URL_SAFE_NO_PAD.encode(bytes)
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let text = if mode % 2 == 0 {
        let Ok(text) = std::str::from_utf8(rest) else { return };
        text.to_owned()
    } else {
        seal(rest)
    };
    let graph_limits = GraphLimits::default().with_max_states(2_000).with_max_moves(20_000);
    let limits = Limits::default().with_graph_limits(graph_limits);
    let codec = FairCodec::new(Keyring::development()).with_limits(limits);
    let Ok(graph) = codec.decode(&text) else { return };
    assert_eq!(codec.encode(&graph), text, "a decoded value re-encodes to itself");
    let budget = Budget::new(Duration::from_millis(200)).with_max_states(5_000);
    let nfa = Nfa::from_graph(&graph);
    let _ = Dfa::from_nfa(&nfa, &budget);
    if graph.is_deterministic() {
        let _ = Dfa::from_graph(&graph, &budget);
    }
    let _ = nfa.to_graph(&budget);
});
