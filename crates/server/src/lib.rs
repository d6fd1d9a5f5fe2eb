//! The relang HTTP service: configuration, routing and the JSON error envelope.
//!
//! `main.rs` only parses [`Config`] and runs an [`Application`] (or [`hash_token`] for the
//! `hash-token` subcommand); tests build the same application on port 0.

#![deny(missing_docs)]

mod answer_cache;
mod auth;
mod calendar;
mod config;
mod connection;
mod drain;
mod error;
mod log_writer;
mod logging;
mod metrics;
mod redis_link;
mod request_log;
mod routes;
mod runner;
mod scheduler;
mod startup;
mod state;
mod term_cache;
mod transport;
mod wire;

pub use auth::hash_token;
pub use config::{Command, Config, ConfigError, OutagePolicy, QuotaPeriod};
pub use log_writer::LogFlush;
pub use logging::{LogFormat, init as init_logging};
pub use startup::{Application, service};

/// The Rust snippets of docs/getting-started.md, run as doctests so they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/getting-started.md")]
pub struct GettingStartedDoctests;
