//! Request bodies as they arrive on the wire, and their validation into checked values.
//!
//! # Overview
//! Each `*Request` type is the JSON shape of one request family. Deserializing it only
//! checks the shape: required fields, JSON types, strict integers (`26.0` and `"26"` are
//! not integers). Ranges, enumerations and term counts are checked by `validate`, which
//! returns the contract's error code, so every rule lives in one place:
//! - a body that does not have the shape: `InvalidJson` (the server's JSON extractor),
//! - `terms` counts: `TooFewTerms` / `TooManyTerms`,
//! - `execution.timeout` above the caller's maximum: `TimeoutTooLarge`,
//! - `limit` outside 1..=100: `InvalidNumberOfStringsToGenerate`,
//! - any other range or enumeration: `BadRequest`.
//!
//! # Invariants
//! Unknown fields are ignored everywhere (clients send fields we do not know); `metadata` on
//! an input term is ignored.

use std::ops::RangeInclusive;

use serde::Deserialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorCode};

/// The only `options.schemaVersion` this server speaks.
pub const SCHEMA_VERSION: i64 = 1;

/// A term as it arrives: a pattern or a FAIR value.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct Term {
    /// `regex` or `fair`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The pattern or the FAIR text.
    pub value: String,
    /// For `regex` terms: the engine the pattern is written for, which decides what it
    /// means: `rust` (the default: Rust `regex` syntax, `.` matching every character, plus
    /// every unambiguous construct of the others), `python`, `js`, `java` or `pcre`.
    /// Ignored on `fair` terms.
    #[schema(example = "python")]
    pub dialect: Option<String>,
}

/// The engine a pattern is written for: the wire names of the term field `dialect`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// `rust`, the default.
    #[default]
    Rust,
    /// `python`: Python's `re`.
    Python,
    /// `js`: JavaScript's `RegExp` without flags.
    Js,
    /// `java`: `java.util.regex`.
    Java,
    /// `pcre`: PCRE2.
    Pcre,
}

impl Dialect {
    /// Every dialect with its wire name, the default first.
    pub const NAMES: [(&'static str, Dialect); 5] = [
        ("rust", Dialect::Rust),
        ("python", Dialect::Python),
        ("js", Dialect::Js),
        ("java", Dialect::Java),
        ("pcre", Dialect::Pcre),
    ];

    fn from_name(name: &str) -> Result<Dialect, ApiError> {
        Dialect::NAMES
            .iter()
            .find(|(known, _)| *known == name)
            .map(|&(_, dialect)| dialect)
            .ok_or_else(|| {
                let names: Vec<String> =
                    Dialect::NAMES.iter().map(|(known, _)| format!("{known:?}")).collect();
                ApiError::bad_request(format!(
                    "unknown dialect {name:?}: expected one of {}",
                    names.join(", ")
                ))
            })
    }
}

/// A checked input term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TermInput {
    /// A pattern, in its dialect.
    Regex {
        /// The pattern text.
        pattern: String,
        /// The dialect it is written in.
        dialect: Dialect,
    },
    /// An opaque FAIR value.
    Fair(String),
}

impl Term {
    fn validate(self) -> Result<TermInput, ApiError> {
        match self.kind.as_str() {
            "regex" => {
                let dialect =
                    self.dialect.as_deref().map_or(Ok(Dialect::Rust), Dialect::from_name)?;
                Ok(TermInput::Regex { pattern: self.value, dialect })
            }
            "fair" => Ok(TermInput::Fair(self.value)),
            other => Err(ApiError::bad_request(format!(
                "unknown term type {other:?}: expected \"regex\" or \"fair\""
            ))),
        }
    }
}

/// `options`, accepted on every request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestOptions {
    /// The schema version the client expects; only 1 is accepted.
    pub schema_version: Option<i64>,
    /// How to return terms.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub response: Option<ResponseOptions>,
    /// Compute limits for this request.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub execution: Option<ExecutionOptions>,
}

/// `options.response`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ResponseOptions {
    /// `any` (default), `regex` or `fair`.
    pub format: Option<String>,
    /// Extension: the dialect of pattern output (`format: regex`, `/analyze/pattern`):
    /// `rust` (the default, the contract's dialect: `\w`, `\p{..}` and `.` where they are
    /// the set), `python`, `js` (no flags), `java` or `pcre`; the pattern is then exact and
    /// valid in that engine (in `python`, sets as ranges: its tables are its own). An
    /// unknown name is 400 `BadRequest`.
    #[schema(example = "python")]
    pub dialect: Option<String>,
    /// Options for `fair` output.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub fair: Option<FairOptions>,
}

/// `options.response.fair`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct FairOptions {
    /// Whether a returned FAIR must be deterministic.
    pub deterministic: Option<bool>,
}

/// `options.execution`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, ToSchema)]
pub struct ExecutionOptions {
    /// Compute budget in milliseconds, at least 1.
    pub timeout: Option<i64>,
}

/// The form of a returned term.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ResponseFormat {
    /// Whatever form is cheapest while faithful.
    #[default]
    Any,
    /// A pattern.
    Regex,
    /// A FAIR value.
    Fair,
}

/// Checked options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The form of returned terms.
    pub format: ResponseFormat,
    /// Whether a returned FAIR must be deterministic.
    pub deterministic: bool,
    /// The requested compute budget in milliseconds; `None` for the server default.
    pub timeout_ms: Option<u64>,
    /// The dialect name of pattern output as given; `None` for the default. The server
    /// checks it against the engines it knows.
    pub dialect: Option<String>,
}

/// The caller's limits that validation enforces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestLimits {
    /// The most terms one request may carry.
    pub max_terms: usize,
    /// The largest `execution.timeout`, in milliseconds.
    pub max_timeout_ms: u64,
}

impl RequestOptions {
    fn validate(
        options: Option<RequestOptions>,
        limits: &RequestLimits,
    ) -> Result<Options, ApiError> {
        let options = options.unwrap_or_default();
        if let Some(version) = options.schema_version
            && version != SCHEMA_VERSION
        {
            return Err(ApiError::bad_request(format!(
                "unsupported schemaVersion {version}: this server speaks {SCHEMA_VERSION}"
            )));
        }
        let response = options.response.unwrap_or_default();
        let format = match response.format.as_deref() {
            None | Some("any") => ResponseFormat::Any,
            Some("regex") => ResponseFormat::Regex,
            Some("fair") => ResponseFormat::Fair,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "unknown response format {other:?}: expected \"any\", \"regex\" or \"fair\""
                )));
            }
        };
        let deterministic = response.fair.and_then(|fair| fair.deterministic).unwrap_or(false);
        let timeout_ms = match options.execution.and_then(|execution| execution.timeout) {
            None => None,
            Some(timeout) if timeout < 1 => {
                return Err(ApiError::bad_request(format!(
                    "execution.timeout must be at least 1 ms, got {timeout}"
                )));
            }
            Some(timeout) if timeout.unsigned_abs() > limits.max_timeout_ms => {
                return Err(ApiError::new(
                    ErrorCode::TimeoutTooLarge,
                    format!(
                        "execution.timeout {timeout} ms is above the maximum of {} ms",
                        limits.max_timeout_ms
                    ),
                ));
            }
            Some(timeout) => Some(timeout.unsigned_abs()),
        };
        Ok(Options { format, deterministic, timeout_ms, dialect: response.dialect })
    }
}

/// A request about one term.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct TermRequest {
    /// The term.
    #[serde(deserialize_with = "crate::object::object")]
    pub term: Term,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

impl TermRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken.
    pub fn validate(self, limits: &RequestLimits) -> Result<(TermInput, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        Ok((self.term.validate()?, options))
    }
}

/// (ext) A request for the backtracking risk (ReDoS) of a pattern in its engine.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct BacktrackingRequest {
    /// A `regex` term whose `dialect` names a backtracking engine: `python`, `js`, `java`
    /// or `pcre` (the default dialect is Rust's `regex` crate, which does not backtrack).
    #[serde(deserialize_with = "crate::object::object")]
    pub term: Term,
    /// `match` (default): the whole input must match, as a validator asks
    /// (`re.fullmatch`, `Matcher.matches`, `^…$`); `search`: a match anywhere, the engine
    /// trying each start in turn (`re.search`, `RegExp.prototype.test`, `Matcher.find`).
    #[schema(example = "match")]
    pub mode: Option<String>,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

/// How the engine is asked to match, in a [`BacktrackingRequest`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BacktrackingMode {
    /// `match`: a full match.
    #[default]
    Match,
    /// `search`: a match anywhere.
    Search,
}

/// A checked [`BacktrackingRequest`]: the pattern, its engine and the mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BacktrackingQuestion {
    /// The pattern text.
    pub pattern: String,
    /// Its engine, never the default dialect.
    pub dialect: Dialect,
    /// How the engine is asked to match.
    pub mode: BacktrackingMode,
}

impl BacktrackingRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken; `BadRequest` for a `fair` term (an
    /// automaton: no pattern for an engine to run), a pattern in the default dialect (not
    /// a backtracking engine), or a `mode` other than `match` and `search`.
    pub fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<(BacktrackingQuestion, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        let mode = match self.mode.as_deref() {
            None | Some("match") => BacktrackingMode::Match,
            Some("search") => BacktrackingMode::Search,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "unknown mode {other:?}: expected \"match\" or \"search\""
                )));
            }
        };
        match self.term.validate()? {
            TermInput::Fair(_) => Err(ApiError::bad_request(
                "a fair term is an automaton: it has no pattern for an engine to backtrack on; \
                 send the regex term with its dialect",
            )),
            TermInput::Regex { dialect: Dialect::Rust, .. } => Err(ApiError::bad_request(
                "the default dialect (rust) is Rust's regex crate, which does not backtrack: \
                 its matching time is linear in the input; give the term the dialect of the \
                 engine that runs it (python, js, java or pcre)",
            )),
            TermInput::Regex { pattern, dialect } => {
                Ok((BacktrackingQuestion { pattern, dialect, mode }, options))
            }
        }
    }
}

/// The most strings one `/v1/analyze/match` request may carry.
pub const MAX_MATCH_STRINGS: usize = 100;

/// (ext) A request to match strings against one term.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct MatchRequest {
    /// The term.
    pub term: Term,
    /// The strings to match, 1 to 100 (`MAX_MATCH_STRINGS`); their total size is bounded
    /// by the server's body limit.
    pub strings: Vec<String>,
    /// Options.
    pub options: Option<RequestOptions>,
}

impl MatchRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken; `BadRequest` for no strings or more
    /// than [`MAX_MATCH_STRINGS`].
    pub fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<(TermInput, Vec<String>, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        let term = self.term.validate()?;
        let n_strings = self.strings.len();
        if !(1..=MAX_MATCH_STRINGS).contains(&n_strings) {
            return Err(ApiError::bad_request(format!(
                "strings: between 1 and {MAX_MATCH_STRINGS} strings, not {n_strings}"
            )));
        }
        Ok((term, self.strings, options))
    }
}

/// A request about exactly two terms.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct TwoTermsRequest {
    /// Exactly two terms.
    #[serde(deserialize_with = "crate::object::objects")]
    pub terms: Vec<Term>,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

impl TwoTermsRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken.
    pub fn validate(self, limits: &RequestLimits) -> Result<([TermInput; 2], Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        let [first, second] = check_term_count(self.terms, 2, 2)?;
        Ok(([first, second], options))
    }
}

/// A request combining two or more terms.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct MultiTermsRequest {
    /// Between 2 and the caller's `maxTermsCount` terms.
    #[serde(deserialize_with = "crate::object::objects")]
    pub terms: Vec<Term>,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

impl MultiTermsRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken.
    pub fn validate(self, limits: &RequestLimits) -> Result<(Vec<TermInput>, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        let terms = check_term_count(self.terms, 2, limits.max_terms)?;
        Ok((terms, options))
    }
}

/// Checks that there are `min..=max` terms, validates each, and collects them into `T` (a
/// `Vec` or an array of the exact count).
fn check_term_count<T>(terms: Vec<Term>, min: usize, max: usize) -> Result<T, ApiError>
where
    T: TryFrom<Vec<TermInput>>,
{
    let count = terms.len();
    if count < min {
        let expected =
            if min == max { format!("exactly {min}") } else { format!("at least {min}") };
        return Err(ApiError::new(
            ErrorCode::TooFewTerms,
            format!("{count} terms given, {expected} needed"),
        ));
    }
    if count > max {
        let expected = if min == max { format!("exactly {max}") } else { format!("at most {max}") };
        return Err(ApiError::new(
            ErrorCode::TooManyTerms,
            format!("{count} terms given, {expected} allowed"),
        ));
    }
    let terms: Vec<TermInput> = terms.into_iter().map(Term::validate).collect::<Result<_, _>>()?;
    T::try_from(terms).map_err(|_| ApiError::new(ErrorCode::InternalError, "term count mismatch"))
}

/// `/compute/repeat`: the term repeated `min..=max` times.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
pub struct RepeatRequest {
    /// The term to repeat.
    #[serde(deserialize_with = "crate::object::object")]
    pub term: Term,
    /// Fewest repetitions, at least 0.
    pub min: i64,
    /// Most repetitions; omitted or null for unbounded.
    #[serde(default)]
    pub max: Option<i64>,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

/// A checked repetition range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepeatRange {
    /// Fewest repetitions.
    pub min: u32,
    /// Most repetitions; `None` for unbounded.
    pub max: Option<u32>,
}

impl RepeatRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken.
    pub fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<(TermInput, RepeatRange, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        let min = count_field("min", self.min, 0, u32::MAX.into())?;
        let max = self.max.map(|max| count_field("max", max, 0, u32::MAX.into())).transpose()?;
        if let Some(max) = max
            && max < min
        {
            return Err(ApiError::bad_request(format!("max ({max}) is less than min ({min})")));
        }
        Ok((self.term.validate()?, RepeatRange { min, max }, options))
    }
}

/// The longest length `/v1/analyze/count_by_length` counts to.
pub const MAX_COUNT_LENGTH: i64 = 10_000;
/// The most lengths one `/v1/analyze/count_by_length` request may ask for.
pub const MAX_COUNT_LENGTHS: i64 = 1_000;

/// (ext) A request for the number of strings of each length in a range.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CountByLengthRequest {
    /// The term.
    #[serde(deserialize_with = "crate::object::object")]
    pub term: Term,
    /// The shortest length to count, at least 0 (default 0).
    pub min_length: Option<i64>,
    /// The longest length to count, from `minLength` to 10,000 (`MAX_COUNT_LENGTH`), and at
    /// most 1,000 lengths in all (`MAX_COUNT_LENGTHS`).
    pub max_length: i64,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

impl CountByLengthRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken; `BadRequest` for lengths outside
    /// `0..=MAX_COUNT_LENGTH`, `maxLength` below `minLength`, or more than
    /// [`MAX_COUNT_LENGTHS`] lengths.
    pub fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<(TermInput, RangeInclusive<u32>, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        let min = count_field("minLength", self.min_length.unwrap_or(0), 0, MAX_COUNT_LENGTH)?;
        let max = count_field("maxLength", self.max_length, min, MAX_COUNT_LENGTH)?;
        let n_lengths = i64::from(max - min) + 1;
        if n_lengths > MAX_COUNT_LENGTHS {
            return Err(ApiError::bad_request(format!(
                "at most {MAX_COUNT_LENGTHS} lengths per request, not {n_lengths} \
                 ({min} to {max})"
            )));
        }
        Ok((self.term.validate()?, min..=max, options))
    }
}

/// `value` as a `u32` inside `min..=max`, or a `BadRequest` naming `field`.
fn count_field(field: &str, value: i64, min: u32, max: i64) -> Result<u32, ApiError> {
    if value < i64::from(min) || value > max {
        return Err(ApiError::bad_request(format!(
            "{field} must be between {min} and {max}, got {value}"
        )));
    }
    u32::try_from(value).map_err(|_| ApiError::bad_request(format!("{field} is too large")))
}

/// `/generate/strings`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GenerateStringsRequest {
    /// The term whose strings to generate.
    #[serde(deserialize_with = "crate::object::object")]
    pub term: Term,
    /// How many strings, 1..=100.
    pub limit: i64,
    /// How many strings to skip, at least 0 (default 0).
    pub offset: Option<i64>,
    /// Shortest length, at least 0 (default 0).
    pub min_length: Option<i64>,
    /// Longest length, 1..=100 (default 100).
    pub max_length: Option<i64>,
    /// `sweep` (default): shortest first, each path (a sequence of character sets through
    /// the minimal automaton) expanded completely; `interleave`: in rounds, every path gives
    /// one string before any gives a second; `shuffled`: with `characterOrder` `ascending`,
    /// like `interleave` with the paths of one length in an order drawn from `seed`; with
    /// `characterOrder` `shuffled`, a uniform random permutation of every string with a
    /// length in [`minLength`, `maxLength`] drawn from `seed` (each page a sample without
    /// replacement, every string equally likely). Paging is exact in every order. When the
    /// term's minimal automaton is too large to build for generation (about a sixteenth of
    /// the memory limit), strings come from the length window instead, without paths:
    /// `sweep` and `interleave` with `ascending` characters give shortest first, then by
    /// code points; every shuffled order gives seeded draws, each a length drawn uniformly
    /// among those of the window holding strings, then each character uniformly among
    /// those that can still complete a string of that length, listing distinct strings in
    /// the order first drawn (not uniform over the window: a lone short string comes early;
    /// a window of fewer than 4,096 strings is a seeded permutation of all of them).
    pub path_order: Option<String>,
    /// `ascending` (default): each path's strings count up like an odometer, last position
    /// fastest; `shuffled`: each path's strings in a permutation of its whole index space
    /// drawn from `seed` and the path, so consecutive strings differ at every position.
    pub character_order: Option<String>,
    /// Seed of the shuffled orders, at least 0 (default 0).
    pub seed: Option<i64>,
    /// A character class every generated character must be in.
    pub charset: Option<String>,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

/// The order in which paths of the automaton are visited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PathOrder {
    /// Shortest paths first, each expanded completely.
    #[default]
    Sweep,
    /// Every path yields one string before any yields a second.
    Interleave,
    /// Like interleave, paths of one length in an order drawn from the seed; with shuffled
    /// characters, a uniform random permutation of the whole length band.
    Shuffled,
}

/// The order of the strings within one path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CharOrder {
    /// Positions count up from the low end of each set.
    #[default]
    Ascending,
    /// A seeded permutation of each path's whole index space.
    Shuffled,
}

/// Checked generation parameters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateParams {
    /// How many strings, 1..=100.
    pub limit: usize,
    /// How many strings to skip.
    pub offset: u64,
    /// Shortest length.
    pub min_length: u32,
    /// Longest length, 1..=100.
    pub max_length: u32,
    /// Path order.
    pub path_order: PathOrder,
    /// Character order.
    pub character_order: CharOrder,
    /// Seed of the shuffled orders.
    pub seed: u64,
    /// A character class restricting the characters, if any.
    pub charset: Option<String>,
}

/// The largest `limit` of one generate request.
pub const MAX_GENERATE_LIMIT: i64 = 100;
/// The largest `maxLength` of one generate request.
pub const MAX_GENERATE_LENGTH: i64 = 100;

impl GenerateStringsRequest {
    /// Checks the request against the contract and `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken.
    pub fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<(TermInput, GenerateParams, Options), ApiError> {
        let options = RequestOptions::validate(self.options, limits)?;
        if !(1..=MAX_GENERATE_LIMIT).contains(&self.limit) {
            return Err(ApiError::new(
                ErrorCode::InvalidNumberOfStringsToGenerate,
                format!("limit must be between 1 and {MAX_GENERATE_LIMIT}, got {}", self.limit),
            ));
        }
        let non_negative = |field: &str, value: Option<i64>| match value {
            Some(value) if value < 0 => {
                Err(ApiError::bad_request(format!("{field} must be at least 0, got {value}")))
            }
            value => Ok(value.map_or(0, i64::unsigned_abs)),
        };
        let offset = non_negative("offset", self.offset)?;
        let seed = non_negative("seed", self.seed)?;
        let min_length =
            count_field("minLength", self.min_length.unwrap_or(0), 0, u32::MAX.into())?;
        let max_length = count_field(
            "maxLength",
            self.max_length.unwrap_or(MAX_GENERATE_LENGTH),
            1,
            MAX_GENERATE_LENGTH,
        )?;
        let path_order = match self.path_order.as_deref() {
            None | Some("sweep") => PathOrder::Sweep,
            Some("interleave") => PathOrder::Interleave,
            Some("shuffled") => PathOrder::Shuffled,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "unknown pathOrder {other:?}: expected \"sweep\", \"interleave\" or \"shuffled\""
                )));
            }
        };
        let character_order = match self.character_order.as_deref() {
            None | Some("ascending") => CharOrder::Ascending,
            Some("shuffled") => CharOrder::Shuffled,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "unknown characterOrder {other:?}: expected \"ascending\" or \"shuffled\""
                )));
            }
        };
        let params = GenerateParams {
            limit: self.limit.unsigned_abs() as usize,
            offset,
            min_length,
            max_length,
            path_order,
            character_order,
            seed,
            charset: self.charset,
        };
        Ok((self.term.validate()?, params, options))
    }
}

/// (ext) `/generate/samples`: strings drawn uniformly at random, with replacement.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SampleRequest {
    /// The term whose strings to draw.
    #[serde(deserialize_with = "crate::object::object")]
    pub term: Term,
    /// How many strings, 1..=100; a string may come more than once.
    pub count: i64,
    /// Shortest length, at least 0 (default 0).
    pub min_length: Option<i64>,
    /// Longest length, 1..=100 (default 100).
    pub max_length: Option<i64>,
    /// `strings` (default): each string uniformly among all strings with a length in
    /// [`minLength`, `maxLength`] (long strings dominate when there are more of them);
    /// `lengths`: a length first, uniformly among those of the range that have strings,
    /// then a string uniformly among those of that length.
    pub distribution: Option<String>,
    /// Seed, at least 0 (default 0): the same request gives the same strings.
    pub seed: Option<i64>,
    /// A character class every drawn character must be in, as in `/generate/strings`.
    pub charset: Option<String>,
    /// Options.
    #[serde(default, deserialize_with = "crate::object::optional_object")]
    pub options: Option<RequestOptions>,
}

/// How `/generate/samples` draws each string.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SampleDistribution {
    /// Uniformly among all strings of the length range.
    #[default]
    Strings,
    /// A length first, uniformly among those that have strings, then a string of it.
    Lengths,
}

impl SampleRequest {
    /// Checks the request against the contract and `limits`: the generation parameters of
    /// the sample (`limit` is `count`) and its distribution.
    ///
    /// # Errors
    /// The contract's error for the first rule broken: `InvalidNumberOfStringsToGenerate`
    /// for a count outside 1..=100, `BadRequest` for the other fields, as in
    /// `/generate/strings`.
    pub fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<(TermInput, GenerateParams, SampleDistribution, Options), ApiError> {
        let distribution = match self.distribution.as_deref() {
            None | Some("strings") => SampleDistribution::Strings,
            Some("lengths") => SampleDistribution::Lengths,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "unknown distribution {other:?}: expected \"strings\" or \"lengths\""
                )));
            }
        };
        let generate = GenerateStringsRequest {
            term: self.term,
            limit: self.count,
            offset: None,
            min_length: self.min_length,
            max_length: self.max_length,
            path_order: None,
            character_order: None,
            seed: self.seed,
            charset: self.charset,
            options: self.options,
        };
        let (term, params, options) =
            generate.validate(limits).map_err(|err| match err.code() {
                ErrorCode::InvalidNumberOfStringsToGenerate => ApiError::new(
                    err.code(),
                    format!("count must be between 1 and {MAX_GENERATE_LIMIT}, got {}", self.count),
                ),
                _ => err,
            })?;
        Ok((term, params, distribution, options))
    }
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde_json::json;

    use super::*;

    const LIMITS: RequestLimits = RequestLimits { max_terms: 10, max_timeout_ms: 5_000 };

    fn parse<T: DeserializeOwned>(body: serde_json::Value) -> T {
        serde_json::from_value(body).unwrap()
    }

    #[track_caller]
    fn check_error(
        result: Result<impl std::fmt::Debug, ApiError>,
        code: ErrorCode,
        message_part: &str,
    ) {
        let err = result.unwrap_err();
        assert_eq!(err.code(), code, "{err}");
        assert!(err.message().contains(message_part), "{err}");
    }

    /// Issue 17: `serde`'s structs also read an array of their fields in order; the wire
    /// has objects only, at every level.
    #[test]
    fn r17_arrays_are_not_objects() {
        let from_str = |body: &str| serde_json::from_str::<MultiTermsRequest>(body);
        let term = r#"{"type":"regex","value":"a|b"}"#;
        assert!(from_str(&format!(r#"{{"terms":[{term}],"options":null}}"#)).is_ok());
        let arrays = [
            r#"{"terms":[["regex","a|b"]]}"#.to_owned(),
            format!(r#"{{"terms":[{term}],"options":[1]}}"#),
            format!(r#"{{"terms":[{term}],"options":{{"execution":[30]}}}}"#),
            format!(r#"{{"terms":[{term}],"options":{{"response":["any",[true]]}}}}"#),
            format!(r#"{{"terms":[{term}],"options":{{"response":{{"fair":[true]}}}}}}"#),
        ];
        for body in arrays {
            let err = from_str(&body).unwrap_err();
            assert!(err.to_string().contains("expected a JSON object"), "{body}: {err}");
        }
        let single = serde_json::from_str::<TermRequest>(r#"{"term":["regex","a|b"]}"#);
        assert!(single.unwrap_err().to_string().contains("expected a JSON object"));
        let options = serde_json::from_str::<TermRequest>(&format!(r#"{{"term":{term}}}"#));
        assert_eq!(options.unwrap().options, None);
    }

    fn term_request(options: serde_json::Value) -> Result<(TermInput, Options), ApiError> {
        parse::<TermRequest>(
            json!({ "term": { "type": "regex", "value": "a" }, "options": options }),
        )
        .validate(&LIMITS)
    }

    #[test]
    fn defaults_apply_and_unknown_fields_are_ignored() {
        let request: TermRequest = parse(json!({
            "term": { "type": "fair", "value": "x", "metadata": { "deterministic": true } },
            "extra": [1, 2],
        }));
        let (term, options) = request.validate(&LIMITS).unwrap();
        assert_eq!(term, TermInput::Fair("x".into()));
        assert_eq!(options, Options::default());
    }

    #[test]
    fn regex_terms_carry_their_dialect() {
        let term = |term: serde_json::Value| {
            parse::<TermRequest>(json!({ "term": term })).validate(&LIMITS)
        };
        let (plain, _) = term(json!({ "type": "regex", "value": "a" })).unwrap();
        assert_eq!(plain, TermInput::Regex { pattern: "a".into(), dialect: Dialect::Rust });
        let (js, _) = term(json!({ "type": "regex", "value": "a", "dialect": "js" })).unwrap();
        assert_eq!(js, TermInput::Regex { pattern: "a".into(), dialect: Dialect::Js });
        let (fair, _) = term(json!({ "type": "fair", "value": "x", "dialect": "js" })).unwrap();
        assert_eq!(fair, TermInput::Fair("x".into()));
        check_error(
            term(json!({ "type": "regex", "value": "a", "dialect": "perl" })),
            ErrorCode::BadRequest,
            "unknown dialect \"perl\"",
        );
    }

    #[test]
    fn options_are_checked() {
        let (_, options) = term_request(json!({
            "schemaVersion": 1,
            "response": { "format": "fair", "fair": { "deterministic": true } },
            "execution": { "timeout": 5000 },
        }))
        .unwrap();
        assert_eq!(
            options,
            Options {
                format: ResponseFormat::Fair,
                deterministic: true,
                timeout_ms: Some(5000),
                dialect: None
            }
        );
        check_error(
            term_request(json!({ "schemaVersion": 2 })),
            ErrorCode::BadRequest,
            "schemaVersion",
        );
        check_error(
            term_request(json!({ "response": { "format": "xml" } })),
            ErrorCode::BadRequest,
            "xml",
        );
        check_error(
            term_request(json!({ "execution": { "timeout": 0 } })),
            ErrorCode::BadRequest,
            "at least 1",
        );
        check_error(
            term_request(json!({ "execution": { "timeout": 5001 } })),
            ErrorCode::TimeoutTooLarge,
            "5001",
        );
    }

    #[test]
    fn integers_are_strict() {
        for timeout in [json!(26.0), json!("26"), json!(true)] {
            let body = json!({ "term": { "type": "regex", "value": "a" }, "options": { "execution": { "timeout": timeout } } });
            assert!(serde_json::from_value::<TermRequest>(body).is_err(), "{timeout}");
        }
    }

    #[test]
    fn match_requests_carry_1_to_100_strings() {
        let request = |strings: Vec<String>| {
            parse::<MatchRequest>(
                json!({ "term": { "type": "regex", "value": "a+" }, "strings": strings }),
            )
            .validate(&LIMITS)
        };
        let (term, strings, _) = request(vec!["a".into(), String::new()]).unwrap();
        assert_eq!(
            (term, strings),
            (
                TermInput::Regex { pattern: "a+".into(), dialect: Dialect::Rust },
                vec!["a".into(), String::new()]
            )
        );
        assert!(request(vec!["x".into(); MAX_MATCH_STRINGS]).is_ok());
        check_error(request(Vec::new()), ErrorCode::BadRequest, "not 0");
        check_error(
            request(vec!["x".into(); MAX_MATCH_STRINGS + 1]),
            ErrorCode::BadRequest,
            "not 101",
        );
        let missing = json!({ "term": { "type": "regex", "value": "a" } });
        assert!(serde_json::from_value::<MatchRequest>(missing).is_err());
    }

    #[test]
    fn term_types_are_closed() {
        let request: TermRequest = parse(json!({ "term": { "type": "glob", "value": "*" } }));
        check_error(request.validate(&LIMITS), ErrorCode::BadRequest, "glob");
    }

    #[test]
    fn term_counts_are_checked() {
        let terms = |n: usize| json!(vec![json!({ "type": "regex", "value": "a" }); n]);
        let two = |n| parse::<TwoTermsRequest>(json!({ "terms": terms(n) })).validate(&LIMITS);
        let multi = |n| parse::<MultiTermsRequest>(json!({ "terms": terms(n) })).validate(&LIMITS);
        assert!(two(2).is_ok());
        check_error(two(1), ErrorCode::TooFewTerms, "exactly 2");
        check_error(two(3), ErrorCode::TooManyTerms, "exactly 2");
        assert_eq!(multi(10).unwrap().0.len(), 10);
        check_error(multi(0), ErrorCode::TooFewTerms, "at least 2");
        check_error(multi(11), ErrorCode::TooManyTerms, "at most 10");
    }

    #[test]
    fn repeat_ranges_are_checked() {
        let repeat = |body: serde_json::Value| parse::<RepeatRequest>(body).validate(&LIMITS);
        let term = json!({ "type": "regex", "value": "a" });
        let (_, range, _) = repeat(json!({ "term": term, "min": 2, "max": null })).unwrap();
        assert_eq!(range, RepeatRange { min: 2, max: None });
        let (_, range, _) = repeat(json!({ "term": term, "min": 0 })).unwrap();
        assert_eq!(range, RepeatRange { min: 0, max: None });
        check_error(
            repeat(json!({ "term": term, "min": 3, "max": 2 })),
            ErrorCode::BadRequest,
            "less than min",
        );
        check_error(
            repeat(json!({ "term": term, "min": -1 })),
            ErrorCode::BadRequest,
            "min must be",
        );
        check_error(
            repeat(json!({ "term": term, "min": 0, "max": 1i64 << 40 })),
            ErrorCode::BadRequest,
            "max must be",
        );
    }

    #[test]
    fn generate_parameters_are_checked() {
        let generate = |extra: serde_json::Value| {
            let mut body = json!({ "term": { "type": "regex", "value": "a" }, "limit": 10 });
            body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            parse::<GenerateStringsRequest>(body).validate(&LIMITS)
        };
        let (_, params, _) = generate(json!({})).unwrap();
        assert_eq!(
            params,
            GenerateParams {
                limit: 10,
                offset: 0,
                min_length: 0,
                max_length: 100,
                path_order: PathOrder::Sweep,
                character_order: CharOrder::Ascending,
                seed: 0,
                charset: None,
            }
        );
        let (_, params, _) = generate(json!({
            "offset": 7, "minLength": 2, "maxLength": 5, "pathOrder": "shuffled",
            "characterOrder": "shuffled", "seed": 42, "charset": "[a-z]",
        }))
        .unwrap();
        assert_eq!(
            (params.offset, params.min_length, params.max_length, params.seed),
            (7, 2, 5, 42)
        );
        assert_eq!(
            (params.path_order, params.character_order),
            (PathOrder::Shuffled, CharOrder::Shuffled)
        );
        for limit in [0, 101] {
            check_error(
                generate(json!({ "limit": limit })),
                ErrorCode::InvalidNumberOfStringsToGenerate,
                "limit",
            );
        }
        check_error(generate(json!({ "maxLength": 101 })), ErrorCode::BadRequest, "maxLength");
        check_error(generate(json!({ "maxLength": 0 })), ErrorCode::BadRequest, "maxLength");
        check_error(generate(json!({ "offset": -1 })), ErrorCode::BadRequest, "offset");
        check_error(generate(json!({ "pathOrder": "zigzag" })), ErrorCode::BadRequest, "zigzag");
        check_error(
            generate(json!({ "characterOrder": "random" })),
            ErrorCode::BadRequest,
            "random",
        );
    }

    #[test]
    fn surrogate_pair_escapes_decode() {
        let request: TermRequest =
            serde_json::from_str(r#"{"term":{"type":"regex","value":"\ud83d\ude00+"}}"#).unwrap();
        assert_eq!(request.term.value, "😀+");
    }

    #[test]
    fn count_by_length_ranges_are_capped() {
        let request = |min: Option<i64>, max: i64| CountByLengthRequest {
            term: Term { kind: "regex".into(), value: "a*".into(), dialect: None },
            min_length: min,
            max_length: max,
            options: None,
        };
        let (_, lengths, _) = request(None, 9).validate(&LIMITS).unwrap();
        assert_eq!(lengths, 0..=9);
        let (_, lengths, _) = request(Some(9_001), 10_000).validate(&LIMITS).unwrap();
        assert_eq!(lengths, 9_001..=10_000);
        for (min, max) in [(Some(5), 4), (None, 1_000), (None, 10_001), (Some(-1), 3)] {
            let err = request(min, max).validate(&LIMITS).unwrap_err();
            assert_eq!(err.code(), ErrorCode::BadRequest, "{min:?} {max}");
        }
    }
}
