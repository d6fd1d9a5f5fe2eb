//! Captured values as finite state: what the parser writes for a group whose value a
//! backreference or conditional reads where the group may match more than once, or not at
//! all (`parse.rs` decides which groups).
//!
//! # Overview
//! Such a group has finitely many strings; its value is the index of the one it matched,
//! carried in the configurations of `lookaround.rs`'s automaton ([`Capture`]). The group
//! becomes one branch per string: the body restricted to that string ([`restrict`]),
//! then `Capture::Set`. A reference becomes one branch per string: `Capture::Test`, then
//! the string. So each path through the pattern carries the values an engine's match
//! along that path would hold, and the language is the union over paths, as under
//! backtracking.
//!
//! A repetition whose body sets values follows the engines' iteration rules
//! ([`repeat`]): JavaScript clears the body's groups at each iteration and fails an
//! iteration past the minimum that matches ""; Python, Java and PCRE keep the values of
//! earlier iterations and stop after one iteration past the minimum that matches "" (but
//! Java keeps no such iteration of a capturing group that only matches "", `()*`).
//!
//! # Budgets
//! Restricting a body to a string can multiply its size by the ways of splitting the
//! string; the nodes written are counted against [`MAX_NODES`].

use super::{Capture, Expr};
use crate::alphabet::CharSet;

/// The most nodes the restrictions of one group may write.
pub(super) const MAX_NODES: usize = 1 << 18;

fn fail() -> Expr {
    Expr::Set(CharSet::empty())
}

/// One position of the text [`restrict`] keeps the paths of: a character, or any one.
pub(super) trait Slot: Clone {
    /// What a step on `set` may match here, if anything.
    fn keep(&self, set: &CharSet) -> Option<CharSet>;
}

impl Slot for char {
    fn keep(&self, set: &CharSet) -> Option<CharSet> {
        set.contains(*self).then(|| CharSet::singleton(*self))
    }
}

/// A character of a pattern read with its atoms tagged (`parse_tagged`): kept with the
/// atom's tag, so that the reading still names the atom. Only there: elsewhere the tag
/// range holds real characters.
#[derive(Clone, Copy)]
pub(super) struct Tagged(pub(super) char);

impl Slot for Tagged {
    fn keep(&self, set: &CharSet) -> Option<CharSet> {
        set.contains(self.0)
            .then(|| set.intersection(&super::tags()).union(&CharSet::singleton(self.0)))
    }
}

/// Any one character: restricting to `n` of them keeps the paths of `n` characters.
#[derive(Clone, Copy)]
struct AnyChar;

impl Slot for AnyChar {
    fn keep(&self, set: &CharSet) -> Option<CharSet> {
        (!set.is_empty()).then(|| set.clone())
    }
}

/// The paths of `expr` that match exactly `text` (in their order), with their assertions
/// and steps on captured values; `None` past [`MAX_NODES`] (counted in `nodes`).
pub(super) fn restrict<S: Slot>(expr: &Expr, text: &[S], nodes: &mut usize) -> Option<Expr> {
    *nodes += 1;
    if *nodes > MAX_NODES {
        return None;
    }
    Some(match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => {
            if text.is_empty() {
                expr.clone()
            } else {
                fail()
            }
        }
        Expr::Set(set) => match text {
            [only] => only.keep(set).map_or_else(fail, Expr::Set),
            _ => fail(),
        },
        Expr::Alt(branches) => {
            let mut kept = Vec::new();
            for branch in branches {
                let branch = restrict(branch, text, nodes)?;
                if !branch.is_fail() {
                    kept.push(branch);
                }
            }
            alt_or_fail(kept)
        }
        Expr::Concat(parts) => {
            let mut reach = start(text);
            for part in parts {
                let widths = widths(part);
                reach = advance(&reach, text, widths, nodes, |piece, nodes| {
                    restrict(part, piece, nodes)
                })?;
            }
            reach.pop().flatten().unwrap_or_else(fail)
        }
        Expr::Repeat { sub, min, max, .. } => {
            // Each iteration past the minimum matches a character or more, so at most
            // `text.len()` of them count.
            let mut reach = start(text);
            let widths = widths(sub);
            for _ in 0..*min {
                reach = advance(&reach, text, widths, nodes, |piece, nodes| {
                    restrict(sub, piece, nodes)
                })?;
                if reach.iter().all(Option::is_none) {
                    return Some(fail());
                }
            }
            let mut ends = vec![reach.last().cloned().flatten()];
            let more = max.map_or(text.len(), |max| (max - min) as usize).min(text.len());
            for _ in 0..more {
                reach = advance(&reach, text, widths, nodes, |piece, nodes| {
                    if piece.is_empty() { Some(fail()) } else { restrict(sub, piece, nodes) }
                })?;
                ends.push(reach.last().cloned().flatten());
            }
            alt_or_fail(ends.into_iter().flatten().collect())
        }
        Expr::Atomic(sub) => Expr::Atomic(Box::new(restrict(sub, text, nodes)?)),
    })
}

/// The paths of `expr` in the engine's order, each with the string it matches (a class,
/// whose characters never compete, split into one path per character); `None` past
/// `cap` paths, or where a repetition may iterate without bound or match "" in an
/// iteration (whose end the engines' rules decide). Where a group's strings have several
/// paths with assertions or values, these stand for it in an atomic group, which keeps
/// the first that matches (`parse/reference.rs`).
pub(super) fn ordered_paths(expr: &Expr, cap: usize) -> Option<Vec<(String, Expr)>> {
    let res = match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => vec![(String::new(), expr.clone())],
        Expr::Set(set) => {
            if set.len() > cap as u64 {
                return None;
            }
            let chars = set.ranges().iter().flat_map(|&(lo, hi)| lo..=hi);
            chars.map(|c| (String::from(c), Expr::Set(CharSet::singleton(c)))).collect()
        }
        Expr::Alt(branches) => {
            let mut res = Vec::new();
            for branch in branches {
                res.extend(ordered_paths(branch, cap)?);
            }
            res
        }
        Expr::Concat(parts) => {
            let mut res = vec![(String::new(), Expr::Empty)];
            for part in parts {
                res = then(&res, &ordered_paths(part, cap)?, cap)?;
            }
            res
        }
        Expr::Repeat { sub, min, max: Some(max), greedy } if empty(sub).is_fail() => {
            let once = ordered_paths(sub, cap)?;
            let mut res = vec![(String::new(), Expr::Empty)];
            for _ in 0..*min {
                res = then(&res, &once, cap)?;
            }
            // The optional iterations, from the last one back: each tried before stopping
            // (greedy) or after.
            let mut optional = vec![(String::new(), Expr::Empty)];
            for _ in *min..*max {
                let more = then(&once, &optional, cap)?.into_iter();
                let stop = (String::new(), Expr::Empty);
                optional = if *greedy {
                    more.chain([stop]).collect()
                } else {
                    [stop].into_iter().chain(more).collect()
                };
            }
            then(&res, &optional, cap)?
        }
        Expr::Repeat { .. } => return None,
        // Its paths exclude each other (one match end per start): their order is moot.
        Expr::Atomic(sub) => ordered_paths(sub, cap)?,
    };
    (res.len() <= cap).then_some(res)
}

/// Each path of `first` followed by each of `second`, in that order; `None` past `cap`.
fn then(
    first: &[(String, Expr)],
    second: &[(String, Expr)],
    cap: usize,
) -> Option<Vec<(String, Expr)>> {
    if first.len().saturating_mul(second.len()) > cap {
        return None;
    }
    let pairs = first.iter().flat_map(|(text, path)| {
        second.iter().map(move |(more, tail)| {
            (format!("{text}{more}"), Expr::concat(vec![path.clone(), tail.clone()]))
        })
    });
    Some(pairs.collect())
}

/// Whether `expr` has one path (a translated atomic group counts as one): no choice of a
/// branch or of a number of iterations.
pub(super) fn has_one_path(expr: &Expr) -> bool {
    match expr {
        Expr::Empty | Expr::Set(_) | Expr::Look(_) | Expr::Capture(_) | Expr::Atomic(_) => true,
        Expr::Concat(parts) => parts.iter().all(has_one_path),
        Expr::Alt(branches) => matches!(branches.as_slice(), [only] if has_one_path(only)),
        Expr::Repeat { sub, min, max, .. } => {
            *max == Some(0) || *max == Some(*min) && has_one_path(sub)
        }
    }
}

/// The ways to have matched `text[..0]` before anything: "" at position 0.
fn start<S>(text: &[S]) -> Vec<Option<Expr>> {
    let mut reach = vec![None; text.len() + 1];
    reach[0] = Some(Expr::Empty);
    reach
}

/// The ways to reach each position of `text` after one more piece, from `reach` (the
/// ways to reach each position before it), where `piece` gives the paths of the piece
/// that match a slice, of a length within `widths` (the piece's [`widths`]).
fn advance<S>(
    reach: &[Option<Expr>],
    text: &[S],
    (least, most): (usize, Option<usize>),
    nodes: &mut usize,
    mut piece: impl FnMut(&[S], &mut usize) -> Option<Expr>,
) -> Option<Vec<Option<Expr>>> {
    let mut next: Vec<Vec<Expr>> = vec![Vec::new(); text.len() + 1];
    for (from, before) in reach.iter().enumerate() {
        let Some(before) = before else { continue };
        let last = most.map_or(text.len(), |most| text.len().min(from.saturating_add(most)));
        for to in from.saturating_add(least)..=last {
            let step = piece(&text[from..to], nodes)?;
            if !step.is_fail() {
                *nodes += 1;
                next[to].push(Expr::concat(vec![before.clone(), step]));
            }
        }
    }
    Some(next.into_iter().map(|ways| (!ways.is_empty()).then(|| Expr::alt(ways))).collect())
}

/// The paths of `expr` of each width up to `most` characters, shortest first, with the
/// width (a width it has no path of left out); `None` past [`MAX_NODES`].
pub(super) fn by_width(expr: &Expr, most: usize) -> Option<Vec<(Expr, usize)>> {
    let (least, upper) = widths(expr);
    let most = upper.map_or(most, |upper| upper.min(most));
    let mut nodes = 0;
    let mut res = Vec::new();
    for width in least..=most {
        // `AnyChar` takes no room: a text of `width` of them costs nothing.
        let paths = restrict(expr, &vec![AnyChar; width], &mut nodes)?;
        if !paths.is_fail() {
            res.push((paths, width));
        }
    }
    Some(res)
}

/// The fewest and the most characters `expr` matches (`None`: unbounded), which bound
/// the slices [`advance`] tries: restricting a part to a slice it cannot match is work
/// that multiplies with the nesting.
pub(super) fn widths(expr: &Expr) -> (usize, Option<usize>) {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => (0, Some(0)),
        Expr::Set(set) if set.is_empty() => (usize::MAX, Some(0)),
        Expr::Set(_) => (1, Some(1)),
        Expr::Concat(parts) => parts.iter().map(widths).fold((0, Some(0)), |(lo, hi), (l, h)| {
            (lo.saturating_add(l), hi.zip(h).map(|(hi, h)| hi.saturating_add(h)))
        }),
        Expr::Alt(branches) => {
            branches.iter().map(widths).fold((usize::MAX, Some(0)), |(lo, hi), (l, h)| {
                (lo.min(l), hi.zip(h).map(|(hi, h)| hi.max(h)))
            })
        }
        Expr::Repeat { sub, min, max, .. } => {
            let (l, h) = widths(sub);
            let lo = if *min == 0 { 0 } else { l.saturating_mul(*min as usize) };
            let hi = match max {
                Some(0) => Some(0),
                Some(max) => h.map(|h| h.saturating_mul(*max as usize)),
                None if h == Some(0) => Some(0),
                None => None,
            };
            (lo, hi)
        }
        Expr::Atomic(sub) => widths(sub),
    }
}

fn alt_or_fail(branches: Vec<Expr>) -> Expr {
    if branches.is_empty() { fail() } else { Expr::alt(branches) }
}

/// `sub` translated from an atomic group (the paths of one), or no path.
fn atomic_or_fail(sub: Expr) -> Expr {
    if sub.is_fail() { sub } else { Expr::Atomic(Box::new(sub)) }
}

/// `sub{min,max}` where `sub` sets captured values, under the iteration rules of the
/// module docs; `resets` are JavaScript's clearing of the body's groups (empty elsewhere),
/// `keeps_empty` whether one iteration past the minimum that matches "" is kept (with the
/// values it sets) before the loop ends, or fails.
///
/// `pcre_loop`: PCRE runs `X{n,}` as n-1 copies of X and a loop `X+` that ends after an
/// iteration that matches "", its first one too, so the n-th iteration ends it when it
/// matches "" (`(?(1)a|())+` does not match `a`).
pub(super) fn repeat(
    sub: Expr,
    min: u32,
    max: Option<u32>,
    greedy: bool,
    resets: Vec<Expr>,
    keeps_empty: bool,
    pcre_loop: bool,
) -> Expr {
    let body = Expr::concat(resets.into_iter().chain([sub]).collect());
    let copies = |n: u32| {
        let body = Box::new(body.clone());
        if n == 0 { Expr::Empty } else { Expr::Repeat { sub: body, min: n, max: Some(n), greedy } }
    };
    let more = max.map(|max| max - min);
    if more == Some(0) {
        return copies(min);
    }
    let non_empty = non_empty(&body);
    let first_non_empty = non_empty.clone();
    let rest = if !keeps_empty {
        Expr::Repeat { sub: Box::new(non_empty), min: 0, max: more, greedy }
    } else {
        // At most one iteration matching "" ends the loop. In the engine's order where it
        // has one (a body that may match "" marks its atomic groups unordered, `parse.rs`).
        let iterate = [non_empty.clone(), empty(&body)];
        let last = Expr::alt(if greedy {
            [iterate.as_slice(), &[Expr::Empty]].concat()
        } else {
            [&[Expr::Empty], iterate.as_slice()].concat()
        });
        let before = Expr::Repeat {
            sub: Box::new(non_empty),
            min: 0,
            max: more.map(|more| more - 1),
            greedy,
        };
        Expr::concat(vec![before, last])
    };
    if pcre_loop && max.is_none() && min > 0 {
        // In the engine's order: a greedy loop's iteration that matches a character first.
        let more = Expr::concat(vec![first_non_empty, rest]);
        let last =
            Expr::alt(if greedy { vec![more, empty(&body)] } else { vec![empty(&body), more] });
        return Expr::concat(vec![copies(min - 1), last]);
    }
    Expr::concat(vec![copies(min), rest])
}

/// The paths of `expr` that match a character or more.
pub(super) fn non_empty(expr: &Expr) -> Expr {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => fail(),
        Expr::Set(_) => expr.clone(),
        Expr::Alt(branches) => {
            alt_or_fail(branches.iter().map(non_empty).filter(|branch| !branch.is_fail()).collect())
        }
        Expr::Concat(parts) => {
            // The first part to match a character is part `idx`: those before match "".
            let mut branches = Vec::new();
            let mut before = Vec::new();
            for (idx, part) in parts.iter().enumerate() {
                let mut branch = before.clone();
                branch.push(non_empty(part));
                branch.extend(parts[idx + 1..].iter().cloned());
                branches.push(Expr::concat(branch));
                let silent = empty(part);
                if silent.is_fail() {
                    break;
                }
                before.push(silent);
            }
            alt_or_fail(branches)
        }
        Expr::Repeat { sub, min, max, greedy } => {
            // The first iteration to match a character, after `skipped` that match "".
            let mut branches = Vec::new();
            let silent = empty(sub);
            for skipped in 0..=(*min).max(1) - 1 {
                if max.is_some_and(|max| skipped >= max) {
                    break;
                }
                let rest = Expr::Repeat {
                    sub: sub.clone(),
                    min: min.saturating_sub(skipped + 1),
                    max: max.map(|max| max - skipped - 1),
                    greedy: *greedy,
                };
                let silent_ones = Expr::Repeat {
                    sub: Box::new(silent.clone()),
                    min: skipped,
                    max: Some(skipped),
                    greedy: *greedy,
                };
                branches.push(Expr::concat(vec![silent_ones, non_empty(sub), rest]));
                if silent.is_fail() {
                    break;
                }
            }
            alt_or_fail(branches)
        }
        Expr::Atomic(sub) => atomic_or_fail(non_empty(sub)),
    }
}

/// Whether the paths of `expr` that match "" all come after those that match a character
/// in the engine's order, so that [`non_empty`]'s paths then [`empty`]'s are in that
/// order: true of `a*`, `a?b?` and `(?:a|)`, not of `(?:|a)`, a lazy `a??` or `(?:|a)b?`.
pub(super) fn empty_last(expr: &Expr) -> bool {
    empty_at_one_end(expr, true)
}

/// Whether the paths of `expr` that match "" all come before those that match a character
/// in the engine's order: true of `(?:|a)`, a lazy `a*?` and `(?:\b|a)`, not of `a?`.
pub(super) fn empty_first(expr: &Expr) -> bool {
    empty_at_one_end(expr, false)
}

/// [`empty_last`] (`last`) or [`empty_first`].
fn empty_at_one_end(expr: &Expr, last: bool) -> bool {
    if expr.is_zero_width() || empty(expr).is_fail() {
        return true;
    }
    match expr {
        Expr::Alt(branches) => {
            // The branch where the paths that match "" end (last) or begin: those after it
            // (before it) match only characters, those before it (after it) only "".
            let nullable = |branch: &Expr| !empty(branch).is_fail();
            let turn = if last {
                branches.iter().position(nullable)
            } else {
                branches.iter().rposition(nullable)
            };
            turn.is_none_or(|turn| {
                let silent = if last { &branches[turn + 1..] } else { &branches[..turn] };
                empty_at_one_end(&branches[turn], last) && silent.iter().all(Expr::is_zero_width)
            })
        }
        // A part with two paths that match "" would interleave the rest's paths.
        Expr::Concat(parts) => {
            let init = &parts[..parts.len().saturating_sub(1)];
            parts.iter().all(|part| empty_at_one_end(part, last))
                && init.iter().all(|part| empty_paths(part) <= 1)
        }
        // Greedy, the iterations come first; lazy, the fewest, "" among them when allowed.
        Expr::Repeat { sub, min, greedy, .. } => {
            empty(sub).is_fail() && if last { *greedy || *min > 0 } else { !*greedy && *min == 0 }
        }
        // One path per start: its paths of each kind never compete.
        Expr::Atomic(_) => true,
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) | Expr::Set(_) => true,
    }
}

/// How many paths of `expr` match "", up to 2.
fn empty_paths(expr: &Expr) -> usize {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => 1,
        Expr::Set(_) => 0,
        Expr::Alt(branches) => branches.iter().map(empty_paths).sum::<usize>().min(2),
        Expr::Concat(parts) => parts.iter().map(empty_paths).fold(1, |acc, n| (acc * n).min(2)),
        Expr::Repeat { sub, min, max, .. } => match empty_paths(sub) {
            0 => usize::from(*min == 0),
            _ if *max == Some(0) => 1,
            _ => 2,
        },
        Expr::Atomic(sub) => empty_paths(sub).min(1),
    }
}

/// The paths of `expr` that match "", with their assertions and steps on captured values.
pub(super) fn empty(expr: &Expr) -> Expr {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => expr.clone(),
        Expr::Set(_) => fail(),
        Expr::Alt(branches) => {
            alt_or_fail(branches.iter().map(empty).filter(|branch| !branch.is_fail()).collect())
        }
        Expr::Concat(parts) => {
            let parts: Vec<Expr> = parts.iter().map(empty).collect();
            if parts.iter().any(Expr::is_fail) { fail() } else { Expr::concat(parts) }
        }
        // The iterations that must be taken, each matching "".
        Expr::Repeat { sub, min, greedy, .. } => {
            if *min == 0 {
                return Expr::Empty;
            }
            let silent = empty(sub);
            if silent.is_fail() {
                return fail();
            }
            Expr::Repeat { sub: Box::new(silent), min: *min, max: Some(*min), greedy: *greedy }
        }
        Expr::Atomic(sub) => atomic_or_fail(empty(sub)),
    }
}

/// A step setting group `group` to `value`.
pub(super) fn set(group: u32, value: Option<u32>) -> Expr {
    Expr::Capture(Capture::Set { group, value })
}

/// A test that group `group` holds `value`.
pub(super) fn test(group: u32, value: Option<u32>) -> Expr {
    Expr::Capture(Capture::Test { group, value })
}

/// A test that the copy of group `group`'s body after it reads the group's value.
pub(super) fn equals(group: u32) -> Expr {
    Expr::Capture(Capture::Equals { group })
}
