//! langcore's integration tests: the public API against oracles and the dialect rules.

mod analysis;
mod budget;
mod dialect;
mod minimal;
mod oracle;
mod patterns;
