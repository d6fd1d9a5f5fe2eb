//! The one error type of langcore: what went wrong, by phase.

use std::fmt;

use crate::budget::BudgetError;
use crate::syntax::ParseError;

/// Any failure of a langcore operation.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The pattern is not valid in the relang dialect.
    Parse(ParseError),
    /// The operation ran out of its [`Budget`](crate::Budget).
    Budget(BudgetError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(err) => err.fmt(f),
            Error::Budget(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Parse(err) => Some(err),
            Error::Budget(err) => Some(err),
        }
    }
}

impl From<ParseError> for Error {
    fn from(err: ParseError) -> Error {
        Error::Parse(err)
    }
}

impl From<BudgetError> for Error {
    fn from(err: BudgetError) -> Error {
        Error::Budget(err)
    }
}
