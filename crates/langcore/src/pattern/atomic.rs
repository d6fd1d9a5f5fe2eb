//! Atomic groups `(?>X)` and possessive quantifiers, read exactly by rewriting them into
//! lookarounds.
//!
//! # Semantics
//! A backtracking engine runs `(?>X)` at position i by trying X's matches in priority order
//! and keeping the first, E(X, i); if what follows fails, it does not come back for another.
//! So `(?>X)` matches exactly the pairs (i, E(X, i)), every lookaround in X looking at the
//! whole string, and the language of a pattern is still the set of strings some path spans.
//! A possessive quantifier `X*+` is `(?>X*)`.
//!
//! # Algorithm
//! [`atomic`] rewrites `(?>X)` into an expression with at most one match end per start
//! that has the same ends, by these rules (Y is the rest of the group after the head):
//! 1. X has *one end* (at most one match end for each start): `(?>X)` is X. Known for
//!    characters, lookarounds, translated atomic groups and concatenations of those, and
//!    tested for the rest on the language of X with its lookarounds dropped (a superset of
//!    its matches): one end if that language is prefix-free.
//! 2. `(?>H Y)` with H of one end is `H (?>Y)`: nothing can be taken back from H.
//! 3. `(?>(A|B) Y)` is `(?>A Y) | (?!A Y) (?>B Y)`: the first branch wins when it can.
//! 4. `(?>S{0,k} Y)`, greedy, S of one end and never empty: S's iterations are forced, and
//!    the engine backs off from the most of them, so it is the union over n ≤ k of
//!    `S{n} (?!S{1,k-n} Y) (?>Y)`; for k unbounded, `S* (?!S+ Y) (?>Y)`; without Y, the
//!    compact `S{k} | S{0,k-1}(?!S)` and `S*(?!S)`.
//! 5. Lazy `(?>S{0,k}? Y)`: the fewest iterations after which Y matches,
//!    `((?!Y) S){0,k} (?>Y)`; `(?>X{m,n}?)` without Y is `(?>X{m})`.
//! 6. `(?>X{0,k})` or `(?>X{1,k})` without Y, X never empty but of several ends: each
//!    iteration keeps its first end, since the rest of the repetition cannot fail, so it
//!    is rule 4 on `T = (?>X)`.
//!
//! A minimum above zero is unrolled first (`S{m,n}` is `S{m} S{0,n-m}`). Anything else is
//! refused with the reason ("its body has several match ends").
//!
//! # Budgets
//! The prefix-free tests build automata under the caller's [`Budget`], whose deadline is
//! checked at every step; unrolling is limited to [`MAX_UNROLL`] copies of a repeated
//! part and the rewriting to [`MAX_STEPS`] rule applications nested at most [`MAX_DEPTH`]
//! deep, so the translation is at most polynomial in the group's size; its lookarounds then go through the budgeted
//! construction of `lookaround.rs`.

use std::cell::Cell;

use super::Expr;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::nfa::Nfa;

/// The most copies of a repeated part the rules may write out.
pub(super) const MAX_UNROLL: u32 = 64;

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

/// The exact translation of `(?>body)`: an [`Expr::Atomic`].
pub(super) fn atomic(body: Expr, budget: &Budget) -> Result<Expr, Refusal> {
    if body.sets_capture() {
        // The rules move parts into lookaheads, whose captured values stay there (tests
        // read the same values in every copy, as nothing inside sets one).
        return Err(Refusal::Unsupported(
            "it holds a group that a backreference or conditional reads under a \
             repetition or in another branch"
                .into(),
        ));
    }
    let rewriter = Rewriter { budget, steps: Cell::new(0), depth: Cell::new(0) };
    let res = rewriter.sequence(body.into_parts())?;
    Ok(Expr::Atomic(Box::new(res)))
}

struct Rewriter<'b> {
    budget: &'b Budget,
    /// Rule applications so far, against [`MAX_STEPS`].
    steps: Cell<usize>,
    /// Nested rule applications now, against [`MAX_DEPTH`].
    depth: Cell<usize>,
}

impl Rewriter<'_> {
    /// `(?>parts...)`.
    fn sequence(&self, parts: Vec<Expr>) -> Result<Expr, Refusal> {
        if parts.is_empty() {
            return Ok(Expr::Empty);
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
        let res = self.apply(parts);
        self.depth.set(self.depth.get() - 1);
        res
    }

    /// The first rule that applies to `(?>parts...)`, `parts` not empty.
    fn apply(&self, parts: Vec<Expr>) -> Result<Expr, Refusal> {
        let Some(head) = parts.first() else { return Ok(Expr::Empty) };
        if self.has_one_end(&Expr::concat(parts.clone()))? {
            return Ok(Expr::concat(parts));
        }
        let rest = parts[1..].to_vec();
        match head {
            Expr::Empty => self.sequence(rest),
            Expr::Concat(inner) => {
                self.sequence(inner.iter().cloned().chain(rest).collect::<Vec<_>>())
            }
            head if self.has_one_end(head)? => {
                Ok(Expr::concat(vec![head.clone(), self.sequence(rest)?]))
            }
            Expr::Alt(branches) => self.alternation(branches, &rest),
            Expr::Repeat { sub, min, max, greedy } => {
                self.repetition(sub, *min, *max, *greedy, rest)
            }
            _ => Err(several_ends()),
        }
    }

    /// Rule 3: `(?>(b1|b2|...) rest)`.
    fn alternation(&self, branches: &[Expr], rest: &[Expr]) -> Result<Expr, Refusal> {
        let mut res = Vec::with_capacity(branches.len());
        for (idx, branch) in branches.iter().enumerate() {
            let mut parts = vec![branch.clone()];
            parts.extend_from_slice(rest);
            let translated = self.sequence(parts)?;
            res.push(if idx == 0 {
                translated
            } else {
                let mut earlier = vec![Expr::alt(branches[..idx].to_vec())];
                earlier.extend_from_slice(rest);
                Expr::concat(vec![Expr::look(true, true, Expr::concat(earlier)), translated])
            });
        }
        Ok(Expr::alt(res))
    }

    /// Rules 4 to 6: `(?>sub{min,max} rest)`.
    fn repetition(
        &self,
        sub: &Expr,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        rest: Vec<Expr>,
    ) -> Result<Expr, Refusal> {
        if max == Some(0) {
            return self.sequence(rest);
        }
        if !greedy && rest.is_empty() {
            // The fewest iterations: `(?>sub{min})`.
            return self.sequence(unrolled(sub, min)?);
        }
        let one_end = self.has_one_end(sub)? && !is_nullable(sub);
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
        if rest.is_empty() && min <= 1 && !is_nullable(sub) {
            // Rule 6: each iteration keeps its first end.
            let first = self.sequence(sub.clone().into_parts())?;
            return self.greedy(first, min, max, rest);
        }
        Err(several_ends())
    }

    /// Rule 4, `sub` of one end and never empty.
    fn greedy(
        &self,
        sub: Expr,
        min: u32,
        max: Option<u32>,
        rest: Vec<Expr>,
    ) -> Result<Expr, Refusal> {
        let not_more = |ahead: Vec<Expr>| Expr::look(true, true, Expr::concat(ahead));
        let repeat = |min: u32, max: Option<u32>| Expr::repeat(sub.clone(), min, max);
        if rest.is_empty() {
            return Ok(match max {
                None => Expr::concat(vec![repeat(min, None), not_more(vec![sub.clone()])]),
                Some(max) if max == min => repeat(min, Some(max)),
                Some(max) => Expr::alt(vec![
                    repeat(max, Some(max)),
                    Expr::concat(vec![repeat(min, Some(max - 1)), not_more(vec![sub.clone()])]),
                ]),
            });
        }
        // Here min is 0: the unrolling came first.
        let after = self.sequence(rest.clone())?;
        let Some(max) = max else {
            let mut ahead = vec![repeat(1, None)];
            ahead.extend(rest);
            return Ok(Expr::concat(vec![repeat(0, None), not_more(ahead), after]));
        };
        if max > MAX_UNROLL {
            return Err(Refusal::Unsupported(format!(
                "its body repeats a part up to {max} times before more of the group, above \
                 the {MAX_UNROLL} this rewriting writes out: too large"
            )));
        }
        let mut branches = Vec::with_capacity(max as usize + 1);
        for n in 0..=max {
            let mut parts = vec![repeat(n, Some(n))];
            if n < max {
                let mut ahead = vec![repeat(1, Some(max - n))];
                ahead.extend(rest.iter().cloned());
                parts.push(not_more(ahead));
            }
            parts.push(after.clone());
            branches.push(Expr::concat(parts));
        }
        Ok(Expr::alt(branches))
    }

    /// Rule 5, `sub` of one end and never empty, `rest` not empty.
    fn lazy(&self, sub: Expr, max: Option<u32>, rest: Vec<Expr>) -> Result<Expr, Refusal> {
        let not_yet = Expr::look(true, true, Expr::concat(rest.clone()));
        let step = Expr::concat(vec![not_yet, sub]);
        Ok(Expr::concat(vec![Expr::repeat(step, 0, max), self.sequence(rest)?]))
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
