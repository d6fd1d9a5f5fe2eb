//! Wire to engine and back: every conversion between api-types' checked values and
//! langcore's, in one place.
//!
//! # Overview
//! - [`Term`]: a term checked before any engine work ([`Checker::term`]): a pattern, or a
//!   FAIR already decoded and verified, with its language when the [`TermCache`] has it.
//!   [`Term::language`] and [`Term::is_deterministic`] run on a scheduler thread, under
//!   the request's budget; [`Term::keep`] caches the language a job made.
//! - [`generate_options`]: generation parameters to langcore's options, the charset parsed
//!   under the request's budget.
//! - [`output_dialect`]: the dialect of pattern output, checked before any engine work.
//! - [`output`], [`fair`], [`cardinality`], [`length_counts`], [`length`], [`matches`],
//!   [`overlaps`]:
//!   engine results to response values.

use std::fmt;
use std::sync::OnceLock;

use api_types::ErrorCode;
use api_types::request::{
    BacktrackingMode, BacktrackingQuestion, CharOrder, Dialect, GenerateParams, Options, PathOrder,
    ResponseFormat, TermInput,
};
use api_types::response::{
    self, Cardinality, FairMetadata, Length, LengthCount, LengthCounts, MatchResult, Matches,
    Overlap, Overlaps, TermOutput,
};
use fair_codec::FairCodec;
use langcore::alphabet::CharSet;
use langcore::graph::Graph;
use langcore::{Budget, Complexity, Dfa, GenerateOptions, Language, MatchMode, Membership, Nfa};

use crate::error::HttpError;
use crate::term_cache::{TermCache, TermKey, TermSource};

/// A term checked before any engine work: a FAIR is decoded and its signature verified at
/// once (the codec's limits bound that work); a pattern is parsed by the job, under the
/// request's budget, as the first step of building its language, unless the
/// [`TermCache`] has its language already.
#[derive(Debug)]
pub(crate) struct Term {
    /// The term's kind and text, with the limits it is built under.
    key: TermKey,
    input: Input,
    /// The term's language, once parsed or found in the cache.
    language: OnceLock<Language>,
    /// Found in the cache, and whether its automaton was built then.
    cached_built: Option<bool>,
}

/// What a term's language is built from: its key's text read in a dialect, or the
/// automaton of a FAIR.
#[derive(Debug)]
enum Input {
    Pattern(langcore::Dialect),
    Fair(Graph),
}

/// What checking a request's terms needs: the FAIR codec, the cache of compiled terms and
/// the request's budget (whose limits are part of every cache key).
pub(crate) struct Checker<'a> {
    pub(crate) codec: &'a FairCodec,
    pub(crate) cache: &'a TermCache,
    pub(crate) budget: &'a Budget,
}

impl Checker<'_> {
    /// Checks `input`: decodes a FAIR (`FairSyntaxError` when it is not one), and looks the
    /// term's language up in the cache.
    pub(crate) fn term(&self, input: TermInput) -> Result<Term, HttpError> {
        let (source, text, input) = match input {
            TermInput::Regex { pattern, dialect } => {
                let dialect = engine_dialect(dialect);
                (TermSource::Pattern(dialect), pattern, Input::Pattern(dialect))
            }
            TermInput::Fair(text) => {
                let graph = self
                    .codec
                    .decode(&text)
                    .map_err(|err| HttpError::new(ErrorCode::FairSyntaxError, err.to_string()))?;
                (TermSource::Fair, text, Input::Fair(graph))
            }
        };
        let key = self.key_of(source, text);
        let language = OnceLock::new();
        let mut cached_built = None;
        if let Some(cached) = self.cache.get(&key) {
            cached_built = Some(cached.is_built());
            let _ = language.set(cached);
        }
        Ok(Term { key, input, language, cached_built })
    }

    /// The cache key of `input`'s term, as [`Checker::term`] makes it, without decoding a
    /// FAIR or looking anything up: what the answer cache is asked with first.
    pub(crate) fn key(&self, input: &TermInput) -> TermKey {
        match input {
            TermInput::Regex { pattern, dialect } => {
                self.key_of(TermSource::Pattern(engine_dialect(*dialect)), pattern.clone())
            }
            TermInput::Fair(text) => self.key_of(TermSource::Fair, text.clone()),
        }
    }

    /// The key of a term of `source` and `text` under the budget's limits.
    fn key_of(&self, source: TermSource, text: String) -> TermKey {
        TermKey {
            source,
            text,
            max_states: self.budget.max_states(),
            max_memory: self.budget.max_memory(),
        }
    }
}

impl Term {
    /// The term's language: from the cache, or a pattern parsed (its automaton is built
    /// when a question needs it), a FAIR's automaton determinized when it is not
    /// deterministic, then minimized. Kept for the next call, and for [`Term::keep`].
    pub(crate) fn language(&self, budget: &Budget) -> Result<Language, HttpError> {
        if let Some(language) = self.language.get() {
            return Ok(language.clone());
        }
        let language = match &self.input {
            Input::Pattern(dialect) => Language::from_regex_in(&self.key.text, *dialect, budget)?,
            Input::Fair(graph) => {
                let dfa = if graph.is_deterministic() {
                    Dfa::from_graph(graph, budget)?
                } else {
                    Dfa::from_nfa(&Nfa::from_graph(graph), budget)?
                };
                Language::from_dfa(&dfa, budget)?
            }
        };
        Ok(self.language.get_or_init(|| language).clone())
    }

    /// Keeps the term's language in `cache` for later requests, if a job made it, or if it
    /// came from there and a question has built its automaton since (the cache charges it
    /// again); a cached language nobody built since costs no second lookup.
    pub(crate) fn keep(&self, cache: &TermCache) {
        let Some(language) = self.language.get() else { return };
        if self.cached_built.is_some_and(|built| built || !language.is_built()) {
            return;
        }
        cache.keep(&self.key, language);
    }

    /// Whether the term's automaton is deterministic: for a FAIR, the automaton it carries;
    /// for a pattern, its position automaton (the NFA without ε-moves), deterministic exactly
    /// when the pattern is one-unambiguous (`abc`, `a*b` yes; `ab|ac`, `(a|b)*abb` no).
    pub(crate) fn is_deterministic(&self, budget: &Budget) -> Result<bool, HttpError> {
        match &self.input {
            Input::Pattern(dialect) => Ok(Nfa::from_regex_in(&self.key.text, *dialect, budget)?
                .to_graph(budget)?
                .is_deterministic()),
            Input::Fair(graph) => Ok(graph.is_deterministic()),
        }
    }
}

/// The engine's reading of a wire dialect.
fn engine_dialect(dialect: Dialect) -> langcore::Dialect {
    match dialect {
        Dialect::Rust => langcore::Dialect::Rust,
        Dialect::Python => langcore::Dialect::Python,
        Dialect::Js => langcore::Dialect::Js,
        Dialect::Java => langcore::Dialect::Java,
        Dialect::Pcre => langcore::Dialect::Pcre,
    }
}

/// langcore's generation options for checked wire parameters; the charset is parsed here,
/// under `budget` (`RegexSyntaxError` when it is not one character class).
pub(crate) fn generate_options(
    params: GenerateParams,
    budget: &Budget,
) -> Result<GenerateOptions, HttpError> {
    let charset =
        params.charset.as_deref().map(|class| CharSet::parse_with(class, budget)).transpose()?;
    Ok(GenerateOptions::default()
        .with_limit(params.limit)
        .with_offset(params.offset)
        .with_min_length(params.min_length as usize)
        .with_max_length(params.max_length as usize)
        .with_path_order(match params.path_order {
            PathOrder::Sweep => langcore::PathOrder::Sweep,
            PathOrder::Interleave => langcore::PathOrder::Interleave,
            PathOrder::Shuffled => langcore::PathOrder::Shuffled,
        })
        .with_char_order(match params.character_order {
            CharOrder::Ascending => langcore::CharOrder::Ascending,
            CharOrder::Shuffled => langcore::CharOrder::Shuffled,
        })
        .with_seed(params.seed)
        .with_charset(charset))
}

/// The dialect `options.response.dialect` names, ours by default.
///
/// # Errors
/// `BadRequest` for a name that is not one of [`langcore::Dialect::ALL`]'s.
pub(crate) fn output_dialect(options: &Options) -> Result<langcore::Dialect, HttpError> {
    match &options.dialect {
        None => Ok(langcore::Dialect::default()),
        Some(name) => name.parse().map_err(|err: langcore::UnknownDialect| {
            HttpError::new(ErrorCode::BadRequest, format!("options.response.dialect: {err}"))
        }),
    }
}

/// `language` in the form `options` ask for: a pattern in `dialect` for `regex`, a FAIR of
/// its minimal DFA otherwise (it needs no conversion, so it is the cheapest faithful form
/// for `any`).
pub(crate) fn output(
    language: &Language,
    options: &Options,
    dialect: langcore::Dialect,
    codec: &FairCodec,
    budget: &Budget,
) -> Result<TermOutput, HttpError> {
    match options.format {
        ResponseFormat::Regex => {
            Ok(TermOutput::Regex { value: language.to_pattern_in(dialect, budget)? })
        }
        ResponseFormat::Any | ResponseFormat::Fair => Ok(fair(language.to_dfa(budget)?, codec)),
    }
}

/// `dfa` as a deterministic FAIR.
pub(crate) fn fair(dfa: &Dfa, codec: &FairCodec) -> TermOutput {
    TermOutput::Fair {
        value: codec.encode(&dfa.to_graph()),
        metadata: FairMetadata { deterministic: true },
    }
}

/// A language's number of strings as the response gives it (a decimal string when finite).
pub(crate) fn cardinality(cardinality: langcore::Cardinality) -> Cardinality {
    match cardinality {
        langcore::Cardinality::Finite(count) => Cardinality::finite(count.to_string()),
        langcore::Cardinality::Infinite => Cardinality::Infinite,
    }
}

/// The counts of `Language::count_by_length` for the lengths from `min` on, as the response
/// gives them.
pub(crate) fn length_counts(min: u32, counts: Vec<impl fmt::Display>) -> LengthCounts {
    let counts = (u64::from(min)..).zip(counts).map(|(length, count)| LengthCount {
        length,
        count: Cardinality::finite(count.to_string()),
    });
    LengthCounts::new(counts.collect())
}

/// The overlaps of `Language::overlaps` as the response gives them.
pub(crate) fn overlaps(found: Vec<langcore::Overlap>) -> Overlaps {
    let found = found.into_iter().map(|overlap| Overlap {
        terms: [overlap.left as u64, overlap.right as u64],
        witness: overlap.witness,
    });
    Overlaps::new(found.collect())
}

/// The verdicts of `Language::match_strings` as the response gives them.
pub(crate) fn matches(verdicts: Vec<Membership>) -> Matches {
    let results = verdicts.into_iter().map(|verdict| MatchResult {
        matches: verdict.is_match,
        viable_prefix_length: verdict.viable_prefix_chars as u64,
    });
    Matches::new(results.collect())
}

/// The shortest and longest lengths of a language's strings (`None`: no string, or no
/// longest one) as the response gives them.
pub(crate) fn length((min, max): (Option<usize>, Option<usize>)) -> Length {
    Length::new(min.map(|len| len as u64), max.map(|len| len as u64))
}

/// The backtracking risk of a checked question, as the response gives it.
pub(crate) fn backtracking(
    question: &BacktrackingQuestion,
    budget: &Budget,
) -> Result<response::Backtracking, HttpError> {
    let mode = match question.mode {
        BacktrackingMode::Match => MatchMode::FullMatch,
        BacktrackingMode::Search => MatchMode::Search,
    };
    let dialect = engine_dialect(question.dialect);
    let risk = langcore::Backtracking::analyze(&question.pattern, dialect, mode, budget)?;
    let (complexity, degree, reason) = match risk.complexity() {
        Complexity::Linear => ("linear", None, None),
        Complexity::Polynomial { degree } => ("polynomial", Some(u64::from(*degree)), None),
        Complexity::Exponential => ("exponential", None, None),
        Complexity::Superlinear { at_least, at_most } => {
            let most = at_most.map_or_else(|| "exponential".to_owned(), |most| format!("n^{most}"));
            let reason = format!("at least n^{at_least} (the attack shows it), at most {most}");
            ("superlinear", Some(u64::from(*at_least)), Some(reason))
        }
        Complexity::Unknown { reason } => ("unknown", None, Some(reason.clone())),
        _ => ("unknown", None, Some("a kind of growth this server does not know".to_owned())),
    };
    let attack = risk.attack().map(|attack| response::Attack {
        prefix: attack.prefix().to_owned(),
        pump: attack.pump().to_owned(),
        suffix: attack.suffix().to_owned(),
    });
    let hotspot = risk
        .hotspot()
        .iter()
        .map(|span| response::Span { start: span.start as u64, end: span.end as u64 })
        .collect();
    Ok(response::Backtracking {
        kind: response::BacktrackingTag::Tag,
        complexity: complexity.to_owned(),
        degree,
        reason,
        attack,
        hotspot,
    })
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use api_types::request::GenerateStringsRequest;
    use fair_codec::Keyring;
    use serde_json::json;

    use super::*;

    fn codec() -> FairCodec {
        FairCodec::new(Keyring::development())
    }

    /// Checks `input` with no cache.
    fn check(input: TermInput, codec: &FairCodec) -> Result<Term, HttpError> {
        let cache = TermCache::new(0, 0);
        Checker { codec, cache: &cache, budget: &Budget::unlimited() }.term(input)
    }

    fn params(body: serde_json::Value) -> GenerateParams {
        let request: GenerateStringsRequest = serde_json::from_value(body).unwrap();
        let limits = api_types::request::RequestLimits { max_terms: 10, max_timeout_ms: 1_000 };
        request.validate(&limits).unwrap().1
    }

    #[test]
    fn fair_terms_are_decoded_when_checked() {
        let codec = codec();
        let dfa =
            Language::from_regex("a|b").unwrap().to_dfa(&Budget::unlimited()).unwrap().clone();
        let text = codec.encode(&dfa.to_graph());
        let term = check(TermInput::Fair(text.clone()), &codec).unwrap();
        assert!(matches!(&term.input, Input::Fair(graph) if graph.is_deterministic()));
        let language = term.language(&Budget::unlimited()).unwrap();
        let same = Language::from_regex("[ab]").unwrap();
        assert_eq!(language.equivalence_witness(&same, &Budget::unlimited()).unwrap(), None);
        let flipped = if text.as_bytes()[12] == b'A' { "B" } else { "A" };
        let forged = format!("{}{flipped}{}", &text[..12], &text[13..]);
        let err = check(TermInput::Fair(forged), &codec).unwrap_err();
        assert_eq!(err.code(), ErrorCode::FairSyntaxError);
    }

    /// A term found in the cache is kept again only when its job built the automaton: the
    /// next request then gets the built language.
    #[test]
    fn a_cached_term_is_kept_again_once_built() {
        let (codec, cache, budget) = (codec(), TermCache::new(16, 1 << 20), Budget::unlimited());
        let checker = Checker { codec: &codec, cache: &cache, budget: &budget };
        let input = || TermInput::Regex { pattern: "[a-c]{2}x".to_owned(), dialect: Dialect::Rust };
        let first = checker.term(input()).unwrap();
        assert!(first.cached_built.is_none());
        first.language(&budget).unwrap();
        first.keep(&cache);
        let second = checker.term(input()).unwrap();
        assert_eq!(second.cached_built, Some(false));
        second.language(&budget).unwrap().to_dfa(&budget).unwrap();
        second.keep(&cache);
        let third = checker.term(input()).unwrap();
        assert_eq!(third.cached_built, Some(true));
    }

    #[test]
    fn patterns_are_deterministic_when_one_unambiguous() {
        let deterministic = |pattern: &str| {
            let input = TermInput::Regex { pattern: pattern.to_owned(), dialect: Dialect::Rust };
            let term = check(input, &codec()).unwrap();
            term.is_deterministic(&Budget::unlimited()).unwrap()
        };
        assert!(deterministic("abc") && deterministic("a*b"));
        assert!(!deterministic("ab|ac") && !deterministic("(a|b)*abb"));
    }

    #[test]
    fn generation_parameters_become_langcore_options() {
        let body = json!({
            "term": { "type": "regex", "value": "a" }, "limit": 7, "offset": 3, "minLength": 1,
            "maxLength": 9, "pathOrder": "interleave", "characterOrder": "shuffled", "seed": 5,
            "charset": "[a-c]",
        });
        let options = generate_options(params(body), &Budget::unlimited()).unwrap();
        let expected = GenerateOptions::default()
            .with_limit(7)
            .with_offset(3)
            .with_min_length(1)
            .with_max_length(9)
            .with_path_order(langcore::PathOrder::Interleave)
            .with_char_order(langcore::CharOrder::Shuffled)
            .with_seed(5)
            .with_charset(Some(CharSet::range('a', 'c')));
        assert_eq!(options, expected);
    }

    /// The charset is parsed under the request's budget: a bad class is a syntax error, and
    /// a budget already spent stops the parse.
    #[test]
    fn the_charset_is_parsed_under_the_budget() {
        let with_charset = |charset: &str| {
            params(
                json!({ "term": { "type": "regex", "value": "a" }, "limit": 1, "charset": charset }),
            )
        };
        let err = generate_options(with_charset("a|b"), &Budget::unlimited()).unwrap_err();
        assert_eq!(err.code(), ErrorCode::RegexSyntaxError);
        let spent = Budget::unlimited().with_deadline(Instant::now());
        let err = generate_options(with_charset("[a-z]"), &spent).unwrap_err();
        assert_eq!(err.code(), ErrorCode::TimeoutExceeded);
        let small = Budget::unlimited().with_max_memory(1_000);
        let err = generate_options(with_charset(&"a".repeat(100)), &small).unwrap_err();
        assert_eq!(err.code(), ErrorCode::AutomatonTooManyStates);
    }
}
