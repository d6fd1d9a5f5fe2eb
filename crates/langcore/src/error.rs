//! The one error type of langcore: what went wrong, by phase.

use std::fmt;

use crate::budget::BudgetError;
use crate::graph::GraphError;
use crate::syntax::ParseError;

/// Any failure of a langcore operation.
///
/// # Example
/// ```
/// use langcore::{Budget, Error, Language};
///
/// assert!(matches!(Language::from_regex("a(?>b)"), Err(Error::Parse(_))));
/// let err = Language::from_regex("a")?.repeat(3, Some(2), &Budget::default()).unwrap_err();
/// assert_eq!(err, Error::InvalidRepetition { min: 3, max: 2 });
/// assert_eq!(err.to_string(), "invalid repetition: min 3 is greater than max 2");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The pattern is not valid in the relang dialect.
    Parse(ParseError),
    /// The operation ran out of its [`Budget`](crate::Budget).
    Budget(BudgetError),
    /// A repetition's `min` is greater than its `max`: rejected rather than read as the
    /// empty language, as `a{3,2}` is in a pattern.
    InvalidRepetition {
        /// The least number of copies asked for.
        min: u32,
        /// The greatest number of copies asked for, below `min`.
        max: u32,
    },
    /// A [`Graph`](crate::graph::Graph) does not fit the operation, such as a
    /// nondeterministic graph given to [`Dfa::from_graph`](crate::Dfa::from_graph).
    Graph(GraphError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse(err) => err.fmt(f),
            Error::Budget(err) => err.fmt(f),
            Error::InvalidRepetition { min, max } => {
                write!(f, "invalid repetition: min {min} is greater than max {max}")
            }
            Error::Graph(err) => err.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Parse(err) => Some(err),
            Error::Budget(err) => Some(err),
            Error::Graph(err) => Some(err),
            Error::InvalidRepetition { .. } => None,
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

impl From<GraphError> for Error {
    fn from(err: GraphError) -> Error {
        Error::Graph(err)
    }
}
