//! Input terms to automata.

use api_types::ErrorCode;
use api_types::request::TermInput;
use langcore::{Budget, Dfa};

use crate::error::HttpError;

/// The canonical minimal DFA of `term`.
pub(crate) fn compile(term: &TermInput, budget: &Budget) -> Result<Dfa, HttpError> {
    match term {
        TermInput::Regex(pattern) => Ok(Dfa::from_regex_with(pattern, budget)?),
        TermInput::Fair(_) => Err(HttpError::new(
            ErrorCode::FairSyntaxError,
            "FAIR terms are not readable by this build yet",
        )),
    }
}
