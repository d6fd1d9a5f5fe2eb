//! HTTP tests of the real application: in process, and over a socket on port 0.

mod analyze;
mod auth;
mod compute;
mod e2e;
mod isolation;
mod python_client;
mod support;
mod transport;
