//! HTTP tests of the real application: in process, and over a socket on port 0.

mod analyze;
mod auth;
mod browser;
mod compute;
mod deadlines;
mod e2e;
mod generate;
mod isolation;
mod malformed;
mod operation;
mod parsing_limits;
mod playground;
mod python_client;
mod redis_quota;
mod stress;
mod support;
mod transport;
