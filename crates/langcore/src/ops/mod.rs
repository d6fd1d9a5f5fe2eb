//! Operations that build new languages from others, one family per file.
//!
//! - `product.rs`: the on-the-fly product of two DFAs, for boolean operations and for
//!   separating witnesses (subset, equivalence).
//! - `boolean.rs`: union, intersection, difference, complement.

pub(crate) mod boolean;
pub(crate) mod product;
