//! Generation workloads: pages of strings to generate from one pattern, read from TOML, and
//! the engine-agnostic check of a page.
//!
//! # Overview
//! - [`GenerateWorkload`]: one named page request (pattern, limit, offset, orders, seed,
//!   optional longest length). Only [`parse_generate`] builds one, after validating it.
//! - [`load_generate`]: the workloads of `bench/generate_workloads.toml`, compiled in.
//! - [`generate_relang`] generates a workload's page on relang from the pattern, as a
//!   service call does ([`generate_relang_from`] from a DFA built beforehand);
//!   `generate_peer` / `generate_peer_from` (feature `peer`) do the same on regexsolver.
//! - [`page_mismatch`] / [`assert_page`]: the check of a page, whatever the engine.
//!
//! The file format is described in the header comment of `bench/generate_workloads.toml`.
//!
//! # Invariants
//! - Names follow the rules of `bench/workloads.toml` (same validation).
//! - `limit` is at least 1 and the term compiles in the `regex` crate as `^(?s:TERM)$`,
//!   the oracle every page is checked with.

use std::collections::HashSet;

use langcore::{Budget, CharOrder, Dfa, Error, GenerateOptions, PathOrder};
use regex::Regex;
use serde::Deserialize;

use crate::workload::{LoadError, validate_named};

/// The text of `bench/generate_workloads.toml`, as compiled into this crate.
pub const GENERATE_WORKLOADS_TOML: &str = include_str!("../../../bench/generate_workloads.toml");

/// One generation benchmark: a page of strings of one pattern.
#[derive(Clone, Debug)]
pub struct GenerateWorkload {
    name: String,
    term: String,
    limit: usize,
    offset: u64,
    path_order: PathOrder,
    char_order: CharOrder,
    seed: u64,
    max_length: Option<usize>,
    oracle: Regex,
}

impl GenerateWorkload {
    /// The workload's name, also its criterion group name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The pattern.
    pub fn term(&self) -> &str {
        &self.term
    }

    /// How many strings the page has.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// How many strings of the order come before the page.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// How the paths take turns.
    pub fn path_order(&self) -> PathOrder {
        self.path_order
    }

    /// How the strings of one path are ordered.
    pub fn char_order(&self) -> CharOrder {
        self.char_order
    }

    /// The seed of the shuffled orders.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The longest string to generate, or `None` for each engine's default.
    pub fn max_length(&self) -> Option<usize> {
        self.max_length
    }

    /// relang's options for this page.
    pub fn relang_options(&self) -> GenerateOptions {
        let options = GenerateOptions::default()
            .with_limit(self.limit)
            .with_offset(self.offset)
            .with_path_order(self.path_order)
            .with_char_order(self.char_order)
            .with_seed(self.seed);
        match self.max_length {
            Some(max_length) => options.with_max_length(max_length),
            None => options,
        }
    }
}

/// The workloads of `bench/generate_workloads.toml` ([`GENERATE_WORKLOADS_TOML`]).
///
/// # Panics
/// When the file is invalid: it is part of this crate, and its tests check it.
pub fn load_generate() -> Vec<GenerateWorkload> {
    parse_generate(GENERATE_WORKLOADS_TOML)
        .unwrap_or_else(|err| panic!("bench/generate_workloads.toml: {err:#?}"))
}

/// The generation workloads in `text`, in file order, validated.
///
/// # Errors
/// [`LoadError::Toml`] when `text` is not TOML with `[[workload]]` tables of known keys,
/// [`LoadError::Invalid`] when a workload breaks a rule of the format.
pub fn parse_generate(text: &str) -> Result<Vec<GenerateWorkload>, LoadError> {
    let file: RawFile = toml::from_str(text).map_err(LoadError::Toml)?;
    validate_named(file.workload, |raw| &raw.name, RawWorkload::validate)
}

/// Generates `workload`'s page on relang as a service call does: the canonical minimal DFA
/// of the pattern ([`Dfa::from_regex_with`]), then [`Dfa::generate`].
///
/// # Errors
/// When the pattern is outside relang's dialect or `budget` runs out.
pub fn generate_relang(workload: &GenerateWorkload, budget: &Budget) -> Result<Vec<String>, Error> {
    generate_relang_from(&Dfa::from_regex_with(&workload.term, budget)?, workload, budget)
}

/// Generates `workload`'s page from `dfa`, the DFA of its pattern built beforehand.
///
/// # Errors
/// When `budget` runs out.
pub fn generate_relang_from(
    dfa: &Dfa,
    workload: &GenerateWorkload,
    budget: &Budget,
) -> Result<Vec<String>, Error> {
    dfa.generate(&workload.relang_options(), budget)
}

/// How `page` breaks the rules of `workload`, or `None` when it is right: exactly `limit`
/// strings, all distinct, each matched by the oracle `^(?s:TERM)$` and within
/// `max_length` characters.
pub fn page_mismatch(workload: &GenerateWorkload, page: &[String]) -> Option<String> {
    if page.len() != workload.limit {
        return Some(format!("{} strings, expected {}", page.len(), workload.limit));
    }
    let mut seen = HashSet::with_capacity(page.len());
    page.iter().find_map(|string| {
        if !seen.insert(string) {
            Some(format!("{string:?} is generated twice"))
        } else if !workload.oracle.is_match(string) {
            Some(format!("{string:?} is not in the language"))
        } else if workload.max_length.is_some_and(|max| string.chars().count() > max) {
            Some(format!("{string:?} is longer than max_length"))
        } else {
            None
        }
    })
}

/// Checks `page`, generated by `engine`, against `workload`.
///
/// # Panics
/// When the page is wrong, naming the workload, `engine` and the difference.
#[track_caller]
pub fn assert_page(engine: &str, workload: &GenerateWorkload, page: &[String]) {
    if let Some(difference) = page_mismatch(workload, page) {
        panic!("workload `{}`: {engine} generated a wrong page: {difference}", workload.name);
    }
}

#[cfg(feature = "peer")]
pub use peer::{build_peer_term, generate_peer, generate_peer_from};

/// The same pages on regexsolver 1.1.0.
#[cfg(feature = "peer")]
mod peer {
    use regexsolver::Term;
    use regexsolver::error::EngineError;
    use regexsolver::fast_automaton::{CharacterOrder, GenerationOptions, PathOrder};

    use super::GenerateWorkload;

    /// What a caller of regexsolver does before paging through a pattern's strings:
    /// `Term::from_pattern`, then `determinize` (its docs: "For pagination without
    /// repetition or skipped strings, determinize the term once and generate from the
    /// result"; generating from a non-deterministic automaton may repeat or skip strings
    /// across offsets).
    ///
    /// # Errors
    /// When regexsolver fails to parse or determinize the pattern.
    pub fn build_peer_term(workload: &GenerateWorkload) -> Result<Term, EngineError> {
        Term::from_pattern(&workload.term)?.determinize()
    }

    /// Generates `workload`'s page on regexsolver as a service call does:
    /// [`build_peer_term`], then `Term::generate_strings`.
    ///
    /// # Errors
    /// When regexsolver fails.
    pub fn generate_peer(workload: &GenerateWorkload) -> Result<Vec<String>, EngineError> {
        generate_peer_from(&build_peer_term(workload)?, workload)
    }

    /// Generates `workload`'s page from `term`, built beforehand by [`build_peer_term`].
    ///
    /// # Errors
    /// When regexsolver fails.
    ///
    /// # Panics
    /// When the offset does not fit a `usize` (regexsolver's offset type).
    pub fn generate_peer_from(
        term: &Term,
        workload: &GenerateWorkload,
    ) -> Result<Vec<String>, EngineError> {
        let paths = match workload.path_order {
            langcore::PathOrder::Sweep => PathOrder::Sweep,
            langcore::PathOrder::Interleave => PathOrder::Interleave,
            langcore::PathOrder::Shuffled => PathOrder::Shuffled,
        };
        let characters = match workload.char_order {
            langcore::CharOrder::Ascending => CharacterOrder::Ascending,
            langcore::CharOrder::Shuffled => CharacterOrder::Shuffled,
        };
        let options = GenerationOptions::from((paths, characters)).with_seed(workload.seed);
        let options = match workload.max_length {
            Some(max_length) => options.with_max_length(max_length),
            None => options,
        };
        let offset = usize::try_from(workload.offset).expect("the offset fits a usize");
        term.generate_strings(workload.limit, offset, options)
    }
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    workload: Vec<RawWorkload>,
}

/// One `[[workload]]` table as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawWorkload {
    name: String,
    term: String,
    limit: usize,
    #[serde(default)]
    offset: u64,
    path_order: String,
    char_order: String,
    #[serde(default)]
    seed: u64,
    max_length: Option<usize>,
}

impl RawWorkload {
    /// The workload, or the rule it breaks. The name is checked by [`validate_named`].
    fn validate(self) -> Result<GenerateWorkload, String> {
        if self.limit == 0 {
            return Err("`limit` must be at least 1".to_owned());
        }
        let path_order = match self.path_order.as_str() {
            "sweep" => PathOrder::Sweep,
            "interleave" => PathOrder::Interleave,
            "shuffled" => PathOrder::Shuffled,
            other => return Err(format!("`{other}` is not a path order")),
        };
        let char_order = match self.char_order.as_str() {
            "ascending" => CharOrder::Ascending,
            "shuffled" => CharOrder::Shuffled,
            other => return Err(format!("`{other}` is not a character order")),
        };
        let oracle = Regex::new(&format!("^(?s:{})$", self.term))
            .map_err(|err| format!("the term is not a `regex` pattern: {err}"))?;
        Ok(GenerateWorkload {
            name: self.name,
            term: self.term,
            limit: self.limit,
            offset: self.offset,
            path_order,
            char_order,
            seed: self.seed,
            max_length: self.max_length,
            oracle,
        })
    }
}
