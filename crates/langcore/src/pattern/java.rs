//! Where Java's `Pattern` departs from the other engines by the shape of the node chain it
//! compiles: which lookbehind bodies it takes and where it tries them, and how its loops
//! treat an iteration that matches "".
//!
//! # Overview
//! `Pattern.compile` studies a lookbehind's body (`Node.study`: a `TreeInfo` of minimum and
//! maximum lengths in 32-bit arithmetic, JDK 17) and refuses it when the maximum is not
//! valid ("does not have an obvious maximum length"); the lookbehind then tries only the
//! starts between `i - max` and `i - min`. The arithmetic wraps: `a+` adds 2^31-1 to the
//! maximum unchecked, so `(?<=a+b+)` has maximum -2 and never matches, while a counted,
//! lazy or possessive repetition checks its sum (`(?<=ab+?)` is refused, `(?<=a+?)` is
//! not). The parser describes what it reads as Java's nodes ([`Atom`], [`Piece`]), and
//! [`study`] folds them as the nodes' `study` methods do.
//!
//! A group under a quantifier whose body Java does not call deterministic (an alternation,
//! an optional or varying repetition inside) becomes a `Loop`: an iteration that matches ""
//! ends the loop at once, even short of the minimum ([`loop_repeat`]), so `(?:^|a){2}`
//! matches "" and "aa" but not "a".

use super::Expr;
use super::capture::{self, empty, non_empty};
use crate::alphabet::CharSet;

/// Java's bound for an unbounded repetition (`Pattern.MAX_REPS`).
const MAX_REPS: i32 = i32::MAX;

/// Windows at least this long are taken as unbounded: no Java string is that long and
/// still has such a lookbehind's strings inside.
const UNBOUNDED: i64 = 1 << 30;

/// What an atom is to Java's `closure`, which picks the node its quantifier builds.
#[derive(Debug)]
pub(super) enum Atom {
    /// A character or class (`CharProperty`).
    Char,
    /// Another piece of bounded length (`\R`: one or two characters).
    Width { min: i32, max: i32 },
    /// A backreference: it has no maximum length.
    Reference,
    /// An assertion or lookaround: no length.
    Zero,
    /// A capturing or non-capturing group: its body's pieces.
    Group(Vec<Piece>),
    /// An atomic group (Java's `Ques` of type `INDEPENDENT`).
    Independent(Vec<Piece>),
}

/// One node of Java's chain, as `study` reads it.
#[derive(Debug)]
pub(super) enum Piece {
    /// Characters, a slice, `\R`.
    Width { min: i32, max: i32 },
    /// `CharPropertyGreedy`: a class repeated greedily without bound.
    CharGreedy { min: i32 },
    /// `Curly` or `GroupCurly`: `atom{min,max}`, the sum checked.
    Curly { atom: Vec<Piece>, min: i32, max: i32 },
    /// `Ques`: `atom?`, optional.
    Ques(Vec<Piece>),
    /// An atomic group.
    Independent(Vec<Piece>),
    /// `Branch`: an alternation, or a group under `?`.
    Branch(Vec<Vec<Piece>>),
    /// `BackRef`.
    Reference,
    /// `Loop`: a group whose body is not deterministic, repeated.
    Loop,
}

impl Atom {
    /// Java's reading of an atom parsed as `expr`, of at most `max_width` characters, that
    /// is no group and no backreference (only the maximum is read: a lookbehind's window
    /// is not cut at its minimum).
    pub(super) fn of(expr: &Expr, max_width: Option<u32>) -> Atom {
        match expr {
            Expr::Set(_) => Atom::Char,
            _ if expr.is_zero_width() => Atom::Zero,
            _ => Atom::Width { min: 0, max: max_width.map_or(MAX_REPS, clamp) },
        }
    }

    /// Whether Java repeats this atom with a `Loop` under `{min,max}`: a group, not
    /// possessive, not `?`, whose body is not deterministic.
    pub(super) fn loops(&self, min: u32, max: Option<u32>, possessive: bool) -> bool {
        match self {
            Atom::Group(body) => {
                !possessive && (min, max) != (0, Some(1)) && !study(body).deterministic
            }
            _ => false,
        }
    }

    /// The pieces of the atom as written, without a quantifier.
    pub(super) fn pieces(self) -> Vec<Piece> {
        match self {
            Atom::Char => vec![Piece::Width { min: 1, max: 1 }],
            Atom::Width { min, max } => vec![Piece::Width { min, max }],
            Atom::Reference => vec![Piece::Reference],
            Atom::Zero => Vec::new(),
            Atom::Group(body) => body,
            Atom::Independent(body) => vec![Piece::Independent(body)],
        }
    }

    /// The pieces of the atom under `{min,max}`, as Java's `closure` and `group0` build
    /// them.
    pub(super) fn quantified(
        self,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        possessive: bool,
    ) -> Vec<Piece> {
        if (min, max) == (0, Some(1)) {
            return match self {
                Atom::Group(body) if !possessive => vec![Piece::Branch(vec![body, Vec::new()])],
                atom => vec![Piece::Ques(atom.pieces())],
            };
        }
        if self.loops(min, max, possessive) {
            return vec![Piece::Loop];
        }
        let (min, max_reps) = (clamp(min), max.map_or(MAX_REPS, clamp));
        match self {
            Atom::Char if greedy && !possessive && max.is_none() => {
                vec![Piece::CharGreedy { min }]
            }
            atom => vec![Piece::Curly { atom: atom.pieces(), min, max: max_reps }],
        }
    }
}

fn clamp(n: u32) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

/// Java's `TreeInfo` of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Study {
    pub(super) min: i32,
    pub(super) max: i32,
    pub(super) max_valid: bool,
    pub(super) deterministic: bool,
}

impl Study {
    const RESET: Study = Study { min: 0, max: 0, max_valid: true, deterministic: true };
}

/// What Java's `study` makes of `pieces`, from a reset `TreeInfo`.
pub(super) fn study(pieces: &[Piece]) -> Study {
    let mut info = Study::RESET;
    fold(pieces, &mut info);
    info
}

fn fold(pieces: &[Piece], info: &mut Study) {
    for (idx, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Width { min, max } => {
                info.min = info.min.wrapping_add(*min);
                info.max = info.max.wrapping_add(*max);
            }
            Piece::CharGreedy { min } => {
                info.min = info.min.wrapping_add(*min);
                if info.max_valid {
                    info.max = info.max.wrapping_add(MAX_REPS);
                }
                info.deterministic = false;
            }
            Piece::Curly { atom, min, max } => curly(atom, *min, *max, info),
            Piece::Ques(atom) => {
                let min = info.min;
                fold(atom, info);
                info.min = min;
                info.deterministic = false;
            }
            Piece::Independent(atom) => fold(atom, info),
            Piece::Branch(branches) => return branch(branches, &pieces[idx + 1..], info),
            Piece::Reference => info.max_valid = false,
            // `Loop.study` stops the chain.
            Piece::Loop => {
                info.max_valid = false;
                info.deterministic = false;
                return;
            }
        }
    }
}

/// `Curly.study` (and `GroupCurly`'s, the same): the product is checked against the
/// length before it only.
fn curly(atom: &[Piece], cmin: i32, cmax: i32, info: &mut Study) {
    let before = *info;
    let inner = study(atom);
    let mut min = inner.min.wrapping_mul(cmin).wrapping_add(before.min);
    if min < before.min {
        min = 0xFFF_FFFF;
    }
    info.min = min;
    info.max = inner.max;
    info.max_valid = false;
    if before.max_valid && inner.max_valid {
        info.max = inner.max.wrapping_mul(cmax).wrapping_add(before.max);
        info.max_valid = info.max >= before.max;
    }
    info.deterministic = inner.deterministic && cmin == cmax && before.deterministic;
}

/// `Branch.study`: the branches from a reset `TreeInfo`, and the rest of the chain (past
/// the branch, to the end of the enclosing chain) from another, added unchecked.
fn branch(branches: &[Vec<Piece>], rest: &[Piece], info: &mut Study) {
    let (mut min, mut max, mut max_valid) = (i32::MAX, -1, info.max_valid);
    for branch in branches {
        let each = study(branch);
        min = min.min(each.min);
        max = max.max(each.max);
        max_valid &= each.max_valid;
    }
    let mut after = study(rest);
    after.min = after.min.wrapping_add(info.min.wrapping_add(min));
    after.max = after.max.wrapping_add(info.max.wrapping_add(max));
    after.max_valid &= max_valid;
    after.deterministic = false;
    *info = after;
}

/// Where a lookbehind whose body Java studied as `study` (with a valid maximum) holds.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Window {
    /// Wherever the body matches before the position.
    Whole,
    /// Also only with at least this many characters before (the maximum wrapped below 0,
    /// so `i - max` wraps only from there on).
    After(u32),
    /// Nowhere: the maximum wrapped so far below 0 that no start is ever tried.
    Never,
    /// Only on the body's strings of at most this length, fewer than it has.
    Shorter(u32),
}

/// The window of a lookbehind whose body, as relang reads it, has strings of at most
/// `body_max` characters (`None`: unbounded).
pub(super) fn window(study: &Study, body_max: Option<u32>) -> Window {
    let max = i64::from(study.max);
    if max < 0 {
        // `from = i - max` overflows to a negative index once i >= 2^31 + max.
        let after = (1i64 << 31) + max;
        return match u32::try_from(after) {
            Ok(0) => Window::Whole,
            Ok(after) if i64::from(after) < UNBOUNDED => Window::After(after),
            _ => Window::Never,
        };
    }
    match body_max {
        Some(body_max) if i64::from(body_max) <= max => Window::Whole,
        _ if max >= UNBOUNDED => Window::Whole,
        _ => Window::Shorter(study.max as u32),
    }
}

/// The paths of lookbehind body `body` that Java tries in a window of at most `max`
/// characters ([`Window::Shorter`]); `None` where they take too many nodes.
pub(super) fn within(body: &Expr, max: u32) -> Option<Expr> {
    let paths = capture::by_width(body, max as usize)?;
    Some(if paths.is_empty() {
        Expr::set(CharSet::empty())
    } else {
        Expr::alt(paths.into_iter().map(|(paths, _)| paths).collect())
    })
}

/// The lookbehind `look` (its reading, `negated` or not) where Java tries it from
/// `after` characters on only.
pub(super) fn behind_after(look: Expr, negated: bool, after: u32) -> Expr {
    let room = Expr::look(
        false,
        negated,
        Expr::Repeat {
            sub: Box::new(Expr::set(CharSet::full())),
            min: after,
            max: Some(after),
            greedy: true,
        },
    );
    if negated { Expr::alt(vec![room, look]) } else { Expr::concat(vec![room, look]) }
}

/// The most iterations below the minimum [`loop_repeat`] writes out one by one.
const MAX_ORDERED_MIN: u32 = 64;

/// Java's `Loop` of `sub{min,max}`, `sub` able to match "": iterations that match a
/// character or more, where one that matches "" ends the loop whatever the count; and
/// whether its paths come in Java's order, as atomic groups read them (`atomic.rs`).
///
/// They do where the body's paths that match "", E, come all after or all before those
/// that match a character, N (`capture::empty_last`, `capture::empty_first`). Below the
/// minimum each iteration either matches a character and goes on or matches "" and ends
/// the loop, in the body's order. From the minimum on, with r more iterations allowed
/// (`Loop` tries the body before what follows, `LazyLoop` after):
///
/// | Loop | E after N | E before N |
/// |---|---|---|
/// | greedy | `N{0,r-1} (?:N\|E\|)` | `N{0,r-1}? E \| N{0,r}` |
/// | lazy | `N{0,r}? \| N{0,r-1} E` | `N{0,r-1}? (?:\|E) \| N{r}` |
///
/// The forms other than greedy with E after N put one kind of ending first at every
/// count, which is Java's order where N has one path (`capture::has_one_path`); the lazy
/// one with E first also where r is unbounded.
pub(super) fn loop_repeat(sub: &Expr, min: u32, max: Option<u32>, greedy: bool) -> (Expr, bool) {
    let (non_empty, empty) = (non_empty(sub), empty(sub));
    let more = max.map(|max| max - min);
    let order = if capture::empty_last(sub) {
        Some(true)
    } else {
        capture::empty_first(sub).then_some(false)
    };
    let ordered = order.filter(|_| min <= MAX_ORDERED_MIN).and_then(|empty_last| {
        let free = ordered_loop(&non_empty, &empty, more, greedy, empty_last)?;
        Some((free, empty_last))
    });
    let Some((mut res, empty_last)) = ordered else {
        let full = Expr::Repeat { sub: Box::new(non_empty.clone()), min, max, greedy };
        if max == Some(0) {
            return (full, true);
        }
        let short =
            Expr::Repeat { sub: Box::new(non_empty), min: 0, max: max.map(|max| max - 1), greedy };
        return (Expr::alt(vec![full, Expr::concat(vec![short, empty])]), false);
    };
    for _ in 0..min {
        let go_on = Expr::concat(vec![non_empty.clone(), res]);
        res = Expr::alt(if empty_last {
            vec![go_on, empty.clone()]
        } else {
            vec![empty.clone(), go_on]
        });
    }
    (res, true)
}

/// The iterations of a Java loop from its minimum on (the table of [`loop_repeat`]), `more`
/// of them at most, where their order is Java's: `None` where it is not. `empty_last`:
/// the body's paths that match "" (`empty`) come after the others (`non_empty`), else
/// before them.
fn ordered_loop(
    non_empty: &Expr,
    empty: &Expr,
    more: Option<u32>,
    greedy: bool,
    empty_last: bool,
) -> Option<Expr> {
    if more == Some(0) {
        return Some(Expr::Empty);
    }
    let repeat = |min: u32, max: Option<u32>, greedy: bool| Expr::Repeat {
        sub: Box::new(non_empty.clone()),
        min,
        max,
        greedy,
    };
    let fewer = more.map(|more| more - 1);
    let one_path = capture::has_one_path(non_empty);
    Some(match (greedy, empty_last) {
        (true, true) => {
            let last = vec![non_empty.clone(), empty.clone(), Expr::Empty];
            Expr::concat(vec![repeat(0, fewer, true), Expr::alt(last)])
        }
        (true, false) if one_path => Expr::alt(vec![
            Expr::concat(vec![repeat(0, fewer, false), empty.clone()]),
            repeat(0, more, true),
        ]),
        (false, true) if one_path => Expr::alt(vec![
            repeat(0, more, false),
            Expr::concat(vec![repeat(0, fewer, true), empty.clone()]),
        ]),
        (false, false) if one_path || more.is_none() => {
            let last = Expr::alt(vec![Expr::Empty, empty.clone()]);
            let ended = Expr::concat(vec![repeat(0, fewer, false), last]);
            match more {
                Some(more) => Expr::alt(vec![ended, repeat(more, Some(more), true)]),
                None => ended,
            }
        }
        _ => return None,
    })
}

/// Java's `GroupCurly` of capturing group `group`, `sub`, which only matches "": the
/// iterations up to the minimum, then, greedy and if the maximum allows, one more (tried
/// first) whose groups inside keep the values it sets while `group` itself is restored
/// (`(())*` sets group 2, not group 1); lazy, such an iteration fails (`(())*?\2` never
/// matches).
pub(super) fn group_curly_of_empty(
    sub: Expr,
    group: u32,
    min: u32,
    max: Option<u32>,
    greedy: bool,
) -> Expr {
    let extra = (greedy && max != Some(min)).then(|| {
        sub.map_sets(&|set, value| {
            if set == group { Expr::Empty } else { capture::set(set, value) }
        })
    });
    let mandatory = Expr::Repeat { sub: Box::new(sub), min, max: Some(min), greedy };
    match extra {
        Some(extra) => Expr::concat(vec![mandatory, Expr::alt(vec![extra, Expr::Empty])]),
        None => mandatory,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn char_greedy() -> Piece {
        Piece::CharGreedy { min: 1 }
    }

    fn one() -> Piece {
        Piece::Width { min: 1, max: 1 }
    }

    #[test]
    fn an_unchecked_greedy_class_wraps_the_maximum() {
        // (?<=a+b+): -2, never tried; (?<=a+bcd): tried from 2 characters on.
        let twice = study(&[char_greedy(), char_greedy()]);
        assert!(twice.max_valid);
        assert_eq!(twice.max, -2);
        assert_eq!(window(&twice, None), Window::Never);
        let once = study(&[char_greedy(), one(), one(), one()]);
        assert_eq!(window(&once, None), Window::After(2));
        assert_eq!(window(&study(&[char_greedy()]), None), Window::Whole);
    }

    #[test]
    fn a_checked_repetition_refuses_an_overflowing_sum() {
        let lazy = |atom: Vec<Piece>| Piece::Curly { atom, min: 1, max: MAX_REPS };
        // (?<=ab+?) overflows, (?<=b+?) does not, (?<=(?:abc)+) wraps to a positive sum.
        assert!(!study(&[one(), lazy(vec![one()])]).max_valid);
        assert!(study(&[lazy(vec![one()])]).max_valid);
        assert!(study(&[lazy(vec![one(), one(), one()])]).max_valid);
        assert!(!study(&[lazy(vec![one(), one()])]).max_valid);
    }

    #[test]
    fn a_branch_takes_the_longest_branch_and_loops_have_no_maximum() {
        let alt = study(&[Piece::Branch(vec![vec![one(), one()], vec![]]), one()]);
        assert_eq!((alt.min, alt.max, alt.deterministic), (1, 3, false));
        assert!(!study(&[Piece::Loop]).max_valid);
        assert!(!study(&[Piece::Reference]).max_valid);
        // (?<=(?:a+b+|c)): the wrapped branch loses to the one character.
        let wrapped =
            study(&[Piece::Branch(vec![vec![char_greedy(), char_greedy()], vec![one()]])]);
        assert_eq!(window(&wrapped, None), Window::Shorter(1));
    }
}
