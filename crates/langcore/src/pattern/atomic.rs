//! Atomic groups `(?>X)` and possessive quantifiers, read exactly by rewriting them into
//! lookarounds.
//!
//! # Semantics
//! A backtracking engine runs `(?>X)` at position i by trying X's matches in priority order
//! and keeping the first, E(X, i), with the values its groups captured on the way; if what
//! follows fails, it does not come back for another. So `(?>X)` matches exactly the first
//! path of X from i, every lookaround in X looking at the whole string, and the language of
//! a pattern is still the set of strings some path spans. A possessive quantifier `X*+` is
//! `(?>X*)`, and a lookahead passes out the values of its body's first match the same way
//! (`parse/reference.rs`).
//!
//! # Algorithm
//! [`atomic`] rewrites `(?>X)` into an expression with at most one path per start that
//! reaches the same end with the same values, by these rules (Y is the rest of the group
//! after the head; alternations list their branches in the engine's order, which the
//! parser keeps or refuses):
//! 1. X has *one outcome* (at most one end and one way to set values for each start):
//!    `(?>X)` is X. Without steps that set values, one end is enough: known for characters,
//!    lookarounds, translated atomic groups and concatenations of those, and tested for
//!    the rest on the language of X with its lookarounds dropped (a superset of its
//!    matches): one end if that language is prefix-free. Parts that set values are taken
//!    apart: a concatenation of parts of one outcome, an alternation of such branches that
//!    are exclusive (no string of one is a string of another or a prefix of a string of
//!    any), a repetition whose iterations the end forces. For the backtracking analysis,
//!    which counts paths (`one_path`), every part is taken apart so: `(?>a|a)` keeps one
//!    end but two paths, and becomes `a|(?!a)a` by rule 3.
//! 2. `(?>H Y)` with H of one outcome is `H (?>Y)`: nothing can be taken back from H.
//! 3. `(?>(A|B) Y)` is `(?>A Y) | (?!A Y) (?>B Y)`: the first branch wins when it can.
//! 4. `(?>S{0,k} Y)`, greedy, S of one outcome and never empty: S's iterations are forced,
//!    and the engine backs off from the most of them, so it is the union over n ≤ k of
//!    `S{n} (?!S{1,k-n} Y) (?>Y)`; for k unbounded, `S* (?!S+ Y) (?>Y)`; without Y, the
//!    compact `S{k} | S{0,k-1}(?!S)` and `S*(?!S)`.
//! 5. Lazy `(?>S{0,k}? Y)`: the fewest iterations after which Y matches,
//!    `((?!Y) S){0,k} (?>Y)`; `(?>X{m,n}?)` without Y is `(?>X{m})`.
//! 6. `(?>X{0,k})` or `(?>X{1,k})` without Y: each iteration keeps its first end, since
//!    the rest of the repetition cannot fail, so it is rule 4 on `T = (?>X)`. Where X may
//!    match "" (and sets no values), an iteration whose first end is where it started ends
//!    the loop in Python, Java and PCRE: rule 4 on T's non-empty paths, after T when the
//!    minimum is 1.
//! 7. `(?>S{0,k} Y)` with S never empty but of several outcomes: a greedy repetition tries
//!    one more iteration before it stops, `(?>S S{0,k-1} Y) | (?!S S{0,k-1} Y) (?>Y)`, a
//!    lazy one the reverse. For k unbounded the rules come back to `(?>S* Y)` after an
//!    iteration: each translation is a right-linear form whose terms end in a sequence
//!    being rewritten, and `X = A X | B` is solved as `X = A* B` (Arden's rule; the only
//!    solution, as A matches a character or more).
//!
//! 8. `(?>S{0,k} Y)`, greedy, S of several outcomes that may match "" but only after its
//!    other paths (`capture::empty_last`), where an iteration that matches "" ends the
//!    loop: `S'{0,k-1} (S'|E|) Y`, S' the paths of S that match a character and E those
//!    that match "" (`capture::repeat`), whose parts the rules above read in this order.
//!
//! A minimum above zero is unrolled first (`S{m,n}` is `S{m} S{0,n-m}`). Anything else is
//! refused with the reason (a repetition whose body may match "" followed by more of the
//! group: the engines' checks of empty iterations are not read).
//!
//! # Budgets
//! The prefix-free and exclusive tests build automata under the caller's [`Budget`],
//! whose deadline is checked at every step; unrolling is limited to [`MAX_UNROLL`] copies
//! of a repeated part and the rewriting to [`MAX_STEPS`] rule applications nested at most
//! [`MAX_DEPTH`] deep, so the translation is at most polynomial in the group's size; its
//! lookarounds then go through the budgeted construction of `lookaround.rs`.

use std::cell::{Cell, RefCell};

use super::{Expr, capture};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::nfa::Nfa;

/// The most copies of a repeated part the rules may write out.
pub(super) const MAX_UNROLL: u32 = 64;

/// The most nodes the rewriting of one atomic group may write (its lookaheads copy the
/// rest of the group).
pub(super) const MAX_NODES: usize = 1 << 20;

/// The most rule applications for one atomic group: distributing an alternation over the
/// rest of the group can multiply the work (`(?>(a|ab)(a|ab)...)`).
pub(super) const MAX_STEPS: usize = 4_096;

/// The deepest the rules may nest (one level per part of the group they go past), which
/// bounds the stack.
pub(super) const MAX_DEPTH: usize = 256;

/// Why an atomic group was not read.
#[derive(Debug)]
pub(super) enum Refusal {
    /// No rule applies: the reason, for the error message.
    Unsupported(String),
    /// Testing a part's ends ran out of budget.
    Budget(BudgetError),
}

impl From<BudgetError> for Refusal {
    fn from(err: BudgetError) -> Refusal {
        Refusal::Budget(err)
    }
}

/// The exact translation of `(?>body)`: an [`Expr::Atomic`]. `empty_ends_loop`: an
/// iteration that matches "" ends a loop (as in Python, Java and PCRE; JavaScript, whose
/// lookaheads are read here too, fails such an iteration). `one_path`: at most one *path*
/// per start, not only one end, for the backtracking analysis, which counts the paths
/// (rule 1 then takes a part apart like one that sets values: `(?>a|a)` is `a|(?!a)a`).
pub(super) fn atomic(
    body: Expr,
    empty_ends_loop: bool,
    one_path: bool,
    budget: &Budget,
) -> Result<Expr, Refusal> {
    let rewriter = Rewriter {
        budget,
        steps: Cell::new(0),
        depth: Cell::new(0),
        open: RefCell::new(Vec::new()),
        nodes: Cell::new(0),
        empty_ends_loop,
        one_path,
    };
    let res = rewriter.closed(body.into_parts())?;
    Ok(Expr::Atomic(Box::new(res)))
}

/// The translation of `(?>parts...)` as a right-linear form: the union of its terms, each
/// a prefix followed by the translation of a sequence still being rewritten (its index in
/// [`Rewriter::open`]) or by nothing (`None`). One term per target, the prefixes of a target
/// in one alternation, so that a prefix is written once per target. An unbounded
/// repetition's translation refers to itself after an iteration (rule 7), which
/// [`Rewriter::sequence`] solves.
#[derive(Clone, Default)]
struct Linear(Vec<(Option<usize>, Expr)>);

impl Linear {
    /// `expr`, then nothing.
    fn done(expr: Expr) -> Linear {
        Linear(vec![(None, expr)])
    }

    /// Adds the terms of `other`.
    fn extend(&mut self, other: Linear) {
        for (target, expr) in other.0 {
            match self.0.iter_mut().find(|(known, _)| *known == target) {
                Some((_, known)) => {
                    *known = match std::mem::replace(known, Expr::Empty) {
                        Expr::Alt(mut branches) => {
                            branches.push(expr);
                            Expr::Alt(branches)
                        }
                        other => Expr::Alt(vec![other, expr]),
                    }
                }
                None => self.0.push((target, expr)),
            }
        }
    }
}

struct Rewriter<'b> {
    budget: &'b Budget,
    /// Rule applications so far, against [`MAX_STEPS`].
    steps: Cell<usize>,
    /// Nested rule applications now, against [`MAX_DEPTH`].
    depth: Cell<usize>,
    /// The sequences being rewritten, outermost first.
    open: RefCell<Vec<Vec<Expr>>>,
    /// Nodes written so far, against [`MAX_NODES`].
    nodes: Cell<usize>,
    /// An iteration that matches "" ends a loop (Python, Java, PCRE); JavaScript fails it.
    empty_ends_loop: bool,
    /// Parts of one outcome must have one path too (`atomic`'s `one_path`).
    one_path: bool,
}

impl Rewriter<'_> {
    /// `(?>parts...)` apart from the sequences being rewritten: an expression.
    fn closed(&self, parts: Vec<Expr>) -> Result<Expr, Refusal> {
        let outer = self.open.take();
        let res = self.sequence(parts);
        self.open.replace(outer);
        // Nothing is open around it: every term ends.
        let terms: Vec<Expr> = res?.0.into_iter().map(|(_, expr)| expr).collect();
        Ok(if terms.is_empty() { Expr::set(CharSet::empty()) } else { Expr::alt(terms) })
    }

    /// Each term of `linear` after `prefix`.
    fn prefixed(&self, prefix: &Expr, linear: Linear) -> Result<Linear, Refusal> {
        self.charge(prefix.size().saturating_mul(linear.0.len()))?;
        let prefix = |expr| Expr::concat(vec![prefix.clone(), expr]);
        Ok(Linear(linear.0.into_iter().map(|(target, expr)| (target, prefix(expr))).collect()))
    }

    /// `(?!parts...)`.
    fn not_ahead(&self, parts: Vec<Expr>) -> Result<Expr, Refusal> {
        let ahead = Expr::look(true, true, Expr::concat(parts));
        self.charge(ahead.size())?;
        Ok(ahead)
    }

    /// Counts `n_nodes` more nodes written.
    fn charge(&self, n_nodes: usize) -> Result<(), Refusal> {
        self.nodes.set(self.nodes.get().saturating_add(n_nodes));
        if self.nodes.get() > MAX_NODES {
            return Err(Refusal::Unsupported(format!(
                "rewriting it writes more than {MAX_NODES} nodes: too large"
            )));
        }
        Ok(())
    }

    /// `(?>parts...)`. Where the rules come back to a sequence being rewritten (after an
    /// iteration of a repetition, which matches a character or more), it is referred to;
    /// its own terms that come back to it are solved by Arden's rule: X = A X | B is
    /// X = A* B, the only solution when A never matches "".
    fn sequence(&self, parts: Vec<Expr>) -> Result<Linear, Refusal> {
        if parts.is_empty() {
            return Ok(Linear::done(Expr::Empty));
        }
        if let Some(index) = self.open.borrow().iter().position(|open| *open == parts) {
            return Ok(Linear(vec![(Some(index), Expr::Empty)]));
        }
        self.steps.set(self.steps.get() + 1);
        if self.steps.get() > MAX_STEPS || self.depth.get() >= MAX_DEPTH {
            return Err(Refusal::Unsupported(format!(
                "rewriting it takes more than {MAX_STEPS} steps or nests deeper than \
                 {MAX_DEPTH}: too large"
            )));
        }
        self.budget.check_time(Operation::Parse)?;
        self.depth.set(self.depth.get() + 1);
        let index = {
            let mut open = self.open.borrow_mut();
            open.push(parts.clone());
            open.len() - 1
        };
        let res = self.apply(parts);
        self.open.borrow_mut().pop();
        self.depth.set(self.depth.get() - 1);
        let mut res = res?;
        let Some(at) = res.0.iter().position(|&(target, _)| target == Some(index)) else {
            return Ok(res);
        };
        let (_, iteration) = res.0.remove(at);
        self.prefixed(&Expr::repeat(iteration, 0, None), res)
    }

    /// The first rule that applies to `(?>parts...)`, `parts` not empty.
    fn apply(&self, parts: Vec<Expr>) -> Result<Linear, Refusal> {
        let Some(head) = parts.first() else { return Ok(Linear::done(Expr::Empty)) };
        if self.has_one_outcome(&Expr::concat(parts.clone()))? {
            return Ok(Linear::done(Expr::concat(parts)));
        }
        let rest = parts[1..].to_vec();
        match head {
            Expr::Empty => self.sequence(rest),
            Expr::Concat(inner) => {
                self.sequence(inner.iter().cloned().chain(rest).collect::<Vec<_>>())
            }
            head if self.has_one_outcome(head)? => self.prefixed(head, self.sequence(rest)?),
            Expr::Alt(branches) => self.alternation(branches, &rest),
            Expr::Repeat { sub, min, max, greedy } => {
                self.repetition(sub, *min, *max, *greedy, rest)
            }
            _ => Err(several_ends()),
        }
    }

    /// Rule 3: `(?>(b1|b2|...) rest)`.
    fn alternation(&self, branches: &[Expr], rest: &[Expr]) -> Result<Linear, Refusal> {
        let mut res = Linear::default();
        for (idx, branch) in branches.iter().enumerate() {
            let mut parts = vec![branch.clone()];
            parts.extend_from_slice(rest);
            let translated = self.sequence(parts)?;
            if idx == 0 {
                res.extend(translated);
            } else {
                let mut earlier = vec![Expr::alt(branches[..idx].to_vec())];
                earlier.extend_from_slice(rest);
                res.extend(self.prefixed(&self.not_ahead(earlier)?, translated)?);
            }
        }
        Ok(res)
    }

    /// Rules 4 to 7: `(?>sub{min,max} rest)`.
    fn repetition(
        &self,
        sub: &Expr,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        rest: Vec<Expr>,
    ) -> Result<Linear, Refusal> {
        if max == Some(0) {
            return self.sequence(rest);
        }
        if !greedy && rest.is_empty() {
            // The fewest iterations: `(?>sub{min})`.
            return self.sequence(unrolled(sub, min)?);
        }
        let one_end = self.has_one_outcome(sub)? && !is_nullable(sub);
        // Unrolled unless rule 6 reads `(?>X{1,k})` as it stands.
        if min > 0 && (one_end || !rest.is_empty() || min > 1) {
            // `sub{min} sub{0,max-min} rest`, the copies read by the head rules.
            let mut parts = unrolled(sub, min)?;
            let more = max.map(|max| max - min);
            parts.push(Expr::Repeat { sub: Box::new(sub.clone()), min: 0, max: more, greedy });
            parts.extend(rest);
            return self.sequence(parts);
        }
        if one_end {
            return if greedy {
                self.greedy(sub.clone(), min, max, rest)
            } else {
                self.lazy(sub.clone(), max, rest)
            };
        }
        let nullable = is_nullable(sub);
        if rest.is_empty() && min <= 1 && !(nullable && sub.sets_capture()) {
            // Rule 6: each iteration keeps its first end.
            let first = self.closed(sub.clone().into_parts())?;
            if !nullable {
                return self.greedy(first, min, max, rest);
            }
            if self.empty_ends_loop {
                // An iteration whose first end is where it started ends the loop.
                let more = max.map(|max| max - min);
                let loop_on = self.greedy(capture::non_empty(&first), 0, more, rest)?;
                return if min == 1 { self.prefixed(&first, loop_on) } else { Ok(loop_on) };
            }
        }
        if nullable && !(self.empty_ends_loop && greedy && capture::empty_last(sub)) {
            return Err(several_ends());
        }
        if nullable {
            // Rule 8: an iteration that matches "" ends the loop, and the body's paths
            // that match "" come last: its iterations as `capture::repeat` reads them.
            let split = capture::repeat(sub.clone(), 0, max, greedy, Vec::new(), true, false);
            return self.sequence(split.into_parts().into_iter().chain(rest).collect());
        }
        self.unfold(sub, max, greedy, rest)
    }

    /// Rule 7: `(?>sub{0,max} rest)`, `sub` never empty but of several outcomes. A greedy
    /// repetition tries one more iteration (`sub`'s outcomes in order, each followed by the
    /// rest of the repetition and of the group) before it stops, a lazy one after; the
    /// unbounded one comes back to this sequence after an iteration.
    fn unfold(
        &self,
        sub: &Expr,
        max: Option<u32>,
        greedy: bool,
        rest: Vec<Expr>,
    ) -> Result<Linear, Refusal> {
        if max.is_some_and(|max| max > MAX_UNROLL) {
            return Err(Refusal::Unsupported(format!(
                "its body repeats a part of several ends up to {} times before more of the \
                 group, above the {MAX_UNROLL} this rewriting writes out: too large",
                max.unwrap_or_default()
            )));
        }
        let fewer = Expr::Repeat {
            sub: Box::new(sub.clone()),
            min: 0,
            max: max.map(|max| max - 1),
            greedy,
        };
        let more: Vec<Expr> =
            [sub.clone(), fewer].into_iter().chain(rest.iter().cloned()).collect();
        let (first, then) = if greedy { (more, rest) } else { (rest, more) };
        let not_first = self.not_ahead(first.clone())?;
        let mut res = self.sequence(first)?;
        res.extend(self.prefixed(&not_first, self.sequence(then)?)?);
        Ok(res)
    }

    /// Rule 4, `sub` of one end and never empty.
    fn greedy(
        &self,
        sub: Expr,
        min: u32,
        max: Option<u32>,
        rest: Vec<Expr>,
    ) -> Result<Linear, Refusal> {
        let not_more = |ahead: Vec<Expr>| self.not_ahead(ahead);
        let repeat = |min: u32, max: Option<u32>| Expr::repeat(sub.clone(), min, max);
        if rest.is_empty() {
            let expr = match max {
                None => Expr::concat(vec![repeat(min, None), not_more(vec![sub.clone()])?]),
                Some(max) if max == min => repeat(min, Some(max)),
                Some(max) => Expr::alt(vec![
                    repeat(max, Some(max)),
                    Expr::concat(vec![repeat(min, Some(max - 1)), not_more(vec![sub.clone()])?]),
                ]),
            };
            return Ok(Linear::done(expr));
        }
        // Here min is 0: the unrolling came first.
        let after = self.sequence(rest.clone())?;
        let Some(max) = max else {
            let mut ahead = vec![repeat(1, None)];
            ahead.extend(rest);
            return self.prefixed(&Expr::concat(vec![repeat(0, None), not_more(ahead)?]), after);
        };
        if max > MAX_UNROLL {
            return Err(Refusal::Unsupported(format!(
                "its body repeats a part up to {max} times before more of the group, above \
                 the {MAX_UNROLL} this rewriting writes out: too large"
            )));
        }
        let mut branches = Linear::default();
        for n in 0..=max {
            let mut parts = vec![repeat(n, Some(n))];
            if n < max {
                let mut ahead = vec![repeat(1, Some(max - n))];
                ahead.extend(rest.iter().cloned());
                parts.push(not_more(ahead)?);
            }
            branches.extend(self.prefixed(&Expr::concat(parts), after.clone())?);
        }
        Ok(branches)
    }

    /// Rule 5, `sub` of one end and never empty, `rest` not empty.
    fn lazy(&self, sub: Expr, max: Option<u32>, rest: Vec<Expr>) -> Result<Linear, Refusal> {
        let step = Expr::concat(vec![self.not_ahead(rest.clone())?, sub]);
        self.prefixed(&Expr::repeat(step, 0, max), self.sequence(rest)?)
    }

    /// Whether `expr` has at most one outcome for each start and values before it: one
    /// match end, and one way to set the captured values on the way (see rule 1). Parts
    /// that set values are taken apart: an alternation of exclusive branches, a
    /// repetition whose iterations the end forces.
    fn has_one_outcome(&self, expr: &Expr) -> Result<bool, Refusal> {
        if !expr.sets_capture() && !self.one_path {
            return self.has_one_end(expr);
        }
        match expr {
            // A lookaround's values stay in it; a translated group has one outcome.
            Expr::Empty | Expr::Set(_) | Expr::Capture(_) | Expr::Look(_) | Expr::Atomic(_) => {
                Ok(true)
            }
            Expr::Concat(parts) => self.all_one_outcome(parts),
            Expr::Alt(branches) => {
                Ok(self.are_exclusive(branches)? && self.all_one_outcome(branches)?)
            }
            Expr::Repeat { sub, min, max, .. } if Some(*min) == *max => self.has_one_outcome(sub),
            Expr::Repeat { sub, .. } => {
                Ok(!is_nullable(sub) && self.has_one_outcome(sub)? && self.has_one_end(expr)?)
            }
        }
    }

    fn all_one_outcome(&self, exprs: &[Expr]) -> Result<bool, Refusal> {
        for expr in exprs {
            if !self.has_one_outcome(expr)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Whether at most one of `branches` matches from each start, and at one end: no
    /// string of one is a string of another or a proper prefix of a string of any
    /// (lookarounds and steps on values dropped). Each branch is followed by a marker of
    /// its own, and the automaton of their union must let at most one marker end a
    /// string, and no longer string after one that a marker ends.
    fn are_exclusive(&self, branches: &[Expr]) -> Result<bool, Refusal> {
        if branches.len() > MAX_MARKED {
            return Ok(false);
        }
        let n = branches.len() as u32;
        let marked = branches.iter().zip(MARKERS).map(|(branch, marker)| {
            Expr::concat(vec![branch.clone(), Expr::set(CharSet::singleton(marker))])
        });
        let hir = Expr::alt(marked.collect()).to_hir();
        let dfa = Dfa::from_nfa(&Nfa::from_hir(&hir, self.budget)?, self.budget)?;
        // Each class with the number of markers in it: a class of markers only (several
        // when the automaton does not tell them apart); a class that holds other
        // characters too is plain, its markers those of branches that match nothing.
        let used = u32::from(*MARKERS.start())..=u32::from(*MARKERS.start()) + n - 1;
        let n_markers = |set: &CharSet| -> usize {
            let markers_only = set
                .ranges()
                .iter()
                .all(|&(lo, hi)| used.contains(&u32::from(lo)) && used.contains(&u32::from(hi)));
            if markers_only { set.len() as usize } else { 0 }
        };
        let (markers, plain): (Vec<_>, Vec<_>) = dfa
            .classes()
            .iter()
            .map(|(class, set)| (class, n_markers(set)))
            .partition(|&(_, n_markers)| n_markers > 0);
        let ends = |state| {
            let ends =
                markers.iter().filter(|(class, _)| dfa.is_accepting(dfa.next_state(state, *class)));
            ends.map(|(_, n_markers)| n_markers).sum::<usize>()
        };
        let mut seen = vec![false; dfa.n_states()];
        let mut stack = Vec::new();
        for state in dfa.states() {
            match ends(state) {
                0 => {}
                1 => stack.push(state),
                _ => return Ok(false),
            }
        }
        // Every state a non-empty string leads to from one where a marker ends a string.
        while let Some(state) = stack.pop() {
            for (class, _) in &plain {
                let next = dfa.next_state(state, *class);
                if !seen[next.index()] {
                    if ends(next) > 0 {
                        return Ok(false);
                    }
                    seen[next.index()] = true;
                    stack.push(next);
                }
            }
        }
        Ok(true)
    }

    /// Whether `expr` has at most one match end for each start (see rule 1).
    fn has_one_end(&self, expr: &Expr) -> Result<bool, Refusal> {
        match expr {
            Expr::Empty | Expr::Set(_) | Expr::Look(_) | Expr::Atomic(_) => Ok(true),
            Expr::Concat(parts) => {
                // Ends compose: runs between known parts are tested on their own.
                let mut run: Vec<Expr> = Vec::new();
                for part in parts {
                    if matches!(part, Expr::Atomic(_)) {
                        if !self.is_prefix_free(&run)? {
                            return Ok(false);
                        }
                        run.clear();
                    } else {
                        run.push(part.clone());
                    }
                }
                self.is_prefix_free(&run)
            }
            Expr::Repeat { sub, min, max, .. } if Some(*min) == *max => self.has_one_end(sub),
            _ => self.is_prefix_free(std::slice::from_ref(expr)),
        }
    }

    /// Whether the language of `parts`, lookarounds dropped, is prefix-free: no string of
    /// it is a proper prefix of another.
    fn is_prefix_free(&self, parts: &[Expr]) -> Result<bool, Refusal> {
        if parts.iter().all(|part| matches!(part, Expr::Empty | Expr::Set(_) | Expr::Look(_))) {
            return Ok(true);
        }
        let hir = Expr::concat(parts.to_vec()).to_hir();
        let dfa = Dfa::from_nfa(&Nfa::from_hir(&hir, self.budget)?, self.budget)?;
        Ok(is_prefix_free(&dfa))
    }
}

/// The most branches [`Rewriter::are_exclusive`] marks.
const MAX_MARKED: usize = 4_096;

/// The markers of [`Rewriter::are_exclusive`]: characters of the supplementary private use
/// area B. A pattern may match them too; then more strings seem to collide, never fewer.
const MARKERS: std::ops::RangeInclusive<char> = '\u{100000}'..='\u{10FFFD}';

/// Whether no accepting state of `dfa` reaches an accepting state in one step or more.
fn is_prefix_free(dfa: &Dfa) -> bool {
    let n_states = dfa.n_states();
    let mut seen = vec![false; n_states];
    let mut stack = Vec::new();
    for state in dfa.states().filter(|&state| dfa.is_accepting(state)) {
        stack.push(state);
    }
    // Every state reached in one step or more from an accepting one.
    while let Some(state) = stack.pop() {
        for (class, _) in dfa.classes().iter() {
            let next = dfa.next_state(state, class);
            if !seen[next.index()] {
                if dfa.is_accepting(next) {
                    return false;
                }
                seen[next.index()] = true;
                stack.push(next);
            }
        }
    }
    true
}

/// `count` copies of `sub`, within [`MAX_UNROLL`].
fn unrolled(sub: &Expr, count: u32) -> Result<Vec<Expr>, Refusal> {
    if count > MAX_UNROLL {
        return Err(Refusal::Unsupported(format!(
            "its body repeats a part at least {count} times, above the {MAX_UNROLL} this \
             rewriting writes out: too large"
        )));
    }
    Ok(vec![sub.clone(); count as usize])
}

/// Whether `expr` (lookarounds dropped) matches the empty string.
fn is_nullable(expr: &Expr) -> bool {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => true,
        Expr::Set(_) => false,
        Expr::Concat(parts) => parts.iter().all(is_nullable),
        Expr::Alt(parts) => parts.iter().any(is_nullable),
        Expr::Repeat { sub, min, .. } => *min == 0 || is_nullable(sub),
        Expr::Atomic(sub) => is_nullable(sub),
    }
}

fn several_ends() -> Refusal {
    Refusal::Unsupported(
        "its body has several match ends that no rule tells apart (an alternation or a \
         repetition of such parts)"
            .into(),
    )
}
#[cfg(test)]
mod tests {
    use super::*;

    fn exclusive(branches: &[Expr]) -> bool {
        let budget = Budget::default();
        let rewriter = Rewriter {
            budget: &budget,
            steps: Cell::new(0),
            depth: Cell::new(0),
            open: RefCell::new(Vec::new()),
            nodes: Cell::new(0),
            empty_ends_loop: true,
            one_path: false,
        };
        rewriter.are_exclusive(branches).unwrap_or_else(|_| panic!("over budget"))
    }

    #[test]
    fn exclusive_branches_share_no_string_and_no_prefix() {
        let char = |c| Expr::set(CharSet::singleton(c));
        let any = Expr::set(CharSet::full());
        let fail = Expr::set(CharSet::empty());
        assert!(exclusive(&[char('a'), char('b')]));
        assert!(exclusive(&[Expr::concat(vec![char('a'), char('b')]), char('b')]));
        // The same string twice, or one a prefix of another.
        assert!(!exclusive(&[char('a'), Expr::alt(vec![char('a'), char('b')])]));
        assert!(!exclusive(&[any.clone(), Expr::Empty]));
        assert!(!exclusive(&[char('a'), Expr::concat(vec![char('a'), char('b')])]));
        // A branch that matches nothing leaves its marker among the plain characters,
        // which must still be followed (`.` matches markers too).
        assert!(!exclusive(&[Expr::Atomic(Box::new(any.clone())), fail.clone(), Expr::Empty]));
        assert!(!exclusive(&[Expr::concat(vec![any, char('a')]), fail, char('b')]));
    }
}
