//! The one error type of langcore: what went wrong, by phase.

use std::fmt;
use std::ops::Range;

use crate::budget::BudgetError;
use crate::graph::GraphError;

/// Any failure of a langcore operation.
///
/// # Example
/// ```
/// use langcore::{Budget, Error, Language};
///
/// assert!(matches!(Language::from_regex("a(?|b)"), Err(Error::Parse(_))));
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

/// A pattern that is not valid in the relang dialect, with the span that is at fault.
///
/// # Example
/// ```
/// use langcore::alphabet::CharSet;
///
/// // The error points at the bracket that is never closed.
/// let err = CharSet::parse("[a-z").unwrap_err();
/// assert_eq!(err.span(), 0..1);
/// assert!(err.to_string().ends_with("(at 0..1: `[`)"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    message: String,
    span: Range<usize>,
    snippet: String,
    /// Whether the pattern is valid but its construct is not regular or not supported.
    unsupported: bool,
}

impl ParseError {
    /// A syntax error at byte range `span` of `pattern`.
    pub(crate) fn at(pattern: &str, message: impl fmt::Display, span: Range<usize>) -> ParseError {
        let snippet = snippet(pattern, &span);
        ParseError { message: message.to_string(), snippet, span, unsupported: false }
    }

    /// A valid construct at `span` that relang cannot read exactly (not regular, or not
    /// supported yet): the message says which.
    pub(crate) fn unsupported_at(
        pattern: &str,
        message: impl fmt::Display,
        span: Range<usize>,
    ) -> ParseError {
        ParseError { unsupported: true, ..ParseError::at(pattern, message, span) }
    }

    /// Whether this error is about a valid construct relang does not read (not regular,
    /// or not supported yet) rather than about invalid syntax.
    ///
    /// # Example
    /// ```
    /// use langcore::{Error, Language};
    ///
    /// let Err(Error::Parse(err)) = Language::from_regex("(a+)\\1") else { panic!() };
    /// assert!(err.is_unsupported());
    /// let Err(Error::Parse(err)) = Language::from_regex("(a") else { panic!() };
    /// assert!(!err.is_unsupported());
    /// ```
    pub fn is_unsupported(&self) -> bool {
        self.unsupported
    }

    /// What is wrong, without the position.
    ///
    /// # Example
    /// ```
    /// use langcore::{Error, Language};
    ///
    /// let Err(Error::Parse(err)) = Language::from_regex("([ab]+)\\1") else { panic!() };
    /// assert!(err.message().ends_with("not regular in general"));
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The byte range of the pattern at fault.
    ///
    /// # Example
    /// ```
    /// use langcore::{Error, Language};
    ///
    /// let pattern = "(a|b)+(?|b)";
    /// let Err(Error::Parse(err)) = Language::from_regex(pattern) else { panic!() };
    /// assert_eq!(&pattern[err.span()], "(?");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }
}

/// The text at `span`, shortened to a readable length.
fn snippet(pattern: &str, span: &Range<usize>) -> String {
    const MAX_CHARS: usize = 40;
    let text = pattern.get(span.clone()).unwrap_or_default();
    if text.chars().count() <= MAX_CHARS {
        text.to_owned()
    } else {
        let mut short: String = text.chars().take(MAX_CHARS).collect();
        short.push('…');
        short
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at {}..{}", self.message, self.span.start, self.span.end)?;
        if !self.snippet.is_empty() {
            write!(f, ": `{}`", self.snippet)?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for ParseError {}
