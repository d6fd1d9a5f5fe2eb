//! Response bodies: the success envelope and every `data` type, each tagged with `type`.

use serde::Serialize;
use utoipa::ToSchema;

/// The success envelope: `{"success": true, "data": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Success<T> {
    success: bool,
    data: T,
}

impl<T> Success<T> {
    /// Wraps `data` in the envelope.
    pub fn new(data: T) -> Success<T> {
        Success { success: true, data }
    }
}

/// Declares a unit enum whose one value serializes as a fixed `type` tag.
macro_rules! type_tag {
    ($(#[$doc:meta])* $name:ident = $tag:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
        pub enum $name {
            /// The only value.
            #[default]
            #[serde(rename = $tag)]
            Tag,
        }
    };
}

type_tag!(
    /// The tag `"boolean"`.
    BooleanTag = "boolean"
);
type_tag!(
    /// The tag `"string"`.
    StringTag = "string"
);
type_tag!(
    /// The tag `"length"`.
    LengthTag = "length"
);
type_tag!(
    /// The tag `"generatedStrings"`.
    GeneratedStringsTag = "generatedStrings"
);
type_tag!(
    /// The tag `"strings"`.
    StringsTag = "strings"
);
type_tag!(
    /// The tag `"accountLimits"`.
    AccountLimitsTag = "accountLimits"
);
type_tag!(
    /// The tag `"matches"`.
    MatchesTag = "matches"
);
type_tag!(
    /// The tag `"lengthCounts"`.
    LengthCountsTag = "lengthCounts"
);
type_tag!(
    /// The tag `"overlaps"`.
    OverlapsTag = "overlaps"
);
type_tag!(
    /// The tag `"backtracking"`.
    BacktrackingTag = "backtracking"
);

/// A yes/no answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Boolean {
    /// Always `boolean`.
    #[serde(rename = "type")]
    pub kind: BooleanTag,
    /// The answer.
    pub value: bool,
    /// (ext) For a false equivalence or subset: the shortest, then smallest, string that
    /// shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub witness: Option<String>,
}

impl Boolean {
    /// A plain answer.
    pub fn new(value: bool) -> Boolean {
        Boolean { kind: BooleanTag::Tag, value, witness: None }
    }

    /// The answer of a relation: true when there is no witness.
    pub fn from_witness(witness: Option<String>) -> Boolean {
        Boolean { kind: BooleanTag::Tag, value: witness.is_none(), witness }
    }
}

/// A text answer: a pattern or DOT.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Text {
    /// Always `string`.
    #[serde(rename = "type")]
    pub kind: StringTag,
    /// The text.
    pub value: String,
}

impl Text {
    /// Wraps `value`.
    pub fn new(value: String) -> Text {
        Text { kind: StringTag::Tag, value }
    }
}

/// The number of strings of a language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Cardinality {
    /// A count every JSON client reads exactly (at most 2^53 - 1).
    Integer {
        /// The count.
        value: u64,
    },
    /// A larger finite count; (ext) `value` holds its decimal digits.
    BigInteger {
        /// The count in decimal.
        value: String,
    },
    /// Infinitely many strings.
    Infinite,
}

/// The largest count sent as a JSON number: every JSON client reads it exactly.
pub const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

impl Cardinality {
    /// A finite count given in decimal digits, as a JSON integer when that is exact.
    pub fn finite(decimal: String) -> Cardinality {
        match decimal.parse::<u64>() {
            Ok(value) if value <= MAX_SAFE_INTEGER => Cardinality::Integer { value },
            _ => Cardinality::BigInteger { value: decimal },
        }
    }
}

/// The shortest and longest string lengths.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Length {
    /// Always `length`.
    #[serde(rename = "type")]
    pub kind: LengthTag,
    /// The shortest length; null for the empty language.
    pub min: Option<u64>,
    /// The longest length; null for the empty language or an infinite one.
    pub max: Option<u64>,
}

impl Length {
    /// The length range `min..=max`.
    pub fn new(min: Option<u64>, max: Option<u64>) -> Length {
        Length { kind: LengthTag::Tag, min, max }
    }
}

/// A returned term.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum TermOutput {
    /// A pattern.
    Regex {
        /// The pattern: exact in the Rust `regex` dialect by default, or valid and exact in
        /// the engine that `options.response.dialect` names; `[]` is the empty language.
        value: String,
    },
    /// A FAIR value.
    Fair {
        /// The FAIR text.
        value: String,
        /// What the value holds.
        metadata: FairMetadata,
    },
}

/// `metadata` of a returned FAIR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct FairMetadata {
    /// Whether the automaton is deterministic.
    pub deterministic: bool,
}

/// Generated strings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct GeneratedStrings {
    /// Always `generatedStrings`.
    #[serde(rename = "type")]
    pub kind: GeneratedStringsTag,
    /// The strings.
    pub strings: Strings,
}

/// The list inside [`GeneratedStrings`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Strings {
    /// Always `strings`.
    #[serde(rename = "type")]
    pub kind: StringsTag,
    /// The strings, in generation order.
    pub value: Vec<String>,
}

impl GeneratedStrings {
    /// Wraps `strings`.
    pub fn new(strings: Vec<String>) -> GeneratedStrings {
        GeneratedStrings {
            kind: GeneratedStringsTag::Tag,
            strings: Strings { kind: StringsTag::Tag, value: strings },
        }
    }
}

/// (ext) The verdicts of `/v1/analyze/match`, one per string, in the request's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Matches {
    /// Always `matches`.
    #[serde(rename = "type")]
    pub kind: MatchesTag,
    /// One verdict per string of the request, in its order.
    pub results: Vec<MatchResult>,
}

impl Matches {
    /// Wraps `results`.
    pub fn new(results: Vec<MatchResult>) -> Matches {
        Matches { kind: MatchesTag::Tag, results }
    }
}

/// (ext) The answer of `/v1/analyze/count_by_length`: one count per length of the range, in
/// order, zeros included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct LengthCounts {
    /// Always `lengthCounts`.
    #[serde(rename = "type")]
    pub kind: LengthCountsTag,
    /// A count per length, from `minLength` to `maxLength`.
    pub counts: Vec<LengthCount>,
}

impl LengthCounts {
    /// Wraps `counts`.
    pub fn new(counts: Vec<LengthCount>) -> LengthCounts {
        LengthCounts { kind: LengthCountsTag::Tag, counts }
    }
}

/// (ext) The answer of `/v1/analyze/overlaps`: every pair of terms that share a string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Overlaps {
    /// Always `overlaps`.
    #[serde(rename = "type")]
    pub kind: OverlapsTag,
    /// One entry per pair of terms that share a string, by the first term's index, then the
    /// second's; pairs that share none are left out.
    pub overlaps: Vec<Overlap>,
}

impl Overlaps {
    /// Wraps `overlaps`.
    pub fn new(overlaps: Vec<Overlap>) -> Overlaps {
        Overlaps { kind: OverlapsTag::Tag, overlaps }
    }
}

/// (ext) The answer of `/v1/analyze/backtracking`: how the engine's matching time grows
/// with the length n of the input, in the worst case.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Backtracking {
    /// Always `backtracking`.
    #[serde(rename = "type")]
    pub kind: BacktrackingTag,
    /// `linear`, `polynomial` (n^degree), `exponential`, `superlinear` (at least n^degree,
    /// the attack shows it; the exact growth is not decided, `reason` says up to what), or
    /// `unknown` when the pattern's constructs defeat the analysis (`reason` says which).
    pub complexity: String,
    /// For `polynomial`: the exponent, at least 2; for `superlinear`: the least one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degree: Option<u64>,
    /// For `unknown`: what was not analysed; for `superlinear`: the bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// For `polynomial`, `exponential` and `superlinear`: an input that takes that time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<Attack>,
    /// The parts of the pattern on the ambiguous paths: byte offsets into the pattern's
    /// UTF-8 text, in order; empty when linear or unknown.
    pub hotspot: Vec<Span>,
}

/// An attack string: `prefix`, then `pump` repeated k times, then `suffix`, on which the
/// engine tries every path and fails.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Attack {
    /// What leads to the ambiguous loop.
    pub prefix: String,
    /// What the loop reads in several ways: each repetition multiplies (exponential) or
    /// adds to (polynomial) the paths tried.
    pub pump: String,
    /// What makes every path fail.
    pub suffix: String,
}

/// A part of a pattern: bytes `start` to `end` (exclusive) of its UTF-8 text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Span {
    /// The first byte.
    pub start: u64,
    /// One past the last byte.
    pub end: u64,
}

/// Two terms that share a string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct Overlap {
    /// The indices of the two terms in the request, ascending.
    pub terms: [u64; 2],
    /// Their shortest, then smallest, common string (the rule of subset and equivalence
    /// witnesses).
    pub witness: String,
}

/// The number of strings of one length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
pub struct LengthCount {
    /// The length, in code points.
    pub length: u64,
    /// How many strings have it: exact, as `/v1/analyze/cardinality` gives it (never
    /// `infinite`).
    pub count: Cardinality,
}

/// Whether one string is in the language, and where it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MatchResult {
    /// Whether the whole string is in the language.
    pub matches: bool,
    /// The length of the string's longest prefix that can still be extended to a string of
    /// the language, in Unicode code points (Python's `len`; in JavaScript, the length of
    /// `[...s]`, not `s.length`, which counts UTF-16 units). The whole string's length when
    /// it matches; when it does not, the code point at this index (if any) is where it
    /// fails, and a string whose length this is was only too short. 0 also for the empty
    /// language, where no prefix can be extended.
    pub viable_prefix_length: u64,
}

/// The limits of the calling token, or the server's defaults when auth is off.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountLimits {
    /// Always `accountLimits`.
    #[serde(rename = "type")]
    pub kind: AccountLimitsTag,
    /// Requests allowed per period.
    pub max_requests_count: u64,
    /// Requests allowed per second; 0 for no rate limit.
    pub max_requests_rate: u64,
    /// Terms allowed in one request.
    pub max_terms_count: u64,
    /// The largest `execution.timeout`, in milliseconds.
    pub max_timeout: u64,
    /// The most states one automaton may have.
    pub max_states_count: u64,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[track_caller]
    fn check(data: impl Serialize, expected: serde_json::Value) {
        let envelope = serde_json::to_value(Success::new(data)).unwrap();
        assert_eq!(envelope, json!({ "success": true, "data": expected }));
    }

    #[test]
    fn every_data_type_has_its_tag() {
        check(Boolean::new(true), json!({ "type": "boolean", "value": true }));
        let verdicts = vec![
            MatchResult { matches: true, viable_prefix_length: 3 },
            MatchResult { matches: false, viable_prefix_length: 1 },
        ];
        check(
            Matches::new(verdicts),
            json!({ "type": "matches", "results": [
                { "matches": true, "viablePrefixLength": 3 },
                { "matches": false, "viablePrefixLength": 1 },
            ] }),
        );
        check(
            Boolean::from_witness(Some("ab".into())),
            json!({ "type": "boolean", "value": false, "witness": "ab" }),
        );
        check(Text::new("a+".into()), json!({ "type": "string", "value": "a+" }));
        check(Length::new(Some(1), None), json!({ "type": "length", "min": 1, "max": null }));
        check(Cardinality::Infinite, json!({ "type": "infinite" }));
        check(
            TermOutput::Fair {
                value: "xyz".into(),
                metadata: FairMetadata { deterministic: true },
            },
            json!({ "type": "fair", "value": "xyz", "metadata": { "deterministic": true } }),
        );
        check(TermOutput::Regex { value: "a".into() }, json!({ "type": "regex", "value": "a" }));
        check(
            GeneratedStrings::new(vec!["a".into()]),
            json!({ "type": "generatedStrings", "strings": { "type": "strings", "value": ["a"] } }),
        );
    }

    #[test]
    fn cardinality_switches_to_decimal_text_above_2_pow_53() {
        check(
            Cardinality::finite("9007199254740991".into()),
            json!({ "type": "integer", "value": 9007199254740991u64 }),
        );
        check(
            Cardinality::finite("9007199254740992".into()),
            json!({ "type": "bigInteger", "value": "9007199254740992" }),
        );
        check(
            Cardinality::finite("1112064000000000000000000".into()),
            json!({ "type": "bigInteger", "value": "1112064000000000000000000" }),
        );
    }
}
