//! The envelope of a FAIR value: version, flags, payload and MAC, in URL-safe base64.
//!
//! # Overview
//! - [`FairCodec`] encodes a [`Graph`] and decodes text back into one, with a [`Keyring`] and
//!   [`DecodeLimits`].
//! - [`DecodeLimits`]: the longest text accepted and the [`GraphLimits`] of the automaton.
//!
//! # Invariants
//! - Decoding checks, in order: the text length, base64, the length of the bytes, the version,
//!   the MAC, the flags, the payload (see `payload.rs`), the automaton, the deterministic
//!   flag. Nothing larger than the text is allocated before the MAC has matched.
//! - Encoding is a pure function of the graph and the signing key.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use langcore::graph::{Graph, GraphLimits};

use crate::error::{DecodeError, DecodeErrorKind};
use crate::keyring::{Keyring, TAG_LEN};
use crate::payload::Payload;

/// The format version this build writes and reads.
pub const FORMAT_VERSION: u8 = 1;
/// The default of [`DecodeLimits::max_text_len`]: 4 MiB of text.
pub const DEFAULT_MAX_TEXT_LEN: usize = 4 << 20;

/// The header's flag for a deterministic automaton; the other bits are zero.
const FLAG_DETERMINISTIC: u8 = 1;
/// The header: version and flags.
const HEADER_LEN: usize = 2;

/// How large a value [`FairCodec::decode`] accepts.
///
/// The default is bounded: [`DEFAULT_MAX_TEXT_LEN`] bytes of text and
/// [`GraphLimits::default`] for the automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeLimits {
    max_text_len: usize,
    graph: GraphLimits,
}

impl Default for DecodeLimits {
    fn default() -> Self {
        DecodeLimits { max_text_len: DEFAULT_MAX_TEXT_LEN, graph: GraphLimits::default() }
    }
}

impl DecodeLimits {
    /// Returns these limits with texts of at most `max_text_len` bytes.
    pub fn with_max_text_len(self, max_text_len: usize) -> Self {
        DecodeLimits { max_text_len, ..self }
    }

    /// Returns these limits with `graph` as the limits of the decoded automaton.
    pub fn with_graph_limits(self, graph: GraphLimits) -> Self {
        DecodeLimits { graph, ..self }
    }

    /// The longest text accepted, in bytes.
    pub fn max_text_len(&self) -> usize {
        self.max_text_len
    }

    /// The limits of the decoded automaton.
    pub fn graph_limits(&self) -> &GraphLimits {
        &self.graph
    }
}

/// Encodes automata as FAIR text and decodes FAIR text, with one keyring and one set of limits.
///
/// See the [crate docs](crate) for the format and an example.
#[derive(Clone, Debug)]
pub struct FairCodec {
    keyring: Keyring,
    limits: DecodeLimits,
}

impl FairCodec {
    /// A codec with `keyring` and the default [`DecodeLimits`].
    pub fn new(keyring: Keyring) -> FairCodec {
        FairCodec { keyring, limits: DecodeLimits::default() }
    }

    /// Returns this codec with `limits` for decoding.
    pub fn with_limits(self, limits: DecodeLimits) -> FairCodec {
        FairCodec { limits, ..self }
    }

    /// The keyring.
    pub fn keyring(&self) -> &Keyring {
        &self.keyring
    }

    /// The decoding limits.
    pub fn limits(&self) -> &DecodeLimits {
        &self.limits
    }

    /// The FAIR text of `graph`, signed with the keyring's signing key. The deterministic flag
    /// is [`Graph::is_deterministic`]. The same graph and key always give the same text.
    ///
    /// Encoding does not check [`DecodeLimits`]: a graph larger than a decoder's limits encodes,
    /// and that decoder rejects it.
    ///
    /// # Panics
    /// When a state has 2^31 moves or more, or the graph 2^32 distinct labels or more (such
    /// a graph would not fit in memory).
    pub fn encode(&self, graph: &Graph) -> String {
        let flags = if graph.is_deterministic() { FLAG_DETERMINISTIC } else { 0 };
        let bytes = postcard::to_extend(&Payload::from_graph(graph), vec![FORMAT_VERSION, flags]);
        let mut bytes = bytes.expect("postcard writes integers and sequences to a Vec infallibly");
        let tag = self.keyring.sign(&bytes);
        bytes.extend_from_slice(&tag);
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// The automaton of the FAIR value `text`, after every check (see the module docs); the
    /// deterministic flag is the graph's [`Graph::is_deterministic`].
    ///
    /// # Errors
    /// The first check that fails, as a [`DecodeError`] whose [`kind`](DecodeError::kind)
    /// names it.
    pub fn decode(&self, text: &str) -> Result<Graph, DecodeError> {
        let max_text_len = self.limits.max_text_len;
        if text.len() > max_text_len {
            return Err(DecodeError::new(DecodeErrorKind::TooLong {
                len: text.len(),
                limit: max_text_len,
            }));
        }
        let bytes = URL_SAFE_NO_PAD
            .decode(text)
            .map_err(|err| DecodeError::with_source(DecodeErrorKind::InvalidBase64, err))?;
        let min = HEADER_LEN + TAG_LEN;
        let too_short = || DecodeError::new(DecodeErrorKind::TooShort { len: bytes.len(), min });
        let &version = bytes.first().ok_or_else(too_short)?;
        if version != FORMAT_VERSION {
            return Err(DecodeError::new(DecodeErrorKind::UnsupportedVersion {
                found: version,
                supported: FORMAT_VERSION,
            }));
        }
        if bytes.len() < min {
            return Err(too_short());
        }
        let (signed, tag) = bytes.split_at(bytes.len() - TAG_LEN);
        if !self.keyring.verify(signed, tag) {
            return Err(DecodeError::new(DecodeErrorKind::MacMismatch));
        }
        let flags = signed[1];
        if flags & !FLAG_DETERMINISTIC != 0 {
            return Err(DecodeError::new(DecodeErrorKind::UnknownFlags { flags }));
        }
        let (payload, rest) =
            postcard::take_from_bytes::<Payload>(&signed[HEADER_LEN..]).map_err(|err| {
                let kind = DecodeErrorKind::Malformed { what: "not a postcard payload" };
                DecodeError::with_source(kind, err)
            })?;
        if !rest.is_empty() {
            return Err(DecodeError::malformed("bytes follow the payload"));
        }
        // postcard reads overlong varints (0xE1 0x00 for 0x61); only the shortest form is
        // canonical, and a non-canonical value would not re-encode to itself.
        let canonical = postcard::to_extend(&payload, Vec::with_capacity(signed.len()));
        if canonical.ok().as_deref() != Some(&signed[HEADER_LEN..]) {
            return Err(DecodeError::malformed("an integer is not in its shortest form"));
        }
        let graph = payload.to_graph(&self.limits.graph)?;
        let recorded = flags & FLAG_DETERMINISTIC != 0;
        if graph.is_deterministic() != recorded {
            return Err(DecodeError::new(DecodeErrorKind::DeterministicFlag { recorded }));
        }
        Ok(graph)
    }
}
