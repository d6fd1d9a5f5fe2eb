//! Operations that build a new language from the languages of existing DFAs.
//!
//! # Overview
//! - `product.rs`: the on-the-fly product of two DFAs, for boolean operations and for
//!   separating witnesses (subset, equivalence).
//! - `boolean.rs`: union, intersection, difference, complement.
//! - `lazy_product.rs`: emptiness of an intersection of NFAs, by their product explored
//!   on the fly up to the first accepting tuple (no DFA is built).
//! - `concat.rs`: the strings of several languages, one after another.
//! - `repeat.rs`: a language repeated a counted number of times, through the same
//!   expansion as counted repetition in patterns (`nfa/build.rs`).
//! - `rewire.rs`: reversal, prefix closure and suffix closure, read off one DFA's moves
//!   with other entries, acceptance or direction.
//! - `overlaps.rs`: which pairs of several languages intersect, each with its shortest,
//!   then smallest, common string, from one walk of the product of all.
//! - `quotient.rs`: left and right quotients, from the product of the two DFAs and then a
//!   rewiring of the dividend's.
//!
//! The methods of [`Dfa`] delegate here. Concatenation and repetition copy the trimmed parts of their
//! operands ([`Fragment`](crate::dfa::fragment::Fragment)) into one NFA, back to front as the regex
//! front end does, and returns that NFA's canonical minimal DFA.
//!
//! # Invariants
//! - Every result is canonical, like [`Dfa::from_regex`]'s: an operation and the pattern
//!   that spells it give `==` DFAs.

pub(crate) mod boolean;
mod concat;
mod lazy_product;
mod overlaps;
pub(crate) mod product;
mod quotient;
mod repeat;
pub(crate) mod rewire;

pub(crate) use lazy_product::intersection_is_empty;
pub use overlaps::Overlap;
pub(crate) use overlaps::overlaps;
pub(crate) use quotient::{left_quotient, right_quotient};
pub(crate) use rewire::{prefix_closure, reverse, suffix_closure};

use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::nfa::{NfaBuilder, State};
use crate::state_id::StateId;

/// The canonical minimal DFA of the NFA that `emit_body` builds before one accepting state.
///
/// `emit_body` gets the builder and the accepting state and returns the entry of the body;
/// NFA states count against `budget` as `op`.
fn minimal_dfa_of(
    budget: &Budget,
    op: Operation,
    emit_body: impl FnOnce(&mut NfaBuilder<'_>, StateId) -> Result<StateId, BudgetError>,
) -> Result<Dfa, BudgetError> {
    let mut builder = NfaBuilder::new(budget, op);
    let accept = builder.add(State { accepting: true, ..State::default() })?;
    let entry = emit_body(&mut builder, accept)?;
    Dfa::from_nfa(&builder.finish(entry), budget)
}
