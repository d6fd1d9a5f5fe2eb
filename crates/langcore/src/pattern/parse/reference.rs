//! Backreferences and conditionals: which group each reads, how (from the automaton's
//! state or by a reading per choice of strings), and the checks each dialect makes.
//!
//! # Algorithm
//! Backreferences and conditionals `(?(n)yes|no)` are read in two passes. The first pass
//! finds each reference's group (closed, with a finite language) and how it is read:
//! - from the automaton's state (`capture.rs`), wherever the group and the reference sit:
//!   under repetitions, in other branches, inside lookaheads that read values captured
//!   before them. The group carries the index of the string it matched, each reference
//!   tests it, and each dialect's rules apply (a reference to a group without a value fails,
//!   matches "" in JavaScript; JavaScript clears a quantified atom's groups at each
//!   iteration; a reference inside its own group matches "" in JavaScript, is an error in
//!   Python, and reads the iteration before in Java and PCRE, the group's values found
//!   round by round, `parse`);
//! - by a reading per choice of strings: the second pass reads the pattern again once per
//!   choice of strings for those groups, each group and its references read as that
//!   string (or, for a conditional, as taking part or not), and the union of those
//!   readings is the pattern. This serves groups that match exactly once (or at most
//!   once, under `?`) and hold no reference: cheaper, and atomic groups can hold them.
//!
//! A tracked group's strings are listed in the engine's order of their first paths, which
//! atomic groups and lookaheads read (`atomic.rs`).
//!
//! A lookbehind runs from the start of the string, apart from the values carried along
//! the rest: where it reads a tracked group from outside it, it is read again once per
//! value of that group, each reading behind a test that the group holds that value
//! ([`Parser::expand_behind`]). A lookahead is atomic: it keeps the values of its body's
//! first match. Where a group inside a positive one is read outside it (or, under a
//! repetition, by the next iteration), the lookahead is read once per choice of the values
//! it passes out, each the lookahead of the body's atomic translation ending with those
//! values, then setting them; a lookbehind too, tried as each engine tries it
//! (`passing.rs`).
//!
//! Unbounded groups are refused as not regular, more than [`MAX_BACKREF_CHOICES`] strings
//! or choices as too large.
//!

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use super::{Binding, Flags, Group, Look, OpenRef, Otherwise, Parser, RightRef, Spans};
use super::{capture, case, java};
use crate::alphabet::CharSet;
use crate::budget::Operation;
use crate::dialect::Dialect;
use crate::error::{Error, ParseError};
use crate::pattern::{Expr, IR_BYTES_PER_PATTERN_BYTE, tags};

/// What a group name in a reference or conditional names.
pub(super) enum Named {
    One(u32),
    /// A group not read yet, in a dialect that takes one: known on the pattern's next
    /// reading.
    Ahead,
    Several,
    Unknown,
}

/// Why a group read once per choice of its strings is refused where it may match other
/// than once (the groups read so are checked to match once before).
pub(super) const ONCE_ONLY: &str = "a reference to a group that may match other than once is \
     only supported where the group's value is carried";

/// Why a group inside an atomic group (or possessive quantifier) whose strings a reading
/// per choice would pick is refused.
pub(super) const IN_ATOMIC: &str = "a reference from outside a lookaround to a group inside an atomic \
     group or possessive quantifier is only supported when the group has one string";

/// Why an atomic group or a lookahead whose values are read outside it is refused when a
/// group inside it has several strings whose paths hold assertions or steps on values.
pub(super) const UNORDERED_PATHS: &str = "it holds a group of several strings whose paths \
     hold assertions or other groups' values, which no rule orders as the engine tries them";

/// The most combinations of strings that backreferences may expand to.
pub(super) const MAX_BACKREF_CHOICES: usize = 4_096;

/// Readings of the pattern: for each, what it assumes along the way (tests on carried
/// values, or nothing) and the bindings of the groups it reads as a choice.
type Readings<T> = Vec<(Vec<T>, HashMap<u32, Binding>)>;

/// Each of `readings` extended by each of `options` for group `number` (what the option
/// assumes, and its binding); `None` past [`MAX_BACKREF_CHOICES`] readings.
fn extend_readings<T: Clone>(
    readings: &Readings<T>,
    number: u32,
    options: &[(T, Binding)],
) -> Option<Readings<T>> {
    if readings.len().saturating_mul(options.len()) > MAX_BACKREF_CHOICES {
        return None;
    }
    let mut extended = Vec::with_capacity(readings.len() * options.len());
    for (assumed, bindings) in readings {
        for (assumes, binding) in options {
            let mut bindings = bindings.clone();
            bindings.insert(number, binding.clone());
            extended.push((assumed.iter().cloned().chain([assumes.clone()]).collect(), bindings));
        }
    }
    Some(extended)
}

/// The most rounds that find the values of groups read before they close, under an
/// unbounded repetition (under bounded ones, the quantifiers bound them).
const MAX_ROUNDS: u32 = 16;

/// Adds the strings of `more` to those of `grown`, group by group, each once.
fn merge_grown(grown: &mut HashMap<u32, Vec<String>>, more: HashMap<u32, Vec<String>>) {
    for (number, values) in more {
        append_new(grown.entry(number).or_default(), values);
    }
}

/// Appends to `known` the strings of `more` it lacks, each once, in `more`'s order: a set
/// of them, as both sides may hold up to [`MAX_BACKREF_CHOICES`] strings.
pub(super) fn append_new(known: &mut Vec<String>, more: impl IntoIterator<Item = String>) {
    let mut seen: HashSet<String> = known.iter().cloned().collect();
    for value in more {
        if seen.insert(value.clone()) {
            known.push(value);
        }
    }
}

impl Parser<'_> {
    /// Every combination of bindings for the groups that `references` refer to, each a
    /// reading of the pattern (the bindings in force included): a string of the group for
    /// a backreference, taking part for a conditional, and not taking part when optional.
    pub(super) fn choices(
        &self,
        references: &[u32],
    ) -> Result<Vec<HashMap<u32, Binding>>, ParseError> {
        let mut referenced = references.to_vec();
        referenced.sort_unstable();
        referenced.dedup();
        let mut choices = vec![(Vec::new(), self.bindings.clone())];
        for group_number in referenced {
            let group = &self.groups[group_number as usize - 1];
            if group.varies {
                // A repetition around both the group and the reference closed after it.
                return Err(self.unsupported(ONCE_ONLY, group.span.clone()));
            }
            let mut options: Vec<Binding> = if self.needs_text.contains(&group_number) {
                group.strings.iter().cloned().map(Binding::Text).collect()
            } else {
                vec![Binding::Set]
            };
            if group.in_atomic && (options.len() > 1 || group.optional) {
                // The choice would be made outside the atomic group, which takes its first
                // match only.
                return Err(self.unsupported(IN_ATOMIC, group.span.clone()));
            }
            // A group that matches nothing: the readings where it did not take part.
            if group.optional || options.is_empty() {
                options.push(Binding::Unset);
            }
            let options: Vec<((), Binding)> = options.into_iter().map(|b| ((), b)).collect();
            choices = extend_readings(&choices, group_number, &options).ok_or_else(|| {
                self.unsupported(
                    format!(
                        "backreferences to this group expand to more than \
                         {MAX_BACKREF_CHOICES} alternatives: too large"
                    ),
                    group.span.clone(),
                )
            })?;
        }
        Ok(choices.into_iter().map(|(_, bindings)| bindings).collect())
    }

    /// The second pass: the pattern read once per choice of `choices` (`tracked`: the
    /// groups read from the automaton's state), in rounds while the groups that references
    /// read before they close find new values (`open_values`).
    ///
    /// With `tag`, each reading tags its atoms after the readings before it (the spans of
    /// the last round come back).
    pub(super) fn read_in_rounds(
        &self,
        choices: &[HashMap<u32, Binding>],
        tracked: &[u32],
        tag: bool,
    ) -> Result<(Expr, Option<Spans>), Error> {
        // The values that references before their group read, round by round: each round
        // reads the values found so far, and the strings the groups close with are the next
        // round's, until none is new. A value in a match comes from as many rounds as groups
        // closed before it, so past the quantifiers' bound the values found are all there are.
        let most_rounds = self.open_values.keys().try_fold(0u32, |sum, &number| {
            sum.checked_add(self.groups[number as usize - 1].closes?)
        });
        let mut open_values = self.open_values.clone();
        let mut round = 0;
        loop {
            let mut branches = Vec::new();
            let mut grown: HashMap<u32, Vec<String>> = HashMap::new();
            let mut tags = tag.then(Vec::new);
            for choice in choices {
                self.budget.check_time(Operation::Parse)?;
                let mut again =
                    Parser::new(self.pattern, self.dialect, choice.clone(), self.budget);
                again.strings_memo = Rc::clone(&self.strings_memo);
                again.needs_text = self.needs_text.clone();
                again.unset_right_refs = self.unset_right_refs.clone();
                again.behind_values = self.behind_values.clone();
                again.tracked = tracked.to_vec();
                again.exported = self.exported.clone();
                again.open_values = open_values.clone();
                again.later_names = self.later_names.clone();
                again.capped = most_rounds.is_some_and(|most| round >= most);
                again.tags = tags.take();
                again.copy_references = self.copy_references;
                let parsed = again.parse_all();
                tags = again.tags.take();
                if let Some(err) = again.over_budget.take() {
                    return Err(Error::Budget(err));
                }
                branches.push(parsed?);
                merge_grown(&mut grown, again.grown);
            }
            let Some(&number) = grown.keys().min() else {
                return Ok((Expr::alt(branches), tags));
            };
            if most_rounds.is_none() && round >= MAX_ROUNDS {
                let span = self.groups[number as usize - 1].span.clone();
                return Err(self
                    .unsupported(
                        format!(
                            "the values of this group keep growing at each iteration of the \
                             unbounded repetition around it (each holds one before it, past \
                             {MAX_ROUNDS} rounds): not regular in general"
                        ),
                        span,
                    )
                    .into());
            }
            merge_grown(&mut open_values, grown);
            round += 1;
        }
    }

    /// The groups that references and conditionals read from the automaton's state, among
    /// those of the first pass's `tracked_refs`: the others (each reference allows a
    /// reading, and the group matches exactly once and holds no reference that its strings
    /// would miss) join the groups read once per choice,
    /// the cheaper way that atomic groups can hold. A group that one reference must read
    /// per choice is read so for all, so each of its references must allow it.
    pub(super) fn split_references(&mut self) -> Result<Vec<u32>, ParseError> {
        let mut tracked: Vec<u32> = Vec::new();
        for (number, refusal) in &self.tracked_refs {
            if self.backrefs.contains(number) {
                if let Some(refusal) = refusal {
                    return Err(refusal.clone());
                }
            } else {
                let group = &self.groups[*number as usize - 1];
                let reads_text = group.holds_reference && self.needs_text.contains(number);
                let picked = group.in_atomic && (group.strings.len() != 1 || group.optional);
                if refusal.is_some() || group.varies || reads_text || picked {
                    tracked.push(*number);
                }
            }
        }
        tracked.sort_unstable();
        tracked.dedup();
        // A group inside a lookahead under a repetition keeps, in the next iteration, the
        // value the lookahead passed out (JavaScript clears it).
        if self.dialect != Dialect::Js {
            for &number in &tracked {
                let looks = &self.groups[number as usize - 1].looks;
                let repeated = looks.iter().any(|look| self.repeated_looks.contains(&look.0));
                if repeated && !self.exported.contains(&number) {
                    self.exported.push(number);
                }
            }
        }
        let read = self.tracked_refs.iter().map(|(number, _)| *number);
        let read: Vec<u32> = read.filter(|number| !tracked.contains(number)).collect();
        self.backrefs.extend(read);
        Ok(tracked)
    }

    /// The references and conditionals to groups that had not closed where they stand,
    /// once the whole pattern is read: the group must exist (but in Java, where such a
    /// reference never matches); a conditional reads the group's earlier value. A
    /// reference under a repetition that also holds its group reads the value an earlier
    /// iteration left (Java and PCRE keep it): the group is tracked, its strings known
    /// from this pass or, when it holds a reference (itself, inside it), found round by
    /// round (`parse`). Refused: a reference to a group that a lookaround keeps.
    pub(super) fn check_open_references(&mut self) -> Result<(), ParseError> {
        let open_refs = std::mem::take(&mut self.open_refs);
        // The groups around a reference that reads an earlier iteration hold a reference.
        for open in open_refs.iter().filter(|open| !open.conditional) {
            let idx = (open.number as usize).wrapping_sub(1);
            if self.groups.get(idx).is_some_and(|group| group.varies) {
                for &enclosing in &open.enclosing {
                    self.groups[enclosing as usize - 1].holds_reference = true;
                }
            }
        }
        for open in &open_refs {
            let number = open.number;
            let span = open.span.clone();
            let Some(group) = (number as usize).checked_sub(1).and_then(|idx| self.groups.get(idx))
            else {
                if self.dialect == Dialect::Java && !open.conditional {
                    continue;
                }
                return Err(self.error(
                    format!("reference to non-existent subpattern: there is no group {number}"),
                    span,
                ));
            };
            if open.conditional {
                // CPython tests the group's marks: its start, set on entering it, and its end,
                // left from an earlier iteration or attempt, which backtracking does not clear;
                // but it takes neither as set while no mark past the group's start is, as where
                // the group is entered once and no group opens inside it before the test.
                let marks_past_start = group.varies || open.n_groups > number as usize;
                if self.dialect == Dialect::Python
                    && open.enclosing.contains(&number)
                    && marks_past_start
                {
                    return Err(self.unsupported(
                        "a conditional inside its own group is only supported in Python where \
                         the group is not repeated and no group opens inside it before the \
                         conditional: CPython tests the group's marks, which a new iteration \
                         moves and backtracking does not restore",
                        span,
                    ));
                }
                continue;
            }
            if !group.varies {
                continue;
            }
            if group.looks.iter().any(|look| !open.looks.contains(look)) {
                self.export(number);
            }
            let group = &self.groups[number as usize - 1];
            if let Some(why) = &group.value_error {
                return Err(self.unsupported(why, span));
            }
            self.open_values.insert(number, first_values(group));
            self.tracked_refs.push((number, None));
            self.needs_text.push(number);
        }
        // A conditional on a group not closed that a backreference reads too tests its
        // values.
        for open in open_refs.iter().filter(|open| open.conditional) {
            let group = open.number.checked_sub(1).and_then(|idx| self.groups.get(idx as usize));
            if let Some(group) = group
                && self.needs_text.contains(&open.number)
                && group.value_error.is_none()
            {
                self.open_values.insert(open.number, first_values(group));
            }
        }
        self.open_refs = open_refs;
        Ok(())
    }

    /// Records a reference or conditional to group `number`, not closed here.
    fn open_reference(&mut self, number: u32, span: std::ops::Range<usize>, conditional: bool) {
        let enclosing = (1..=self.groups.len() as u32)
            .filter(|&open| !self.groups[open as usize - 1].closed)
            .collect();
        let looks = self.looks.clone();
        let n_groups = self.groups.len();
        self.open_refs.push(OpenRef { number, span, conditional, enclosing, looks, n_groups });
    }

    /// Whether a reference here reads `group` from outside a lookaround that holds it.
    fn reads_from_outside(&self, group: &Group) -> bool {
        group.looks.iter().any(|look| !self.looks.contains(look))
    }

    /// Records that group `number`, inside a lookaround that a reference or conditional is
    /// not in, is read there (first pass): the lookaround passes out the values of its
    /// body's first match (`passing.rs`).
    fn export(&mut self, number: u32) {
        if !self.exported.contains(&number) {
            self.exported.push(number);
        }
    }

    /// Whether a reference here stands inside a lookbehind that `group` is outside of: a
    /// lookbehind runs from the start of the string, apart from the values carried here.
    pub(super) fn behind_outside(&self, group: &Group) -> bool {
        self.looks.iter().any(|look| !look.1 && !group.looks.contains(look))
    }

    /// The body of the lookaround that starts at `body_start`, read again once per choice
    /// of strings for the groups opened inside it (after the first `n_groups`) that
    /// references inside it refer to: a group in a lookaround is chosen there, which
    /// matters when the lookaround is negated. The references are removed from the
    /// pattern-wide list.
    pub(super) fn expand_inside(
        &mut self,
        body: Expr,
        body_start: usize,
        flags: Flags,
        n_groups: usize,
        n_backrefs: usize,
    ) -> Result<Expr, ParseError> {
        let local: Vec<u32> = self.backrefs[n_backrefs..]
            .iter()
            .copied()
            .filter(|&group| group as usize > n_groups)
            .collect();
        if local.is_empty() {
            return Ok(body);
        }
        self.backrefs.retain(|&group| group as usize <= n_groups);
        let choices = self.choices(&local)?;
        let ir_bytes = (self.pos - body_start).saturating_mul(IR_BYTES_PER_PATTERN_BYTE);
        if let Err(err) =
            self.budget.check_memory(Operation::Parse, choices.len().saturating_mul(ir_bytes))
        {
            self.over_budget = Some(err);
            return Err(self
                .error("the memory limit ran out expanding backreferences", body_start..self.pos));
        }
        let mut branches = Vec::new();
        for choice in choices {
            branches.push(self.reread(body_start, flags, n_groups, choice)?);
        }
        Ok(Expr::alt(branches))
    }

    /// The body of the lookaround that starts at `body_start` read again, up to its
    /// closing parenthesis, with `bindings` in force (`n_groups` opened before it).
    pub(super) fn reread(
        &mut self,
        body_start: usize,
        flags: Flags,
        n_groups: usize,
        bindings: HashMap<u32, Binding>,
    ) -> Result<Expr, ParseError> {
        self.budget.check_time(Operation::Parse).map_err(|_| {
            self.unsupported(
                "backreference expansion ran out of time: too large",
                body_start..self.pos,
            )
        })?;
        let mut again = Parser::new(self.pattern, self.dialect, bindings, self.budget);
        again.strings_memo = Rc::clone(&self.strings_memo);
        again.pos = body_start;
        again.flags = flags;
        again.depth = self.depth + 1;
        again.levels = self.levels.clone();
        again.n_levels = self.n_levels;
        again.level_branches = self.level_branches.clone();
        again.looks = self.looks.clone();
        again.n_looks = self.n_looks;
        again.tracked = self.tracked.clone();
        again.exported = self.exported.clone();
        again.groups = self.groups[..n_groups].to_vec();
        again.needs_text = self.needs_text.clone();
        again.unset_right_refs = self.unset_right_refs.clone();
        again.behind_values = self.behind_values.clone();
        again.open_values = self.open_values.clone();
        again.later_names = self.later_names.clone();
        again.capped = self.capped;
        let parsed = again.parse_alternation();
        if let Some(err) = again.over_budget.take() {
            self.over_budget = Some(err);
        }
        merge_grown(&mut self.grown, again.grown);
        parsed
    }

    /// The lookbehind `(?<=body)` (`negated`: `(?<!body)`) whose body starts at
    /// `body_start`. Where references inside it read tracked groups from outside it (and
    /// from inside every lookbehind around it), the body is read again once per value of
    /// those groups, each reading behind tests that they hold those values: a lookbehind
    /// runs apart from the values carried along the rest.
    pub(super) fn expand_behind(
        &mut self,
        body: Expr,
        negated: bool,
        (body_start, flags): (usize, Flags),
        n_groups: usize,
        n_behind: usize,
        unordered: usize,
    ) -> Result<Expr, ParseError> {
        let enclosing = &self.looks[..self.looks.len() - 1];
        let (mut local, later): (Vec<u32>, Vec<u32>) =
            self.behind_refs[n_behind..].iter().partition(|&&number| {
                let group = &self.groups[number as usize - 1];
                !enclosing.iter().any(|look| !look.1 && !group.looks.contains(look))
            });
        self.behind_refs.truncate(n_behind);
        self.behind_refs.extend(later);
        let span = body_start..self.pos;
        let look = |body| Look { ahead: false, body, n_groups, unordered, span: span.clone() };
        if local.is_empty() {
            return self.lookaround(look(body), negated);
        }
        local.sort_unstable();
        local.dedup();
        let mut choices = vec![(Vec::new(), self.bindings.clone())];
        for number in local {
            let mut options: Vec<(Expr, Binding)> = if self.needs_text.contains(&number) {
                let values = &self.groups[number as usize - 1].values;
                let text = |(idx, text): (usize, &String)| {
                    (capture::test(number, Some(idx as u32)), Binding::Text(text.clone()))
                };
                values.iter().enumerate().map(text).collect()
            } else {
                vec![(capture::test(number, Some(0)), Binding::Set)]
            };
            options.push((capture::test(number, None), Binding::Unset));
            choices = extend_readings(&choices, number, &options).ok_or_else(|| {
                self.unsupported(
                    format!(
                        "the values this lookbehind reads expand to more than \
                         {MAX_BACKREF_CHOICES} readings: too large"
                    ),
                    span.clone(),
                )
            })?;
        }
        let mut branches = Vec::with_capacity(choices.len());
        for (tests, bindings) in choices {
            let body = self.reread(body_start, flags, n_groups, bindings)?;
            let look = self.lookaround(look(body), negated)?;
            branches.push(Expr::concat(tests.into_iter().chain([look]).collect()));
        }
        if self.otherwise.is_some() {
            self.otherwise = Some(Otherwise::Unavailable);
        }
        Ok(Expr::alt(branches))
    }

    pub(super) fn backref_by_name(
        &mut self,
        name: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Expr, ParseError> {
        match self.named_group(name) {
            Named::One(number) => self.backref(number, span),
            Named::Ahead => Ok(Expr::Empty),
            Named::Several => Err(self.unsupported(
                format!("a backreference to the duplicate group name `{name}` is ambiguous"),
                span,
            )),
            Named::Unknown => Err(self.error(format!("unknown group name `{name}`"), span)),
        }
    }

    /// The group `name` names: one of those read so far, else (PCRE, JavaScript) one
    /// written later, known once the pattern has been read ([`Named::Ahead`] until then).
    pub(super) fn named_group(&mut self, name: &str) -> Named {
        let numbered = |names: &mut dyn Iterator<Item = Option<&str>>| {
            let mut found = names
                .enumerate()
                .filter(|&(_, group)| group == Some(name))
                .map(|(idx, _)| idx as u32 + 1);
            match (found.next(), found.next()) {
                (Some(number), None) => Named::One(number),
                (Some(_), Some(_)) => Named::Several,
                (None, _) => Named::Unknown,
            }
        };
        let read = numbered(&mut self.groups.iter().map(|group| group.name.as_deref()));
        if !matches!(read, Named::Unknown) || !matches!(self.dialect, Dialect::Pcre | Dialect::Js) {
            return read;
        }
        let Some(later) = &self.later_names else {
            self.names_ahead = true;
            return Named::Ahead;
        };
        numbered(&mut later.iter().map(Option::as_deref))
    }

    /// A reference to group `number`: checked and recorded (first pass), or read as the
    /// group's bound string or from the automaton's state (second pass).
    pub(super) fn backref(
        &mut self,
        number: u32,
        span: std::ops::Range<usize>,
    ) -> Result<Expr, ParseError> {
        self.java_atom = Some(java::Atom::Reference);
        self.has_reference = true;
        // Java and PCRE compile a reference to a group that has not closed (PCRE: that
        // exists, Java: or not); it fails but where a repetition holds both, which
        // `Parser::check_open_references` refuses once the pattern is read.
        let open =
            number == 0 || self.groups.get(number as usize - 1).is_none_or(|group| !group.closed);
        self.check_reference_behind(number, open, span.clone())?;
        if matches!(self.dialect, Dialect::Java | Dialect::Pcre) && number > 0 && open {
            // Second pass: the value an earlier iteration left, when a repetition holds
            // both; else no value, no match.
            if let Some(values) = self.open_values.get(&number) {
                return Ok(self.read_values(number, values));
            }
            self.open_reference(number, span, false);
            return Ok(Expr::set(CharSet::empty()));
        }
        if self.dialect == Dialect::Js
            && let Some(reversed) = self.js_behind_reference(number, span.clone())?
        {
            return Ok(reversed);
        }
        // JavaScript: a group that has not closed has no value here (a repetition holding
        // both clears it at each iteration).
        if self.dialect == Dialect::Js && number > 0 && open {
            return Ok(Expr::Empty);
        }
        if let Some(bound) = self.bound_reference(number) {
            // Its characters are the reference's atoms (tagged when atoms are).
            return Ok(match bound {
                Expr::Concat(parts) => Expr::concat(
                    parts.into_iter().map(|part| self.tagged(part, span.clone())).collect(),
                ),
                other => self.tagged(other, span),
            });
        }
        if self.copy_references
            && let Some(copy) = self.copied_reference(number, span.clone())
        {
            return Ok(copy);
        }
        let group = self.closed_group(number, span.clone())?;
        if let Some(why) = &group.value_error {
            let why = why.clone();
            return self
                .copied_reference(number, span.clone())
                .ok_or_else(|| self.unsupported(why, span));
        }
        let in_behind = self.in_lookbehind();
        // Stands for the reference until it is read: as wide as the group inside a
        // lookbehind, for the checks of its width (of no one width when the group's strings
        // have several lengths; times 0 under `{0}`, as CPython's `getwidth`).
        let placeholder = match group.width {
            _ if !in_behind => Expr::Empty,
            Some(width) => Expr::concat(vec![Expr::set(CharSet::full()); width as usize]),
            None => Expr::alt(vec![Expr::Empty, Expr::set(CharSet::full())]),
        };
        if self.tracked.contains(&number) {
            if self.behind_outside(group) {
                self.behind_refs.push(number);
                return Ok(placeholder);
            }
            return Ok(self.read_value(number));
        }
        let once = self.matches_once(group, span.clone()).and_then(|()| match &group.error {
            Some(why) => Err(self.unsupported(why, span.clone())),
            None => Ok(()),
        });
        if self.reads_from_outside(group) {
            self.export(number);
        }
        self.tracked_refs.push((number, once.err()));
        self.needs_text.push(number);
        self.mark_enclosing_groups();
        Ok(placeholder)
    }

    /// The engines' limits on a reference to group `number` (`open`: not closed here)
    /// inside a lookbehind: Java takes none, Python and PCRE2 10.42 one to a group whose
    /// strings have one length, Python only to a closed group; PCRE's others are not read
    /// (PCRE2 10.43 reads more, Perl none).
    pub(super) fn check_reference_behind(
        &self,
        number: u32,
        open: bool,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        if !self.in_lookbehind() {
            return Ok(());
        }
        // Java and Python measure a lookbehind without the lookaheads inside it.
        let measured = self.looks.last().is_some_and(|&(_, ahead)| !ahead);
        if self.dialect == Dialect::Java && measured {
            return Err(self.error(
                "Look-behind group does not have an obvious maximum length: Java takes no \
                 backreference in a lookbehind",
                span,
            ));
        }
        if self.dialect == Dialect::Pcre
            && (open || self.groups[number as usize - 1].width.is_none())
        {
            return Err(self.unsupported(
                "a backreference in a lookbehind is only supported in PCRE to a group closed \
                 before it whose strings have one length (as PCRE2 10.42 reads it)",
                span,
            ));
        }
        self.check_python_behind(number, open, span.clone())?;
        Ok(())
    }

    /// A JavaScript reference inside a lookbehind that also holds its group: a lookbehind
    /// matches right to left, so a group left of the reference, or holding it, is captured
    /// after it (the reference matches ""), and one right of it before: such a reference is
    /// read once per string of its group (`Parser::expand_inside`), or from the automaton's
    /// state (the group checked by [`Parser::check_right_references`]). `None` elsewhere.
    pub(super) fn js_behind_reference(
        &mut self,
        number: u32,
        span: std::ops::Range<usize>,
    ) -> Result<Option<Expr>, ParseError> {
        if !self.in_lookbehind() {
            return Ok(None);
        }
        let Some(group) = (number as usize).checked_sub(1).and_then(|idx| self.groups.get(idx))
        else {
            if self.unset_right_refs.contains(&span.start) {
                return Ok(Some(Expr::Empty));
            }
            // Second pass: a tracked group's values, read right to left as the lookbehind
            // closes (`Parser::right_to_left`).
            if self.behind_values.contains(&number)
                && self.tracked.contains(&number)
                && let Some(values) = self.open_values.get(&number)
            {
                return Ok(Some(self.read_values(number, values)));
            }
            if let Some(bound) = self.bound_reference(number) {
                return Ok(Some(bound));
            }
            let (levels, looks) = (self.levels.clone(), self.looks.clone());
            self.right_refs.push(RightRef { number, span, levels, looks, nested: false });
            return Ok(Some(Expr::Empty));
        };
        // Left of the reference, or holding it: not closed yet, right to left (a repetition
        // clears it at each iteration).
        let common = group.looks.iter().zip(&self.looks).take_while(|(a, b)| a == b).count();
        match common.checked_sub(1).map(|idx| self.looks[idx]) {
            Some((_, false)) => Ok(Some(Expr::Empty)),
            _ => Ok(None),
        }
    }

    /// The JavaScript references to groups right of them inside the lookaround just read
    /// (first pass). A group in the same lookbehind that matches once where the reference
    /// stands (on its branch, under no repetition in the lookbehind) and holds no assertion
    /// is read once per string; one that may match other than once, of finitely many
    /// strings and holding no reference, is tracked, its values read right to left
    /// (`Parser::right_to_left`). A group that opens after the lookaround where no
    /// lookbehind holds both, or in another branch of an alternation holding the
    /// reference, has no value there (the reference matches ""); one not opened yet where a
    /// lookbehind holds the lookaround is checked where that one closes; else refused.
    pub(super) fn check_right_references(&mut self) -> Result<(), ParseError> {
        let (here, outer): (Vec<RightRef>, Vec<RightRef>) =
            std::mem::take(&mut self.right_refs).into_iter().partition(|at| at.looks == self.looks);
        self.right_refs = outer;
        for mut at in here {
            let group = self.groups.get(at.number as usize - 1);
            let outer_behind = at.looks[..at.looks.len() - 1].iter().any(|look| !look.1);
            if group.is_none() && outer_behind {
                // Known where the lookaround around this one closes: the group opens in it
                // (captured before the reference, not read here) or after it.
                at.looks.pop();
                at.nested = true;
                self.right_refs.push(at);
                continue;
            }
            // A group in another branch of an alternation that holds the reference has no
            // value there: a repetition around both clears it at each iteration.
            let other_branch = group.is_some_and(|group| {
                group.looks == at.looks
                    && group.path.iter().any(|&(level, branch)| {
                        at.levels
                            .iter()
                            .any(|&(at_level, at_branch)| at_level == level && at_branch != branch)
                    })
            });
            if group.is_none() || other_branch {
                self.unset_right_refs.push(at.span.start);
                continue;
            }
            let once = !at.nested
                && group.is_some_and(|group| {
                    let on_path = group.path.iter().all(|step| {
                        at.levels.contains(step) || self.level_branches.get(step.0) == Some(&1)
                    });
                    // A reading per string takes the group's strings, known without assertions.
                    group.looks == at.looks && !group.varies && on_path && group.error.is_none()
                });
            // Else its values are carried, read right to left: a group of finitely many
            // strings that holds no reference (its strings known from this pass, or, where
            // its paths hold assertions, found by the rounds).
            let carried = group.filter(|group| {
                group.looks == at.looks
                    && !at.nested
                    && group.value_error.is_none()
                    && !group.holds_reference
            });
            let not_regular = group.and_then(|group| group.value_error.clone());
            if once {
                self.backrefs.push(at.number);
                self.needs_text.push(at.number);
            } else if let Some(why) = not_regular {
                return Err(self.unsupported(why, at.span));
            } else if let Some(group) = carried {
                let values = first_values(group);
                let why = "a JavaScript reference inside a lookbehind to a group right of it \
                     that another reference reads once per string is only supported where the \
                     group matches once there";
                let refusal = self.unsupported(why, at.span.clone());
                self.open_values.insert(at.number, values);
                self.tracked_refs.push((at.number, Some(refusal)));
                self.needs_text.push(at.number);
                if !self.behind_values.contains(&at.number) {
                    self.behind_values.push(at.number);
                }
            } else {
                return Err(self.unsupported(
                    "a JavaScript reference inside a lookbehind to a group right of it is only \
                     supported when the group is in the same lookbehind (not in a lookaround \
                     inside it) and holds no reference (a lookbehind matches right to left)",
                    at.span,
                ));
            }
        }
        Ok(())
    }

    /// A reference to group `number` (closed), whose strings are too many to read or that
    /// is read so (`copy_references`), for the backtracking analysis (atoms tagged):
    /// [`Capture::Equals`], then a copy of the
    /// group's body that matches every string it may have captured (its assertions and
    /// steps on values read as "", its atomic groups as plain ones), each atom tagged with
    /// the reference's span. `None` where the copy would not match all of them: inside a
    /// lookbehind (read right to left), under a case-insensitive flag (the reference
    /// matches other cases), where the tags run out, or where atoms are not tagged.
    ///
    /// [`Capture::Equals`]: crate::pattern::Capture::Equals
    fn copied_reference(&mut self, number: u32, span: std::ops::Range<usize>) -> Option<Expr> {
        if self.in_lookbehind() || self.flags.case_insensitive || self.tags.is_none() {
            return None;
        }
        let body = self.groups.get((number as usize).checked_sub(1)?)?.body.clone()?;
        let copy = self.copy_of(body, &span)?;
        Some(Expr::concat(vec![capture::equals(number), copy]))
    }

    /// [`Parser::copied_reference`]'s copy of `expr`.
    fn copy_of(&mut self, expr: Expr, span: &std::ops::Range<usize>) -> Option<Expr> {
        Some(match expr {
            Expr::Set(set) if set.is_empty() => Expr::Set(set),
            Expr::Set(set) => {
                let before = self.tags.as_ref()?.len();
                let atom = self.tagged(Expr::Set(set.difference(&tags())), span.clone());
                // Out of tags, the atom would read as any other.
                (self.tags.as_ref()?.len() > before).then_some(atom)?
            }
            Expr::Empty | Expr::Look(_) | Expr::Capture(_) => Expr::Empty,
            Expr::Concat(parts) => Expr::concat(
                parts.into_iter().map(|part| self.copy_of(part, span)).collect::<Option<_>>()?,
            ),
            Expr::Alt(branches) => Expr::alt(
                branches
                    .into_iter()
                    .map(|branch| self.copy_of(branch, span))
                    .collect::<Option<_>>()?,
            ),
            Expr::Repeat { sub, min, max, greedy } => {
                Expr::Repeat { sub: Box::new(self.copy_of(*sub, span)?), min, max, greedy }
            }
            Expr::Atomic(sub) => self.copy_of(*sub, span)?,
        })
    }

    /// A reference to group `number` in a reading that binds the group: its string, or,
    /// where the group did not take part, "" in JavaScript and no match in the others.
    fn bound_reference(&self, number: u32) -> Option<Expr> {
        match self.bindings.get(&number)? {
            Binding::Text(text) => Some(self.folded(text)),
            Binding::Unset => Some(self.unset_reference(number)),
            Binding::Set => None,
        }
    }

    /// Python's rule for a reference or conditional inside a lookbehind: its group
    /// (`open`: not closed here) must have closed before the lookbehind began.
    pub(super) fn check_python_behind(
        &self,
        number: u32,
        open: bool,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        if self.dialect != Dialect::Python || !self.in_lookbehind() {
            return Ok(());
        }
        if open {
            return Err(self.error("cannot refer to an open group", span));
        }
        let group = &self.groups[number as usize - 1];
        if self.looks.iter().any(|look| !look.1 && group.looks.contains(look)) {
            return Err(
                self.error("cannot refer to group defined in the same lookbehind subpattern", span)
            );
        }
        Ok(())
    }

    /// Marks the groups open here as holding a reference.
    pub(super) fn mark_enclosing_groups(&mut self) {
        for group in self.groups.iter_mut().filter(|group| !group.closed) {
            group.holds_reference = true;
        }
    }

    /// What a backreference matches where its group captured `text`, under the flags in
    /// force.
    pub(super) fn folded(&self, text: &str) -> Expr {
        let ctx = self.ctx();
        Expr::concat(text.chars().map(|c| Expr::set(case::fold_captured(c, ctx))).collect())
    }

    /// A reference to group `number` where it did not take part: "" in JavaScript, else
    /// no match, as wide as the group (for Python's check of a lookbehind's width).
    pub(super) fn unset_reference(&self, number: u32) -> Expr {
        if self.dialect == Dialect::Js {
            return Expr::Empty;
        }
        let fail = Expr::set(CharSet::empty());
        match self.groups.get(number as usize - 1).and_then(|group| group.width) {
            Some(0) => Expr::look(true, false, fail),
            // Not opened yet: a reference before its group.
            width => Expr::concat(vec![fail; width.unwrap_or(1) as usize]),
        }
    }

    /// A reference to tracked group `number` (second pass): a branch per string the group
    /// may hold, testing that it holds it, and one for no value.
    pub(super) fn read_value(&self, number: u32) -> Expr {
        self.read_values(number, &self.groups[number as usize - 1].values)
    }

    /// A reference to tracked group `number`, whose values are `values`: a branch per
    /// value, and one for no value.
    fn read_values(&self, number: u32, values: &[String]) -> Expr {
        let mut branches: Vec<Expr> = values
            .iter()
            .enumerate()
            .map(|(idx, text)| {
                Expr::concat(vec![capture::test(number, Some(idx as u32)), self.folded(text)])
            })
            .collect();
        let unset = self.unset_reference(number);
        branches.push(Expr::concat(vec![capture::test(number, None), unset]));
        Expr::alt(branches)
    }

    /// A test that tracked group `number` holds a value (second pass): one of those it
    /// closed with, or, not closed here, of those the first pass knew.
    pub(super) fn holds_value(&self, number: u32) -> Expr {
        if !self.needs_text.contains(&number) {
            return capture::test(number, Some(0));
        }
        let n_values = match self.groups.get(number as usize - 1) {
            Some(group) if group.closed => group.values.len(),
            _ => self.open_values.get(&number).map_or(0, Vec::len),
        } as u32;
        Expr::alt((0..n_values).map(|idx| capture::test(number, Some(idx))).collect())
    }

    /// Group `number`, which a reference or conditional at `span` refers to: it exists and
    /// has closed.
    pub(super) fn closed_group(
        &self,
        number: u32,
        span: std::ops::Range<usize>,
    ) -> Result<&Group, ParseError> {
        let Some(group) = (number as usize).checked_sub(1).and_then(|idx| self.groups.get(idx))
        else {
            return Err(self.error(
                format!("invalid backreference: there is no group {number} before it"),
                span,
            ));
        };
        if group.closed {
            Ok(group)
        } else if self.dialect == Dialect::Python {
            Err(self.error("cannot refer to an open group", span))
        } else {
            Err(self.unsupported(
                "a backreference inside the group it refers to is not supported",
                span,
            ))
        }
    }

    /// Whether `group` matches once (or, when optional, at most once) on every path to
    /// here, as a reading of the pattern per choice of its string needs.
    pub(super) fn matches_once(
        &self,
        group: &Group,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        // Every level on the way to the group is still open on the same branch, or was
        // closed with that one branch (a group such as `(?:x(a))` before the reference).
        let on_path = group
            .path
            .iter()
            .all(|step| self.levels.contains(step) || self.level_branches.get(step.0) == Some(&1));
        if group.varies || !on_path {
            return Err(self.unsupported(ONCE_ONLY, span));
        }
        Ok(())
    }

    /// The branches of a conditional on group `number`, up to its closing parenthesis.
    pub(super) fn parse_conditional(
        &mut self,
        start: usize,
        number: u32,
    ) -> Result<Expr, ParseError> {
        let span = start..self.pos;
        let closed = (number as usize).checked_sub(1).and_then(|idx| self.groups.get(idx));
        let open = !closed.is_some_and(|group| group.closed);
        if number > 0 {
            self.check_python_behind(number, open, span.clone())?;
        }
        if number > 0 && open {
            return self.open_conditional(start, number);
        }
        let group = self.closed_group(number, span.clone())?;
        let binding = self.bindings.get(&number).cloned();
        let tracked = binding.is_none() && self.tracked.contains(&number);
        let behind = tracked && self.behind_outside(group);
        if binding.is_none() && !tracked {
            let once = self.matches_once(group, span.clone());
            if self.reads_from_outside(group) {
                self.export(number);
            }
            self.tracked_refs.push((number, once.err()));
            self.mark_enclosing_groups();
        }
        if behind {
            self.behind_refs.push(number);
        }
        let (yes, no) = self.parse_branches(start)?;
        if tracked && !behind {
            return Ok(Expr::alt(vec![
                Expr::concat(vec![self.holds_value(number), yes]),
                Expr::concat(vec![capture::test(number, None), no]),
            ]));
        }
        Ok(match binding {
            Some(Binding::Unset) => no,
            Some(Binding::Set | Binding::Text(_)) => yes,
            None => Expr::alt(vec![yes, no]),
        })
    }

    /// A conditional on group `number`, which has not closed here (it opens later, or holds
    /// the conditional): it tests the value the group carries from an earlier iteration, if
    /// any (Python and PCRE compile it; `check_open_references` checks the group exists).
    pub(super) fn open_conditional(
        &mut self,
        start: usize,
        number: u32,
    ) -> Result<Expr, ParseError> {
        let span = start..self.pos;
        if self.tracked.contains(&number) {
            if self.needs_text.contains(&number) && !self.open_values.contains_key(&number) {
                return Err(self.unsupported(
                    "a conditional on a group that has not closed, which a backreference also \
                     reads, is only supported when the group's strings are known where it \
                     stands (it holds no reference or conditional)",
                    span,
                ));
            }
            let holds = self.holds_value(number);
            let (yes, no) = self.parse_branches(start)?;
            return Ok(Expr::alt(vec![
                Expr::concat(vec![holds, yes]),
                Expr::concat(vec![capture::test(number, None), no]),
            ]));
        }
        let tracked = self.unsupported("the group has not closed here", span.clone());
        self.tracked_refs.push((number, Some(tracked)));
        self.open_reference(number, span, true);
        self.mark_enclosing_groups();
        let (yes, no) = self.parse_branches(start)?;
        Ok(Expr::alt(vec![yes, no]))
    }

    /// Tracked group `number` matching `body` (second pass): sets the group's value as it
    /// closes, one branch per string of the group when a reference reads the string
    /// (`capture.rs`).
    pub(super) fn tracked_capture(&mut self, number: u32, body: Expr) -> Result<Expr, ParseError> {
        if !self.needs_text.contains(&number) {
            return Ok(Expr::concat(vec![body, capture::set(number, Some(0))]));
        }
        let span = self.groups[number as usize - 1].span.clone();
        // In the engines' order, which atomic groups and lookaheads read.
        let strings = value_strings(&self.untagged(&body))
            .map_err(|why| self.unsupported(why, span.clone()))?;
        let mut values = strings.clone();
        if let Some(known) = self.open_values.get(&number) {
            // Indexed as the references before it read them; strings they lack are the
            // next round's (`parse`), or, in the last round, more than a match can hold.
            let known_set: HashSet<&String> = known.iter().collect();
            let new: Vec<String> =
                values.iter().filter(|v| !known_set.contains(v)).cloned().collect();
            if !new.is_empty() && !self.capped {
                merge_grown(&mut self.grown, HashMap::from([(number, new)]));
            }
            values = known.clone();
        }
        let index: HashMap<&String, usize> =
            values.iter().enumerate().map(|(idx, text)| (text, idx)).collect();
        let mut branches = Vec::with_capacity(values.len());
        let mut nodes = 0;
        // Where a string has several paths that differ in their assertions or values, its
        // first one does not stand for all of them.
        let mut unordered = false;
        for (idx, text) in strings.iter().filter_map(|text| Some((*index.get(text)?, text))) {
            self.budget.check_time(Operation::Parse).map_err(|err| {
                self.over_budget = Some(err);
                self.error("the budget ran out reading the strings of this group", span.clone())
            })?;
            let chars: Vec<char> = text.chars().collect();
            let matched = capture::restrict(&body, &chars, &mut nodes).ok_or_else(|| {
                self.unsupported(
                    format!(
                        "the paths of this group, one per string a backreference reads, take \
                         more than {} nodes: too large",
                        capture::MAX_NODES
                    ),
                    span.clone(),
                )
            })?;
            if !matched.is_fail() {
                unordered |= matched.has_look() && !capture::has_one_path(&matched);
                branches.push(Expr::concat(vec![matched, capture::set(number, Some(idx as u32))]));
            }
        }
        if unordered && branches.len() > 1 {
            // Atomic groups and lookaheads keep the first path that matches: the paths in the
            // engine's order, each setting its string's value, where they can be listed.
            let paths = capture::ordered_paths(&body, MAX_BACKREF_CHOICES);
            let set = |(text, path): (String, Expr)| {
                let idx = *index.get(&text)?;
                Some(Expr::concat(vec![path, capture::set(number, Some(idx as u32))]))
            };
            match paths {
                Some(paths) => branches = paths.into_iter().filter_map(set).collect(),
                None => self.unordered.push(UNORDERED_PATHS),
            }
        }
        self.groups[number as usize - 1].values = values;
        Ok(Expr::alt(branches))
    }
}

/// Why a reference to a group with infinitely many strings is refused: `([ab]+)\1` matches
/// the squares ww, which no finite automaton does (`(a+)\1`, aa repeated, is regular, but
/// telling such cases apart is not attempted).
const INFINITE_GROUP: &str = "a backreference to a group with infinitely many strings is not \
     supported: not regular in general";

/// The values that references to `group` before it closes read in the first round
/// (`parse`): its strings, known from the first pass when it holds no reference and has no
/// assertion; else none, and the rounds find them (its closing judges its strings).
fn first_values(group: &Group) -> Vec<String> {
    if group.error.is_none() && !group.holds_reference {
        group.strings.to_vec()
    } else {
        Vec::new()
    }
}

/// The strings of an expression without assertions, if finite and at most
/// [`MAX_BACKREF_CHOICES`]; otherwise why not.
pub(super) fn strings(expr: &Expr) -> Result<Vec<String>, String> {
    if is_infinite(expr) {
        return Err(INFINITE_GROUP.into());
    }
    finite_strings(expr, false)
}

/// The strings an expression may match, assertions and tests of captured values taken as
/// "" (so more than it matches, each then restricted by `capture::restrict`), if finite
/// and at most [`MAX_BACKREF_CHOICES`]; otherwise why not.
pub(super) fn value_strings(expr: &Expr) -> Result<Vec<String>, String> {
    if is_infinite(expr) {
        return Err(INFINITE_GROUP.into());
    }
    finite_strings(expr, true)
}

/// Whether an expression without assertions has infinitely many strings: an unbounded
/// repetition of something that matches a non-empty string.
pub(super) fn is_infinite(expr: &Expr) -> bool {
    match expr {
        Expr::Empty | Expr::Set(_) | Expr::Look(_) | Expr::Capture(_) => false,
        Expr::Concat(parts) => {
            parts.iter().all(|part| !part.is_fail()) && parts.iter().any(is_infinite)
        }
        Expr::Alt(parts) => parts.iter().any(is_infinite),
        Expr::Repeat { sub, min, max, .. } => {
            if sub.is_fail() {
                return false;
            }
            is_infinite(sub) && (*min > 0 || *max != Some(0))
                || max.is_none() && !sub.is_zero_width()
        }
        Expr::Atomic(sub) => is_infinite(sub),
    }
}

/// The strings of a finite expression, if at most [`MAX_BACKREF_CHOICES`]; with
/// `looks_match` an assertion counts as "", else it is refused. They come in the order of
/// each one's first path in a backtracking engine's order, which atomic groups and
/// lookaheads read (`atomic.rs`): branches left to right, a greedy repetition's next
/// iteration before it stops, a lazy one's after.
pub(super) fn finite_strings(expr: &Expr, looks_match: bool) -> Result<Vec<String>, String> {
    match expr {
        Expr::Empty => Ok(vec![String::new()]),
        Expr::Set(set) => {
            if set.len() > MAX_BACKREF_CHOICES as u64 {
                return Err(TOO_MANY.into());
            }
            Ok(set.ranges().iter().flat_map(|&(lo, hi)| (lo..=hi).map(String::from)).collect())
        }
        Expr::Concat(parts) => {
            let mut acc = vec![String::new()];
            for part in parts {
                acc = followed_by(&acc, &finite_strings(part, looks_match)?)?;
            }
            Ok(acc)
        }
        Expr::Alt(branches) => {
            let mut acc = Vec::new();
            for branch in branches {
                acc.extend(finite_strings(branch, looks_match)?);
                acc = first_of_each(acc);
                if acc.len() > MAX_BACKREF_CHOICES {
                    return Err(TOO_MANY.into());
                }
            }
            Ok(acc)
        }
        Expr::Repeat { sub, min, max, greedy } => {
            let once = finite_strings(sub, looks_match)?;
            if once.is_empty() && *min > 0 {
                return Ok(Vec::new());
            }
            if once.iter().all(String::is_empty) {
                return Ok(vec![String::new()]);
            }
            let Some(max) = *max else {
                return Err(INFINITE_GROUP.into());
            };
            // The optional iterations, from the last one back.
            let mut optional = vec![String::new()];
            for _ in *min..max {
                let more = followed_by(&once, &optional)?;
                let stop = vec![String::new()];
                let next = if *greedy { [more, stop] } else { [stop, more] }.concat();
                let next = first_of_each(next);
                if next == optional {
                    break;
                }
                optional = next;
            }
            let mut acc = vec![String::new()];
            for _ in 0..*min {
                acc = followed_by(&acc, &once)?;
            }
            followed_by(&acc, &optional)
        }
        Expr::Look(_) if looks_match => Ok(vec![String::new()]),
        Expr::Look(_) => Err("a backreference to a group with assertions is not supported".into()),
        Expr::Capture(_) => Ok(vec![String::new()]),
        Expr::Atomic(sub) => finite_strings(sub, looks_match),
    }
}

pub(super) const TOO_MANY: &str =
    "the group referred to has too many strings to expand its backreferences: too large";

/// Each of `heads` followed by each of `tails`, in that order, each string once; at most
/// [`MAX_BACKREF_CHOICES`] of them.
fn followed_by(heads: &[String], tails: &[String]) -> Result<Vec<String>, String> {
    if heads.len().saturating_mul(tails.len()) > MAX_BACKREF_CHOICES {
        return Err(TOO_MANY.into());
    }
    let joined =
        heads.iter().flat_map(|head| tails.iter().map(move |tail| format!("{head}{tail}")));
    Ok(first_of_each(joined.collect()))
}

/// `strings` without the repeats of a string, each kept where it first stands.
fn first_of_each(strings: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::with_capacity(strings.len());
    strings.into_iter().filter(|string| seen.insert(string.clone())).collect()
}
