//! Workloads: the operations to benchmark and their expected answers, read from TOML.
//!
//! # Overview
//! - [`Workload`]: one named operation on pattern terms, with the answer every engine must
//!   give. Only [`parse`] builds one, after validating it, so its terms always fit its
//!   operation.
//! - [`load`]: the workloads of `bench/workloads.toml`, compiled in.
//!
//! The file format is described in the header comment of `bench/workloads.toml`.
//!
//! # Invariants
//! - Names are unique and made of `[a-z0-9_]`, so they are safe criterion group names.
//! - `terms` has the arity of the operation; the expectation has the kind of its answer.
//! - An expected [`Count::Finite`] is canonical decimal (no sign, no leading zero), so equal
//!   counts are equal strings; an expectation is never [`Count::Large`].

use std::collections::HashSet;
use std::fmt;

use serde::Deserialize;

/// The text of `bench/workloads.toml`, as compiled into this crate.
pub const WORKLOADS_TOML: &str = include_str!("../../../bench/workloads.toml");

/// One benchmark: an operation on pattern terms and its expected answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Workload {
    name: String,
    operation: Operation,
    terms: Vec<String>,
    expected: Expected,
}

impl Workload {
    /// The workload's name, also its criterion group name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What to compute from the terms.
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// The patterns, in order; as many as the operation takes.
    pub fn terms(&self) -> &[String] {
        &self.terms
    }

    /// The answer every engine must give.
    pub fn expected(&self) -> &Expected {
        &self.expected
    }
}

/// What a workload computes from its terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// The strings in every term (two or more).
    Intersection,
    /// The strings in any term (two or more).
    Union,
    /// The strings of the first term that are not in the second.
    Difference,
    /// All strings not in the one term.
    Complement,
    /// Whether the two terms have the same strings.
    Equivalent,
    /// Whether every string of the first term is in the second.
    Subset,
    /// The number of strings in the intersection of all terms (one or more).
    Cardinality,
    /// The terms one after the other (two or more).
    Concat,
    /// The one term repeated `min` to `max` times; `max: None` is unbounded.
    Repeat {
        /// The fewest repetitions.
        min: u32,
        /// The most repetitions, if bounded.
        max: Option<u32>,
    },
}

/// The answer a workload expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected {
    /// The answer to a yes/no question (equivalence, subset).
    Answer(bool),
    /// The number of strings.
    Count(Count),
    /// A language, known by some of its strings and some strings outside it.
    Language {
        /// Strings the result must accept.
        matches: Vec<String>,
        /// Strings the result must reject.
        rejects: Vec<String>,
    },
}

/// A number of strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Count {
    /// Exactly this many, in canonical decimal.
    Finite(String),
    /// Finitely many, more than `u32::MAX`, without the exact number: regexsolver's
    /// `Cardinality::BigInteger`. Never expected, only answered.
    Large,
    /// Infinitely many.
    Infinite,
}

/// Why the workloads file could not be used.
#[derive(Debug)]
pub enum LoadError {
    /// The text is not TOML of the expected shape.
    Toml(toml::de::Error),
    /// A workload breaks a rule of the format.
    Invalid {
        /// The workload's name, or its position when it has none.
        workload: String,
        /// The rule it breaks.
        reason: String,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Toml(_) => f.write_str("workloads file is not valid"),
            LoadError::Invalid { workload, reason } => {
                write!(f, "workload `{workload}` is invalid: {reason}")
            }
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Toml(err) => Some(err),
            LoadError::Invalid { .. } => None,
        }
    }
}

/// The workloads of `bench/workloads.toml` ([`WORKLOADS_TOML`]).
///
/// # Panics
/// When the file is invalid: it is part of this crate, and its tests check it.
pub fn load() -> Vec<Workload> {
    parse(WORKLOADS_TOML).unwrap_or_else(|err| panic!("bench/workloads.toml: {err:#?}"))
}

/// The workloads in `text`, in file order, validated.
///
/// # Errors
/// [`LoadError::Toml`] when `text` is not TOML with `[[workload]]` tables of known keys,
/// [`LoadError::Invalid`] when a workload breaks a rule of the format.
pub fn parse(text: &str) -> Result<Vec<Workload>, LoadError> {
    let file: RawFile = toml::from_str(text).map_err(LoadError::Toml)?;
    validate_named(file.workload, |raw| &raw.name, RawWorkload::validate)
}

/// Validates the `[[workload]]` tables `raws` of a workloads file, in file order: each name
/// (read by `name_of`) must be non-empty `[a-z0-9_]` and unique, and `validate` must accept
/// the table. Shared by every workloads file of this crate.
///
/// # Errors
/// [`LoadError::Invalid`] for the first table that breaks a rule, labelled with its name,
/// or its position when it has none.
pub(crate) fn validate_named<Raw, Valid>(
    raws: Vec<Raw>,
    name_of: impl Fn(&Raw) -> &str,
    validate: impl Fn(Raw) -> Result<Valid, String>,
) -> Result<Vec<Valid>, LoadError> {
    let is_name_char = |ch: char| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '_';
    let mut names = HashSet::new();
    let mut valid = Vec::with_capacity(raws.len());
    for (position, raw) in raws.into_iter().enumerate() {
        let name = name_of(&raw).to_owned();
        let label = if name.is_empty() { format!("#{}", position + 1) } else { name.clone() };
        let invalid = |reason: String| LoadError::Invalid { workload: label.clone(), reason };
        if name.is_empty() || !name.chars().all(is_name_char) {
            return Err(invalid("the name must be non-empty `[a-z0-9_]`".to_owned()));
        }
        valid.push(validate(raw).map_err(invalid)?);
        if !names.insert(name) {
            return Err(invalid("the name is used twice".to_owned()));
        }
    }
    Ok(valid)
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
    operation: String,
    terms: Vec<String>,
    min: Option<u32>,
    max: Option<u32>,
    expect: Option<RawExpect>,
    expect_matches: Option<Vec<String>>,
    expect_rejects: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawExpect {
    Answer(bool),
    Count(String),
}

/// The kind of answer an operation gives.
#[derive(Clone, Copy, PartialEq, Eq)]
enum AnswerKind {
    Answer,
    Count,
    Language,
}

impl RawWorkload {
    /// The workload, or the rule it breaks.
    /// The name is checked by [`validate_named`].
    fn validate(self) -> Result<Workload, String> {
        let (operation, (min_terms, max_terms), kind) = self.operation()?;
        let n_terms = self.terms.len();
        if n_terms < min_terms || n_terms > max_terms {
            let wanted = match (min_terms, max_terms) {
                (min, usize::MAX) => format!("at least {min}"),
                (min, max) if min == max => format!("exactly {min}"),
                (min, max) => format!("{min} to {max}"),
            };
            return Err(format!("the operation takes {wanted} terms, not {n_terms}"));
        }
        let expected = self.expected(kind)?;
        Ok(Workload { name: self.name, operation, terms: self.terms, expected })
    }

    /// The operation, the fewest and most terms it takes, and the kind of its answer.
    fn operation(&self) -> Result<(Operation, (usize, usize), AnswerKind), String> {
        const MANY: usize = usize::MAX;
        let (operation, arity, kind) = match self.operation.as_str() {
            "intersection" => (Operation::Intersection, (2, MANY), AnswerKind::Language),
            "union" => (Operation::Union, (2, MANY), AnswerKind::Language),
            "concat" => (Operation::Concat, (2, MANY), AnswerKind::Language),
            "difference" => (Operation::Difference, (2, 2), AnswerKind::Language),
            "complement" => (Operation::Complement, (1, 1), AnswerKind::Language),
            "equivalent" => (Operation::Equivalent, (2, 2), AnswerKind::Answer),
            "subset" => (Operation::Subset, (2, 2), AnswerKind::Answer),
            "cardinality" => (Operation::Cardinality, (1, MANY), AnswerKind::Count),
            "repeat" => {
                let min = self.min.unwrap_or(0);
                if self.max.is_some_and(|max| max < min) {
                    return Err(format!("`min` ({min}) is greater than `max`"));
                }
                let repeat = Operation::Repeat { min, max: self.max };
                return Ok((repeat, (1, 1), AnswerKind::Language));
            }
            other => return Err(format!("`{other}` is not an operation")),
        };
        if self.min.is_some() || self.max.is_some() {
            return Err("`min` and `max` belong to `repeat` only".to_owned());
        }
        Ok((operation, arity, kind))
    }

    /// The expectation, which must be of `kind`.
    fn expected(&self, kind: AnswerKind) -> Result<Expected, String> {
        let has_language = self.expect_matches.is_some() || self.expect_rejects.is_some();
        match (kind, &self.expect) {
            (AnswerKind::Answer, Some(RawExpect::Answer(answer))) if !has_language => {
                Ok(Expected::Answer(*answer))
            }
            (AnswerKind::Count, Some(RawExpect::Count(count))) if !has_language => {
                parse_count(count).map(Expected::Count)
            }
            (AnswerKind::Language, None) => match (&self.expect_matches, &self.expect_rejects) {
                (Some(matches), Some(rejects)) if !matches.is_empty() && !rejects.is_empty() => {
                    Ok(Expected::Language { matches: matches.clone(), rejects: rejects.clone() })
                }
                _ => Err("expects non-empty `expect_matches` and `expect_rejects`".to_owned()),
            },
            (AnswerKind::Answer, _) => Err("expects `expect = true | false` alone".to_owned()),
            (AnswerKind::Count, _) => {
                Err("expects `expect = \"<decimal>\" | \"infinite\"` alone".to_owned())
            }
            (AnswerKind::Language, Some(_)) => {
                Err("takes `expect_matches` and `expect_rejects`, not `expect`".to_owned())
            }
        }
    }
}

/// `"infinite"` or a canonical decimal.
fn parse_count(text: &str) -> Result<Count, String> {
    if text == "infinite" {
        return Ok(Count::Infinite);
    }
    let is_canonical = !text.is_empty()
        && text.bytes().all(|byte| byte.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    if is_canonical {
        Ok(Count::Finite(text.to_owned()))
    } else {
        Err(format!("`{text}` is neither `infinite` nor a decimal without leading zeros"))
    }
}
