//! HTTP tests of the real application: in process, and over a socket on port 0.

mod analyze;
mod auth;
mod browser;
mod compute;
mod deadlines;
mod dialects;
mod draining;
mod e2e;
mod generate;
mod isolation;
mod limits;
mod malformed;
mod metrics;
mod nfa_first;
mod operation;
mod parsing_limits;
mod playground;
mod python_client;
mod readme;
mod real_patterns;
mod redis_quota;
mod shared_rate;
mod stress;
mod support;
mod term_cache;
mod transport;
