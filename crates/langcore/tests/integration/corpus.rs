//! The automaton-to-pattern corpus, `bench/to_regex_corpus.toml`, for tests and benches.
//!
//! Also compiled into langcore's `to_regex` bench and `relang-bench`'s `to_regex_lengths`
//! example (by `#[path]`), so the file has one reader.

use std::path::Path;

use langcore::{Budget, Dfa};
use serde::Deserialize;

/// One language of the corpus; see the file's header for the fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Language {
    pub(crate) name: String,
    operation: String,
    terms: Vec<String>,
    pub(crate) matches: Vec<String>,
    pub(crate) rejects: Vec<String>,
    pub(crate) regexsolver_length: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Corpus {
    language: Vec<Language>,
}

/// Every language of the corpus, in file order.
pub(crate) fn load() -> Vec<Language> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/to_regex_corpus.toml");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let corpus: Corpus =
        toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    corpus.language
}

impl Language {
    /// How the language is built from its terms: `minimize`, `intersection`, `difference`
    /// or `complement`.
    #[allow(dead_code, reason = "read by the peer runner of crates/bench, not by the tests")]
    pub(crate) fn operation(&self) -> &str {
        &self.operation
    }

    /// The patterns the language is built from.
    #[allow(dead_code, reason = "read by the peer runner of crates/bench, not by the tests")]
    pub(crate) fn terms(&self) -> &[String] {
        &self.terms
    }

    /// The minimal DFA of the language: the operation applied to the terms.
    pub(crate) fn dfa(&self, budget: &Budget) -> Dfa {
        let terms: Vec<Dfa> = self
            .terms
            .iter()
            .map(|term| {
                Dfa::from_regex_with(term, budget)
                    .unwrap_or_else(|err| panic!("{}: {err}", self.name))
            })
            .collect();
        let result = match (self.operation.as_str(), terms.as_slice()) {
            ("minimize", [term]) => Ok(term.clone()),
            ("intersection", [_, _, ..]) => {
                Dfa::intersection_all(&terms.iter().collect::<Vec<_>>(), budget)
            }
            ("difference", [left, right]) => left.difference(right, budget),
            ("complement", [term]) => term.complement(budget),
            (operation, terms) => panic!("{}: {operation} of {} terms", self.name, terms.len()),
        };
        result.unwrap_or_else(|err| panic!("{}: {err}", self.name))
    }
}
