//! Yes-or-no questions about a language: is it empty, exactly the empty string, or everything.
//!
//! # Algorithm
//! - `is_empty`: no reachable state accepts. One breadth-first search, O(states × classes).
//! - `is_total`: every reachable state accepts, so no string can reach a rejecting state. The
//!   same search.
//! - `is_empty_string`: the start accepts and has no move to a useful state, so no non-empty
//!   string is accepted. One trim, O(states × classes).
//!
//! # Budgets
//! None: the work is linear in the DFA's table, which was bounded when the DFA was built.

use crate::dfa::Dfa;
use crate::dfa::trim::{Trim, reachable};

/// Whether the language has no strings at all.
pub(crate) fn is_empty(dfa: &Dfa) -> bool {
    let reachable = reachable(dfa);
    !dfa.states().any(|state| reachable[state.index()] && dfa.is_accepting(state))
}

/// Whether the language is exactly `{""}`.
pub(crate) fn is_empty_string(dfa: &Dfa) -> bool {
    dfa.is_accepting(dfa.start()) && Trim::new(dfa).edges(dfa.start()).is_empty()
}

/// Whether the language holds every string.
pub(crate) fn is_total(dfa: &Dfa) -> bool {
    let reachable = reachable(dfa);
    dfa.states().all(|state| !reachable[state.index()] || dfa.is_accepting(state))
}

impl Dfa {
    /// Whether the language has no strings at all.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::from_regex("[]")?.is_empty());
    /// assert!(!Dfa::from_regex("")?.is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        is_empty(self)
    }

    /// Whether the language is exactly `{""}`, the empty string alone.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::from_regex("(a{0})*")?.is_empty_string());
    /// assert!(!Dfa::from_regex("a?")?.is_empty_string());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty_string(&self) -> bool {
        is_empty_string(self)
    }

    /// Whether the language holds every string.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert!(Dfa::from_regex("(a|[^a])*")?.is_total());
    /// assert!(!Dfa::from_regex("a*|[^a]*")?.is_total(), "\"ab\" is in neither branch");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_total(&self) -> bool {
        is_total(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests::minimal_and_determinized;

    // `[]` is the empty language only as a whole pattern; inside one, `[^\s\S]` is.

    #[track_caller]
    fn check(pattern: &str, empty: bool, empty_string: bool, total: bool) {
        for dfa in minimal_and_determinized(pattern) {
            let answers = (is_empty(&dfa), is_empty_string(&dfa), is_total(&dfa));
            assert_eq!(answers, (empty, empty_string, total), "{pattern}: {dfa:?}");
        }
    }

    #[test]
    fn empty_language() {
        check("[]", true, false, false);
        check(r"a[^\s\S]b", true, false, false);
        check(r"(ab)*[^\s\S]", true, false, false);
    }

    #[test]
    fn empty_string_only() {
        check("", false, true, false);
        check("()", false, true, false);
        check("a{0}", false, true, false);
        check(r"[^\s\S]*", false, true, false);
        check(r"|[^\s\S]a", false, true, false);
    }

    #[test]
    fn every_string() {
        check(".*", false, false, true);
        check("(a|[^a])*", false, false, true);
        check("|.+", false, false, true);
        check("(.*a.*)|[^a]*", false, false, true);
    }

    #[test]
    fn neither() {
        check("a*", false, false, false);
        check("(ab)*c", false, false, false);
        check(".+", false, false, false);
        check("a?", false, false, false);
        // "ab" is in neither branch.
        check("a*|[^a]*", false, false, false);
    }
}
