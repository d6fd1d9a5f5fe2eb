//! The shortest and longest lengths, in characters, of the strings in a language.
//!
//! # Algorithm
//! On the trim (see the module docs of `analysis`), after an O(states × classes) trim:
//! - shortest: breadth-first search from the start; the first accepting state dequeued is at
//!   the shortest distance. O(states + edges).
//! - longest: none when the trim has a cycle; otherwise the longest path to an accepting
//!   state, by dynamic programming in reverse topological order (Kahn's algorithm).
//!   O(states + edges).
//!
//! # Invariants
//! Every useful state reaches an accepting state, so every useful state that does not accept
//! has an edge, and the longest path from it is defined.
//!
//! # Budgets
//! None: the work is linear in the DFA's table, which was bounded when the DFA was built.

use crate::dfa::Dfa;
use crate::dfa::trim::Trim;
use crate::state_id::StateId;

/// The shortest and the longest length of an accepted string: `(None, None)` for the empty
/// language, and a longest length of `None` when the language is infinite.
pub(crate) fn length(dfa: &Dfa) -> (Option<usize>, Option<usize>) {
    let trim = Trim::new(dfa);
    if !trim.is_useful(dfa.start()) {
        return (None, None);
    }
    (shortest(dfa, &trim), longest(dfa, &trim))
}

/// The length of a shortest path from the start to an accepting state; the start is useful.
fn shortest(dfa: &Dfa, trim: &Trim) -> Option<usize> {
    let mut seen = vec![false; dfa.n_states()];
    seen[dfa.start().index()] = true;
    let mut queue = vec![(dfa.start(), 0)];
    let mut next = 0;
    while let Some(&(state, distance)) = queue.get(next) {
        next += 1;
        if dfa.is_accepting(state) {
            return Some(distance);
        }
        for edge in trim.edges(state) {
            if !std::mem::replace(&mut seen[edge.target.index()], true) {
                queue.push((edge.target, distance + 1));
            }
        }
    }
    None
}

/// The length of a longest path from the start to an accepting state, or `None` when the
/// trim has a cycle; the start is useful.
fn longest(dfa: &Dfa, trim: &Trim) -> Option<usize> {
    let order: Vec<StateId> = trim.topological_order(dfa.start())?;
    let mut longest_from = vec![0; dfa.n_states()];
    for &state in order.iter().rev() {
        // An accepting state without edges ends at length 0; any edge beats that.
        longest_from[state.index()] = trim
            .edges(state)
            .iter()
            .map(|edge| longest_from[edge.target.index()] + 1)
            .max()
            .unwrap_or(0);
    }
    Some(longest_from[dfa.start().index()])
}

impl Dfa {
    /// The lengths, in characters, of the shortest and the longest accepted string:
    /// `(None, None)` for the empty language, and no longest for an infinite one.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// assert_eq!(Dfa::from_regex("ab|c{3,5}")?.length(), (Some(2), Some(5)));
    /// assert_eq!(Dfa::from_regex("(ab)*c")?.length(), (Some(1), None));
    /// assert_eq!(Dfa::from_regex("[]")?.length(), (None, None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn length(&self) -> (Option<usize>, Option<usize>) {
        length(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::tests::minimal_and_determinized;

    #[track_caller]
    fn check(pattern: &str, expected: (Option<usize>, Option<usize>)) {
        for dfa in minimal_and_determinized(pattern) {
            assert_eq!(length(&dfa), expected, "{pattern}: {dfa:?}");
        }
    }

    #[test]
    fn empty_language_has_no_lengths() {
        check("[]", (None, None));
        check(r"(ab)*[^\s\S]", (None, None));
    }

    #[test]
    fn empty_string() {
        check("", (Some(0), Some(0)));
        check(r"[^\s\S]*", (Some(0), Some(0)));
        check(r"|a[^\s\S]", (Some(0), Some(0)));
    }

    #[test]
    fn infinite_languages_have_no_longest() {
        check(".*", (Some(0), None));
        check("a*", (Some(0), None));
        check("(ab)*c", (Some(1), None));
        check("abc(d+|e)", (Some(4), None));
    }

    #[test]
    fn finite_languages() {
        check(".", (Some(1), Some(1)));
        check("a{3,5}", (Some(3), Some(5)));
        check("abc|de", (Some(2), Some(3)));
        check("(a|bcd)(ef|g)?", (Some(1), Some(5)));
        // The dead end `xyz` is longer than anything accepted.
        check(r"a|xyz[^\s\S]", (Some(1), Some(1)));
    }

    #[test]
    fn long_chain() {
        check(".{2000}", (Some(2000), Some(2000)));
        check("a{10,2000}", (Some(10), Some(2000)));
    }
}
