//! The relang v1 wire schema: error codes and the response envelope.
//!
//! # Overview
//! - [`ErrorCode`]: every `errorCode` of the contract, with its HTTP status. This table is
//!   the only place that maps failures to statuses.
//! - [`ErrorBody`]: the error envelope `{"success": false, "error": ..., "errorCode": ...}`.
//!
//! Request and response types for the endpoints join this crate with the endpoints.

#![deny(missing_docs)]

mod error;

pub use error::{ErrorBody, ErrorCode};
