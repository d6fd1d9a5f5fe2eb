//! The one error of decoding: which check rejected the value, with the limit or the part at fault.

use std::fmt;

use langcore::graph::GraphError;

/// A FAIR value was rejected. The server maps every one of these to 400 `FairSyntaxError`.
///
/// [`kind`](DecodeError::kind) says which check failed; [`source`](std::error::Error::source)
/// carries the underlying base64 or postcard error where there is one.
#[derive(Debug)]
pub struct DecodeError {
    kind: DecodeErrorKind,
    source: Option<Box<dyn std::error::Error + Send + Sync>>,
}

/// Which check rejected a FAIR value. The checks run in the order of the variants.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The text is longer than the limit (checked before anything is decoded).
    TooLong {
        /// The text's length in bytes.
        len: usize,
        /// The limit, [`DecodeLimits::max_text_len`](crate::DecodeLimits::max_text_len).
        limit: usize,
    },
    /// The text is not URL-safe base64 without padding (or has non-zero trailing bits).
    InvalidBase64,
    /// The bytes are too few to hold a header and a MAC.
    TooShort {
        /// The number of decoded bytes.
        len: usize,
        /// The least number of bytes of a value.
        min: usize,
    },
    /// The format version is not one this build reads.
    UnsupportedVersion {
        /// The version in the value.
        found: u8,
        /// The version this build reads.
        supported: u8,
    },
    /// The MAC does not match under any key of the keyring: the value was altered or
    /// truncated, or signed with a key this keyring does not hold.
    MacMismatch,
    /// The header has flags this version does not define.
    UnknownFlags {
        /// The flags byte.
        flags: u8,
    },
    /// The payload does not follow the format.
    Malformed {
        /// What is wrong with it.
        what: &'static str,
    },
    /// The automaton is over a limit or inconsistent (a target out of range, an empty label).
    Automaton(GraphError),
    /// The header's deterministic flag disagrees with the automaton.
    DeterministicFlag {
        /// The flag in the header.
        recorded: bool,
    },
}

impl DecodeError {
    /// Which check failed.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.kind
    }

    pub(crate) fn new(kind: DecodeErrorKind) -> DecodeError {
        DecodeError { kind, source: None }
    }

    pub(crate) fn with_source(
        kind: DecodeErrorKind,
        source: impl std::error::Error + Send + Sync + 'static,
    ) -> DecodeError {
        DecodeError { kind, source: Some(Box::new(source)) }
    }

    pub(crate) fn malformed(what: &'static str) -> DecodeError {
        DecodeError::new(DecodeErrorKind::Malformed { what })
    }
}

impl From<GraphError> for DecodeError {
    fn from(err: GraphError) -> DecodeError {
        DecodeError::new(DecodeErrorKind::Automaton(err))
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid FAIR value: {}", self.kind)
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::TooLong { len, limit } => {
                write!(f, "{len} bytes of text exceed the limit of {limit}")
            }
            DecodeErrorKind::InvalidBase64 => f.write_str("not URL-safe base64 without padding"),
            DecodeErrorKind::TooShort { len, min } => {
                write!(f, "{len} bytes are too few for a header and a MAC ({min})")
            }
            DecodeErrorKind::UnsupportedVersion { found, supported } => {
                write!(f, "format version {found} is not supported (this build reads {supported})")
            }
            DecodeErrorKind::MacMismatch => f.write_str(
                "the MAC does not match: the value was altered, or signed with an unknown key",
            ),
            DecodeErrorKind::UnknownFlags { flags } => {
                write!(f, "unknown header flags {flags:#04x}")
            }
            DecodeErrorKind::Malformed { what } => write!(f, "malformed payload: {what}"),
            DecodeErrorKind::Automaton(err) => write!(f, "invalid automaton: {err}"),
            DecodeErrorKind::DeterministicFlag { recorded: true } => {
                f.write_str("the header says deterministic, but the automaton is not")
            }
            DecodeErrorKind::DeterministicFlag { recorded: false } => {
                f.write_str("the header says nondeterministic, but the automaton is deterministic")
            }
        }
    }
}

impl std::error::Error for DecodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match (&self.kind, &self.source) {
            (DecodeErrorKind::Automaton(err), _) => Some(err),
            (_, Some(source)) => Some(source.as_ref()),
            (_, None) => None,
        }
    }
}
