//! Terms in and out: patterns and FAIR values to languages, languages to the requested form.

use api_types::ErrorCode;
use api_types::request::{Dialect, Options, ResponseFormat, TermInput};
use api_types::response::{FairMetadata, TermOutput};
use fair_codec::{DecodeError, FairCodec};
use langcore::graph::Graph;
use langcore::{Budget, Dfa, Language, Nfa};

use crate::error::HttpError;

/// The language of `term`: a pattern is parsed (its automaton is built when a question
/// needs it), a FAIR is decoded and minimized.
pub(crate) fn compile(
    term: &TermInput,
    codec: &FairCodec,
    budget: &Budget,
) -> Result<Language, HttpError> {
    match term {
        TermInput::Regex { pattern, dialect } => {
            Ok(Language::from_regex_in(pattern, engine_dialect(*dialect), budget)?)
        }
        TermInput::Fair(text) => {
            let graph = decode(codec, text)?;
            let dfa = if graph.is_deterministic() {
                Dfa::from_graph(&graph, budget)?
            } else {
                Dfa::from_nfa(&Nfa::from_graph(&graph), budget)?
            };
            Ok(Language::from_dfa(&dfa, budget)?)
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

/// Whether the automaton of `term` is deterministic: for a FAIR, the automaton it carries;
/// for a pattern, its position automaton (the NFA without ε-moves), deterministic exactly
/// when the pattern is one-unambiguous (`abc`, `a*b` yes; `ab|ac`, `(a|b)*abb` no).
pub(crate) fn is_deterministic(
    term: &TermInput,
    codec: &FairCodec,
    budget: &Budget,
) -> Result<bool, HttpError> {
    let graph = match term {
        TermInput::Regex { pattern, dialect } => {
            Nfa::from_regex_in(pattern, engine_dialect(*dialect), budget)?.to_graph(budget)?
        }
        TermInput::Fair(text) => decode(codec, text)?,
    };
    Ok(graph.is_deterministic())
}

/// `language` in the form `options` ask for: a pattern for `regex`, a FAIR of its minimal
/// DFA otherwise (it needs no conversion, so it is the cheapest faithful form for `any`).
pub(crate) fn output(
    language: &Language,
    options: &Options,
    codec: &FairCodec,
    budget: &Budget,
) -> Result<TermOutput, HttpError> {
    match options.format {
        ResponseFormat::Regex => Ok(TermOutput::Regex { value: language.to_pattern(budget)? }),
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

fn decode(codec: &FairCodec, text: &str) -> Result<Graph, HttpError> {
    codec
        .decode(text)
        .map_err(|err: DecodeError| HttpError::new(ErrorCode::FairSyntaxError, err.to_string()))
}
