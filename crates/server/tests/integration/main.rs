//! HTTP tests of the real application: in process, and over a socket on port 0.

mod analyze;
mod auth;
mod compute;
mod e2e;
mod generate;
mod isolation;
mod malformed;
mod python_client;
mod redis_quota;
mod support;
mod transport;
