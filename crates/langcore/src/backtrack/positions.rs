//! The paths a backtracking engine can take through a pattern, as an automaton: one state
//! per atom occurrence (Glushkov's position automaton), one-character assertions as guards
//! on its moves.
//!
//! # Algorithm
//! Glushkov's construction over the front end's [`Expr`]: each sub-expression gives the
//! positions it can start and end with and the ways it can match "" (its *nullable
//! guards*); a concatenation links the ends of its left part to the starts of its right.
//! A path of positions is a way the engine reads a string, so ambiguity here is the
//! engine's backtracking; ε-iterations of loops collapse, as the engines' empty-iteration
//! checks make them. Counted repetitions are unrolled. A lookaround whose body is one
//! character set (every anchor, `\b`, and the translation `S*(?!S)` of an atomic `S*`) is
//! a [`Guard`] on the next or previous character, exact. Any other lookaround is replaced
//! by a weaker guard (its body's first characters, or nothing): the moves it stands on
//! are marked inexact, so that the analysis can tell a bound it proved from one it could
//! not (`mod.rs`), and a success under such a guard is only a possible one.
//!
//! A step on captured values (the front end's readings of backreferences) sets a value,
//! which changes no path, or tests one: the test is read as holding, on moves marked
//! inexact, and a success at a state a path may reach past one is only a possible one
//! (the engine may not be there). A reference to a group of infinitely many strings is a
//! copy of the group's body behind such a test, so its paths bound the engine's from
//! above only.
//!
//! A lookahead whose body repeats costs the engine a run of the body each time it is
//! tested, up to the rest of the text: the body's positions hang off the point of the
//! lookahead as a dead end (its *side branch*), whose moves are inexact but
//! [`Move::body_exact`]. Its paths are the work of those runs, which the engine does in
//! full where the body never succeeds (`mod.rs` checks that on the attack).
//!
//! In search mode states stand before the pattern: the start of the text, and "after
//! some characters skipped", one per class of the last character that the pattern's
//! leading lookbehinds tell apart, looping on every character: the engine's retry at each
//! start is that loop. Where the engine may succeed before reading a character, the
//! move on it is kept: the engine may try it first, and `runs.rs` prunes by successes
//! knowing which runs they end.
//!
//! # Budgets
//! Every position counts against the state limit and every move against the memory
//! limit, as [`Operation::Backtracking`].

use std::collections::BTreeSet;

use crate::alphabet::{CharSet, Classes};
use crate::budget::{Budget, Operation};
use crate::error::Error;
use crate::pattern::{self, Capture, Expr};

/// How many distinct guards a sub-expression's ways of matching "" keep before they are
/// merged into one (inexact) guard.
const MAX_GUARDS: usize = 8;

/// A condition on the characters around a point of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Guard {
    /// The characters allowed next, and whether the end of the text is.
    ahead: CharSet,
    end: bool,
    /// The characters allowed before, and whether the start of the text is.
    behind: CharSet,
    start: bool,
    /// Whether this is exactly the assertions' condition (not a weaker one).
    exact: bool,
    /// Whether it is exact where no lookahead body's run with a side branch succeeds
    /// (a negative lookahead whose body fails holds).
    body_exact: bool,
    /// Whether it cannot hold there (a positive lookahead whose body fails does not).
    body_never: bool,
    /// Whether it tests a captured value (read as holding): the engine may not pass it
    /// where the automaton does, nor reach what follows.
    loose: bool,
}

impl Guard {
    fn always() -> Guard {
        Guard {
            ahead: CharSet::full(),
            end: true,
            behind: CharSet::full(),
            start: true,
            exact: true,
            body_exact: true,
            body_never: false,
            loose: false,
        }
    }

    /// A test of a captured value, or a lookaround whose body reads one: read as holding,
    /// inexact.
    fn value_test() -> Guard {
        Guard { exact: false, body_exact: false, loose: true, ..Guard::always() }
    }

    /// Both conditions at the same point; `None` when they cannot both hold.
    fn and(&self, other: &Guard) -> Option<Guard> {
        let guard = Guard {
            ahead: self.ahead.intersection(&other.ahead),
            end: self.end && other.end,
            behind: self.behind.intersection(&other.behind),
            start: self.start && other.start,
            exact: self.exact && other.exact,
            body_exact: self.body_exact && other.body_exact,
            body_never: self.body_never || other.body_never,
            loose: self.loose || other.loose,
        };
        let forward = !guard.ahead.is_empty() || guard.end;
        let backward = !guard.behind.is_empty() || guard.start;
        (forward && backward).then_some(guard)
    }

    /// Either condition, as one guard that may allow more (inexact then).
    fn or(&self, other: &Guard) -> Guard {
        Guard {
            ahead: self.ahead.union(&other.ahead),
            end: self.end || other.end,
            behind: self.behind.union(&other.behind),
            start: self.start || other.start,
            exact: false,
            body_exact: false,
            body_never: self.body_never && other.body_never,
            loose: self.loose || other.loose,
        }
    }

    /// The guard of a lookaround, exact when its body is one character set (or "").
    fn of_look(ahead: bool, negated: bool, body: &Expr) -> Guard {
        let (set, can_be_empty, exact) = match (body, one_char(body)) {
            (Expr::Empty, _) => (CharSet::empty(), true, true),
            (_, Some(set)) => (set, false, true),
            (other, None) => (first_chars(other), true, false),
        };
        let (allowed, at_edge) = match (negated, exact) {
            (false, _) => (set, can_be_empty),
            (true, true) => (set.complement(), !can_be_empty),
            // `(?!XY)` may hold before any character.
            (true, false) => (CharSet::full(), true),
        };
        // Tags are not characters of the text (`pattern::parse_tagged`).
        let allowed = allowed.difference(&pattern::tags());
        let mut guard = Guard::always();
        if ahead {
            (guard.ahead, guard.end) = (allowed, at_edge);
        } else {
            (guard.behind, guard.start) = (allowed, at_edge);
        }
        guard.exact = exact;
        // With a side branch (`Builder::side_branch`), a negative lookahead holds where
        // its body's run fails.
        let side = !exact && ahead && has_loop(body);
        guard.body_exact = exact || (side && negated);
        guard.body_never = side && !negated;
        guard
    }
}

/// The set `S` when `expr` matches where its first character is in `S`, whatever follows:
/// `S`, `S+`, `S X*`, the translation of an atomic `S*`. A lookaround of it tests one
/// character.
fn one_char(expr: &Expr) -> Option<CharSet> {
    match expr {
        Expr::Set(set) => Some(set.clone()),
        Expr::Repeat { sub, min, .. } if *min >= 1 => one_char(sub),
        Expr::Atomic(sub) => one_char(sub),
        Expr::Alt(branches) if !branches.is_empty() => branches
            .iter()
            .try_fold(CharSet::empty(), |acc, branch| Some(acc.union(&one_char(branch)?))),
        Expr::Concat(parts) => {
            let (head, rest) = parts.split_first()?;
            let free = |part: &Expr| {
                matches!(part, Expr::Empty | Expr::Repeat { min: 0, .. }) && !has_look(part)
            };
            one_char(head).filter(|_| rest.iter().all(free))
        }
        _ => None,
    }
}

/// Whether `expr` holds a lookaround or a step on captured values.
fn has_look(expr: &Expr) -> bool {
    match expr {
        Expr::Empty | Expr::Set(_) => false,
        Expr::Look(_) | Expr::Capture(_) => true,
        Expr::Alt(parts) | Expr::Concat(parts) => parts.iter().any(has_look),
        Expr::Repeat { sub, .. } | Expr::Atomic(sub) => has_look(sub),
    }
}

/// The characters a match of `expr` can start with (assertions read as nothing).
fn first_chars(expr: &Expr) -> CharSet {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => CharSet::empty(),
        Expr::Set(set) => set.clone(),
        Expr::Alt(branches) => {
            branches.iter().fold(CharSet::empty(), |acc, b| acc.union(&first_chars(b)))
        }
        Expr::Concat(parts) => {
            let mut acc = CharSet::empty();
            for part in parts {
                acc = acc.union(&first_chars(part));
                if !can_be_empty(part) {
                    break;
                }
            }
            acc
        }
        Expr::Repeat { sub, .. } | Expr::Atomic(sub) => first_chars(sub),
    }
}

/// Whether `expr` may match "" (assertions read as true).
fn can_be_empty(expr: &Expr) -> bool {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => true,
        Expr::Set(_) => false,
        Expr::Alt(branches) => branches.iter().any(can_be_empty),
        Expr::Concat(parts) => parts.iter().all(can_be_empty),
        Expr::Repeat { sub, min, .. } => *min == 0 || can_be_empty(sub),
        Expr::Atomic(sub) => can_be_empty(sub),
    }
}

/// Whether `expr` has an unbounded repetition: a lookaround with one costs the engine up
/// to the rest of the text each time it is tested.
fn has_loop(expr: &Expr) -> bool {
    match expr {
        Expr::Empty | Expr::Set(_) | Expr::Capture(_) => false,
        Expr::Alt(parts) | Expr::Concat(parts) => parts.iter().any(has_loop),
        Expr::Repeat { sub, max, .. } => max.is_none() || has_loop(sub),
        Expr::Atomic(sub) => has_loop(sub),
        Expr::Look(look) => has_loop(&look.body),
    }
}

/// A move of the automaton.
#[derive(Clone, Debug)]
pub(super) struct Move {
    /// Which of its state's moves this is: two paths taking different ones are different
    /// ways of reading, even to the same target.
    pub(super) id: usize,
    pub(super) target: usize,
    pub(super) label: CharSet,
    /// Whether every assertion on the move is read exactly (and it is not a side move).
    pub(super) exact: bool,
    /// Whether the move is read exactly where no lookahead body's run succeeds: exact
    /// moves, moves into or inside a side branch (the work of that run), moves past a
    /// negative lookahead with one.
    pub(super) body_exact: bool,
}

/// The position automaton of a pattern.
#[derive(Debug)]
pub(super) struct Positions {
    /// Moves per state: state 0 is the start of the text; in search mode the next ones
    /// are "after skipped characters" (one per class of the last); the others are
    /// positions.
    pub(super) moves: Vec<Vec<Move>>,
    /// States `0..before_pattern` stand before the pattern (the start, the skip states): a
    /// move out of them chooses the start of a run. 0 in the automaton of failing runs,
    /// whose states are not read that way.
    pub(super) before_pattern: usize,
    /// The characters a text can hold (`pattern::text_characters`): the others end no run.
    pub(super) text: CharSet,
    /// Where the engine surely succeeds (exact guards).
    pub(super) sure: Successes,
    /// Where it may succeed (any guard).
    pub(super) possible: Successes,
    /// Where it may succeed on a text where no lookahead body's run succeeds.
    pub(super) unless_bodies: Successes,
    /// Per state, whether it is in a lookahead body's side branch.
    pub(super) side: Vec<bool>,
    /// Per state, whether a lookahead body's run may succeed there (the body's ends).
    pub(super) ends_body: Vec<bool>,
    /// Per state, the tagged atom it reads (an index into the pattern's spans).
    pub(super) atoms: Vec<Option<usize>>,
    /// A lookbehind read inexactly whose body loops: it costs up to the text's length
    /// each time, which this automaton does not count.
    pub(super) costly_look: bool,
    /// A lookahead body with a side branch matches "": its run may succeed at once.
    pub(super) empty_body: bool,
}

/// Where the engine succeeds, per state.
#[derive(Clone, Debug, Default)]
pub(super) struct Successes {
    /// Whether it succeeds there at the end of the text.
    pub(super) at_end: Vec<bool>,
    /// The characters before which it succeeds there (search mode).
    pub(super) before: Vec<CharSet>,
}

impl Successes {
    fn new(n_states: usize) -> Successes {
        Successes { at_end: vec![false; n_states], before: vec![CharSet::empty(); n_states] }
    }

    /// A success at `state` under `guard`.
    fn add(&mut self, state: usize, guard: &Guard) {
        self.at_end[state] |= guard.end;
        self.before[state] = self.before[state].union(&guard.ahead);
    }

    /// The characters before which some state of `subset` succeeds.
    pub(super) fn before_any(&self, subset: &[usize]) -> CharSet {
        subset.iter().fold(CharSet::empty(), |acc, &s| acc.union(&self.before[s]))
    }
}

/// The classes of characters that the lookbehinds at the start of `expr` tell apart: the
/// search's skip states, one per class (of the characters a text can hold, `text`).
fn skip_classes(expr: &Expr, text: &CharSet, budget: &Budget) -> Result<Vec<CharSet>, Error> {
    let mut scratch = Builder::new(0, budget);
    let whole = scratch.fragment(expr, 0)?;
    let behind: Vec<CharSet> = whole
        .first
        .iter()
        .map(|(_, guard)| &guard.behind)
        .chain(whole.nullable.iter().map(|guard| &guard.behind))
        .map(|set| set.intersection(text))
        .collect();
    let refs: Vec<&CharSet> = behind.iter().collect();
    let (classes, _) = Classes::new(&refs, budget)?;
    Ok(classes
        .iter()
        .map(|(_, class)| class.intersection(text))
        .filter(|class| !class.is_empty())
        .collect())
}

/// What a sub-expression gives the construction.
#[derive(Clone, Default)]
struct Fragment {
    first: Vec<(usize, Guard)>,
    last: Vec<(usize, Guard)>,
    nullable: Vec<Guard>,
}

/// The construction's state.
struct Builder<'b> {
    labels: Vec<CharSet>,
    atoms: Vec<Option<usize>>,
    follow: Vec<Vec<(usize, Guard)>>,
    n_follow: usize,
    /// Per position, whether it is in a side branch, and whether a body may end there.
    side: Vec<bool>,
    ends_body: Vec<bool>,
    /// How many lookahead bodies the construction is inside.
    in_body: usize,
    costly_look: bool,
    empty_body: bool,
    budget: &'b Budget,
}

impl Positions {
    /// The automaton of `expr`, for a full match or (`search`) a search.
    ///
    /// # Errors
    /// [`Error::Budget`] when the positions or moves exceed `budget`.
    pub(super) fn build(
        expr: &Expr,
        search: bool,
        text: CharSet,
        budget: &Budget,
    ) -> Result<Positions, Error> {
        // Search: a state per class of the character skipped last, so that lookbehinds at
        // the pattern's start are decided (`\b` after a letter or not).
        let skipped = if search { skip_classes(expr, &text, budget)? } else { Vec::new() };
        let n_fixed = 1 + skipped.len();
        let mut builder = Builder::new(n_fixed, budget);
        let whole = builder.fragment(expr, 0)?;
        // May the pattern start (or, with `nullable`, end) from state `from`?
        let starts_from = |from: usize, guard: &Guard| match from {
            0 => guard.start,
            skip => skipped[skip - 1].is_subset(&guard.behind),
        };
        for (target, guard) in &whole.first {
            for from in 0..n_fixed {
                if starts_from(from, guard) {
                    builder.link(from, *target, guard.clone())?;
                }
            }
        }
        let n_states = builder.labels.len();
        let loose = builder.after_value_tests();
        let [mut sure, mut possible, mut unless_bodies] =
            [(); 3].map(|()| Successes::new(n_states));
        // A success is sure under an exact guard, else only possible: an attack must
        // avoid both, an upper bound may prune only the sure ones.
        let mut ends = |state: usize, guard: &Guard, certain: bool| {
            possible.add(state, guard);
            if certain && guard.exact && !loose[state] {
                sure.add(state, guard);
            }
            if !guard.body_never {
                unless_bodies.add(state, guard);
            }
        };
        for (state, guard) in &whole.last {
            // A lookbehind the position's own characters do not all satisfy may fail.
            let label = builder.labels[*state].difference(&pattern::tags());
            ends(*state, guard, label.is_subset(&guard.behind));
        }
        for guard in &whole.nullable {
            for from in (0..n_fixed).filter(|&from| starts_from(from, guard)) {
                ends(from, guard, true);
            }
        }
        let mut moves: Vec<Vec<Move>> = Vec::with_capacity(n_states);
        for (from, links) in builder.follow.iter().enumerate() {
            let mut out: Vec<Move> = Vec::new();
            for (id, (target, guard)) in links.iter().enumerate() {
                let label =
                    builder.labels[*target].difference(&pattern::tags()).intersection(&guard.ahead);
                let behind_ok =
                    from < n_fixed || !builder.labels[from].intersection(&guard.behind).is_empty();
                if label.is_empty() || !behind_ok {
                    continue;
                }
                let behind_exact = from < n_fixed
                    || builder.labels[from].difference(&pattern::tags()).is_subset(&guard.behind);
                let exact = guard.exact && behind_exact && !builder.side[*target];
                let body_exact = guard.body_exact && behind_exact;
                for (label, exact, body_exact) in
                    unsure_parts(&label, from, search, &possible, &unless_bodies, exact, body_exact)
                {
                    out.push(Move { id, target: *target, label, exact, body_exact });
                }
            }
            moves.push(out);
        }
        for (from, out) in moves.iter_mut().enumerate().take(n_fixed) {
            for (idx, class) in skipped.iter().enumerate() {
                let skip = class.difference(&sure.before[from]);
                let id = builder.follow[from].len() + idx;
                for (label, exact, body_exact) in
                    unsure_parts(&skip, from, search, &possible, &unless_bodies, true, true)
                {
                    out.push(Move { id, target: 1 + idx, label, exact, body_exact });
                }
            }
        }
        // A full match succeeds at the end only.
        let at_end_only = |successes: Successes| match search {
            true => successes,
            false => Successes { before: vec![CharSet::empty(); n_states], ..successes },
        };
        Ok(Positions {
            moves,
            before_pattern: n_fixed,
            text,
            sure: at_end_only(sure),
            possible: at_end_only(possible),
            unless_bodies: at_end_only(unless_bodies),
            atoms: builder.atoms,
            side: builder.side,
            ends_body: builder.ends_body,
            costly_look: builder.costly_look,
            empty_body: builder.empty_body,
        })
    }

    /// The targets of the moves on `c` from `states` (with repeats).
    pub(super) fn moves_on<'s>(
        &'s self,
        states: &'s BTreeSet<usize>,
        c: char,
    ) -> impl Iterator<Item = usize> + 's {
        states
            .iter()
            .flat_map(|&s| self.moves[s].iter())
            .filter(move |mv| mv.label.contains(c))
            .map(|mv| mv.target)
    }

    pub(super) fn n_states(&self) -> usize {
        self.moves.len()
    }
}

impl<'b> Builder<'b> {
    /// A construction whose first `n_fixed` states read nothing.
    fn new(n_fixed: usize, budget: &'b Budget) -> Builder<'b> {
        Builder {
            labels: vec![CharSet::empty(); n_fixed],
            atoms: vec![None; n_fixed],
            follow: vec![Vec::new(); n_fixed],
            n_follow: 0,
            side: vec![false; n_fixed],
            ends_body: vec![false; n_fixed],
            in_body: 0,
            costly_look: false,
            empty_body: false,
            budget,
        }
    }

    /// A new position reading `set`.
    fn position(&mut self, set: &CharSet) -> Result<usize, Error> {
        let state = self.labels.len();
        self.budget.check_states(Operation::Backtracking, state + 1)?;
        self.atoms.push(set.intersection(&pattern::tags()).first().and_then(pattern::tag_index));
        self.labels.push(set.clone());
        self.follow.push(Vec::new());
        self.side.push(self.in_body > 0);
        self.ends_body.push(false);
        Ok(state)
    }

    /// A lookahead whose body repeats: its weaker guard, and the body's positions as a
    /// side branch entered where the lookahead stands, leading nowhere.
    fn side_branch(&mut self, body: &Expr, guard: Guard, depth: usize) -> Result<Fragment, Error> {
        self.in_body += 1;
        let body = self.fragment(body, depth + 1);
        self.in_body -= 1;
        let body = body?;
        for (state, _) in &body.last {
            self.ends_body[*state] = true;
        }
        self.empty_body |= !body.nullable.is_empty();
        Ok(Fragment { first: body.first, last: Vec::new(), nullable: vec![guard] })
    }

    /// Per state, whether a path may reach it past a test of a captured value (read as
    /// holding): the engine may not be there, so a success there is only a possible one.
    fn after_value_tests(&self) -> Vec<bool> {
        let mut loose = vec![false; self.labels.len()];
        let mut stack: Vec<usize> = self
            .follow
            .iter()
            .flatten()
            .filter(|(_, guard)| guard.loose)
            .map(|&(target, _)| target)
            .collect();
        while let Some(state) = stack.pop() {
            if !std::mem::replace(&mut loose[state], true) {
                stack.extend(self.follow[state].iter().map(|&(target, _)| target));
            }
        }
        loose
    }

    /// The move from `from` to `to` under `guard`.
    fn link(&mut self, from: usize, to: usize, guard: Guard) -> Result<(), Error> {
        self.n_follow += 1;
        self.budget.check_memory(
            Operation::Backtracking,
            self.n_follow.saturating_mul(std::mem::size_of::<(usize, Guard)>() + 64),
        )?;
        self.follow[from].push((to, guard));
        Ok(())
    }

    /// Links every end of `left` to every start of `right`.
    fn link_all(&mut self, left: &[(usize, Guard)], right: &[(usize, Guard)]) -> Result<(), Error> {
        for (from, out) in left {
            for (to, into) in right {
                if let Some(guard) = out.and(into) {
                    self.link(*from, *to, guard)?;
                }
            }
        }
        Ok(())
    }

    fn fragment(&mut self, expr: &Expr, depth: usize) -> Result<Fragment, Error> {
        self.budget.check_time(Operation::Backtracking)?;
        Ok(match expr {
            Expr::Empty => Fragment { nullable: vec![Guard::always()], ..Fragment::default() },
            Expr::Set(set) => {
                let state = self.position(set)?;
                Fragment {
                    first: vec![(state, Guard::always())],
                    last: vec![(state, Guard::always())],
                    nullable: Vec::new(),
                }
            }
            Expr::Look(look) => {
                let guard = match look.body.reads_capture() {
                    true => Guard::value_test(),
                    false => Guard::of_look(look.ahead, look.negated, &look.body),
                };
                let costly = one_char(&look.body).is_none() && has_loop(&look.body);
                if costly && look.ahead {
                    self.side_branch(&look.body, guard, depth)?
                } else {
                    // A lookbehind's body runs backwards from here, which these moves
                    // cannot read.
                    self.costly_look |= costly;
                    Fragment { nullable: vec![guard], ..Fragment::default() }
                }
            }
            // Setting a value changes no path; a test is read as holding (`Guard::loose`).
            // An atomic group's translation has at most one path per start, which its
            // lookarounds say.
            Expr::Capture(Capture::Set { .. }) => {
                Fragment { nullable: vec![Guard::always()], ..Fragment::default() }
            }
            Expr::Capture(_) => {
                Fragment { nullable: vec![Guard::value_test()], ..Fragment::default() }
            }
            Expr::Atomic(sub) => self.fragment(sub, depth + 1)?,
            Expr::Alt(branches) => {
                let mut res = Fragment::default();
                for branch in branches {
                    let part = self.fragment(branch, depth + 1)?;
                    res.first.extend(part.first);
                    res.last.extend(part.last);
                    res.nullable.extend(part.nullable);
                }
                res.nullable = merged(res.nullable);
                res
            }
            Expr::Concat(parts) => {
                let mut res = Fragment { nullable: vec![Guard::always()], ..Fragment::default() };
                for part in parts {
                    let next = self.fragment(part, depth + 1)?;
                    res = self.concat(res, next)?;
                }
                res
            }
            Expr::Repeat { sub, min, max, .. } => self.repeat(sub, *min, *max, depth)?,
        })
    }

    fn concat(&mut self, left: Fragment, right: Fragment) -> Result<Fragment, Error> {
        self.link_all(&left.last, &right.first)?;
        let mut first = left.first;
        for empty in &left.nullable {
            first.extend(right.first.iter().filter_map(|(q, g)| Some((*q, empty.and(g)?))));
        }
        let mut last = right.last;
        for empty in &right.nullable {
            last.extend(left.last.iter().filter_map(|(p, g)| Some((*p, g.and(empty)?))));
        }
        let mut nullable = Vec::new();
        for a in &left.nullable {
            nullable.extend(right.nullable.iter().filter_map(|b| a.and(b)));
        }
        Ok(Fragment { first: deduped(first), last: deduped(last), nullable: merged(nullable) })
    }

    /// `sub{min,max}`: `min` copies, then a loop or `max - min` nested optional copies.
    fn repeat(
        &mut self,
        sub: &Expr,
        min: u32,
        max: Option<u32>,
        depth: usize,
    ) -> Result<Fragment, Error> {
        let mut res = Fragment { nullable: vec![Guard::always()], ..Fragment::default() };
        let n_plain = match max {
            None => min.saturating_sub(1),
            Some(_) => min,
        };
        for _ in 0..n_plain {
            let copy = self.fragment(sub, depth + 1)?;
            res = self.concat(res, copy)?;
        }
        match max {
            None => {
                let body = self.fragment(sub, depth + 1)?;
                self.link_all(&body.last, &body.first)?;
                let mut looped = body;
                if min == 0 {
                    looped.nullable.push(Guard::always());
                    looped.nullable = merged(looped.nullable);
                }
                res = self.concat(res, looped)?;
            }
            Some(max) => {
                // (S(S(S)?)?)?, built inside out.
                let mut tail: Option<Fragment> = None;
                for _ in min..max {
                    let copy = self.fragment(sub, depth + 1)?;
                    let mut optional = match tail.take() {
                        Some(inner) => self.concat(copy, inner)?,
                        None => copy,
                    };
                    optional.nullable.push(Guard::always());
                    optional.nullable = merged(optional.nullable);
                    tail = Some(optional);
                }
                if let Some(tail) = tail {
                    res = self.concat(res, tail)?;
                }
            }
        }
        Ok(res)
    }
}

/// The parts of a move's `label` from state `from`: where the engine cannot have succeeded
/// first (read as `exact`, `body_exact` say), where it may have unless the lookahead bodies
/// fail (exact only where they do), and where it may have in any case (inexact).
fn unsure_parts(
    label: &CharSet,
    from: usize,
    search: bool,
    possible: &Successes,
    unless_bodies: &Successes,
    exact: bool,
    body_exact: bool,
) -> Vec<(CharSet, bool, bool)> {
    if !search {
        return vec![(label.clone(), exact, body_exact)];
    }
    let maybe = label.intersection(&possible.before[from]);
    let without_bodies = maybe.intersection(&unless_bodies.before[from]);
    [
        (label.difference(&maybe), exact, body_exact),
        (maybe.difference(&without_bodies), false, body_exact),
        (without_bodies, false, false),
    ]
    .into_iter()
    .filter(|(part, _, _)| !part.is_empty())
    .collect()
}

/// `links` without repeats.
fn deduped(mut links: Vec<(usize, Guard)>) -> Vec<(usize, Guard)> {
    let mut res: Vec<(usize, Guard)> = Vec::with_capacity(links.len());
    for link in links.drain(..) {
        if !res.contains(&link) {
            res.push(link);
        }
    }
    res
}

/// `guards` without repeats, at most [`MAX_GUARDS`] of them (the rest merged into one).
fn merged(guards: Vec<Guard>) -> Vec<Guard> {
    let mut res: Vec<Guard> = Vec::new();
    for guard in guards {
        if res.contains(&guard) {
            continue;
        }
        if res.len() == MAX_GUARDS {
            let merged = res[MAX_GUARDS - 1].or(&guard);
            res[MAX_GUARDS - 1] = merged;
        } else {
            res.push(guard);
        }
    }
    res
}
