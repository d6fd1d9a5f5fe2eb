//! The FAIR format: a `langcore` automaton as an opaque, printable, integrity-protected string.
//!
//! This crate is a placeholder in the workspace graph (`fair-codec -> langcore`); the codec
//! itself (versioned postcard payload, HMAC-SHA256 keyring, URL-safe base64, validation
//! before allocation) arrives with its own issue. It exports nothing yet, so nothing can
//! depend on behaviour it does not have.

#![deny(missing_docs)]
