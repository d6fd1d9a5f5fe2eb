//! Values passed out of lookarounds: a group inside a positive lookaround that a reference
//! outside it reads holds the value of the lookaround body's first match, in the engine's
//! order.
//!
//! # Algorithm
//! The body's first match is its atomic translation (`atomic.rs`). The lookaround is read
//! once per choice of the values it passes out: the lookaround of that match ending with
//! those values (tests on the automaton's state, `capture.rs`), then setting them.
//!
//! - A lookahead starts its match here; its sub-automaton starts with the values carried
//!   here, so a choice's value is the one the group holds after the match.
//! - A lookbehind in Python and PCRE: each top-level branch of the body has one width w
//!   (the engines' rule) and is tried in turn, matching forward from w characters back;
//!   the first branch that matches keeps the values of its first match. So it is read once
//!   per branch and choice: no earlier branch matches here, and the branch's first match
//!   starts w characters back (a lookahead there, inside the lookbehind). A lookbehind's
//!   tracker starts with no values: a group its match leaves unset keeps the value it had.
//!   Java tries each width w of the body, shortest first, and at each the first path of w
//!   characters: the same reading, the body restricted to each width (`capture::restrict`)
//!   standing for the branches.
//! - JavaScript matches a lookbehind's body right to left, from here: its first match is
//!   the atomic translation of the body reversed (as it is stepped through in time: an
//!   iteration's clearing of groups first), mirrored back into the text. A group's value
//!   is then the one set last in time, the first set reading left to right, which a
//!   shadow group records ([`SHADOW`]); the readings test the shadows. A body that reads
//!   captured values (a reference, a lookaround passing values out) is refused: mirrored,
//!   it would read them before they are set.
//! - Inside a JavaScript lookbehind, a reference left of its group reads the value set
//!   last in time before it: the first setting right of it in the text, or the group's
//!   clearing that starts an iteration holding it, or no value (""). Where the group is
//!   tracked ([`Parser::right_to_left`]), the body is read left to right in its mirror
//!   image's order of events, and each reference records the value it expects in an
//!   [`EXPECTED`] group, which the next setting or clearing of the group on its right must
//!   meet (and the body's end, for "no value"): the same paths as right to left.
//!
//! A negative lookaround passes out nothing; where a PCRE conditional on one takes its no
//! branch, the values of the body's match stay ([`Otherwise`]).

use super::Parser;
use super::reference::MAX_BACKREF_CHOICES;
use crate::alphabet::CharSet;
use crate::budget::Operation;
use crate::dialect::Dialect;
use crate::error::ParseError;
use crate::pattern::capture;
use crate::pattern::{Capture, Expr};

/// A choice of values for the groups a lookaround passes out: the group and the index of
/// its value, `None` for no value.
type Choice = Vec<(u32, Option<u32>)>;

/// A lookaround as read (second pass): its body, its groups those after the first
/// `n_groups`, its parts the first `unordered` of [`Parser::unordered`] written before it.
pub(super) struct Look {
    pub(super) ahead: bool,
    pub(super) body: Expr,
    pub(super) n_groups: usize,
    pub(super) unordered: usize,
    pub(super) span: std::ops::Range<usize>,
}

/// The no branch's condition of a conditional on the last lookaround whose groups are read
/// outside it.
pub(super) enum Otherwise {
    /// A positive one: its negation, which passes out nothing.
    Negation(Expr),
    /// A negative one: where it fails, PCRE keeps the values of its body's match, so the
    /// positive lookaround that passes them out.
    Passing(Look),
    /// A lookbehind read once per value it reads from outside: not read.
    Unavailable,
}

impl Parser<'_> {
    /// `look`, `negated` or not. Where it passes out values, the no branch of a
    /// conditional on it is kept in [`Parser::otherwise`].
    pub(super) fn lookaround(&mut self, look: Look, negated: bool) -> Result<Expr, ParseError> {
        let look = if look.ahead { look } else { self.right_to_left(look)? };
        if self.passed_out(look.n_groups).is_empty() {
            self.otherwise = None;
            return Ok(Expr::look(look.ahead, negated, look.body));
        }
        let negation = Expr::look(look.ahead, true, look.body.clone());
        if negated {
            self.otherwise = Some(Otherwise::Passing(look));
            return Ok(negation);
        }
        self.otherwise = Some(Otherwise::Negation(negation));
        self.passing(look)
    }

    /// The positive `look`, which passes out values: once per choice of them.
    pub(super) fn passing(&mut self, look: Look) -> Result<Expr, ParseError> {
        let passed = self.passed_out(look.n_groups);
        let kind = if look.ahead { "lookahead" } else { "lookbehind" };
        let what = format!("a {kind} whose groups are read outside it");
        let choices = self.value_choices(&passed, kind, look.span.clone())?;
        if look.ahead {
            let first = self.atomic(look.body, &what, look.span.clone(), look.unordered)?;
            self.charge_readings(choices.len(), &first, look.span)?;
            let branches = choices.iter().map(|choice| {
                let sets = choice.iter().map(|&(number, value)| capture::set(number, value));
                let look = Expr::look(true, false, ending_with(&first, choice));
                Expr::concat([look].into_iter().chain(sets).collect())
            });
            return Ok(Expr::alt(branches.collect()));
        }
        if self.dialect == Dialect::Js {
            return self.passing_right_to_left(look, &passed, &what, &choices);
        }
        self.passing_in_turn(look, &what, &choices)
    }

    /// Python's, PCRE's and Java's positive lookbehind `look`: once per part the engine
    /// tries in turn ([`Parser::tries`]) and each of `choices`.
    fn passing_in_turn(
        &mut self,
        look: Look,
        what: &str,
        choices: &[Choice],
    ) -> Result<Expr, ParseError> {
        let mut readings = Vec::new();
        let mut earlier = Vec::new();
        for (branch, width) in self.tries(look.body, what, look.span.clone())? {
            let first = self.atomic(branch.clone(), what, look.span.clone(), look.unordered)?;
            self.charge_readings(choices.len(), &first, look.span.clone())?;
            let back = vec![Expr::set(CharSet::full()); width as usize];
            for choice in choices {
                let from_back = Expr::look(true, false, ending_with(&first, choice));
                let from_back = [from_back].into_iter().chain(back.iter().cloned());
                let look = Expr::look(false, false, Expr::concat(from_back.collect()));
                let sets = choice.iter().filter(|(_, value)| value.is_some());
                let sets = sets.map(|&(number, value)| capture::set(number, value));
                let reading = earlier.iter().cloned().chain([look]).chain(sets);
                readings.push(Expr::concat(reading.collect()));
            }
            earlier.push(Expr::look(false, true, branch));
        }
        Ok(Expr::alt(readings))
    }

    /// JavaScript's positive lookbehind `look`, which passes out the groups `passed`: read
    /// once per choice of their values, each of `choices` split where a group is left
    /// without one into "cleared by the body" and "untouched".
    fn passing_right_to_left(
        &mut self,
        look: Look,
        passed: &[u32],
        what: &str,
        choices: &[Choice],
    ) -> Result<Expr, ParseError> {
        let span = look.span.clone();
        let first = self.atomic(reversed(&look.body, true), what, span.clone(), look.unordered)?;
        if first.reads_capture() {
            let why = format!("{what} not supported yet: its body reads captured values");
            return Err(self.unsupported(why, span));
        }
        let n_values: Vec<u32> = passed.iter().map(|&number| self.n_values(number)).collect();
        let first = first_events(&reversed(&first, false), passed, &n_values);
        let mut shadowed: Vec<Vec<(u32, Option<Option<u32>>)>> = Vec::new();
        for choice in choices {
            let mut split = vec![Vec::new()];
            for &(number, value) in choice {
                let outcomes = match value {
                    Some(value) => vec![Some(Some(value))],
                    None => vec![Some(None), None],
                };
                split = split
                    .iter()
                    .flat_map(|done| {
                        outcomes
                            .iter()
                            .map(|&outcome| [done.as_slice(), &[(number, outcome)]].concat())
                    })
                    .collect();
            }
            shadowed.extend(split);
            if shadowed.len() > MAX_BACKREF_CHOICES {
                return Err(self.unsupported(
                    format!(
                        "the values this lookbehind passes out expand to more than \
                         {MAX_BACKREF_CHOICES} readings: too large"
                    ),
                    span,
                ));
            }
        }
        self.charge_readings(shadowed.len(), &first, span)?;
        let readings = shadowed.iter().map(|choice| {
            let tests = choice.iter().map(|&(number, outcome)| {
                capture::test(SHADOW + number, outcome.map(|value| value.map_or(0, |v| v + 1)))
            });
            let body = Expr::concat([first.clone()].into_iter().chain(tests).collect());
            let sets = choice
                .iter()
                .filter_map(|&(number, outcome)| outcome.map(|value| capture::set(number, value)));
            Expr::concat([Expr::look(false, false, body)].into_iter().chain(sets).collect())
        });
        Ok(Expr::alt(readings.collect()))
    }

    /// JavaScript's lookbehind `look` (second pass) with the values of its groups that
    /// references left of them read ([`Parser::behind_values`]) read right to left, as
    /// the module docs say; `look` itself where it has none.
    fn right_to_left(&self, mut look: Look) -> Result<Look, ParseError> {
        let groups: Vec<u32> = (self.behind_values.iter().copied())
            .filter(|&number| number as usize > look.n_groups && self.tracked.contains(&number))
            .filter(|&number| self.groups[number as usize - 1].looks == self.looks)
            .collect();
        if groups.is_empty() {
            return Ok(look);
        }
        let body = expecting(&look.body, &groups).ok_or_else(|| {
            self.unsupported(
                "a JavaScript lookbehind whose group a reference left of it reads is only \
                 supported where no lookaround inside it sets or reads the group",
                look.span.clone(),
            )
        })?;
        let ends = groups.iter().map(|&number| met(number, 0));
        look.body = Expr::concat([body].into_iter().chain(ends).collect());
        Ok(look)
    }

    /// The parts of a lookbehind's `body` that the engine tries in turn, each with its
    /// width: Python's and PCRE's top-level branches, which have one each; Java's body
    /// restricted to each width, shortest first.
    fn tries(
        &self,
        body: Expr,
        what: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Vec<(Expr, u32)>, ParseError> {
        if self.dialect == Dialect::Java {
            let tries = capture::by_width(&body, usize::MAX).ok_or_else(|| {
                self.unsupported(format!("{what}: its widths take too many nodes"), span)
            })?;
            return Ok(tries.into_iter().map(|(paths, width)| (paths, width as u32)).collect());
        }
        let branches = match body {
            Expr::Alt(branches) => branches,
            body => vec![body],
        };
        let mut tries = Vec::new();
        for branch in branches {
            match capture::widths(&branch) {
                (least, Some(most)) if least == most => tries.push((branch, most as u32)),
                // A branch that matches nothing (a rewritten group's).
                (least, Some(most)) if least > most => {}
                _ => {
                    return Err(self.unsupported(
                        format!(
                            "{what} is only supported where each of its branches has one width"
                        ),
                        span,
                    ));
                }
            }
        }
        Ok(tries)
    }

    /// The groups after the first `n_groups` whose values a lookaround passes out: those
    /// that references outside it read from the automaton's state.
    fn passed_out(&self, n_groups: usize) -> Vec<u32> {
        (n_groups as u32 + 1..=self.groups.len() as u32)
            .filter(|number| self.exported.contains(number) && self.tracked.contains(number))
            .collect()
    }

    /// Every choice of values for the groups `passed` (at most [`MAX_BACKREF_CHOICES`]).
    fn value_choices(
        &self,
        passed: &[u32],
        look: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Vec<Choice>, ParseError> {
        let mut choices: Vec<Choice> = vec![Vec::new()];
        for &number in passed {
            let n_values = self.n_values(number);
            if choices.len().saturating_mul(n_values as usize + 1) > MAX_BACKREF_CHOICES {
                return Err(self.unsupported(
                    format!(
                        "the values this {look} passes out expand to more than \
                         {MAX_BACKREF_CHOICES} readings: too large"
                    ),
                    span,
                ));
            }
            let values = (0..n_values).map(Some).chain([None]);
            choices = choices
                .iter()
                .flat_map(|choice| {
                    values.clone().map(|value| [choice.as_slice(), &[(number, value)]].concat())
                })
                .collect();
        }
        Ok(choices)
    }

    /// How many values group `number` has: its strings, or one ("set") where no
    /// reference reads its text.
    fn n_values(&self, number: u32) -> u32 {
        if self.needs_text.contains(&number) {
            self.groups[number as usize - 1].values.len() as u32
        } else {
            1
        }
    }

    /// Charges `readings` copies of `first` to the memory limit.
    fn charge_readings(
        &mut self,
        readings: usize,
        first: &Expr,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        let bytes = readings.saturating_mul(first.size()).saturating_mul(size_of::<Expr>());
        if let Err(err) = self.budget.check_memory(Operation::Parse, bytes) {
            self.over_budget = Some(err);
            return Err(
                self.error("the memory limit ran out reading this lookaround's values", span)
            );
        }
        Ok(())
    }
}

/// `first`, then tests that the groups of `choice` hold its values.
fn ending_with(first: &Expr, choice: &Choice) -> Expr {
    let tests = choice.iter().map(|&(number, value)| capture::test(number, value));
    Expr::concat([first.clone()].into_iter().chain(tests).collect())
}

/// The group that records, for group `number` of a JavaScript lookbehind read left to
/// right, the first value set (the last of a right-to-left match): its value plus one, 0
/// for "cleared"; none while none is set.
const SHADOW: u32 = 1 << 30;

/// The group that holds, for group `number` of a JavaScript lookbehind read left to right
/// ([`Parser::right_to_left`]), the value the references left of here expect it to be set
/// to next on the right: its value plus one, 0 for "no value"; none while none expects.
const EXPECTED: u32 = 1 << 29;

/// A test that no reference expects a value of group `number`, or that they expect the
/// one `expected` stands for (its value plus one, 0 for none).
fn met(number: u32, expected: u32) -> Expr {
    let group = EXPECTED + number;
    Expr::alt(vec![capture::test(group, None), capture::test(group, Some(expected))])
}

/// `expr` with its events in the order of its mirror image (`reversed`: an iteration's
/// clearing of groups last) and each step of `groups` read right to left: a test that the
/// group holds a value records that a reference expects it (or meets what an earlier one
/// expects), a setting or clearing of the group meets what is expected and ends it.
/// `None` where such a step stands inside a lookaround or an atomic group.
fn expecting(expr: &Expr, groups: &[u32]) -> Option<Expr> {
    let recurse = |expr: &Expr| expecting(expr, groups);
    let ours = |group: &u32| groups.contains(group);
    Some(match expr {
        Expr::Capture(Capture::Test { group, value }) if ours(group) => {
            let expected = value.map_or(0, |value| value + 1);
            let at = EXPECTED + group;
            let first = vec![capture::test(at, None), capture::set(at, Some(expected))];
            Expr::alt(vec![Expr::concat(first), capture::test(at, Some(expected))])
        }
        Expr::Capture(Capture::Set { group, value }) if ours(group) => {
            let expected = value.map_or(0, |value| value + 1);
            Expr::concat(vec![met(*group, expected), capture::set(EXPECTED + group, None)])
        }
        Expr::Capture(Capture::Equals { group }) if ours(group) => return None,
        Expr::Concat(parts) => {
            // The clearing that starts an iteration comes first in time: last here.
            let resets = parts
                .iter()
                .take_while(|part| matches!(part, Expr::Capture(Capture::Set { value: None, .. })))
                .count();
            let order = parts[resets..].iter().chain(&parts[..resets]);
            Expr::concat(order.map(recurse).collect::<Option<_>>()?)
        }
        Expr::Alt(branches) => Expr::alt(branches.iter().map(recurse).collect::<Option<_>>()?),
        Expr::Repeat { sub, min, max, greedy } => {
            Expr::Repeat { sub: Box::new(recurse(sub)?), min: *min, max: *max, greedy: *greedy }
        }
        Expr::Look(look) if steps_on(&look.body, groups) => return None,
        Expr::Atomic(sub) if steps_on(sub, groups) => return None,
        Expr::Empty | Expr::Set(_) | Expr::Capture(_) | Expr::Look(_) | Expr::Atomic(_) => {
            expr.clone()
        }
    })
}

/// Whether `expr` sets or reads a value of one of `groups`.
fn steps_on(expr: &Expr, groups: &[u32]) -> bool {
    match expr {
        Expr::Capture(
            Capture::Set { group, .. } | Capture::Test { group, .. } | Capture::Equals { group },
        ) => groups.contains(group),
        Expr::Concat(parts) | Expr::Alt(parts) => parts.iter().any(|part| steps_on(part, groups)),
        Expr::Repeat { sub, .. } | Expr::Atomic(sub) => steps_on(sub, groups),
        Expr::Look(look) => steps_on(&look.body, groups),
        Expr::Empty | Expr::Set(_) => false,
    }
}

/// `expr` matched the other way: its concatenations reversed, lookaheads and lookbehinds
/// swapped (a lookahead of the reversed text is a lookbehind of the text). `in_time`: as
/// an engine matching right to left steps through it, where the clearing of groups that
/// starts a JavaScript iteration (`capture::repeat`) still comes first; else its mirror
/// image, each step where it stands in the text.
pub(in crate::pattern) fn reversed(expr: &Expr, in_time: bool) -> Expr {
    let recurse = |expr: &Expr| reversed(expr, in_time);
    match expr {
        Expr::Concat(parts) => {
            let resets = parts
                .iter()
                .take_while(|part| matches!(part, Expr::Capture(Capture::Set { value: None, .. })))
                .count();
            let resets = if in_time { resets } else { 0 };
            let rest = parts[resets..].iter().rev().map(recurse);
            Expr::concat(parts[..resets].iter().cloned().chain(rest).collect())
        }
        Expr::Alt(branches) => Expr::alt(branches.iter().map(recurse).collect()),
        Expr::Repeat { sub, min, max, greedy } => {
            Expr::Repeat { sub: Box::new(recurse(sub)), min: *min, max: *max, greedy: *greedy }
        }
        Expr::Atomic(sub) => Expr::Atomic(Box::new(recurse(sub))),
        Expr::Look(look) => Expr::look(!look.ahead, look.negated, recurse(&look.body)),
        Expr::Empty | Expr::Set(_) | Expr::Capture(_) => expr.clone(),
    }
}

/// `expr` where each setting of a group of `passed` (with `n_values` values each) also
/// records the value in the group's [`SHADOW`] if none is recorded yet.
fn first_events(expr: &Expr, passed: &[u32], n_values: &[u32]) -> Expr {
    expr.map_sets(&|group, value| {
        let set = capture::set(group, value);
        let Some(at) = passed.iter().position(|&number| number == group) else {
            return set;
        };
        let shadow = SHADOW + group;
        let record = capture::set(shadow, Some(value.map_or(0, |value| value + 1)));
        let first = Expr::concat(vec![capture::test(shadow, None), record, set.clone()]);
        let later = (0..=n_values[at])
            .map(|recorded| Expr::concat(vec![capture::test(shadow, Some(recorded)), set.clone()]));
        Expr::alt([first].into_iter().chain(later).collect())
    })
}
