//! Benchmark workloads for relang, defined once as data and checked on every run.
//!
//! # Overview
//! - [`load`] reads `bench/workloads.toml` (compiled in) into validated [`Workload`]s: a
//!   name, an [`Operation`], pattern terms and the [`Expected`] answer.
//! - [`run_relang`] runs a workload on relang, end to end from the patterns.
//! - [`assert_expected`] checks an [`Outcome`] against the workload and panics on a wrong
//!   answer, so a bench run or test fails loudly.
//!
//! The unit tests check every expected answer on relang, so `cargo test` catches a broken
//! workload or a wrong engine answer.
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

#![deny(missing_docs)]

mod outcome;
mod relang;
mod workload;

#[cfg(test)]
mod tests;

pub use outcome::{Language, Outcome, assert_expected, mismatch};
pub use relang::{apply_relang, build_relang_terms, run_relang};
pub use workload::{Count, Expected, LoadError, Operation, WORKLOADS_TOML, Workload, load, parse};
