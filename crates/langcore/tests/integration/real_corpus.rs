//! The real-world pattern corpora, `bench/real_patterns.toml` and
//! `bench/combined_patterns.toml` (one format), for tests and the peer runner.
//!
//! Also compiled into `relang-bench`'s `real_pattern_lengths` example (by `#[path]`), so the
//! file has one reader.

use std::path::Path;

use langcore::{Budget, Language};
use serde::Deserialize;

/// One pattern of the corpus; see the file's header for the fields.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Pattern {
    pub(crate) name: String,
    #[allow(dead_code, reason = "provenance, for the reader of the file")]
    source: String,
    pub(crate) pattern: String,
    pub(crate) regexsolver_length: usize,
}

/// One derived language: `operation` applied to the patterns named `left` and `right`
/// (`complement` to `left` alone).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Derived {
    pub(crate) left: String,
    pub(crate) right: Option<String>,
    pub(crate) operation: String,
    pub(crate) regexsolver_length: usize,
    /// The length of relang's output when last measured (`combined_patterns.toml`).
    #[serde(default)]
    #[allow(dead_code, reason = "read by langcore's tests and the peer runner, not the server's")]
    pub(crate) relang_length: Option<usize>,
}

/// The whole file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Corpus {
    pub(crate) pattern: Vec<Pattern>,
    pub(crate) derived: Vec<Derived>,
}

/// The corpus of patterns as people write them, in file order.
pub(crate) fn load() -> Corpus {
    load_file("real_patterns.toml")
}

/// The corpus of combinations of patterns with `.*` contexts (issue 35), in file order.
#[allow(dead_code, reason = "read by langcore's tests and the peer runner, not the server's")]
pub(crate) fn load_combined() -> Corpus {
    load_file("combined_patterns.toml")
}

/// The corpus in `bench/<file>`.
fn load_file(file: &str) -> Corpus {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench").join(file);
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

impl Corpus {
    /// The pattern text of the entry named `name`.
    pub(crate) fn text(&self, name: &str) -> &str {
        let entry = self.pattern.iter().find(|entry| entry.name == name);
        &entry.unwrap_or_else(|| panic!("no pattern named {name}")).pattern
    }
}

impl Derived {
    /// A short name: `left op right`, or `op left`.
    pub(crate) fn name(&self) -> String {
        match &self.right {
            Some(right) => format!("{} {} {right}", self.left, self.operation),
            None => format!("{} {}", self.operation, self.left),
        }
    }

    /// The text of the right operand (`left`'s, for a complement).
    pub(crate) fn right<'c>(&'c self, corpus: &'c Corpus) -> &'c str {
        corpus.text(self.right.as_deref().unwrap_or(&self.left))
    }

    /// The language, built by relang's operations on the patterns as terms.
    pub(crate) fn language(&self, corpus: &Corpus, budget: &Budget) -> Language {
        let left = Language::from_regex(corpus.text(&self.left)).unwrap();
        let right = Language::from_regex(self.right(corpus)).unwrap();
        let result = match self.operation.as_str() {
            "complement" => left.complement(budget),
            "union" => left.union(&right, budget),
            "intersection" => left.intersection(&right, budget),
            "difference" => left.difference(&right, budget),
            other => panic!("unknown operation {other}"),
        };
        result.unwrap_or_else(|err| panic!("{}: {err}", self.name()))
    }
}
