//! The FAIR format: a `langcore` automaton as an opaque, printable, integrity-protected string.
//!
//! FAIR values are how users carry automata between calls and store them: the service returns
//! one, and any instance sharing its key accepts it back, in this release and every later
//! one. A value is versioned, compact, signed with a keyed MAC, and printable in URLs and
//! JSON without escaping. No crafted value can crash, stall or fool the decoder: every
//! failure is a [`DecodeError`] saying which check failed.
//!
//! # Should I use this crate?
//! Use it to store or send a [`langcore::graph::Graph`] (from [`langcore::Dfa::to_graph`] or
//! [`langcore::Nfa::to_graph`]) to a party that must not be able to forge or alter it. The
//! payload is *not* encrypted: anyone can read the automaton out of a value, only the
//! keyring's holders can make one.
//!
//! # Contents
//! - [`FairCodec`]: [`encode`](FairCodec::encode) a graph, [`decode`](FairCodec::decode) text.
//! - [`Keyring`]: one signing key and older verifying keys, for rotation;
//!   [`Keyring::development`] for tests and local runs.
//! - [`DecodeLimits`]: the longest text and the largest automaton a decoder accepts.
//! - [`DecodeError`] and [`DecodeErrorKind`]: which check failed; [`KeyError`]: a key too
//!   short.
//!
//! # Example
//! ```
//! use fair_codec::{FairCodec, Keyring};
//! use langcore::{Budget, Dfa, Nfa};
//!
//! let codec = FairCodec::new(Keyring::development());
//! let dfa = Dfa::from_regex("(abc|de){2}")?;
//! let text = codec.encode(&dfa.to_graph());
//! assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
//!
//! let graph = codec.decode(&text)?;
//! assert!(graph.is_deterministic());
//! assert_eq!(Dfa::from_graph(&graph, &Budget::default())?, dfa);
//!
//! // NFAs travel too, with their ε-moves removed; the flag says they are not deterministic.
//! let graph = codec.decode(&codec.encode(&Nfa::from_regex("ab|ac")?.to_graph(&Budget::default())?))?;
//! assert!(!graph.is_deterministic());
//! assert!(Nfa::from_graph(&graph).matches("ac"));
//!
//! // Altered values are rejected.
//! let mut altered = text.into_bytes();
//! altered[10] = if altered[10] == b'A' { b'B' } else { b'A' };
//! assert!(codec.decode(std::str::from_utf8(&altered)?).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The format, version 1
//! ```text
//! text  = base64url-without-padding(bytes)                      (RFC 4648 §5, canonical)
//! bytes = version (1 byte, = 1) ‖ flags (1 byte) ‖ payload ‖ tag (32 bytes)
//! flags = 1 if the automaton is deterministic, else 0             (other bits are errors)
//! tag   = HMAC-SHA256(key, version ‖ flags ‖ payload)
//! payload = postcard of, in order:
//!   start   varint                     the start state
//!   states  seq of varint              per state: 2 × its number of moves + (1 if accepting)
//!   moves   seq of (varint, varint)    per move, state by state: (label index, target)
//!   labels  seq of varint              per label, numbered by first use: its number of ranges
//!   ranges  seq of (varint, varint)    per range, label by label: (skip, extra) in rank space
//! ```
//! A *rank* counts scalar values without the surrogates (U+E000 has rank 0xD800). A label's
//! range starts `skip` ranks after the earliest start allowed (0 for its first range, two
//! ranks past the previous range's end after that, so ranges never touch) and ends `extra`
//! ranks later. Encoding is canonical: the same graph always gives the same bytes, and
//! decoding rejects any other spelling of a graph.
//!
//! No compression: it does not pay for the automata FAIR values carry (see
//! `docs/decisions.md`).
//!
//! # Compatibility
//! A value written by any release must decode in every later release that shares the key.
//! The layout above is frozen for version 1; a change of layout is a new version, and a new
//! release still reads every older version. `tests/data/golden.txt` holds values signed with
//! [`DEVELOPMENT_KEY`]; the tests decode them all, and the file only ever grows.
//!
//! # Decoding checks
//! In order, each a [`DecodeErrorKind`]: text length ([`DecodeLimits::max_text_len`]), base64,
//! byte length, version, MAC (constant-time, against every key of the keyring), flags,
//! payload structure (sequence lengths are never trusted: nothing is reserved beyond a small
//! constant before items are read), counts against [`GraphLimits`](langcore::graph::GraphLimits)
//! (states, moves, and label ranges summed over moves, before any label is built), targets
//! and labels ([`Graph::new`](langcore::graph::Graph::new)), and last the deterministic flag.

#![deny(missing_docs)]

mod codec;
mod error;
mod keyring;
mod payload;

pub use codec::{DEFAULT_MAX_TEXT_LEN, DecodeLimits, FORMAT_VERSION, FairCodec};
pub use error::{DecodeError, DecodeErrorKind};
pub use keyring::{DEVELOPMENT_KEY, KeyError, Keyring, MIN_KEY_LEN};
