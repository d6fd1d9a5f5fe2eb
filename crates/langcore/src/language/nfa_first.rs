//! The questions a [`Language`] answers from its NFA, while its DFA is not built.
//!
//! # Overview
//! A language's NFA is linear in its term; its DFA can be exponential, and most questions
//! do not need it. Each function here answers one question from the smallest structure
//! that decides it, and returns `None` when the language is built (its DFA answers
//! directly):
//! - [`trim`]: emptiness, {""}, infiniteness and lengths on the trimmed NFA
//!   (`nfa/analysis.rs`), kept with the language once found ([`TrimFacts`]), so that asking
//!   again (a language shared by a cache, say) builds no NFA;
//! - [`separating_string`]: inclusion and equivalence witnesses, shortest then smallest,
//!   by the antichain search of `nfa/inclusion.rs`, or for equivalence by the joint subset
//!   walk of `dfa/determinize.rs` on small languages and bisimulation up to congruence
//!   (`nfa/congruence.rs`) on large ones (between them, the DFAs when they fit);
//! - [`build_unless_empty`] with [`intersection_is_empty`]: when the product of DFAs for an
//!   intersection or difference outgrows a first limit, whether it is empty is decided on
//!   the NFAs (the product of the operands' NFAs explored up to its first accepting tuple,
//!   `ops/lazy_product.rs`, or the inclusion search);
//! - [`is_total`]: whether every string is in it, as the inclusion of all strings;
//! - [`to_dot`]: the minimal DFA's drawing when it fits a share of the budget, else the
//!   trimmed ε-free NFA's, marked as such (`dot.rs`).
//!
//! Minimal DFAs stay the canonical form of every returned language: these answers only
//! decide, or decide that nothing needs to be built (an empty intersection).
//!
//! # Budgets
//! The NFAs count their states against the budget as they are built; the searches charge
//! their own states ([`Operation::Product`]).

use super::Language;
use super::term::{self, TrimFacts};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::determinize;
use crate::dot;
use crate::error::Error;
use crate::nfa::{Nfa, NfaTrim, equivalence_witness, inclusion_witness};
use crate::ops::product;
use crate::to_regex::time_share;
use crate::witness::BoolOp;

/// The answer `question` gives on the facts of the trimmed NFA of `language`, or `None`
/// when its DFA is built. The facts are kept with the language: the NFA is built once.
pub(super) fn trim<T>(
    language: &Language,
    budget: &Budget,
    question: impl FnOnce(&TrimFacts) -> T,
) -> Result<Option<T>, Error> {
    if language.0.built().is_some() {
        return Ok(None);
    }
    if let Some(facts) = language.0.facts.get() {
        return Ok(Some(question(facts)));
    }
    let nfa = term::to_nfa(language, Operation::BuildNfa, budget)?;
    let facts = TrimFacts::of(&NfaTrim::new(&nfa));
    Ok(Some(question(language.0.facts.get_or_init(|| facts))))
}

/// Whether `language` holds every string, or `None` when its DFA is built.
pub(super) fn is_total(language: &Language, budget: &Budget) -> Result<Option<bool>, Error> {
    if language.0.built().is_some() {
        return Ok(None);
    }
    let witness = separating_string(&Language::total(), language, BoolOp::Difference, budget)?;
    Ok(Some(witness.is_none()))
}

/// The shortest, then smallest, string after which `found(in left, in right)` holds;
/// `found` is [`BoolOp::Difference`] or [`BoolOp::SymmetricDifference`].
///
/// Unless both are built, a first search runs under a state limit of 8 per NFA state (plus
/// 4,096): for inclusion the antichain search of `nfa/inclusion.rs`, which explores only
/// what the left language reaches; for equivalence, where both sides matter, the joint
/// subset walk of one NFA holding both (`dfa/determinize.rs`), the cheapest on small
/// languages, cut at [`JOINT_WALK_MEMORY_SHARE`] of the memory limit, and when that share
/// ran out (large subsets, slow to find, as on a 2,000-character validator), bisimulation up to
/// congruence (`nfa/congruence.rs`), which on large languages explores far fewer pairs.
/// Past that limit the DFAs may well be small (the simulation of `dfa/determinize.rs`
/// collapses counted repetitions that no search does), so they are built, under the same
/// limit, and compared; when they do not fit either, the search on the NFAs (antichains
/// for inclusion, congruence for equivalence) goes on under the whole budget.
pub(super) fn separating_string(
    left: &Language,
    right: &Language,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, Error> {
    if let (Some(left), Some(right)) = (left.0.built(), right.0.built()) {
        return Ok(product::separating_string(left, right, found, budget)?);
    }
    let nfas = |budget: &Budget| -> Result<(Nfa, Nfa), BudgetError> {
        let left = term::to_nfa(left, Operation::BuildNfa, budget)?;
        Ok((left, term::to_nfa(right, Operation::BuildNfa, budget)?))
    };
    let within = |limit: usize| budget.with_max_states(limit.min(budget.max_states()));
    // The first limit, and the NFAs when the search on them goes before the DFAs.
    let (first, limit) = if found == BoolOp::Difference {
        let (left_nfa, right_nfa) = nfas(budget)?;
        let limit = first_limit(left_nfa.n_states() + right_nfa.n_states());
        (Some((left_nfa, right_nfa)), limit)
    } else {
        let (nfa, left_accept, right_accept) = term::to_pair_nfa(left, right, budget)?;
        let limit = first_limit(nfa.n_states());
        let share_limit = budget.max_memory() / JOINT_WALK_MEMORY_SHARE;
        let share = within(limit).with_max_memory(share_limit);
        // Small subsets, quick to find but many: the DFAs under the same limit are cheap to
        // try first. Subsets too large for the share: so would the DFAs' be.
        let slow =
            match determinize::separating_string(&nfa, left_accept, right_accept, found, &share) {
                Err(BudgetError::TooManyStates { limit: hit, .. }) if hit == limit => false,
                Err(BudgetError::TooMuchMemory { limit: hit, .. }) if hit == share_limit => true,
                other => return Ok(other?),
            };
        (if slow { Some(nfas(budget)?) } else { None }, limit)
    };
    if let Some((left_nfa, right_nfa)) = first {
        match on_nfas(&left_nfa, &right_nfa, found, &within(limit)) {
            Err(BudgetError::TooManyStates { limit: hit, .. }) if hit == limit => {}
            other => return Ok(other?),
        }
    }
    if let (Ok(left), Ok(right)) = (left.to_dfa(&within(limit)), right.to_dfa(&within(limit))) {
        return Ok(product::separating_string(left, right, found, budget)?);
    }
    // Built again: a DFA built above gives a smaller NFA.
    let (left_nfa, right_nfa) = nfas(budget)?;
    Ok(on_nfas(&left_nfa, &right_nfa, found, budget)?)
}

/// The share of the memory limit (a 64th: 4 MiB of the default 256 MiB) that the joint
/// subset walk of an equivalence may take: it answers small languages at once, and on
/// large ones it is a full subset construction of large subsets (the 2,084-character
/// street-name stand-in against a respelling of itself: seconds, where bisimulation up to
/// congruence takes 0.3 s). A share of memory rather than of time, so that which search
/// answers does not depend on the machine's speed.
const JOINT_WALK_MEMORY_SHARE: usize = 64;

/// The states a first search may use: 8 per NFA state, plus 4,096.
fn first_limit(n_states: usize) -> usize {
    n_states.saturating_mul(8).saturating_add(4096)
}

/// [`separating_string`] on NFAs: by the antichain search for inclusion, by bisimulation
/// up to congruence (`nfa/congruence.rs`) for equivalence.
fn on_nfas(
    left: &Nfa,
    right: &Nfa,
    found: BoolOp,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    if found == BoolOp::Difference {
        inclusion_witness(left, right, None, budget)
    } else {
        equivalence_witness(left, right, budget)
    }
}

/// Whether no string is in every one of `operands`, decided on the NFAs of their terms
/// (smaller than their DFAs, which a first attempt at the product may have built).
pub(super) fn intersection_is_empty(
    operands: &[&Language],
    budget: &Budget,
) -> Result<bool, Error> {
    let nfas = operands
        .iter()
        .map(|operand| term::to_term_nfa(operand, Operation::BuildNfa, budget))
        .collect::<Result<Vec<Nfa>, _>>()?;
    Ok(crate::ops::intersection_is_empty(&nfas.iter().collect::<Vec<_>>(), budget)?)
}

/// The share of the time left (a half) and of the memory limit (a sixteenth: 16 MiB of the
/// default 256 MiB) that building the minimal DFA for a drawing may take before the NFA is
/// drawn instead. A DFA of tens of thousands of states fits; the subsets of a
/// 2,000-character street-name validator (75,615 minimal states, 18 s) do not.
const DOT_FIRST_SHARE: (u32, usize) = (2, 16);

/// The Graphviz DOT text of `language`: its minimal DFA's (`Dfa::to_dot`) when that is
/// built, or builds within [`DOT_FIRST_SHARE`] of `budget` and its text fits the memory
/// limit; else the trimmed NFA of its term without ε-moves (`dot::nfa_to_dot`), whose text says
/// that it is not deterministic. Only a language built from an automaton is drawn from its
/// DFA whatever the cost: its NFA would be no smaller.
pub(super) fn to_dot(language: &Language, budget: &Budget) -> Result<String, Error> {
    if let Some(dfa) = language.0.built() {
        return Ok(dfa.to_dot(budget)?);
    }
    let (time_share_of, memory_share_of) = DOT_FIRST_SHARE;
    let first =
        time_share(budget, time_share_of).with_max_memory(budget.max_memory() / memory_share_of);
    let fitting = match language.to_dfa(&first) {
        Ok(dfa) => Some(dfa),
        Err(Error::Budget(
            BudgetError::TooManyStates { .. } | BudgetError::TooMuchMemory { .. },
        )) => None,
        // The share's deadline, not the budget's.
        Err(Error::Budget(BudgetError::Timeout { .. }))
            if budget.check_time(Operation::Dot).is_ok() =>
        {
            None
        }
        Err(err) => return Err(err),
    };
    // From the term: a DFA built above would copy into as large an NFA.
    let nfa = |budget: &Budget| term::to_term_nfa(language, Operation::BuildNfa, budget);
    let Some(dfa) = fitting else {
        return Ok(dot::nfa_to_dot(&nfa(budget)?, budget)?);
    };
    match dfa.to_dot(budget) {
        // Text too large: the NFA's can be smaller only with fewer states (`\p{L}{2000}`:
        // as many, with the same labels).
        Err(too_large @ BudgetError::TooMuchMemory { .. }) => {
            let nfa = nfa(budget)?;
            if nfa.n_states() >= dfa.n_states() {
                return Err(too_large.into());
            }
            Ok(dot::nfa_to_dot(&nfa, budget)?)
        }
        other => Ok(other?),
    }
}

/// The states a product of DFAs may use before its emptiness is decided on the NFAs.
const PRODUCT_FIRST_LIMIT: usize = 10_000;

/// The language `build` makes, first under [`PRODUCT_FIRST_LIMIT`] states: past that,
/// `is_empty` decides on the NFAs whether it is the empty language (`.*a.{10}` and
/// `.*b.{10}` have DFAs of 2^11 states and a product of 3^11, their NFAs a product of a
/// few hundred tuples), and only a non-empty one is built under the whole budget. A
/// product that fits pays nothing for the check.
pub(super) fn build_unless_empty(
    budget: &Budget,
    build: impl Fn(&Budget) -> Result<Language, Error>,
    is_empty: impl FnOnce(&Budget) -> Result<bool, Error>,
) -> Result<Language, Error> {
    if PRODUCT_FIRST_LIMIT < budget.max_states() {
        match build(&budget.with_max_states(PRODUCT_FIRST_LIMIT)) {
            Err(Error::Budget(BudgetError::TooManyStates { limit, .. }))
                if limit == PRODUCT_FIRST_LIMIT => {}
            other => return other,
        }
        if is_empty(budget)? {
            return Ok(Language::empty());
        }
    }
    build(budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Cardinality;
    use crate::dfa::Dfa;

    /// Issue 18: the facts of the trimmed NFA stay with the language, so asking again (a
    /// language shared by the server's cache) builds no NFA: the answers come back even
    /// under a budget no NFA fits, and they are the DFA's.
    #[test]
    fn trim_facts_are_kept_with_the_language() {
        let budget = Budget::default();
        let tiny = Budget::default().with_max_states(2);
        let fresh = Language::from_regex("(abc|de){2}").unwrap();
        assert!(fresh.is_empty(&tiny).is_err());
        for pattern in ["(abc|de){2}", "a+b*", "[a-c]{2,5}x?", "(ab){0}c{0}", "a[^\\s\\S]b"] {
            let language = Language::from_regex(pattern).unwrap();
            let dfa = Dfa::from_regex(pattern).unwrap();
            let expected = (dfa.is_empty(), dfa.is_empty_string(), dfa.length());
            let asked = |budget: &Budget| {
                let length = language.length(budget).unwrap();
                (
                    language.is_empty(budget).unwrap(),
                    language.is_empty_string(budget).unwrap(),
                    length,
                )
            };
            assert_eq!(asked(&budget), expected, "{pattern}");
            assert_eq!(asked(&tiny), expected, "{pattern}");
            assert!(!language.is_built(), "{pattern}");
        }
        let infinite = Language::from_regex("(a|b)*a(a|b){40}").unwrap();
        assert!(!infinite.is_empty(&budget).unwrap());
        assert_eq!(infinite.cardinality(&tiny).unwrap(), Cardinality::Infinite);
    }

    /// The minimal DFA is drawn when it fits a share of the budget, the trimmed NFA (and
    /// said so) when it does not: a budget of 1,000 states holds the NFA of
    /// `[ab]*a[ab]{12}` but not its 2^13-state DFA.
    #[test]
    fn drawings_fall_back_to_the_nfa() {
        let budget = Budget::default();
        let small = budget.with_max_states(1_000);
        let fits = Language::from_regex("[ab]*a[ab]{3}").unwrap();
        let expected = Dfa::from_regex("[ab]*a[ab]{3}").unwrap().to_dot(&budget).unwrap();
        assert_eq!(fits.to_dot(&small).unwrap(), expected);
        let window = Language::from_regex("[ab]*a[ab]{12}").unwrap();
        let dot = window.to_dot(&small).unwrap();
        assert!(dot.starts_with("digraph nfa {\n") && dot.contains(crate::dot::NFA_NOTE), "{dot}");
        assert!(!window.is_built());
        // Under a sixteenth of a memory limit that the DFA's table outgrows, likewise.
        let tight = budget.with_max_memory(2 << 20);
        assert!(
            Language::from_regex("[ab]*a[ab]{14}")
                .unwrap()
                .to_dot(&tight)
                .unwrap()
                .starts_with("digraph nfa")
        );
        // The whole budget still draws the DFA, and a language built from an automaton is
        // drawn from it or not at all.
        assert!(window.to_dot(&budget).unwrap().starts_with("digraph dfa"));
        let built =
            Language::from_dfa(&Dfa::from_regex("[ab]*a[ab]{12}").unwrap(), &budget).unwrap();
        assert!(built.to_dot(&small).unwrap().starts_with("digraph dfa"));
        // A budget that not even the NFA's drawing fits fails, naming it.
        let err = window.to_dot(&small.with_max_memory(1 << 10)).unwrap_err();
        assert!(matches!(err, Error::Budget(BudgetError::TooMuchMemory { .. })), "{err}");
    }
}
