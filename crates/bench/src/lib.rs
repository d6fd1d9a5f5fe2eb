//! Benchmark workloads for relang, defined once as data and run on relang and, with the
//! `peer` feature, on regexsolver 1.1.0.
//!
//! # Overview
//! - [`load`] reads `bench/workloads.toml` (compiled in) into validated [`Workload`]s: a
//!   name, an [`Operation`], pattern terms and the [`Expected`] answer.
//! - [`run_relang`] runs a workload on relang, end to end from the patterns (also in two
//!   phases, [`build_relang_terms`] and [`apply_relang`]);
//!   `run_peer` (feature `peer`) runs it on regexsolver's `Term` API.
//! - [`assert_expected`] checks an [`Outcome`] against the workload and panics on a wrong
//!   answer, so a bench run or test fails loudly.
//! - [`load_generate`] reads `bench/generate_workloads.toml` into [`GenerateWorkload`]s:
//!   pages of strings to generate; [`generate_relang`] (and `generate_peer` with `peer`)
//!   generates one, and [`assert_page`] checks it with the `regex` crate as the oracle.
//!
//! The criterion benches `benches/algebra.rs` and `benches/generate.rs` time every workload
//! on both engines; the numbers are in `docs/benchmarks.md`. The unit tests check every expected answer on
//! relang, and on regexsolver when `peer` is on, so `cargo test` catches a broken workload
//! or a wrong engine answer.
//!
//! # Example
//! ```
//! use langcore::Budget;
//! use relang_bench::{assert_expected, load, run_relang};
//!
//! for workload in load() {
//!     assert_expected("relang", &workload, &run_relang(&workload, &Budget::unlimited()));
//! }
//! ```
//!
//! # Features
//! - `peer`: also build `run_peer` on `regexsolver = "=1.1.0"` with its default features
//!   (what its users get). Off by default, so `cargo build --workspace` never compiles it.

#![deny(missing_docs)]

mod generation;
mod outcome;
#[cfg(feature = "peer")]
mod peer;
mod relang;
mod workload;

#[cfg(test)]
mod tests;

pub use generation::{
    GENERATE_WORKLOADS_TOML, GenerateWorkload, assert_page, generate_relang, generate_relang_from,
    load_generate, page_mismatch, parse_generate,
};
#[cfg(feature = "peer")]
pub use generation::{build_peer_term, generate_peer, generate_peer_from};
pub use outcome::{EngineLanguage, Outcome, assert_expected, mismatch};
#[cfg(feature = "peer")]
pub use peer::run_peer;
pub use relang::{apply_relang, build_relang_terms, run_relang};
pub use workload::{Count, Expected, LoadError, Operation, WORKLOADS_TOML, Workload, load, parse};
