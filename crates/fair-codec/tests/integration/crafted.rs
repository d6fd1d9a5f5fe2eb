//! Payloads crafted by someone who holds the key: signed correctly, wrong inside.

use std::time::{Duration, Instant};

use fair_codec::DecodeErrorKind;
use langcore::graph::GraphError;
use langcore::{Budget, Dfa, Nfa};

use crate::support::{codec, open, seal};

/// The LEB128 varint of `value`, as postcard writes lengths and integers.
fn varint(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
    out
}

#[track_caller]
fn check(flags: u8, payload: &[u8], expected: DecodeErrorKind) {
    assert_eq!(codec().decode(&seal(1, flags, payload)).unwrap_err().kind(), &expected);
}

#[test]
fn a_claim_of_2_pow_60_items_fails_fast_without_allocating() {
    // Each of the four sequences in turn claims 2^60 items and provides a few bytes.
    let huge = varint(1 << 60);
    assert_eq!(huge, [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10]);
    for field in 0..4 {
        let mut payload = vec![0]; // start
        for index in 0..4 {
            if index == field {
                payload.extend_from_slice(&huge);
                payload.extend_from_slice(&[1, 2, 3, 4, 5]);
            } else {
                payload.push(0);
            }
        }
        let started = Instant::now();
        let err = codec().decode(&seal(1, 0, &payload)).unwrap_err();
        assert_eq!(err.kind(), &DecodeErrorKind::Malformed { what: "not a postcard payload" });
        // Reserving room for the claim would abort or take ages; reading stops at the end.
        assert!(started.elapsed() < Duration::from_secs(10));
    }
    // The largest varint postcard accepts as a length, too.
    check(
        0,
        &[&[0][..], &varint(u64::MAX)].concat(),
        DecodeErrorKind::Malformed { what: "not a postcard payload" },
    );
}

#[test]
fn counts_over_the_limits_are_rejected_before_building() {
    // 200,000 states with no moves: 200,001 bytes of payload, over the default state limit.
    let mut payload = vec![0];
    payload.extend_from_slice(&varint(200_000));
    payload.resize(payload.len() + 200_000, 0);
    payload.extend_from_slice(&[0, 0, 0]);
    check(
        1,
        &payload,
        DecodeErrorKind::Automaton(GraphError::TooManyStates { given: 200_000, limit: 100_000 }),
    );
}

#[test]
fn header_flags_must_be_known_and_true() {
    let dfa_value = codec().encode(&Dfa::from_regex("ab|ac").unwrap().to_graph());
    let (_, flags, dfa_payload) = open(&dfa_value);
    assert_eq!(flags, 1);
    check(0, &dfa_payload, DecodeErrorKind::DeterministicFlag { recorded: false });
    check(3, &dfa_payload, DecodeErrorKind::UnknownFlags { flags: 3 });
    check(0x80, &dfa_payload, DecodeErrorKind::UnknownFlags { flags: 0x80 });

    let nfa = Nfa::from_regex("ab|ac").unwrap().to_graph(&Budget::default()).unwrap();
    let (_, flags, nfa_payload) = open(&codec().encode(&nfa));
    assert_eq!(flags, 0);
    let err = codec().decode(&seal(1, 1, &nfa_payload)).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::DeterministicFlag { recorded: true });
    assert_eq!(
        err.to_string(),
        "invalid FAIR value: the header says deterministic, but the automaton is not"
    );
}

#[test]
fn payloads_must_be_exact_and_consistent() {
    let (_, flags, payload) = open(&codec().encode(&Dfa::from_regex("abc").unwrap().to_graph()));
    let malformed = |what| DecodeErrorKind::Malformed { what };
    check(flags, &[payload.as_slice(), &[0]].concat(), malformed("bytes follow the payload"));
    check(flags, &payload[..payload.len() - 1], malformed("not a postcard payload"));
    check(flags, &[], malformed("not a postcard payload"));
    // start 5 of one accepting state without moves.
    check(
        1,
        &[5, 1, 1, 0, 0, 0],
        DecodeErrorKind::Automaton(GraphError::StartOutOfRange {
            start: langcore::StateId::try_from_index(5).unwrap(),
            n_states: 1,
        }),
    );
    // One state, one move to state 7 on label 0 = [\0].
    let target_out = [0, 1, 2, 1, 0, 7, 1, 1, 1, 0, 0];
    let kind = codec().decode(&seal(1, 1, &target_out)).unwrap_err().kind().clone();
    assert!(matches!(kind, DecodeErrorKind::Automaton(GraphError::TargetOutOfRange { .. })));
    // The same move with an empty label.
    check(
        1,
        &[0, 1, 2, 1, 0, 0, 1, 0, 0],
        DecodeErrorKind::Automaton(GraphError::EmptyLabel {
            state: langcore::StateId::try_from_index(0).unwrap(),
        }),
    );
    // A label past U+10FFFF.
    let mut past_max = vec![0, 1, 2, 1, 0, 0, 1, 1, 1];
    past_max.extend_from_slice(&varint(1_112_064));
    past_max.push(0);
    check(1, &past_max, malformed("a label goes past U+10FFFF"));
}

#[test]
fn a_minimal_hand_made_value_decodes() {
    // start 0; state 0: one move, not accepting; state 1: accepting; move (label 0 -> 1);
    // label 0 has one range: skip 97, extra 0 = "a".
    let graph = codec().decode(&seal(1, 1, &[0, 2, 2, 1, 1, 0, 1, 1, 1, 1, 97, 0])).unwrap();
    assert_eq!(Dfa::from_graph(&graph, &Budget::default()).unwrap(), Dfa::from_regex("a").unwrap());
}
