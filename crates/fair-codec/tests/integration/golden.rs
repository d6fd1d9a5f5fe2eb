//! Golden values: FAIR text that earlier releases wrote must keep decoding, byte for byte.
//!
//! `tests/data/golden.txt` must never change, only grow: values in the wild were made by
//! the encoder of their day. To add a pattern, list it in [`GOLDEN`] and run the tests once
//! with `RELANG_GOLDEN_APPEND=1`, which appends the missing lines; commit the new lines.

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;

use langcore::graph::Graph;
use langcore::{Budget, Dfa, Nfa};

use crate::support::codec;

/// The patterns the golden file covers: the kind of graph (`dfa`: `Dfa::to_graph` of the
/// minimal DFA; `nfa`: `Nfa::to_graph`, ε-free) and the pattern.
const GOLDEN: &[(&str, &str)] = &[
    ("dfa", "(abc|de){2}"),
    ("dfa", ""),
    ("dfa", "[]"),
    ("dfa", ".*"),
    ("dfa", "[a-zA-Z0-9]{6,8}"),
    ("dfa", "\\w{20}"),
    ("dfa", "\\p{Greek}+[0-9]?"),
    ("dfa", "[\\x{D7FF}\\x{E000}]x\\x{10FFFF}\\x00"),
    ("dfa", "(a|b)*a(a|b){3}"),
    ("dfa", "[a-z]+@[a-z]+\\.(com|org)"),
    ("dfa", "(?i)straße"),
    ("nfa", "ab|ac"),
    ("nfa", "(a|b)*abb"),
    ("nfa", "(a?){3}b\\s"),
];

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden.txt")
}

/// The entries of the golden file: (kind, value, pattern); the pattern is the rest of the
/// line after the second space.
fn entries() -> Vec<(String, String, String)> {
    let text = fs::read_to_string(golden_path()).expect("tests/data/golden.txt");
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let mut next = || parts.next().expect("kind value pattern").to_owned();
            (next(), next(), next())
        })
        .collect()
}

fn graph_of(kind: &str, pattern: &str) -> Graph {
    match kind {
        "dfa" => Dfa::from_regex(pattern).unwrap().to_graph(),
        "nfa" => Nfa::from_regex(pattern).unwrap().to_graph(&Budget::unlimited()).unwrap(),
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn golden_values_decode_to_their_languages() {
    let entries = entries();
    assert!(entries.len() >= GOLDEN.len());
    for (kind, value, pattern) in entries {
        let graph = codec().decode(&value).unwrap_or_else(|err| panic!("{pattern:?}: {err}"));
        let dfa = Dfa::from_nfa(&Nfa::from_graph(&graph), &Budget::unlimited()).unwrap();
        assert_eq!(dfa, Dfa::from_regex(&pattern).unwrap(), "{kind} {pattern:?}");
        if kind == "dfa" {
            assert!(graph.is_deterministic(), "{pattern:?}");
            assert_eq!(Dfa::from_graph(&graph, &Budget::unlimited()).unwrap(), dfa);
        }
    }
}

#[test]
fn golden_values_re_encode_identically() {
    for (kind, value, pattern) in entries() {
        let decoded = codec().decode(&value).unwrap();
        assert_eq!(codec().encode(&decoded), value, "{kind} {pattern:?}");
        if kind == "dfa" {
            // Minimal DFAs are canonical and so are their graphs: the same language gives
            // the same value in every release. A failure here means the graph numbering
            // changed; old values still decode, but equal languages no longer give equal
            // text across releases: decide that on purpose.
            assert_eq!(codec().encode(&graph_of(&kind, &pattern)), value, "{pattern:?}");
        }
    }
}

#[test]
fn the_golden_file_covers_every_listed_pattern() {
    let entries = entries();
    let missing: Vec<_> = GOLDEN
        .iter()
        .filter(|(kind, pattern)| !entries.iter().any(|(k, _, p)| k == kind && p == pattern))
        .collect();
    if missing.is_empty() {
        return;
    }
    assert!(
        std::env::var_os("RELANG_GOLDEN_APPEND").is_some(),
        "golden.txt lacks {missing:?}: run once with RELANG_GOLDEN_APPEND=1 to append them"
    );
    let mut file = fs::OpenOptions::new().append(true).open(golden_path()).unwrap();
    for (kind, pattern) in missing {
        let value = codec().encode(&graph_of(kind, pattern));
        writeln!(file, "{kind} {value} {pattern}").unwrap();
    }
}
