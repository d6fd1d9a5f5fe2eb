//! The relang v1 wire schema: requests, responses, validation, error codes and OpenAPI.
//!
//! # Overview
//! - [`request`]: every request body as it arrives (`TermRequest`, `TwoTermsRequest`,
//!   `MultiTermsRequest`, `RepeatRequest`, `GenerateStringsRequest`), each with a `validate`
//!   that returns checked values or the contract's error.
//! - [`response`]: the success envelope and every `data` type.
//! - [`ErrorCode`] with its HTTP status (the only such table), [`ApiError`] and
//!   [`ErrorBody`], the error envelope.
//! - [`ENDPOINTS`] and [`openapi`]: the endpoint table and the generated OpenAPI document.
//!
//! This crate knows nothing of automata or HTTP frameworks: it is the contract in types.

#![deny(missing_docs)]

mod endpoints;
mod error;
pub mod request;
pub mod response;

pub use endpoints::{ENDPOINTS, EXTENSIONS, Endpoint, Method, openapi};
pub use error::{ApiError, ErrorBody, ErrorCode};
