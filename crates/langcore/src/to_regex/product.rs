//! Candidates for intersections and differences, read off their operands' expressions.
//!
//! # Overview
//! The minimal DFA of a product often loses the shape its operands were written in. A
//! hostname label `[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?`
//! intersected with an e-mail local part is the same label over ASCII, but its minimal DFA
//! counts to 63 twice over, and eliminating it gives 10,723 characters where the label
//! written with `{0,61}` has 40. [`candidates`] builds, from the operands' structural
//! expressions (`structure.rs`), with `S` the characters that a language's strings use:
//! - for an intersection, each operand with every class restricted to the `S` of the others
//!   (`restrict`): it holds the intersection, and is the intersection when it is included
//!   in the other operands;
//! - for a difference `A − B`, the strings of `A` with a character outside the `S` of `B`
//!   (`mark`: no string of `B` has one), or the strings of `A − B` over that `S` (the
//!   result restricted to it, eliminated from its automaton). That is `A − B` exactly; the
//!   first part keeps `A`'s shape;
//! - the interleavings of the operands' segments around their `.*` gaps (`gaps.rs`), and
//!   the elimination of the product of the operands' own automata (`paired.rs`).
//!
//! Every candidate is checked against the result's minimal DFA before it is used; the best
//! [`MAX_KEPT`] are returned, since the search (`search.rs`) sometimes improves the
//! runner-up to the shortest.
//!
//! # Algorithm
//! `restrict(e)` intersects every class of `e` with `S` and rebuilds through the smart
//! constructors. `mark(e)`, the strings of `e` with a character outside `S`, splits at the
//! first such character: `mark(c) = c − S`; `mark(e|f) = mark(e)|mark(f)`;
//! `mark(e₁…eₙ) = Σₖ restrict(e₁…eₖ₋₁) mark(eₖ) eₖ₊₁…eₙ`; and for `e{m,n}`, the copy that
//! holds the first such character: `Σᵢ restrict(e){i} mark(e) e{max(m−i−1, 0), n−i−1}` over
//! `i < n` (unbounded: the last term is `restrict(e){m−1,} mark(e) e*`). Both are
//! memoized per node; `restrict` never grows an expression, `mark` grows it by the counts
//! of its repetitions and the lengths of its sequences, so it is abandoned past
//! [`MAX_MARKED_SIZE`] characters or [`MAX_MARKED_COPIES`] copies.
//!
//! # Budgets
//! [`Operation::ToRegex`]: the candidates get half of the time left, automaton leaves and
//! the rest of a difference included, so the result's own elimination still has the other
//! half; the deadline is checked per node rewritten; the check builds the candidate's
//! automaton under the budget, with at most [`MAX_STATES_FACTOR`] times the result's states.
//! Any failure only drops the candidate.
//!
//! # Invariants
//! A candidate that is returned denotes exactly the product's language.

use rustc_hash::FxHashMap as HashMap;

use super::ast::{Exprs, Kind, NodeId};
use super::{Shape, eliminate_all, gaps, is_better, paired, search, structure, time_share};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::enumerate::strings_over;
use crate::ops::product::separating_string;
use crate::syntax::NEST_LIMIT;
use crate::witness::BoolOp;

/// The candidates may take this fraction (1/n) of the time left: the elimination of the
/// result is the fallback and must still have time.
const CANDIDATE_SHARE: u32 = 2;
/// `mark` gives up on expressions larger than this (in rendered characters).
const MAX_MARKED_SIZE: usize = 1 << 16;
/// `mark` gives up on repetitions with more copies than this to split.
const MAX_MARKED_COPIES: u32 = 256;
/// A candidate's automaton (unminimized: the subset construction of its NFA) may have this
/// many times the states of the result's minimal DFA, plus [`EXTRA_STATES`], before the
/// check gives up on it (the hostname label minus an e-mail local part takes 20 times).
const MAX_STATES_FACTOR: usize = 32;
/// See [`MAX_STATES_FACTOR`].
const EXTRA_STATES: usize = 1024;
/// Without candidates to beat, the extra candidates (`paired.rs`) are abandoned past this
/// size (in rendered characters).
const MAX_EXTRA_SIZE: usize = 1 << 16;
/// How many exact candidates are kept: the search (`search.rs`) improves each, and the
/// runner-up sometimes improves to the shortest.
const MAX_KEPT: usize = 2;

/// The shortest exact candidates for `op` (an intersection or a difference) on `operands`,
/// each with its minimal DFA, whose result is the minimal DFA `result`: at most
/// [`MAX_KEPT`], the best first; none when there is none, or when its share of the time ran
/// out first.
pub(super) fn candidates(
    exprs: &mut Exprs,
    op: BoolOp,
    operands: &[(Shape<'_>, &Dfa)],
    result: &Dfa,
    budget: &Budget,
) -> Vec<NodeId> {
    let share = time_share(budget, CANDIDATE_SHARE);
    // Automaton leaves (of the operands, and the rest of a difference) within the share too.
    let mut automaton = |exprs: &mut Exprs, dfa: &Dfa| eliminate_all(dfa, exprs, &share);
    let mut found = Found { kept: Vec::new(), result, budget: &share };
    let done = match op {
        BoolOp::Intersection => intersection(exprs, operands, &mut found, &mut automaton),
        BoolOp::Difference => difference(exprs, operands, &mut found, &mut automaton),
        BoolOp::Union | BoolOp::SymmetricDifference => Ok(()),
    };
    match done {
        Ok(()) => found.kept,
        Err(_) => Vec::new(),
    }
}

/// The expression of `shape` (`structure::build`), a product by its own candidate where it
/// has one; `automaton` converts the automata, and the products without a candidate.
pub(super) fn build(
    exprs: &mut Exprs,
    shape: &Shape<'_>,
    budget: &Budget,
    automaton: &mut dyn FnMut(&mut Exprs, &Dfa) -> Result<NodeId, BudgetError>,
) -> Result<NodeId, BudgetError> {
    structure::build(exprs, shape, budget, &mut |exprs, leaf| match leaf {
        Shape::Product { dfa, op, operands } => {
            match candidates(exprs, *op, operands, dfa, budget).first() {
                Some(&node) => Ok(node),
                None => automaton(exprs, dfa),
            }
        }
        Shape::Automaton(dfa) => automaton(exprs, dfa),
        other => build(exprs, other, budget, automaton),
    })
}

/// Each operand restricted to the characters of the others, when that is the result; the
/// interleavings of their segments (`gaps.rs`); their paired automata (`paired.rs`).
fn intersection(
    exprs: &mut Exprs,
    operands: &[(Shape<'_>, &Dfa)],
    found: &mut Found<'_>,
    automaton: &mut dyn FnMut(&mut Exprs, &Dfa) -> Result<NodeId, BudgetError>,
) -> Result<(), BudgetError> {
    let budget = found.budget;
    let alphabets =
        operands.iter().map(|(_, dfa)| alphabet(dfa, budget)).collect::<Result<Vec<_>, _>>()?;
    let mut restricted_all = Vec::with_capacity(operands.len());
    for (idx, (shape, _)) in operands.iter().enumerate() {
        let others = alphabets
            .iter()
            .enumerate()
            .filter(|&(other, _)| other != idx)
            .fold(CharSet::full(), |acc, (_, set)| acc.intersection(set));
        let expr = build(exprs, shape, budget, automaton)?;
        if exprs.info(expr).depth > NEST_LIMIT {
            continue;
        }
        let restricted = Split::new(others, budget).restrict(exprs, expr);
        restricted_all.push(restricted);
        if restricted != expr {
            found.offer(exprs, restricted)?;
        }
    }
    if let [left, right] = restricted_all[..] {
        let chars = alphabets.iter().fold(CharSet::full(), |acc, set| acc.intersection(set));
        // A failure here only drops this candidate.
        if let Ok(Some(interleaved)) = gaps::intersection(exprs, left, right, &chars, budget) {
            found.offer_extra(exprs, interleaved);
        }
        let limit = found.size_limit(exprs);
        if let Ok(Some(paired)) =
            paired::candidate(exprs, left, paired::Other::Expr(right), limit, budget)
        {
            found.offer_extra(exprs, paired);
        }
    }
    Ok(())
}

/// The exact candidates found so far: at most [`MAX_KEPT`], the best first.
struct Found<'a> {
    kept: Vec<NodeId>,
    /// The minimal DFA of the product: a candidate is kept only if it denotes its language.
    result: &'a Dfa,
    budget: &'a Budget,
}

impl Found<'_> {
    /// Keeps `node` if it is among the best [`MAX_KEPT`] and exact (checked only then).
    fn offer(&mut self, exprs: &Exprs, node: NodeId) -> Result<(), BudgetError> {
        let at = self.kept.iter().take_while(|&&kept| !is_better(exprs, node, kept)).count();
        if at < MAX_KEPT
            && !self.kept.contains(&node)
            && is_exact(exprs, node, self.result, self.budget)?
        {
            self.kept.insert(at, node);
            self.kept.truncate(MAX_KEPT);
        }
        Ok(())
    }

    /// [`Found::offer`], where running out of time for the check only drops `node`.
    fn offer_extra(&mut self, exprs: &Exprs, node: NodeId) {
        let _ = self.offer(exprs, node);
    }

    /// The size past which an extra candidate is abandoned: that of the last kept when
    /// [`MAX_KEPT`] are, or the budget's pattern limit (at most [`MAX_EXTRA_SIZE`]).
    fn size_limit(&self, exprs: &Exprs) -> usize {
        match self.kept.get(MAX_KEPT - 1) {
            Some(&last) => exprs.size(last),
            None => self.budget.max_pattern().min(MAX_EXTRA_SIZE),
        }
    }
}

/// `A − B` as the strings of `A` with a character `B` never uses, or the rest; as the
/// interleavings of `A`'s segments with those of `¬B` (`gaps.rs`); as `A`'s automaton paired
/// with `¬B`'s (`paired.rs`).
fn difference(
    exprs: &mut Exprs,
    operands: &[(Shape<'_>, &Dfa)],
    found: &mut Found<'_>,
    automaton: &mut dyn FnMut(&mut Exprs, &Dfa) -> Result<NodeId, BudgetError>,
) -> Result<(), BudgetError> {
    let budget = found.budget;
    let [(left, left_dfa), (_, right)] = operands else { return Ok(()) };
    let expr = build(exprs, left, budget, automaton)?;
    if exprs.info(expr).depth > NEST_LIMIT {
        return Ok(());
    }
    let inside = alphabet(right, budget)?;
    let rest = found.result.intersection(&strings_over(&inside, budget)?, budget)?;
    // Unless every string of the result uses only characters of `B` (nothing to split off).
    if rest != *found.result
        && let Some(marked) = Split::new(inside, budget).mark(exprs, expr)
    {
        let rest = automaton(exprs, &rest)?;
        let candidate = exprs.alt(&[marked, rest]);
        found.offer(exprs, candidate)?;
    }
    // A failure here, or out of time for its check, only drops these candidates.
    let chars = alphabet(left_dfa, budget)?;
    if let Ok(Some(interleaved)) = gaps::difference(exprs, expr, right, &chars, budget) {
        found.offer_extra(exprs, interleaved);
    }
    let limit = found.size_limit(exprs);
    if let Ok(Some(paired)) =
        paired::candidate(exprs, expr, paired::Other::Subtracted(right), limit, budget)
    {
        found.offer_extra(exprs, paired);
    }
    Ok(())
}

/// The characters that the strings of the language of `dfa` use.
fn alphabet(dfa: &Dfa, budget: &Budget) -> Result<CharSet, BudgetError> {
    let Some(fragment) = Fragment::within(dfa, budget, Operation::ToRegex)? else {
        return Ok(CharSet::empty());
    };
    let mut used = CharSet::empty();
    for idx in 0..fragment.n_states() {
        for (set, _) in fragment.moves(idx) {
            used = used.union(set);
        }
    }
    Ok(used)
}

/// Whether `node` denotes exactly the language of the minimal DFA `target`; a candidate
/// whose automaton has more than [`MAX_STATES_FACTOR`] times the states of `target` (plus
/// [`EXTRA_STATES`]) is answered `false` once it gets there.
fn is_exact(
    exprs: &Exprs,
    node: NodeId,
    target: &Dfa,
    budget: &Budget,
) -> Result<bool, BudgetError> {
    let info = exprs.info(node);
    if info.depth > NEST_LIMIT || (Some(info.min_len), info.max_len) != target.length() {
        return Ok(false);
    }
    let max_states =
        MAX_STATES_FACTOR.saturating_mul(target.n_states()).saturating_add(EXTRA_STATES);
    let capped = budget.with_max_states(max_states.min(budget.max_states()));
    let dfa = match search::build_nfa(exprs, node, &capped)
        .and_then(|nfa| Dfa::determinize(&nfa, &capped))
    {
        Ok(dfa) => dfa,
        Err(BudgetError::TooManyStates { .. }) => return Ok(false),
        Err(err) => return Err(err),
    };
    Ok(separating_string(&dfa, target, BoolOp::SymmetricDifference, budget)?.is_none())
}

/// The rewrites of expressions by a set of characters `inside`, memoized per node.
struct Split<'b> {
    inside: CharSet,
    outside: CharSet,
    budget: &'b Budget,
    restricted: HashMap<NodeId, NodeId>,
    marked: HashMap<NodeId, NodeId>,
}

impl<'b> Split<'b> {
    fn new(inside: CharSet, budget: &'b Budget) -> Split<'b> {
        let outside = inside.complement();
        let (restricted, marked) = (HashMap::default(), HashMap::default());
        Split { inside, outside, budget, restricted, marked }
    }

    /// The strings of `node` whose characters are all inside. The recursion follows the
    /// node's depth, which the callers bound by `NEST_LIMIT`.
    fn restrict(&mut self, exprs: &mut Exprs, node: NodeId) -> NodeId {
        if let Some(&done) = self.restricted.get(&node) {
            return done;
        }
        let restricted = match exprs.kind(node).clone() {
            Kind::Empty | Kind::Epsilon => node,
            Kind::Class(set) => exprs.class(set.intersection(&self.inside)),
            Kind::Concat(items) => {
                let items: Vec<NodeId> =
                    items.iter().map(|&item| self.restrict(exprs, item)).collect();
                exprs.concat(&items)
            }
            Kind::Alt(branches) => {
                let branches: Vec<NodeId> =
                    branches.iter().map(|&branch| self.restrict(exprs, branch)).collect();
                exprs.alt(&branches)
            }
            Kind::Repeat { inner, min, max } => {
                let inner = self.restrict(exprs, inner);
                exprs.repeat(inner, min, max)
            }
        };
        self.restricted.insert(node, restricted);
        restricted
    }

    /// The strings of `node` with at least one character outside, or `None` when that
    /// expression grows too large or the deadline passes. Recursion as [`Split::restrict`].
    fn mark(&mut self, exprs: &mut Exprs, node: NodeId) -> Option<NodeId> {
        if let Some(&done) = self.marked.get(&node) {
            return Some(done);
        }
        self.budget.check_time(Operation::ToRegex).ok()?;
        let marked = match exprs.kind(node).clone() {
            Kind::Empty | Kind::Epsilon => exprs.empty(),
            Kind::Class(set) => exprs.class(set.intersection(&self.outside)),
            Kind::Alt(branches) => {
                let mut marked = Vec::with_capacity(branches.len());
                for &branch in branches.iter() {
                    marked.push(self.mark(exprs, branch)?);
                }
                exprs.alt(&marked)
            }
            Kind::Concat(items) => {
                let mut terms = Terms::default();
                let mut before = Vec::with_capacity(items.len());
                for (idx, &item) in items.iter().enumerate() {
                    let first = self.mark(exprs, item)?;
                    if !matches!(exprs.kind(first), Kind::Empty) {
                        let mut term = before.clone();
                        term.push(first);
                        term.extend_from_slice(&items[idx + 1..]);
                        terms.push(exprs, &term)?;
                    }
                    let kept = self.restrict(exprs, item);
                    if matches!(exprs.kind(kept), Kind::Empty) {
                        break;
                    }
                    before.push(kept);
                }
                terms.finish(exprs)
            }
            Kind::Repeat { inner, min, max } => self.mark_repeat(exprs, inner, min, max)?,
        };
        self.marked.insert(node, marked);
        Some(marked)
    }

    /// [`Split::mark`] of `inner{min,max}`, split at the copy holding the first character
    /// outside.
    fn mark_repeat(
        &mut self,
        exprs: &mut Exprs,
        inner: NodeId,
        min: u32,
        max: Option<u32>,
    ) -> Option<NodeId> {
        let first = self.mark(exprs, inner)?;
        let before = self.restrict(exprs, inner);
        // Without a copy free of characters outside, only the first copy can hold one.
        let n_firsts = if matches!(exprs.kind(before), Kind::Empty) { 1 } else { u32::MAX };
        let mut terms = Terms::default();
        match max {
            Some(max) if max <= MAX_MARKED_COPIES => {
                for copies in 0..max.min(n_firsts) {
                    let prefix = exprs.repeat(before, copies, Some(copies));
                    let after = max - copies - 1;
                    let suffix = exprs.repeat(inner, min.saturating_sub(copies + 1), Some(after));
                    terms.push(exprs, &[prefix, first, suffix])?;
                }
            }
            None if min <= MAX_MARKED_COPIES => {
                let last = min.max(1) - 1;
                for copies in 0..last.min(n_firsts) {
                    let prefix = exprs.repeat(before, copies, Some(copies));
                    let suffix = exprs.repeat(inner, last - copies, None);
                    terms.push(exprs, &[prefix, first, suffix])?;
                }
                let prefix = exprs.repeat(before, last, None);
                let suffix = exprs.star(inner);
                terms.push(exprs, &[prefix, first, suffix])?;
            }
            _ => return None,
        }
        Some(terms.finish(exprs))
    }
}

/// The alternatives of a marked expression, with their total size held to
/// [`MAX_MARKED_SIZE`].
#[derive(Default)]
struct Terms {
    nodes: Vec<NodeId>,
    size: usize,
}

impl Terms {
    /// Adds the sequence `items`; `None` once the total grows too large.
    fn push(&mut self, exprs: &mut Exprs, items: &[NodeId]) -> Option<()> {
        let term = exprs.concat(items);
        self.size += exprs.size(term);
        (self.size <= MAX_MARKED_SIZE).then(|| self.nodes.push(term))
    }

    fn finish(self, exprs: &mut Exprs) -> NodeId {
        exprs.alt(&self.nodes)
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use proptest::prelude::*;

    use super::{Split, strings_over};
    use crate::alphabet::CharSet;
    use crate::test_patterns::patterns;
    use crate::to_regex::ast::{Exprs, NodeId};
    use crate::to_regex::render::render;
    use crate::to_regex::structure::build_hir;
    use crate::to_regex::tests::combined;
    use crate::{Budget, Dfa, Dialect, Language};

    /// The pattern of `left op right` (`&` or `-`), checked against the product's DFA.
    #[track_caller]
    fn check(left: &str, op: char, right: &str, expected: Expect) {
        expected.assert_eq(&combined(left, op, right, Dialect::Rust));
    }

    #[test]
    fn intersections_keep_an_operand_restricted() {
        // A hostname label and an e-mail local part: the label over ASCII, counts kept
        // (eliminating the minimal DFA gives 10,723 characters).
        check(
            r"[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?",
            '&',
            r"[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Za-z]+)*",
            expect!["[0-9a-z]([\\-0-9a-z]{0,61}[0-9a-z])?"],
        );
        check("[a-z]{2,40}", '&', "[a-x0-9]+", expect!["[a-x]{2,40}"]);
        // Restricted, the first operand still has strings the second lacks: no candidate,
        // the minimal DFA's elimination.
        check("[a-z]{2,4}", '&', "x[a-z]+", expect!["x[a-z]{1,3}"]);
    }

    #[test]
    fn differences_split_off_the_characters_the_right_never_uses() {
        // Names with `.` or `_`, and those too long for a label (1,267 characters from the
        // minimal DFA).
        check(
            "[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9]",
            '-',
            "[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?",
            expect![
                "[0-9A-Za-z]([\\-0-9A-Za-z]{62}(-*[0-9A-Za-z])+|[\\-0-9A-Za-z]*[._][\\-.0-9A-Z_a-z]*[0-9A-Za-z])"
            ],
        );
        check("[a-c]{0,3}", '-', "[ab]*", expect!["[ab]{2}c|([ab]c|c[a-c])[a-c]?|c"]);
        // Every string of the result uses the right's characters only: elimination.
        check(
            "[ab]{1,5}",
            '-',
            "a+",
            expect!["a{4}b|aaab[ab]?|aab[ab]{0,2}|(ab|b[ab])[ab]{0,3}|b"],
        );
    }

    #[test]
    fn the_results_own_elimination_still_competes() {
        // The candidate `[0-9A-Z_a-z]*-[\-0-9A-Z_a-z]*|[0-9][0-9A-Z_a-z]*` (a slug with a
        // hyphen, or one starting with a digit) loses to shorter ones improved by the
        // search: the elimination of the result, and (as short, found first) the slug's
        // last hyphen, or a digit, then no hyphen (`gaps.rs`, read backwards).
        check(
            "[-a-zA-Z0-9_]+",
            '-',
            "[_a-zA-Z][_a-zA-Z0-9]*",
            expect!["([\\-0-9A-Z_a-z]*-|[0-9])[0-9A-Z_a-z]*"],
        );
    }

    #[test]
    fn a_candidate_with_a_large_automaton_is_dropped_early() {
        // `[ab]*a[ab]{12}` needs 8,192 states, the result a few dozen: the check gives up
        // on the restricted left operand at 32 times that, and the result is eliminated.
        check("[abc]*a[abc]{12}", '&', "[ab]{0,14}", expect!["[ab]?a[ab]{12}"]);
    }

    #[test]
    fn marking_gives_up_past_its_limits() {
        let inside = CharSet::range('a', 'b');
        let mark = |split: &mut Split<'_>, exprs: &mut Exprs, node| split.mark(exprs, node);
        assert!(rewritten("[a-c]{0,256}", &inside, mark).is_some());
        assert!(rewritten("[a-c]{0,257}", &inside, mark).is_none());
        assert!(rewritten("[a-c]{257,}", &inside, mark).is_none());
        // 20 splits of 200 splits each, about 80,000 characters.
        assert!(rewritten("([a-c]{200}a){20}", &inside, mark).is_none());
        assert!(rewritten("([a-c]{200}a){2}", &inside, mark).is_some());
    }

    /// `pattern` rebuilt, then rewritten by `rewrite` over `inside`, as a DFA.
    fn rewritten(
        pattern: &str,
        inside: &CharSet,
        rewrite: fn(&mut Split<'_>, &mut Exprs, NodeId) -> Option<NodeId>,
    ) -> Option<Dfa> {
        let budget = Budget::default();
        let hir = crate::syntax::parse(pattern, &budget).unwrap();
        let mut exprs = Exprs::new(Dialect::Rust);
        let node = build_hir(&mut exprs, &hir, &budget).unwrap();
        let node = rewrite(&mut Split::new(inside.clone(), &budget), &mut exprs, node)?;
        Some(Dfa::from_regex(&render(&exprs, node)).unwrap())
    }

    /// Every string over `a`, `b`, `x` up to `max_len` characters.
    fn short_strings(max_len: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max_len {
            last = last.iter().flat_map(|s| ['a', 'b', 'x'].map(|c| format!("{s}{c}"))).collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    proptest! {
        /// The pattern of an intersection or difference of random patterns means the result
        /// (the same canonical DFA, and the `regex` crate agrees on every short string), and
        /// is no longer than the pattern of the result's automaton.
        #[test]
        fn products_convert_exactly(
            left in patterns(&["a", "b", "x", "[ab]", "[bx]", "ab"], &["*", "+", "?", "{2}", "{0,3}", "{1,}"], 3, 10),
            right in patterns(&["a", "b", "[ab]", "b+", "ab"], &["*", "+", "?", "{0,2}"], 3, 10),
            difference: bool,
        ) {
            let budget = Budget::default();
            let (left, right) = (Language::from_regex(&left).unwrap(), Language::from_regex(&right).unwrap());
            let result = if difference { left.difference(&right, &budget) } else { left.intersection(&right, &budget) }.unwrap();
            let output = result.to_pattern(&budget).unwrap();
            let dfa = result.to_dfa(&budget).unwrap();
            prop_assert_eq!(&Dfa::from_regex(&output).unwrap(), dfa, "{}", output);
            // The candidates only add to what the result's automaton gives.
            let eliminated = dfa.to_pattern(&budget).unwrap();
            prop_assert!(output.len() <= eliminated.len(), "{} for {}", output, eliminated);
            if output != "[]" {
                let oracle = crate::test_patterns::oracle(&output);
                for input in short_strings(5) {
                    prop_assert_eq!(oracle.is_match(&input), dfa.matches(&input), "{} on {:?}", output, input);
                }
            }
        }

        /// `restrict(e)` is `e ∩ S*` and `mark(e)` is `e − S*`, by the DFA product.
        #[test]
        fn rewrites_match_the_products(
            pattern in patterns(
                &["a", "b", "x", "[a-c]", "[bx]", "ab", ""],
                &["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}"],
                3,
                12,
            ),
            inside in prop::sample::select(vec![
                vec![('a', 'b')],
                vec![('a', 'c')],
                vec![('b', 'b')],
                vec![('x', 'x')],
                vec![('a', 'a'), ('x', 'z')],
            ]),
        ) {
            let budget = Budget::default();
            let inside = CharSet::from_ranges(inside);
            let language = Dfa::from_regex(&pattern).unwrap();
            let over = strings_over(&inside, &budget).unwrap();
            let restricted = rewritten(&pattern, &inside, |split, exprs, node| Some(split.restrict(exprs, node)));
            prop_assert_eq!(restricted.unwrap(), language.intersection(&over, &budget).unwrap());
            let marked = rewritten(&pattern, &inside, |split, exprs, node| split.mark(exprs, node));
            prop_assert_eq!(marked.unwrap(), language.difference(&over, &budget).unwrap());
        }
    }
}
