//! Graphviz DOT text of the minimal automaton of a language.
//!
//! # Overview
//! [`to_dot`] is what [`Dfa::to_dot`] delegates to. The output is a `digraph` of the
//! canonical minimal DFA without its dead state:
//! - states are named by their canonical number (breadth-first from the start, 0), with
//!   the dead state left out and the others numbered on without a gap;
//! - accepting states are `doublecircle`s, the others `circle`s;
//! - an arrow from the invisible node `start` marks the start state;
//! - one edge per pair of states, labelled with the set of characters it reads in
//!   [`CharSet`](crate::alphabet::CharSet)'s compact notation (`a`, `[a-c]`, `[^\u{0A}]`,
//!   `.`), escaped for a DOT string.
//!
//! The text depends only on the language: equivalent DFAs give identical output.
//!
//! # Example
//! ```
//! use langcore::{Budget, Dfa};
//!
//! let dot = Dfa::from_regex("a+|b")?.to_dot(&Budget::default())?;
//! assert!(dot.starts_with("digraph"));
//! assert!(dot.contains(r#"0 -> 1 [label="a"];"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Budgets
//! Minimization checks the budget; writing, linear in the minimal DFA's table, checks the
//! deadline, and the text's size with the labels of one state against the memory limit,
//! once per state. Labels are built for one state at a time and dropped once written.

use std::fmt::Write as _;

use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Walk;

/// What every graph starts with: layout, default shape, the start arrow.
const HEADER: &str = "digraph dfa {
    rankdir=LR;
    node [shape=circle];
    start [shape=point, style=invis];
    start -> 0;
";

/// The DOT text of the minimal DFA of `dfa`'s language.
pub(crate) fn to_dot(dfa: &Dfa, budget: &Budget) -> Result<String, BudgetError> {
    let minimal = dfa.minimize(budget)?;
    let mut out = String::from(HEADER);
    // The walk numbers the live states in canonical order (the dead state has no successor
    // but itself, so leaving it out shifts no other state's rank). It labels one state's
    // moves at a time: `\p{L}{9000}` has 9,000 labels of 5 KB, which, held at once, took
    // 45 MB and left the allocator's heaps fragmented after the answer (issue 17).
    let Some(walk) = Walk::new(&minimal, budget, Operation::Dot)? else {
        out.push_str("    0;\n}\n");
        return Ok(out);
    };
    for idx in 0..walk.n_states() {
        let shape = if walk.is_accepting(idx) { "doublecircle" } else { "circle" };
        // Infallible: writing to a String.
        let _ = writeln!(out, "    {idx} [shape={shape}];");
    }
    for idx in 0..walk.n_states() {
        // The text can be large: check it and the clock once per state.
        budget.check_time(Operation::Dot)?;
        let moves = walk.moves(idx);
        budget.check_memory(Operation::Dot, out.len().saturating_add(Walk::label_bytes(&moves)))?;
        for (set, target) in moves {
            let label = set.to_string().replace('\\', r"\\").replace('"', "\\\"");
            let _ = writeln!(out, "    {idx} -> {target} [label=\"{label}\"];");
        }
    }
    out.push_str("}\n");
    Ok(out)
}

impl Dfa {
    /// The Graphviz DOT text of the minimal automaton: canonical state numbers, accepting
    /// states as double circles, the dead state left out, one edge per pair of states
    /// labelled with its character set. Equivalent DFAs give identical text.
    ///
    /// # Errors
    /// When minimization exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let dot = Dfa::from_regex("ab*")?.to_dot(&Budget::default())?;
    /// assert!(dot.contains("1 [shape=doublecircle];"));
    /// assert!(dot.contains(r#"1 -> 1 [label="b"];"#));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_dot(&self, budget: &Budget) -> Result<String, BudgetError> {
        to_dot(self, budget)
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::HEADER;
    use crate::{Budget, Dfa};

    /// Checks the DOT text of `pattern`'s language after the common header.
    #[track_caller]
    fn check(pattern: &str, expected: Expect) {
        let dot = Dfa::from_regex(pattern).unwrap().to_dot(&Budget::default()).unwrap();
        let body = dot.strip_prefix(HEADER).expect("every graph starts with the header");
        expected.assert_eq(body);
    }

    #[test]
    fn whole_text_of_the_empty_language() {
        let dot = Dfa::from_regex("[]").unwrap().to_dot(&Budget::default()).unwrap();
        expect![[r#"
            digraph dfa {
                rankdir=LR;
                node [shape=circle];
                start [shape=point, style=invis];
                start -> 0;
                0;
            }
        "#]]
        .assert_eq(&dot);
    }

    #[test]
    fn suffix_language() {
        check(
            "(a|b)*abb",
            expect![[r#"
                    0 [shape=circle];
                    1 [shape=circle];
                    2 [shape=circle];
                    3 [shape=doublecircle];
                    0 -> 0 [label="b"];
                    0 -> 1 [label="a"];
                    1 -> 1 [label="a"];
                    1 -> 2 [label="b"];
                    2 -> 1 [label="a"];
                    2 -> 3 [label="b"];
                    3 -> 0 [label="b"];
                    3 -> 1 [label="a"];
                }
            "#]],
        );
    }

    #[test]
    fn the_empty_string_is_one_accepting_state() {
        check(
            "",
            expect![[r#"
                    0 [shape=doublecircle];
                }
            "#]],
        );
    }

    #[test]
    fn labels_are_escaped_for_dot() {
        check(
            r#"[^"]\\|"\n"#,
            expect![[r#"
                    0 [shape=circle];
                    1 [shape=circle];
                    2 [shape=circle];
                    3 [shape=doublecircle];
                    0 -> 1 [label="[^\"]"];
                    0 -> 2 [label="\""];
                    1 -> 3 [label="\\\\"];
                    2 -> 3 [label="\\u{0A}"];
                }
            "#]],
        );
    }

    #[test]
    fn full_set_and_controls() {
        check(
            ".\t",
            expect![[r#"
                    0 [shape=circle];
                    1 [shape=circle];
                    2 [shape=doublecircle];
                    0 -> 1 [label="."];
                    1 -> 2 [label="\\u{09}"];
                }
            "#]],
        );
    }

    #[test]
    fn output_depends_only_on_the_language() {
        let budget = Budget::default();
        let dots: Vec<String> = ["(a|b)*abb", "[ab]*abb", "(a*b*)*abb"]
            .iter()
            .map(|pattern| Dfa::from_regex(pattern).unwrap().to_dot(&budget).unwrap())
            .collect();
        assert_eq!(dots[0], dots[1]);
        assert_eq!(dots[0], dots[2]);
        // Unminimized input gives the same text.
        let nfa = crate::Nfa::from_regex("(a|b)*abb").unwrap();
        let raw = Dfa::determinize(&nfa, &budget).unwrap();
        assert_eq!(raw.to_dot(&budget).unwrap(), dots[0]);
    }
}
