//! Graphviz DOT text of the minimal automaton of a language, or of an NFA of it.
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
//! [`nfa_to_dot`] draws an NFA without its ε-moves the same way, trimmed (only states that
//! the start reaches and that can reach acceptance), numbered breadth first from the start,
//! one edge per pair of states; its graph is named `nfa` and says in a `comment` and a
//! `label` that it is not deterministic. [`Language::to_dot`](crate::Language::to_dot)
//! draws that when the minimal DFA does not fit its share of the budget.
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
//! Minimization checks the budget; writing, linear in the minimal DFA's table (or in the
//! NFA's moves), checks the deadline, and the text's size with the labels of one state
//! against the memory limit, once per state. Labels are built for one state at a time and
//! dropped once written.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Walk;
use crate::nfa::{ClosureScratch, Nfa, NfaTrim};

/// What every graph has after its name: layout, default shape, the start arrow.
const LAYOUT: &str = "    rankdir=LR;
    node [shape=circle];
    start [shape=point, style=invis];
    start -> 0;
";

/// What the note of an NFA's drawing says, as a DOT `comment` and as the graph's `label`.
pub(crate) const NFA_NOTE: &str = "non-deterministic: the minimal DFA exceeds the budget";

/// The first lines of a graph named `name`, with `note` as its comment and label if any.
fn header(name: &str, note: Option<&str>) -> String {
    let note = note.map(|note| format!("    comment=\"{note}\";\n    label=\"{note}\";\n"));
    format!("digraph {name} {{\n{}{LAYOUT}", note.unwrap_or_default())
}

/// The DOT text of the minimal DFA of `dfa`'s language.
pub(crate) fn to_dot(dfa: &Dfa, budget: &Budget) -> Result<String, BudgetError> {
    let minimal = dfa.minimize(budget)?;
    let mut out = header("dfa", None);
    // The walk numbers the live states in canonical order (the dead state has no successor
    // but itself, so leaving it out shifts no other state's rank). It labels one state's
    // moves at a time: `\p{L}{9000}` has 9,000 labels of 5 KB, which, held at once, took
    // 45 MB and left the allocator's heaps fragmented after the answer (issue 17).
    let Some(walk) = Walk::new(&minimal, budget, Operation::Dot)? else {
        out.push_str("    0;\n}\n");
        return Ok(out);
    };
    for idx in 0..walk.n_states() {
        write_state(&mut out, idx, walk.is_accepting(idx));
    }
    for idx in 0..walk.n_states() {
        // The text can be large: check it and the clock once per state.
        budget.check_time(Operation::Dot)?;
        let moves = walk.moves(idx);
        budget.check_memory(Operation::Dot, out.len().saturating_add(Walk::label_bytes(&moves)))?;
        for (set, target) in &moves {
            write_edge(&mut out, idx, set, *target);
        }
    }
    out.push_str("}\n");
    Ok(out)
}

/// The DOT text of `nfa` without its ε-moves, trimmed: its start and the targets of its
/// labelled moves, those that the start reaches and that can reach acceptance, numbered
/// breadth first from the start (0); each takes the moves of its ε-closure, merged per
/// target, and accepts when its closure does. With the note of [`NFA_NOTE`]. The moves of
/// one state are merged, written and dropped before the next's, as [`to_dot`] does.
///
/// # Errors
/// When the deadline passes or the text outgrows the memory limit ([`Operation::Dot`]).
pub(crate) fn nfa_to_dot(nfa: &Nfa, budget: &Budget) -> Result<String, BudgetError> {
    let trim = NfaTrim::new(nfa);
    let mut out = header("nfa", Some(NFA_NOTE));
    if !trim.is_useful(nfa.start()) {
        out.push_str("    0;\n}\n");
        return Ok(out);
    }
    let mut scratch = ClosureScratch::new(nfa.n_states());
    let mut closure = Vec::new();
    // First the numbering and acceptance, then the moves, a state at a time.
    let mut rank: Vec<Option<usize>> = vec![None; nfa.n_states()];
    rank[nfa.start().index()] = Some(0);
    let mut order = vec![nfa.start()];
    let mut accepting = Vec::new();
    while let Some(&state) = order.get(accepting.len()) {
        budget.check_time(Operation::Dot)?;
        nfa.closure(&[state], &mut scratch, &mut closure);
        closure.sort_unstable();
        for &member in &closure {
            for &(_, target) in &nfa.state(member).transitions {
                if trim.is_useful(target) && rank[target.index()].is_none() {
                    rank[target.index()] = Some(order.len());
                    order.push(target);
                }
            }
        }
        accepting.push(closure.iter().any(|&member| nfa.state(member).accepting));
    }
    for (idx, &accepts) in accepting.iter().enumerate() {
        write_state(&mut out, idx, accepts);
    }
    for (idx, &state) in order.iter().enumerate() {
        budget.check_time(Operation::Dot)?;
        nfa.closure(&[state], &mut scratch, &mut closure);
        let mut ranges_by_target: BTreeMap<usize, Vec<(char, char)>> = BTreeMap::new();
        for &member in &closure {
            for &(label, target) in &nfa.state(member).transitions {
                if let Some(target) = rank[target.index()] {
                    let ranges = nfa.label(label).ranges();
                    ranges_by_target.entry(target).or_default().extend_from_slice(ranges);
                }
            }
        }
        let moves: Vec<(CharSet, usize)> = ranges_by_target
            .into_iter()
            .map(|(target, ranges)| (CharSet::from_ranges(ranges), target))
            .collect();
        budget.check_memory(Operation::Dot, out.len().saturating_add(Walk::label_bytes(&moves)))?;
        for (set, target) in &moves {
            write_edge(&mut out, idx, set, *target);
        }
    }
    out.push_str("}\n");
    Ok(out)
}

/// Writes the line of state `idx`: a double circle when it accepts.
fn write_state(out: &mut String, idx: usize, accepting: bool) {
    let shape = if accepting { "doublecircle" } else { "circle" };
    // Infallible: writing to a String.
    let _ = writeln!(out, "    {idx} [shape={shape}];");
}

/// Writes the edge from `idx` to `target` labelled with `set`, escaped for a DOT string.
fn write_edge(out: &mut String, idx: usize, set: &CharSet, target: usize) {
    let label = set.to_string().replace('\\', r"\\").replace('"', "\\\"");
    let _ = writeln!(out, "    {idx} -> {target} [label=\"{label}\"];");
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

    use super::header;
    use crate::{Budget, Dfa};

    /// Checks the DOT text of `pattern`'s language after the common header.
    #[track_caller]
    fn check(pattern: &str, expected: Expect) {
        let dot = Dfa::from_regex(pattern).unwrap().to_dot(&Budget::default()).unwrap();
        let body = dot.strip_prefix(&header("dfa", None)).expect("every graph starts so");
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

    /// A drawing read back: whether each state accepts, and its edges with their labels
    /// (as the `regex` crate reads them).
    struct Drawing {
        accepting: Vec<bool>,
        edges: Vec<(usize, regex::Regex, usize)>,
    }

    impl Drawing {
        /// Reads the lines that `dot.rs` writes, checking the shape of the whole text.
        fn read(dot: &str) -> Drawing {
            assert!(dot.starts_with("digraph ") && dot.ends_with("}\n"), "{dot}");
            assert_eq!(dot.matches('{').count(), dot.matches('}').count(), "{dot}");
            assert!(dot.contains("    start -> 0;\n"), "{dot}");
            let mut drawing = Drawing { accepting: Vec::new(), edges: Vec::new() };
            for line in dot.lines().map(str::trim) {
                if line.strip_suffix(';').is_some_and(|state| state.parse::<usize>().is_ok()) {
                    // A state without a shape: the empty language's start.
                    drawing.accepting.push(false);
                } else if let Some((state, shape)) = line.split_once(" [shape=") {
                    let Ok(state) = state.parse::<usize>() else { continue };
                    assert_eq!(state, drawing.accepting.len(), "states in order: {dot}");
                    drawing.accepting.push(shape == "doublecircle];");
                } else if let Some((from, rest)) = line.split_once(" -> ")
                    && let Some((to, label)) = rest.split_once(" [label=\"")
                    && from != "start"
                {
                    let label = label.strip_suffix("\"];").expect("a closed label");
                    let label = label.replace("\\\"", "\"").replace(r"\\", r"\");
                    let class = crate::test_patterns::oracle(&label);
                    drawing.edges.push((from.parse().unwrap(), class, to.parse().unwrap()));
                }
            }
            for &(from, _, to) in &drawing.edges {
                assert!(from < drawing.accepting.len() && to < drawing.accepting.len(), "{dot}");
            }
            drawing
        }

        /// Whether the drawn automaton accepts `input`, following every edge whose label
        /// holds the next character.
        fn accepts(&self, input: &str) -> bool {
            let mut current = vec![false; self.accepting.len()];
            if let Some(start) = current.first_mut() {
                *start = true;
            }
            for c in input.chars() {
                let mut next = vec![false; self.accepting.len()];
                let mut buf = [0; 4];
                for (from, class, to) in &self.edges {
                    if current[*from] && class.is_match(c.encode_utf8(&mut buf)) {
                        next[*to] = true;
                    }
                }
                current = next;
            }
            current.iter().zip(&self.accepting).any(|(&here, &accepting)| here && accepting)
        }
    }

    /// The NFA drawing of `pattern`.
    fn nfa_dot(pattern: &str) -> String {
        let nfa = crate::Nfa::from_regex(pattern).unwrap();
        super::nfa_to_dot(&nfa, &Budget::default()).unwrap()
    }

    #[test]
    fn nfas_are_drawn_trimmed_and_marked() {
        let dot = nfa_dot("ab|ac|a[^\\s\\S]d");
        let note =
            format!("    comment=\"{}\";\n    label=\"{}\";\n", super::NFA_NOTE, super::NFA_NOTE);
        assert!(dot.starts_with(&format!("digraph nfa {{\n{note}")), "{dot}");
        let drawing = Drawing::read(&dot);
        // No state for the dead end after the empty class.
        assert!(drawing.accepting.len() <= 4, "{dot}");
        assert!(drawing.accepts("ab") && drawing.accepts("ac") && !drawing.accepts("ad"));
        // The empty language: the start state alone.
        assert!(nfa_dot("[^\\s\\S]").ends_with("    start -> 0;\n    0;\n}\n"));
    }

    #[test]
    fn the_drawing_stops_at_the_budget() {
        let nfa = crate::Nfa::from_regex("\\p{L}{200}").unwrap();
        let small = Budget::default().with_max_memory(64 << 10);
        let err = super::nfa_to_dot(&nfa, &small).unwrap_err();
        assert!(matches!(err, crate::BudgetError::TooMuchMemory { limit: 65536, .. }));
    }

    fn pattern() -> impl proptest::strategy::Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "b", "c", "[ab]", "[^a]", "()", ".", "\"", "\\\\", "\\n", "[^\\s\\S]"],
            &["*", "+", "?", "{2}", "{0,2}"],
            3,
            16,
        )
    }

    /// Every string of up to three characters over a small alphabet.
    fn short_strings() -> Vec<String> {
        let alphabet = ['a', 'b', 'c', '"', '\\', '\n', '\u{E9}'];
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..3 {
            last = last
                .iter()
                .flat_map(|prefix| alphabet.iter().map(move |&c| format!("{prefix}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// The drawn NFA, read back with the `regex` crate reading each label, accepts
        /// exactly the strings of the pattern (oracle: `^(?s:P)$`), and every state it draws
        /// is reachable and can accept.
        #[test]
        fn drawn_nfas_accept_the_language(pattern in pattern()) {
            let dot = nfa_dot(&pattern);
            let drawing = Drawing::read(&dot);
            let oracle = crate::test_patterns::oracle(&pattern);
            for input in short_strings() {
                proptest::prop_assert_eq!(
                    drawing.accepts(&input), oracle.is_match(&input), "{:?} in {}: {}", input, pattern, dot
                );
            }
            let n_states = drawing.accepting.len();
            let mut reach = vec![false; n_states];
            reach[0] = true;
            let mut co_reach = drawing.accepting.clone();
            for _ in 0..n_states {
                for (from, _, to) in &drawing.edges {
                    reach[*to] |= reach[*from];
                    co_reach[*from] |= co_reach[*to];
                }
            }
            let is_empty = !co_reach[0];
            proptest::prop_assert!(is_empty && n_states == 1 || reach.iter().zip(&co_reach).all(|(a, b)| *a && *b), "{}", dot);
        }
    }
}
