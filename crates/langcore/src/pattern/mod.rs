//! The dialect-aware front end: patterns with assertions, backreferences and other engines'
//! syntax, read exactly under full-match semantics.
//!
//! # Overview
//! [`parse_in`] reads a pattern written for a [`Dialect`] and returns a [`Parsed`]: a
//! `regex-syntax` HIR when the pattern has no assertion left (the ordinary road of
//! `nfa/build.rs`, lazy and composable), or the canonical minimal [`Dfa`] of a pattern whose
//! assertions need the construction of `lookaround.rs`.
//!
//! - `parse.rs`: the structure of a pattern (alternation, groups, quantifiers, assertions,
//!   backreferences) in each dialect's syntax, into the small IR [`Expr`].
//! - `class.rs`: single characters, escapes and bracketed classes, per dialect, into
//!   [`CharSet`]s; Unicode tables come from `regex-syntax`.
//! - `case.rs`: case-insensitive matching, as each dialect's engine does it.
//! - `lookaround.rs`: the automaton of an [`Expr`] with lookarounds.
//!
//! In the default dialect ([`Dialect::Rust`]) a pattern that `syntax.rs` accepts is read by
//! it, unchanged; only patterns it refuses (assertions inside, lookaround, backreferences,
//! `[]` inside a pattern, other engines' unambiguous syntax) and possessive quantifiers
//! (which it would misread as nested repetition) come here.
//!
//! # Semantics
//! A string w is in the language of P iff some match of P spans all of w, every assertion
//! evaluated against w as a whole: a lookahead at position i looks at w[i..] to the end of w,
//! a lookbehind at w[..i]. Every anchor and word boundary is lowered to lookarounds here:
//! `^` is `(?<![\s\S])`, `\z` is `(?![\s\S])`, `\b` is
//! `(?<=\w)(?!\w)|(?<!\w)(?=\w)` with the dialect's `\w`, and so on (see docs/dialects.md).
//!
//! # Invariants
//! - Group nesting is at most [`NEST_LIMIT`], which bounds every recursion over an [`Expr`].
//! - Atomic groups are rewritten while parsing (`atomic.rs`); past the parser an
//!   [`Expr::Atomic`] only marks its body and is simplified away.

mod atomic;
mod capture;
mod case;
mod class;
mod java;
mod lookaround;
mod names;
mod parse;
mod utf16;

pub(crate) use class::shorthands;
pub(crate) use utf16::text_of_units;

use regex_syntax::hir::{self, Hir};

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dialect::Dialect;
use crate::error::Error;
use crate::nfa::Nfa;
use crate::ops;
use crate::syntax::{self, NEST_LIMIT};

/// The reading a class is parsed under: the dialect and the flags in force (`class.rs`,
/// `case.rs`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Ctx {
    pub(super) dialect: Dialect,
    pub(super) case_insensitive: bool,
    /// Python's `(?a)`: `\d`, `\w`, `\s` and `\b` in ASCII.
    pub(super) ascii: bool,
    /// Java's `(?U)`: `\d`, `\w`, `\s` and the POSIX names in Unicode.
    pub(super) unicode_classes: bool,
    /// Java's `(?u)` (implied by `(?U)`): case-insensitive matching beyond ASCII.
    pub(super) unicode_case: bool,
    /// Whether `.` matches line terminators.
    pub(super) dot_all: bool,
    /// Verbose mode: whitespace and `#` comments are ignored (inside classes too, in Rust
    /// and Java).
    pub(super) verbose: bool,
    /// PCRE's `(?xx)`: spaces and tabs are ignored inside classes too.
    pub(super) verbose_classes: bool,
    /// Java's `(?d)` (`UNIX_LINES`): only `\n` ends a line, for `.`, `^`, `$` and `\Z`.
    pub(super) unix_lines: bool,
}

/// A pattern after [`parse_in`].
#[derive(Debug)]
pub(crate) enum Parsed {
    /// A pattern without assertions, for the ordinary road.
    Hir(Hir),
    /// The canonical minimal DFA of a pattern with assertions.
    Automaton(Dfa),
    /// An automaton of a pattern read over UTF-16 code units (`utf16.rs`), its assertions
    /// decided: not determinized, since only some questions need that.
    Nfa(Nfa),
}

impl Parsed {
    /// The canonical minimal DFA of the pattern.
    ///
    /// # Errors
    /// When building it exceeds `budget`.
    pub(crate) fn into_dfa(self, budget: &Budget) -> Result<Dfa, BudgetError> {
        match self {
            Parsed::Hir(hir) => Dfa::from_nfa(&Nfa::from_hir(&hir, budget)?, budget),
            Parsed::Automaton(dfa) => Ok(dfa),
            Parsed::Nfa(nfa) => Dfa::from_nfa(&nfa, budget),
        }
    }
}

/// A pattern in the front end's IR: assertions and all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Expr {
    /// The empty string.
    Empty,
    /// One character of the set; the empty set matches nothing.
    Set(CharSet),
    /// Each part in order.
    Concat(Vec<Expr>),
    /// Any branch.
    Alt(Vec<Expr>),
    /// `sub{min,max}`, `max: None` unbounded; `greedy` false for a lazy quantifier, which
    /// matters only inside atomic groups (`atomic.rs`).
    Repeat { sub: Box<Expr>, min: u32, max: Option<u32>, greedy: bool },
    /// A zero-width assertion.
    Look(Look),
    /// The translation of an atomic group (`atomic.rs`): it matches what `sub` matches,
    /// and it is known to have at most one match end for each start.
    Atomic(Box<Expr>),
    /// A zero-width step on the captured values that the automaton carries in its state.
    Capture(Capture),
}

/// A step on the values of the captured groups that backreferences and conditionals read
/// where a group may match more than once or not at all (`parse.rs`): the automaton of
/// `lookaround.rs` carries each such group's value, an index into the group's finitely
/// many strings, in its configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Capture {
    /// Group `group` now holds its string `value` (`None`: no value, as before the group
    /// took part, or after JavaScript resets it at an iteration).
    Set { group: u32, value: Option<u32> },
    /// Holds iff group `group` holds `value` now.
    Test { group: u32, value: Option<u32> },
    /// Holds iff what follows, a copy of group `group`'s body, reads the group's value: a
    /// reference to a group of infinitely many strings (or too many), which no automaton
    /// carries. Only [`parse_tagged`] writes it, for the backtracking analysis, which
    /// reads it as a test it does not decide.
    Equals { group: u32 },
}

/// A lookaround: `body` must (or, negated, must not) match the rest of the string from
/// here (ahead: w[i..] in body·Σ*) or the text up to here (behind: w[..i] in Σ*·body).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    pub(crate) ahead: bool,
    pub(crate) negated: bool,
    pub(crate) body: Box<Expr>,
}

impl Look {
    /// The characters of `set` that satisfy this lookaround when it is a one-character
    /// test standing right next to that character.
    fn restrict(&self, set: &CharSet) -> Option<CharSet> {
        let Expr::Set(test) = &*self.body else { return None };
        Some(if self.negated { set.difference(test) } else { set.intersection(test) })
    }
}

impl Expr {
    /// The set `set` as one character.
    pub(crate) fn set(set: CharSet) -> Expr {
        Expr::Set(set)
    }

    /// The string `text`, character by character.
    pub(crate) fn literal(text: &str) -> Expr {
        Expr::concat(text.chars().map(|c| Expr::Set(CharSet::singleton(c))).collect())
    }

    /// The concatenation of `parts`, flattened.
    pub(crate) fn concat(parts: Vec<Expr>) -> Expr {
        let mut flat = Vec::with_capacity(parts.len());
        for part in parts {
            match part {
                Expr::Empty => {}
                Expr::Concat(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        match flat.len() {
            0 => Expr::Empty,
            1 => flat.pop().unwrap_or(Expr::Empty),
            _ => Expr::Concat(flat),
        }
    }

    /// The alternation of `branches`; one branch is itself.
    pub(crate) fn alt(mut branches: Vec<Expr>) -> Expr {
        if branches.len() == 1 {
            branches.pop().unwrap_or(Expr::Empty)
        } else {
            Expr::Alt(branches)
        }
    }

    /// `sub{min,max}`, greedy.
    pub(crate) fn repeat(sub: Expr, min: u32, max: Option<u32>) -> Expr {
        Expr::Repeat { sub: Box::new(sub), min, max, greedy: true }
    }

    /// A lookaround assertion.
    pub(crate) fn look(ahead: bool, negated: bool, body: Expr) -> Expr {
        Expr::Look(Look { ahead, negated, body: Box::new(body) })
    }

    /// Whether any assertion or step on captured values is left: the expression needs
    /// the automaton of `lookaround.rs`.
    fn has_look(&self) -> bool {
        match self {
            Expr::Empty | Expr::Set(_) => false,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(Expr::has_look),
            Expr::Repeat { sub, .. } | Expr::Atomic(sub) => sub.has_look(),
            Expr::Look(_) | Expr::Capture(_) => true,
        }
    }

    /// Whether a lookahead whose body may read to the end of the string (an unbounded
    /// repetition: its obligation may stay open that long), and whether any lookbehind,
    /// stands under a repetition that may cross it more than once.
    fn repeated_looks(&self) -> [bool; 2] {
        fn walk(expr: &Expr, repeated: bool, found: &mut [bool; 2]) {
            match expr {
                Expr::Empty | Expr::Set(_) | Expr::Capture(_) => {}
                Expr::Concat(parts) | Expr::Alt(parts) => {
                    parts.iter().for_each(|part| walk(part, repeated, found));
                }
                Expr::Repeat { sub, max, .. } => {
                    walk(sub, repeated || max.is_none_or(|max| max > 1), found);
                }
                Expr::Atomic(sub) => walk(sub, repeated, found),
                Expr::Look(look) => {
                    found[usize::from(!look.ahead)] |=
                        repeated && (!look.ahead || capture::widths(&look.body).1.is_none());
                    walk(&look.body, repeated, found);
                }
            }
        }
        let mut found = [false; 2];
        walk(self, false, &mut found);
        found
    }

    /// Whether some set of the expression satisfies `pred`.
    fn any_set(&self, pred: fn(&CharSet) -> bool) -> bool {
        match self {
            Expr::Empty | Expr::Capture(_) => false,
            Expr::Set(set) => pred(set),
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(|part| part.any_set(pred)),
            Expr::Repeat { sub, .. } | Expr::Atomic(sub) => sub.any_set(pred),
            Expr::Look(look) => look.body.any_set(pred),
        }
    }

    /// Whether any step on captured values is left (backreferences, conditionals).
    fn has_capture(&self) -> bool {
        match self {
            Expr::Empty | Expr::Set(_) => false,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(Expr::has_capture),
            Expr::Repeat { sub, .. } | Expr::Atomic(sub) => sub.has_capture(),
            Expr::Look(look) => look.body.has_capture(),
            Expr::Capture(_) => true,
        }
    }

    /// The expression with every tag character (see [`parse_tagged`]) taken out of its sets.
    fn untagged(self) -> Expr {
        match self {
            Expr::Set(set) => Expr::Set(set.difference(&tags())),
            Expr::Concat(parts) => Expr::Concat(parts.into_iter().map(Expr::untagged).collect()),
            Expr::Alt(branches) => Expr::Alt(branches.into_iter().map(Expr::untagged).collect()),
            Expr::Repeat { sub, min, max, greedy } => {
                Expr::Repeat { sub: Box::new(sub.untagged()), min, max, greedy }
            }
            Expr::Look(look) => Expr::look(look.ahead, look.negated, look.body.untagged()),
            Expr::Atomic(sub) => Expr::Atomic(Box::new(sub.untagged())),
            other @ (Expr::Empty | Expr::Capture(_)) => other,
        }
    }

    /// Whether the expression sets a captured value (see [`Capture`]).
    fn sets_capture(&self) -> bool {
        match self {
            Expr::Empty
            | Expr::Set(_)
            | Expr::Capture(Capture::Test { .. } | Capture::Equals { .. }) => false,
            Expr::Capture(Capture::Set { .. }) => true,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(Expr::sets_capture),
            Expr::Repeat { sub, .. } | Expr::Atomic(sub) => sub.sets_capture(),
            Expr::Look(look) => look.body.sets_capture(),
        }
    }

    /// Whether the expression tests a captured value (see [`Capture`]).
    pub(crate) fn reads_capture(&self) -> bool {
        match self {
            Expr::Empty | Expr::Set(_) | Expr::Capture(Capture::Set { .. }) => false,
            Expr::Capture(Capture::Test { .. } | Capture::Equals { .. }) => true,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(Expr::reads_capture),
            Expr::Repeat { sub, .. } | Expr::Atomic(sub) => sub.reads_capture(),
            Expr::Look(look) => look.body.reads_capture(),
        }
    }

    /// The expression with each step setting a captured value, outside its lookarounds,
    /// replaced by what `replace` makes of it (group, value).
    fn map_sets(&self, replace: &impl Fn(u32, Option<u32>) -> Expr) -> Expr {
        match self {
            Expr::Capture(Capture::Set { group, value }) => replace(*group, *value),
            Expr::Concat(parts) => {
                Expr::concat(parts.iter().map(|part| part.map_sets(replace)).collect())
            }
            Expr::Alt(branches) => {
                Expr::alt(branches.iter().map(|branch| branch.map_sets(replace)).collect())
            }
            Expr::Repeat { sub, min, max, greedy } => Expr::Repeat {
                sub: Box::new(sub.map_sets(replace)),
                min: *min,
                max: *max,
                greedy: *greedy,
            },
            Expr::Atomic(sub) => Expr::Atomic(Box::new(sub.map_sets(replace))),
            Expr::Empty | Expr::Set(_) | Expr::Capture(_) | Expr::Look(_) => self.clone(),
        }
    }

    /// Whether the expression matches "" at the end of the string (`ahead`) or at its
    /// start: there the assertions looking the same way see "" and are decided too;
    /// `None` when one looking the other way leaves it open.
    fn is_nullable_at_edge(&self, ahead: bool) -> Option<bool> {
        match self {
            Expr::Empty => Some(true),
            Expr::Set(_) => Some(false),
            Expr::Concat(parts) => {
                let mut all = true;
                for part in parts {
                    all &= part.is_nullable_at_edge(ahead)?;
                }
                Some(all)
            }
            Expr::Alt(parts) => {
                let mut any = false;
                for part in parts {
                    any |= part.is_nullable_at_edge(ahead)?;
                }
                Some(any)
            }
            Expr::Repeat { sub, min, .. } => Some(*min == 0 || sub.is_nullable_at_edge(ahead)?),
            Expr::Look(look) if look.ahead == ahead => {
                Some(look.body.is_nullable_at_edge(ahead)? != look.negated)
            }
            Expr::Look(_) => None,
            Expr::Atomic(sub) => sub.is_nullable_at_edge(ahead),
            // Setting a value always passes; a test depends on the path.
            Expr::Capture(Capture::Set { .. }) => Some(true),
            Expr::Capture(Capture::Test { .. } | Capture::Equals { .. }) => None,
        }
    }

    /// The expression with the assertions that stand at the very start (lookbehinds) or
    /// the very end (lookaheads) of the whole pattern decided: there the text they look at
    /// is "", so each is true or false by its body's nullability. This keeps `^...$` and
    /// `\b...\b` patterns on the ordinary road.
    fn decide_edges(self, at_start: bool, at_end: bool) -> Expr {
        match self {
            Expr::Look(look) => {
                let decidable = if look.ahead { at_end } else { at_start };
                match look.body.is_nullable_at_edge(look.ahead) {
                    Some(nullable) if decidable => {
                        if nullable != look.negated {
                            Expr::Empty
                        } else {
                            Expr::Set(CharSet::empty())
                        }
                    }
                    _ => Expr::Look(look),
                }
            }
            Expr::Alt(branches) => Expr::Alt(
                branches.into_iter().map(|branch| branch.decide_edges(at_start, at_end)).collect(),
            ),
            Expr::Concat(parts) => {
                // A part is at the start when everything before it is zero-width.
                let n_parts = parts.len();
                let zero_width: Vec<bool> = parts.iter().map(Expr::is_zero_width).collect();
                let mut res = Vec::with_capacity(n_parts);
                for (idx, part) in parts.into_iter().enumerate() {
                    let starts = at_start && zero_width[..idx].iter().all(|&zero| zero);
                    let ends = at_end && zero_width[idx + 1..].iter().all(|&zero| zero);
                    res.push(part.decide_edges(starts, ends));
                }
                Expr::concat(res)
            }
            Expr::Atomic(sub) => Expr::Atomic(Box::new(sub.decide_edges(at_start, at_end))),
            other => other,
        }
    }

    /// The expression with no-match parts propagated (a concatenation with one, a branch
    /// that is one), and one-character lookarounds next to a character merged into it:
    /// `(?=\w)c` and `c(?<=\w)` are `[c&&\w]`. Recursion follows the nesting.
    fn simplify(self) -> Expr {
        let fail = || Expr::Set(CharSet::empty());
        match self {
            Expr::Concat(parts) => {
                let parts: Vec<Expr> = parts.into_iter().map(Expr::simplify).collect();
                if parts.iter().any(Expr::is_fail) {
                    return fail();
                }
                let mut merged: Vec<Expr> = Vec::with_capacity(parts.len());
                for part in Expr::concat(parts).into_parts() {
                    let last = merged.last();
                    let joined = match (last, &part) {
                        (Some(Expr::Look(look)), Expr::Set(set)) if look.ahead => {
                            look.restrict(set)
                        }
                        (Some(Expr::Set(set)), Expr::Look(look)) if !look.ahead => {
                            look.restrict(set)
                        }
                        _ => None,
                    };
                    match joined {
                        Some(set) => {
                            merged.pop();
                            merged.push(Expr::Set(set));
                        }
                        None => merged.push(part),
                    }
                }
                if merged.iter().any(Expr::is_fail) { fail() } else { Expr::concat(merged) }
            }
            Expr::Alt(branches) => {
                let branches: Vec<Expr> = branches
                    .into_iter()
                    .map(Expr::simplify)
                    .filter(|branch| !branch.is_fail())
                    .collect();
                if branches.is_empty() { fail() } else { Expr::alt(branches) }
            }
            Expr::Repeat { sub, min, max, greedy } => {
                let sub = sub.simplify();
                match (sub.is_fail(), min) {
                    (true, 0) => Expr::Empty,
                    (true, _) => fail(),
                    _ => Expr::Repeat { sub: Box::new(sub), min, max, greedy },
                }
            }
            // Past the parser, an atomic group is its translation.
            Expr::Atomic(sub) => sub.simplify(),
            Expr::Look(look) => Expr::look(look.ahead, look.negated, look.body.simplify()),
            other => other,
        }
    }

    fn is_fail(&self) -> bool {
        matches!(self, Expr::Set(set) if set.is_empty())
    }

    /// The parts of a concatenation, or the expression alone.
    fn into_parts(self) -> Vec<Expr> {
        match self {
            Expr::Concat(parts) => parts,
            Expr::Empty => Vec::new(),
            other => vec![other],
        }
    }

    /// The number of nodes of the expression, lookaround bodies included.
    fn size(&self) -> usize {
        1 + match self {
            Expr::Empty | Expr::Set(_) | Expr::Capture(_) => 0,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().map(Expr::size).sum(),
            Expr::Repeat { sub, .. } | Expr::Atomic(sub) => sub.size(),
            Expr::Look(look) => look.body.size(),
        }
    }

    /// Whether the expression never consumes a character (only assertions and "").
    fn is_zero_width(&self) -> bool {
        match self {
            Expr::Empty | Expr::Look(_) | Expr::Capture(_) => true,
            Expr::Set(_) => false,
            Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().all(Expr::is_zero_width),
            Expr::Repeat { sub, max, .. } => *max == Some(0) || sub.is_zero_width(),
            Expr::Atomic(sub) => sub.is_zero_width(),
        }
    }

    /// The HIR of an expression without assertions or captured values.
    fn to_hir(&self) -> Hir {
        match self {
            Expr::Empty | Expr::Look(_) | Expr::Capture(_) => Hir::empty(),
            Expr::Set(set) => Hir::class(hir::Class::Unicode(hir::ClassUnicode::new(
                set.ranges().iter().map(|&(lo, hi)| hir::ClassUnicodeRange::new(lo, hi)),
            ))),
            Expr::Concat(parts) => Hir::concat(parts.iter().map(Expr::to_hir).collect()),
            Expr::Alt(parts) => Hir::alternation(parts.iter().map(Expr::to_hir).collect()),
            Expr::Repeat { sub, min, max, .. } => Hir::repetition(hir::Repetition {
                min: *min,
                max: *max,
                greedy: true,
                sub: Box::new(sub.to_hir()),
            }),
            Expr::Atomic(sub) => sub.to_hir(),
        }
    }
}

/// The first tag character (plane 15, private use): atom `i` of a tagged parse holds
/// `TAG_BASE + i` (see [`parse_tagged`]).
const TAG_BASE: u32 = 0xF0000;
/// How many atoms can be tagged.
const N_TAGS: u32 = 0xFFFE;

/// The tag character of atom `index`, if there are that many tags.
fn tag_char(index: usize) -> Option<char> {
    u32::try_from(index)
        .ok()
        .filter(|&index| index < N_TAGS)
        .and_then(|index| char::from_u32(TAG_BASE + index))
}

/// The atom index a tag character stands for.
pub(crate) fn tag_index(c: char) -> Option<usize> {
    let code = u32::from(c);
    (TAG_BASE..TAG_BASE + N_TAGS).contains(&code).then(|| (code - TAG_BASE) as usize)
}

/// Every tag character.
pub(crate) fn tags() -> CharSet {
    let last = char::from_u32(TAG_BASE + N_TAGS - 1).unwrap_or(char::MAX);
    CharSet::range(char::from_u32(TAG_BASE).unwrap_or(char::MAX), last)
}

/// The characters a text of `dialect` is read as, for the backtracking analysis: every
/// character but the tags, or JavaScript's code units (`utf16.rs`).
pub(crate) fn text_characters(dialect: Dialect) -> CharSet {
    match dialect {
        Dialect::Js => utf16::unit_range(0, 0xFFFF),
        _ => CharSet::full(),
    }
    .difference(&tags())
}

/// A pattern read for the backtracking analysis: its IR, with every one-set atom outside
/// atomic groups holding a tag character (its index into `spans`, by [`tag_index`]). A
/// group that references read from the automaton's state sets and tests its values as
/// [`Capture`] steps; a reference to a group of infinitely many strings is a copy of the
/// group's body behind [`Capture::Equals`].
#[derive(Debug)]
pub(crate) struct Tagged {
    pub(crate) expr: Expr,
    /// The byte span in the pattern of each tagged atom.
    pub(crate) spans: Vec<std::ops::Range<usize>>,
    /// The byte spans of the loops whose failed positions Java caches (Java only, none in a
    /// pattern with a backreference): `Pattern.Loop` skips an iteration where one failed.
    pub(crate) java_loops: Vec<std::ops::Range<usize>>,
}

/// Reads `pattern` of `dialect` as [`Tagged`], with the assertions at the edges decided
/// for a full match (`full_match`) or left as written (a search: they are tested where it
/// starts and stops); with `copies`, every reference that a copy of its group's body may
/// stand for is one. `None` for a pattern whose text holds tag characters.
///
/// # Errors
/// As [`parse_in`]'s parse.
pub(crate) fn parse_tagged(
    pattern: &str,
    dialect: Dialect,
    full_match: bool,
    copies: bool,
    budget: &Budget,
) -> Result<Option<Tagged>, Error> {
    budget
        .check_memory(Operation::Parse, pattern.len().saturating_mul(IR_BYTES_PER_PATTERN_BYTE))?;
    let Some((expr, spans, java_loops)) = parse::parse_tagged(pattern, dialect, copies, budget)?
    else {
        return Ok(None);
    };
    let expr = if full_match { expr.decide_edges(true, true) } else { expr };
    Ok(Some(Tagged { expr, spans, java_loops }))
}

/// Bytes the IR may take per byte of pattern, charged before parsing like `syntax.rs` does.
pub(crate) const IR_BYTES_PER_PATTERN_BYTE: usize = 320;

/// Parses `pattern` as written for `dialect`.
///
/// # Errors
/// [`Error::Parse`] for a pattern that is invalid in its dialect, or whose construct is not
/// regular or not supported (the message says which); [`Error::Budget`] when parsing, a
/// backreference expansion or the automaton of its assertions exceeds `budget`.
pub(crate) fn parse_in(pattern: &str, dialect: Dialect, budget: &Budget) -> Result<Parsed, Error> {
    if dialect == Dialect::Rust && !parse::has_possessive(pattern) {
        match syntax::parse(pattern, budget) {
            Ok(hir) => return Ok(Parsed::Hir(hir)),
            Err(Error::Parse(plain_err)) => {
                // A plain syntax error reads best in `regex-syntax`'s words; a construct
                // the plain road leaves to this front end gets this front end's answer.
                return match parse_extended(pattern, dialect, budget) {
                    Err(Error::Parse(err))
                        if !err.is_unsupported() && !plain_err.is_unsupported() =>
                    {
                        Err(Error::Parse(plain_err))
                    }
                    other => other,
                };
            }
            Err(other) => return Err(other),
        }
    }
    parse_extended(pattern, dialect, budget)
}

/// The extended front end alone: parse, lower the assertions, and build.
fn parse_extended(pattern: &str, dialect: Dialect, budget: &Budget) -> Result<Parsed, Error> {
    budget
        .check_memory(Operation::Parse, pattern.len().saturating_mul(IR_BYTES_PER_PATTERN_BYTE))?;
    let expr = parse::parse(pattern, dialect, budget)?.decide_edges(true, true).simplify();
    budget.check_time(Operation::Parse)?;
    if dialect == Dialect::Js && expr.any_set(utf16::reaches_pairs) {
        // Over UTF-16 units: composed into characters.
        let units = if expr.has_look() {
            Nfa::from_graph(&build_automaton(&expr, budget)?.to_graph())
        } else {
            Nfa::from_hir(&expr.to_hir(), budget)?
        };
        return Ok(Parsed::Nfa(utf16::characters(&units, budget)?));
    }
    if expr.has_look() {
        Ok(Parsed::Automaton(build_automaton(&expr, budget)?))
    } else {
        Ok(Parsed::Hir(expr.to_hir()))
    }
}

/// The canonical minimal DFA of `expr`, its leading lookaheads taken apart: at the start of
/// the whole string, `(?=X)Y` is `X·Σ* ∩ Y` and `(?!X)Y` is `Y − X·Σ*`, so each part is
/// determinized and minimized alone and only the product of minimal automata is built. One
/// subset construction of the whole carries every lookahead's progress beside the body's
/// (a validator's length check `(?=.{1,254}$)` beside a hostname's labels goes past any
/// budget that way). Not where a step on captured values is left: the parts would no
/// longer see each other's values.
fn build_automaton(expr: &Expr, budget: &Budget) -> Result<Dfa, Error> {
    let captures = expr.has_capture();
    let Expr::Concat(parts) = expr else { return build_whole(expr, captures, budget) };
    let leading = parts.iter().take_while(|part| matches!(part, Expr::Look(look) if look.ahead));
    let leading = leading.count();
    if leading == 0 || captures {
        return build_whole(expr, captures, budget);
    }
    let mut dfa = build_part(Expr::concat(parts[leading..].to_vec()), budget)?;
    for part in &parts[..leading] {
        let Expr::Look(look) = part else { unreachable!("taken while lookaheads") };
        let rest = Expr::Repeat {
            sub: Box::new(Expr::set(CharSet::full())),
            min: 0,
            max: None,
            greedy: true,
        };
        let ahead = build_part(Expr::concat(vec![(*look.body).clone(), rest]), budget)?;
        dfa = if look.negated {
            dfa.difference(&ahead, budget)?
        } else {
            dfa.intersection(&ahead, budget)?
        };
    }
    Ok(dfa)
}

/// The canonical minimal DFA of `expr` from one subset construction (`lookaround.rs`), or
/// of its mirror image read backwards, where lookaheads and lookbehinds swap. A lookahead
/// crossed again and again (under a repetition) leaves an obligation each time, sets of
/// which pile up where the body may read to the end (`(?:(?=.*a.{20}).)*`: one per
/// pending `a` and its progress), while a lookbehind is a deterministic tracker of the
/// text read so far: where such lookaheads repeat and no lookbehind does, the mirror
/// image goes first. The other way is tried where the first has too
/// many states. Not where a step on captured values is left (values flow forward).
fn build_whole(expr: &Expr, captures: bool, budget: &Budget) -> Result<Dfa, Error> {
    let mirrored = || -> Result<Dfa, BudgetError> {
        let dfa = lookaround::build(&parse::reversed(expr, false), budget)?;
        ops::rewire::reverse(&dfa, budget)
    };
    if captures {
        return Ok(lookaround::build(expr, budget)?);
    }
    let [ahead, behind] = expr.repeated_looks();
    let (first, second): (&dyn Fn() -> _, &dyn Fn() -> _) = if ahead && !behind {
        (&mirrored, &|| lookaround::build(expr, budget))
    } else {
        (&|| lookaround::build(expr, budget), &mirrored)
    };
    match first() {
        Err(err @ (BudgetError::TooManyStates { .. } | BudgetError::TooMuchMemory { .. })) => {
            Ok(second().map_err(|_| err)?)
        }
        other => Ok(other?),
    }
}

/// The canonical minimal DFA of one part of [`build_automaton`]'s conjunction.
fn build_part(expr: Expr, budget: &Budget) -> Result<Dfa, Error> {
    if expr.has_look() {
        build_automaton(&expr, budget)
    } else {
        Ok(Dfa::from_nfa(&Nfa::from_hir(&expr.to_hir(), budget)?, budget)?)
    }
}

/// The pattern constructors of [`Nfa`]: every pattern enters through `parse_in`.
impl Nfa {
    /// Builds the NFA of `pattern` under the default [`Budget`].
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when the automaton
    /// would exceed the default budget.
    ///
    /// # Example
    /// ```
    /// use langcore::Nfa;
    ///
    /// let nfa = Nfa::from_regex("[0-9]+(\\.[0-9]+)?")?;
    /// assert!(nfa.matches("3.14") && !nfa.matches("3."));
    /// assert!(Nfa::from_regex("a(?|b)").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex(pattern: &str) -> Result<Nfa, Error> {
        Nfa::from_regex_with(pattern, &Budget::default())
    }

    /// Builds the NFA of `pattern`, stopping when `budget` runs out.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when the automaton
    /// would exceed `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Nfa};
    ///
    /// let budget = Budget::default().with_max_states(1_000);
    /// let nfa = Nfa::from_regex_with("(a|b)*a(a|b){20}", &budget)?;
    /// assert!(nfa.matches(&"a".repeat(21)));
    /// assert!(Nfa::from_regex_with("a{2000}", &budget).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex_with(pattern: &str, budget: &Budget) -> Result<Nfa, Error> {
        Nfa::from_regex_in(pattern, Dialect::Rust, budget)
    }

    /// Builds an NFA of `pattern` as written for `dialect`, stopping when `budget` runs
    /// out. A pattern whose assertions stay after parsing gets the NFA of its minimal DFA.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern that is invalid in `dialect` or not read exactly,
    /// [`Error::Budget`] when the automaton would exceed `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dialect, Nfa};
    ///
    /// let nfa = Nfa::from_regex_in("\\bcat\\b.*", Dialect::Js, &Budget::default())?;
    /// assert!(nfa.matches("cat!") && !nfa.matches("cats"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex_in(pattern: &str, dialect: Dialect, budget: &Budget) -> Result<Nfa, Error> {
        match parse_in(pattern, dialect, budget)? {
            Parsed::Hir(hir) => Ok(Nfa::from_hir(&hir, budget)?),
            Parsed::Automaton(dfa) => Ok(Nfa::from_graph(&dfa.to_graph())),
            Parsed::Nfa(nfa) => Ok(nfa),
        }
    }
}

/// The pattern constructors of [`Dfa`].
impl Dfa {
    /// The canonical minimal DFA of `pattern`, under the default [`Budget`].
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when an automaton
    /// would exceed the default budget.
    ///
    /// # Example
    /// ```
    /// use langcore::Dfa;
    ///
    /// let dfa = Dfa::from_regex("[0-9]+(\\.[0-9]+)?")?;
    /// assert!(dfa.matches("3.14") && !dfa.matches("3."));
    /// assert_eq!(dfa, Dfa::from_regex("[0-9]+|[0-9]+\\.[0-9]+")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex(pattern: &str) -> Result<Dfa, Error> {
        Dfa::from_regex_with(pattern, &Budget::default())
    }

    /// The canonical minimal DFA of `pattern`, stopping when `budget` runs out.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when an automaton
    /// would exceed `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa};
    ///
    /// let budget = Budget::default().with_max_states(1_000);
    /// assert!(Dfa::from_regex_with("[a-z]+@[a-z]+", &budget)?.matches("ann@example"));
    /// assert!(Dfa::from_regex_with("(a|b)*a(a|b){20}", &budget).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex_with(pattern: &str, budget: &Budget) -> Result<Dfa, Error> {
        Ok(parse_in(pattern, Dialect::Rust, budget)?.into_dfa(budget)?)
    }
}

#[cfg(test)]
mod tests;
