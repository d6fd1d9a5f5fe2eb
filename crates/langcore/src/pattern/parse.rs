//! The structure of a pattern in each dialect: alternation, groups, quantifiers,
//! assertions and backreferences, into an [`Expr`].
//!
//! # Algorithm
//! Recursive descent, one call per group level, with nesting limited to [`NEST_LIMIT`].
//! Characters, escapes and classes are read by `class.rs`. Assertions are lowered to
//! lookarounds as they are read (`^` becomes `(?<![\s\S])`, `\b` an alternation of two
//! pairs of one-character lookarounds, and so on), so the IR has one kind of assertion.
//!
//! Backreferences and conditionals `(?(n)yes|no)` are read in two passes. The first pass
//! finds each reference's group (closed, with a finite language) and how it is read:
//! - from the automaton's state (`capture.rs`), wherever the group and the reference sit:
//!   under repetitions, in other branches, inside lookaheads that read values captured
//!   before them. The group carries the index of the string it matched, each reference
//!   tests it, and each dialect's rules apply (a reference to a group without a value fails,
//!   matches "" in JavaScript; JavaScript clears a quantified atom's groups at each
//!   iteration; a reference inside its own group matches "" in JavaScript, an error in
//!   Python, refused elsewhere);
//! - by a reading per choice of strings: the second pass reads the pattern again once per
//!   choice of strings for those groups, each group and its references read as that
//!   string (or, for a conditional, as taking part or not), and the union of those
//!   readings is the pattern. This serves groups that match exactly once (or at most
//!   once, under `?`) and hold no reference: cheaper, and atomic groups can hold them.
//!
//! A lookbehind runs from the start of the string, apart from the values carried along
//! the rest: where it reads a tracked group from outside it, it is read again once per
//! value of that group, each reading behind a test that the group holds that value
//! (`Parser::expand_behind`). A group inside a lookaround read from outside it is refused:
//! a lookaround is atomic, it keeps the values of its first match only.
//!
//! Unbounded groups are refused as not regular, more than [`MAX_BACKREF_CHOICES`] strings
//! or choices as too large.
//!
//! Atomic groups and possessive quantifiers are rewritten exactly by `atomic.rs`, or
//! refused with the reason; conditionals on a lookaround `(?(?=X)yes|no)` are
//! `(?=X)yes|(?!X)no`. Recursion, subroutine calls and branch reset are refused.

use std::collections::HashMap;

use super::atomic::{self, Refusal};
use super::class;
use super::java::{self, Piece};
use super::{Ctx, Expr, IR_BYTES_PER_PATTERN_BYTE, NEST_LIMIT};
use super::{capture, case};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dialect::Dialect;
use crate::error::Error;
use crate::error::ParseError;

/// Why a reference to a group inside a lookaround, from outside it, is refused.
const ONCE_ONLY: &str = "a reference to a group inside a lookaround from outside it is not \
     supported: a lookaround keeps the values of its body's first match only";

/// Why a group inside an atomic group (or possessive quantifier) whose strings a reading
/// per choice would pick is refused.
const IN_ATOMIC: &str = "a reference from outside a lookaround to a group inside an atomic \
     group or possessive quantifier is only supported when the group has one string";

/// The most combinations of strings that backreferences may expand to.
pub(super) const MAX_BACKREF_CHOICES: usize = 4_096;

/// The offset of the first parenthesis that opens a group deeper than [`NEST_LIMIT`],
/// found by a scan before any recursion (escapes and classes skipped roughly: a class
/// holding `(` only makes the scan count more).
fn too_deep(pattern: &str) -> Option<usize> {
    let bytes = pattern.as_bytes();
    let mut depth = 0u32;
    let mut pos = 0;
    while pos < bytes.len() {
        match bytes[pos] {
            b'\\' => pos += 1,
            b'(' => {
                depth += 1;
                if depth > NEST_LIMIT {
                    return Some(pos);
                }
            }
            b')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        pos += 1;
    }
    None
}

/// Whether `pattern` has a possessive quantifier (`*+`, `++`, `?+`, `}+`) outside a class
/// or escape, which `regex-syntax` would read as a nested repetition.
pub(super) fn has_possessive(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut pos = 0;
    let mut in_class = false;
    while pos < bytes.len() {
        match bytes[pos] {
            b'\\' => pos += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'*' | b'+' | b'?' | b'}' if !in_class && bytes.get(pos + 1) == Some(&b'+') => {
                return true;
            }
            _ => {}
        }
        pos += 1;
    }
    false
}

/// Parses `pattern` of `dialect` into an [`Expr`] without backreferences.
pub(super) fn parse(pattern: &str, dialect: Dialect, budget: &Budget) -> Result<Expr, Error> {
    if let Some(at) = too_deep(pattern) {
        return Err(Error::Parse(ParseError::at(
            pattern,
            format!("nest limit exceeded: groups nest deeper than {NEST_LIMIT}"),
            at..at + 1,
        )));
    }
    let mut parser = Parser::new(pattern, dialect, HashMap::new(), budget);
    let parsed = parser.parse_all();
    if let Some(err) = parser.over_budget.take() {
        return Err(Error::Budget(err));
    }
    let expr = parsed?;
    if parser.backrefs.is_empty() && parser.tracked_refs.is_empty() {
        parser.check_open_references()?;
        return Ok(expr);
    }
    parser.check_open_references()?;
    let tracked = parser.split_references()?;
    let choices = parser.choices(&parser.backrefs)?;
    let ir_bytes = pattern.len().saturating_mul(IR_BYTES_PER_PATTERN_BYTE);
    budget.check_memory(Operation::Parse, choices.len().saturating_mul(ir_bytes))?;
    let mut branches = Vec::new();
    for choice in choices {
        budget.check_time(Operation::Parse)?;
        let mut again = Parser::new(pattern, dialect, choice, budget);
        again.needs_text = parser.needs_text.clone();
        again.tracked = tracked.clone();
        let parsed = again.parse_all();
        if let Some(err) = again.over_budget.take() {
            return Err(Error::Budget(err));
        }
        branches.push(parsed?);
    }
    Ok(Expr::alt(branches))
}

/// What a reading takes a referenced group to have matched.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Binding {
    /// The group did not take part (it was optional and skipped).
    Unset,
    /// The group took part, matching any of its strings (for conditionals).
    Set,
    /// The group matched this string (for backreferences).
    Text(String),
}

/// Flags in force.
#[derive(Clone, Copy, Debug)]
struct Flags {
    case_insensitive: bool,
    multi_line: bool,
    dot_all: bool,
    verbose: bool,
    /// PCRE's `(?xx)`, see [`Ctx`].
    verbose_classes: bool,
    ascii: bool,
    /// PCRE's `(?J)`: groups may share a name.
    duplicate_names: bool,
    /// Java's `(?U)` and `(?u)`, see [`Ctx`].
    unicode_classes: bool,
    unicode_case: bool,
    /// `(?U)` in PCRE and Rust: quantifiers are lazy unless followed by `?`.
    swap_greed: bool,
}

/// What the first pass learnt about a capturing group.
#[derive(Clone, Debug)]
struct Group {
    name: Option<String>,
    span: std::ops::Range<usize>,
    /// The (level, branch) pairs on the way to the group when it opened.
    path: Vec<(usize, usize)>,
    closed: bool,
    /// Under a quantifier or inside a lookaround: it may match other than once.
    varies: bool,
    /// Directly under `?`: it matches once or not at all.
    optional: bool,
    /// Its strings, when its language is finite and small; the error otherwise.
    strings: Vec<String>,
    error: Option<String>,
    /// Why no reference may read it at all: its language is infinite or too large, even
    /// with its assertions taken as "" (they only stop a reading per choice).
    value_error: Option<String>,
    /// The lookarounds it is inside (see `Parser::looks`).
    looks: Vec<(usize, bool)>,
    /// A tracked group's strings (second pass): its values are their indexes.
    values: Vec<String>,
    /// A reference or conditional stands inside it: its strings (first pass) miss what the
    /// reference reads, so it is tracked.
    holds_reference: bool,
    /// The one length of its strings, if it has one (for Python's lookbehinds).
    width: Option<u32>,
    /// Inside an atomic group or possessive quantifier, which takes its first match only:
    /// a reading per choice of its strings would pick others.
    in_atomic: bool,
}

struct Parser<'p> {
    pattern: &'p str,
    dialect: Dialect,
    pos: usize,
    flags: Flags,
    depth: u32,
    /// Current group levels: (level id, branch number).
    levels: Vec<(usize, usize)>,
    n_levels: usize,
    /// Per level id, its number of branches once closed (0 while open).
    level_branches: Vec<usize>,
    groups: Vec<Group>,
    /// Group numbers referred to (first pass).
    backrefs: Vec<u32>,
    /// What each referenced group is read as (second pass).
    bindings: HashMap<u32, Binding>,
    /// Groups that backreferences (not only conditionals) refer to: their strings count.
    needs_text: Vec<u32>,
    /// The group number when the atom just read is a capturing group, for `(...)?`.
    last_capture: Option<u32>,
    /// The lookarounds the current position is inside, outermost first: (id, ahead).
    looks: Vec<(usize, bool)>,
    /// Lookarounds opened so far: the next one's id.
    n_looks: usize,
    /// Groups read with their values carried in the automaton's state (see the module
    /// docs), found by the first pass.
    tracked: Vec<u32>,
    /// References and conditionals of the first pass that may read their group's value
    /// from the automaton's state: the group, and why a reading would not do (when the
    /// group must be read once per choice for another reference).
    tracked_refs: Vec<(u32, Option<ParseError>)>,
    /// Tracked groups that references inside a lookbehind outside of which they stand read
    /// (second pass): the lookbehind is read again per value (`Parser::expand_behind`).
    behind_refs: Vec<u32>,
    /// References and conditionals to groups that had not closed where they stand (first
    /// pass): the group, the span, and whether it is a conditional.
    open_refs: Vec<(u32, std::ops::Range<usize>, bool)>,
    /// The atom just read cannot take a quantifier in this dialect (Python's and
    /// JavaScript's anchors and word boundaries, Python's flag groups, JavaScript's
    /// lookbehinds).
    unquantifiable: bool,
    budget: &'p Budget,
    /// Bytes of character sets built so far: Unicode classes are large (`\w` is about
    /// 6 KiB), so they are charged to the memory limit as they are built.
    set_bytes: usize,
    /// The budget error that stopped parsing, reported instead of the parse error.
    over_budget: Option<BudgetError>,
    /// In JavaScript, the pattern's capturing groups and whether one is named (read once:
    /// backreferences and `\k` depend on them); `(0, false)` elsewhere.
    js_groups: (usize, bool),
    /// Java's nodes (`java.rs`), for its lookbehind and loop rules: of the alternation
    /// just read, of the atom just read when the expression does not tell (a group, a
    /// reference, `\R`), and of the quantified atom just read.
    java_chain: Vec<Piece>,
    java_atom: Option<java::Atom>,
    java_pieces: Vec<Piece>,
    /// Java loops written so far whose body matches "" (`java::loop_repeat`): an atomic
    /// group holding one is refused, as no rule orders its matches.
    java_empty_loops: usize,
}

impl<'p> Parser<'p> {
    fn new(
        pattern: &'p str,
        dialect: Dialect,
        bindings: HashMap<u32, Binding>,
        budget: &'p Budget,
    ) -> Parser<'p> {
        Parser {
            pattern,
            dialect,
            pos: 0,
            flags: Flags {
                case_insensitive: false,
                multi_line: false,
                dot_all: dialect == Dialect::Rust,
                verbose: false,
                verbose_classes: false,
                ascii: false,
                duplicate_names: false,
                unicode_classes: false,
                unicode_case: false,
                swap_greed: false,
            },
            depth: 0,
            levels: Vec::new(),
            n_levels: 0,
            level_branches: Vec::new(),
            groups: Vec::new(),
            backrefs: Vec::new(),
            bindings,
            needs_text: Vec::new(),
            last_capture: None,
            looks: Vec::new(),
            n_looks: 0,
            tracked: Vec::new(),
            tracked_refs: Vec::new(),
            behind_refs: Vec::new(),
            open_refs: Vec::new(),
            unquantifiable: false,
            budget,
            set_bytes: 0,
            over_budget: None,
            js_groups: if dialect == Dialect::Js { js_groups(pattern) } else { (0, false) },
            java_chain: Vec::new(),
            java_atom: None,
            java_pieces: Vec::new(),
            java_empty_loops: 0,
        }
    }

    fn ctx(&self) -> Ctx {
        Ctx {
            dialect: self.dialect,
            case_insensitive: self.flags.case_insensitive,
            ascii: self.flags.ascii,
            unicode_classes: self.flags.unicode_classes,
            unicode_case: self.flags.unicode_case,
            dot_all: self.flags.dot_all,
            verbose: self.flags.verbose,
            verbose_classes: self.flags.verbose_classes,
        }
    }

    fn rest(&self) -> &'p str {
        &self.pattern[self.pos..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn eat(&mut self, text: &str) -> bool {
        if self.rest().starts_with(text) {
            self.pos += text.len();
            true
        } else {
            false
        }
    }

    fn error(&self, message: impl std::fmt::Display, span: std::ops::Range<usize>) -> ParseError {
        ParseError::at(self.pattern, message, span)
    }

    fn unsupported(
        &self,
        message: impl std::fmt::Display,
        span: std::ops::Range<usize>,
    ) -> ParseError {
        ParseError::unsupported_at(self.pattern, message, span)
    }

    /// Every combination of bindings for the groups that `references` refer to, each a
    /// reading of the pattern (the bindings in force included): a string of the group for
    /// a backreference, taking part for a conditional, and not taking part when optional.
    fn choices(&self, references: &[u32]) -> Result<Vec<HashMap<u32, Binding>>, ParseError> {
        let mut referenced = references.to_vec();
        referenced.sort_unstable();
        referenced.dedup();
        let mut choices = vec![self.bindings.clone()];
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
            if choices.len().saturating_mul(options.len()) > MAX_BACKREF_CHOICES {
                return Err(self.unsupported(
                    format!(
                        "backreferences to this group expand to more than \
                         {MAX_BACKREF_CHOICES} alternatives: too large"
                    ),
                    group.span.clone(),
                ));
            }
            choices = choices
                .iter()
                .flat_map(|choice| {
                    options.iter().map(move |binding| {
                        let mut choice = choice.clone();
                        choice.insert(group_number, binding.clone());
                        choice
                    })
                })
                .collect();
        }
        Ok(choices)
    }

    /// The groups that references and conditionals read from the automaton's state, among
    /// those of the first pass's `tracked_refs`: the others (each reference allows a
    /// reading, and the group matches exactly once and holds no reference that its strings
    /// would miss) join the groups read once per choice,
    /// the cheaper way that atomic groups can hold. A group that one reference must read
    /// per choice is read so for all, so each of its references must allow it.
    fn split_references(&mut self) -> Result<Vec<u32>, ParseError> {
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
        let read = self.tracked_refs.iter().map(|(number, _)| *number);
        let read: Vec<u32> = read.filter(|number| !tracked.contains(number)).collect();
        self.backrefs.extend(read);
        Ok(tracked)
    }

    /// The references and conditionals to groups that had not closed where they stand,
    /// once the whole pattern is read: the group must exist (but in Java, where such a
    /// reference never matches); a reference, read as failing, must not stand under a
    /// repetition that also holds the group (the group would be unset only in its first
    /// iteration), which is refused; a conditional reads the group's earlier value.
    fn check_open_references(&self) -> Result<(), ParseError> {
        for (number, span, conditional) in &self.open_refs {
            match (*number as usize).checked_sub(1).and_then(|idx| self.groups.get(idx)) {
                None if self.dialect == Dialect::Java && !conditional => {}
                None => {
                    return Err(self.error(
                        format!("reference to non-existent subpattern: there is no group {number}"),
                        span.clone(),
                    ));
                }
                Some(group) if group.varies && !conditional => {
                    return Err(self.unsupported(
                        "a reference to a group that has not closed where it stands is only \
                         supported where no repetition holds both (the group would hold an \
                         earlier iteration's value)",
                        span.clone(),
                    ));
                }
                Some(_) => {}
            }
        }
        Ok(())
    }

    /// Whether a reference here must read group `group` once per choice rather than from
    /// the automaton's state: the group is inside a lookaround that the reference is not
    /// in, whose values stay there.
    fn needs_reading(&self, group: &Group) -> bool {
        group.looks.iter().any(|look| !self.looks.contains(look))
    }

    /// Whether a reference here stands inside a lookbehind that `group` is outside of: a
    /// lookbehind runs from the start of the string, apart from the values carried here.
    fn behind_outside(&self, group: &Group) -> bool {
        self.looks.iter().any(|look| !look.1 && !group.looks.contains(look))
    }

    /// The body of the lookaround that starts at `body_start`, read again once per choice
    /// of strings for the groups opened inside it (after the first `n_groups`) that
    /// references inside it refer to: a group in a lookaround is chosen there, which
    /// matters when the lookaround is negated. The references are removed from the
    /// pattern-wide list.
    fn expand_inside(
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
    fn reread(
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
        again.pos = body_start;
        again.flags = flags;
        again.depth = self.depth + 1;
        again.levels = self.levels.clone();
        again.n_levels = self.n_levels;
        again.level_branches = self.level_branches.clone();
        again.looks = self.looks.clone();
        again.n_looks = self.n_looks;
        again.tracked = self.tracked.clone();
        again.groups = self.groups[..n_groups].to_vec();
        again.needs_text = self.needs_text.clone();
        let parsed = again.parse_alternation();
        if let Some(err) = again.over_budget.take() {
            self.over_budget = Some(err);
        }
        parsed
    }

    /// The lookbehind `(?<=body)` (`negated`: `(?<!body)`) whose body starts at
    /// `body_start`. Where references inside it read tracked groups from outside it (and
    /// from inside every lookbehind around it), the body is read again once per value of
    /// those groups, each reading behind tests that they hold those values: a lookbehind
    /// runs apart from the values carried along the rest.
    fn expand_behind(
        &mut self,
        body: Expr,
        negated: bool,
        body_start: usize,
        flags: Flags,
        n_groups: usize,
        n_behind: usize,
    ) -> Result<Expr, ParseError> {
        let enclosing = &self.looks[..self.looks.len() - 1];
        let (mut local, later): (Vec<u32>, Vec<u32>) =
            self.behind_refs[n_behind..].iter().partition(|&&number| {
                let group = &self.groups[number as usize - 1];
                !enclosing.iter().any(|look| !look.1 && !group.looks.contains(look))
            });
        self.behind_refs.truncate(n_behind);
        self.behind_refs.extend(later);
        if local.is_empty() {
            return Ok(Expr::look(false, negated, body));
        }
        local.sort_unstable();
        local.dedup();
        let span = body_start..self.pos;
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
            if choices.len().saturating_mul(options.len()) > MAX_BACKREF_CHOICES {
                return Err(self.unsupported(
                    format!(
                        "the values this lookbehind reads expand to more than \
                         {MAX_BACKREF_CHOICES} readings: too large"
                    ),
                    span,
                ));
            }
            choices = choices
                .iter()
                .flat_map(|(tests, bindings)| {
                    options.iter().map(move |(test, binding)| {
                        let mut bindings = bindings.clone();
                        bindings.insert(number, binding.clone());
                        let tests = tests.iter().cloned().chain([test.clone()]).collect();
                        (tests, bindings)
                    })
                })
                .collect();
        }
        let mut branches = Vec::with_capacity(choices.len());
        for (tests, bindings) in choices {
            let body = self.reread(body_start, flags, n_groups, bindings)?;
            branches.push(Expr::concat(
                tests.into_iter().chain([Expr::look(false, negated, body)]).collect(),
            ));
        }
        Ok(Expr::alt(branches))
    }

    /// Charges the character set of `atom` to the memory limit.
    fn charge(&mut self, atom: &Expr, start: usize) -> Result<(), ParseError> {
        let Expr::Set(set) = atom else { return Ok(()) };
        self.set_bytes = self.set_bytes.saturating_add(std::mem::size_of_val(set.ranges()));
        let ir_bytes = self.pattern.len().saturating_mul(IR_BYTES_PER_PATTERN_BYTE);
        match self.budget.check_memory(Operation::Parse, ir_bytes.saturating_add(self.set_bytes)) {
            Ok(()) => Ok(()),
            Err(err) => {
                self.over_budget = Some(err);
                Err(self.error("the memory limit ran out while parsing", start..self.pos))
            }
        }
    }

    fn parse_all(&mut self) -> Result<Expr, ParseError> {
        let expr = self.parse_alternation()?;
        if self.pos < self.pattern.len() {
            return Err(
                self.error("unopened group: this `)` closes nothing", self.pos..self.pos + 1)
            );
        }
        Ok(expr)
    }

    /// Skips whitespace and comments in verbose mode.
    /// Also skips `(?#...)` comments in the dialects that have them: they stand between a
    /// quantifier and its atom unseen (`a(?#c)*` is `a*` in Python and Perl).
    fn skip_verbose(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() && self.flags.verbose => self.pos += c.len_utf8(),
                Some('#') if self.flags.verbose => {
                    self.pos =
                        self.rest().find('\n').map_or(self.pattern.len(), |end| self.pos + end + 1);
                }
                Some('(') if self.rest().starts_with("(?#") && self.has_comments() => {
                    // An unclosed one is left to `group_kind`, which says so.
                    let Some(end) = self.rest().find(')') else { return };
                    self.pos += end + 1;
                }
                _ => return,
            }
        }
    }

    /// Whether a quantifier after an anchor or word boundary is an error ("nothing to
    /// repeat"): Python, JavaScript and PCRE2 ("quantifier does not follow a repeatable
    /// item"; Perl reads it).
    fn strict_assertions(&self) -> bool {
        matches!(self.dialect, Dialect::Python | Dialect::Js | Dialect::Pcre)
    }

    /// Whether the dialect has `(?#...)` comments.
    fn has_comments(&self) -> bool {
        !matches!(self.dialect, Dialect::Js | Dialect::Java)
    }

    /// Branches up to the end of the group or the pattern.
    fn parse_alternation(&mut self) -> Result<Expr, ParseError> {
        let level = self.open_level();
        let saved = self.flags;
        let mut branches = vec![self.parse_concat()?];
        let mut chains = vec![std::mem::take(&mut self.java_chain)];
        while self.eat("|") {
            if let Some(last) = self.levels.last_mut() {
                last.1 += 1;
            }
            branches.push(self.parse_concat()?);
            chains.push(std::mem::take(&mut self.java_chain));
        }
        self.flags = saved;
        self.close_level(level);
        self.java_chain = match chains.len() {
            1 => chains.pop().unwrap_or_default(),
            _ => vec![Piece::Branch(chains)],
        };
        Ok(Expr::alt(branches))
    }

    /// Opens a new group level (an alternation): its id.
    fn open_level(&mut self) -> usize {
        let level = self.n_levels;
        self.n_levels += 1;
        self.levels.push((level, 0));
        self.level_branches.resize(self.n_levels, 0);
        level
    }

    /// Closes the innermost level, recording how many branches it had.
    fn close_level(&mut self, level: usize) {
        if let Some((_, branch)) = self.levels.pop() {
            self.level_branches[level] = branch + 1;
        }
    }

    fn parse_concat(&mut self) -> Result<Expr, ParseError> {
        let mut parts = Vec::new();
        let mut chain = Vec::new();
        loop {
            self.skip_verbose();
            match self.peek() {
                None | Some('|') | Some(')') => {
                    self.java_chain = chain;
                    return Ok(Expr::concat(parts));
                }
                Some('\\')
                    if self.rest().starts_with("\\Q")
                        && matches!(
                            self.dialect,
                            Dialect::Java | Dialect::Pcre | Dialect::Rust
                        ) =>
                {
                    // Quoted text: literals, a quantifier after it applies to the last one.
                    self.pos += 2;
                    let end =
                        self.rest().find("\\E").map_or(self.pattern.len(), |end| self.pos + end);
                    let text = &self.pattern[self.pos..end];
                    self.pos = (end + 2).min(self.pattern.len());
                    let ctx = self.ctx();
                    let mut chars: Vec<Expr> = text
                        .chars()
                        .map(|c| Expr::set(class::fold(CharSet::singleton(c), ctx)))
                        .collect();
                    if let Some(last) = chars.pop() {
                        chain.extend(chars.iter().map(|_| Piece::Width { min: 1, max: 1 }));
                        parts.extend(chars);
                        let n_groups = self.groups.len();
                        let loops = self.java_empty_loops;
                        parts.push(self.parse_quantifiers(last, end, n_groups, loops)?);
                        chain.append(&mut self.java_pieces);
                    }
                }
                Some(_) => {
                    let start = self.pos;
                    let (n_groups, loops) = (self.groups.len(), self.java_empty_loops);
                    let atom = self.parse_atom()?;
                    self.charge(&atom, start)?;
                    let piece = self.parse_quantifiers(atom, start, n_groups, loops)?;
                    parts.push(piece);
                    chain.append(&mut self.java_pieces);
                }
            }
        }
    }

    /// A quantifier at the current position: (min, max, bytes), if one starts here.
    fn quantifier(&self) -> Option<(u32, Option<u32>, usize)> {
        let rest = self.rest();
        match rest.chars().next()? {
            '*' => Some((0, None, 1)),
            '+' => Some((1, None, 1)),
            '?' => Some((0, Some(1), 1)),
            '{' => {
                let close = rest.find('}')?;
                let inner = &rest[1..close];
                let number = |text: &str| -> Option<Option<u32>> {
                    if text.is_empty() {
                        return Some(None);
                    }
                    if !text.bytes().all(|b| b.is_ascii_digit()) {
                        return None;
                    }
                    Some(Some(text.parse().unwrap_or(u32::MAX)))
                };
                let (min, max) = match inner.split_once(',') {
                    None => {
                        let exact = number(inner)??;
                        (Some(exact), Some(exact))
                    }
                    Some((min, max)) => (number(min.trim())?, number(max.trim())?),
                };
                let min = match (min, self.dialect) {
                    (Some(min), _) => min,
                    // `{,n}`: up to n in Python, PCRE2 and here; text in JavaScript and Java.
                    (None, Dialect::Python | Dialect::Pcre | Dialect::Rust) if max.is_some() => 0,
                    _ => return None,
                };
                Some((min, max, close + 1))
            }
            _ => None,
        }
    }

    /// PCRE's `{,n}` where nothing can be repeated: text, as Perl and PCRE2 read it.
    fn pcre_text_brace(&self) -> bool {
        self.dialect == Dialect::Pcre && self.rest().starts_with("{,")
    }

    /// The quantifiers after `atom` (which starts at `start`, after the first `n_groups`
    /// groups and `java_loops` of [`Parser::java_empty_loops`]).
    fn parse_quantifiers(
        &mut self,
        atom: Expr,
        start: usize,
        n_groups: usize,
        java_loops: usize,
    ) -> Result<Expr, ParseError> {
        let mut java =
            Some(self.java_atom.take().unwrap_or_else(|| java::Atom::of(&atom, max_width(&atom))));
        let mut expr = atom;
        let mut n_quantifiers = 0;
        let capture = self.last_capture.take();
        let unquantifiable = std::mem::take(&mut self.unquantifiable);
        loop {
            self.skip_verbose();
            let Some((min, max, len)) = self.quantifier() else {
                if let Some(atom) = java {
                    self.java_pieces = atom.pieces();
                }
                return Ok(expr);
            };
            // Java reads a counted quantifier after a quantifier as repeating nothing.
            if n_quantifiers > 0 && self.dialect == Dialect::Java && self.rest().starts_with('{') {
                return Ok(expr);
            }
            let quantifier_start = self.pos;
            // Java repeats nothing after a flag group with braces: `(?i){2}a` is `(?i)a`.
            let java_braces = self.dialect == Dialect::Java && self.rest().starts_with('{');
            if unquantifiable && self.pcre_text_brace() {
                return Ok(expr);
            }
            if unquantifiable && !java_braces {
                return Err(self.error(
                    format!(
                        "nothing to repeat: an assertion cannot be repeated in {}",
                        self.dialect
                    ),
                    quantifier_start..quantifier_start + len,
                ));
            }
            if n_quantifiers > 0 && self.dialect != Dialect::Rust {
                return Err(self.error(
                    "multiple repeat: a quantifier cannot follow a quantifier",
                    quantifier_start..quantifier_start + len,
                ));
            }
            self.pos += len;
            if max.is_some_and(|max| max < min) {
                return Err(self.error(
                    "invalid repetition: the minimum is above the maximum",
                    quantifier_start..self.pos,
                ));
            }
            let mut greedy = !self.flags.swap_greed;
            let possessive = if self.eat("?") {
                greedy = !greedy;
                false
            } else if self.rest().starts_with('+') {
                if self.dialect == Dialect::Js {
                    return Err(self.error(
                        "nothing to repeat: possessive quantifiers are not JavaScript",
                        self.pos..self.pos + 1,
                    ));
                }
                self.pos += 1;
                true
            } else {
                false
            };
            let mut java_loop = false;
            if let Some(atom) = java.take() {
                java_loop = self.dialect == Dialect::Java && atom.loops(min, max, possessive);
                self.java_pieces = atom.quantified(min, max, greedy, possessive);
            }
            // `(...)?` matches once or not at all: a reading decides which.
            let optional = capture.filter(|_| n_quantifiers == 0 && (min, max) == (0, Some(1)));
            if (min, max) != (1, Some(1)) {
                for (idx, group) in self.groups[n_groups..].iter_mut().enumerate() {
                    if optional == Some((n_groups + idx + 1) as u32) {
                        group.optional = true;
                    } else {
                        group.varies = true;
                    }
                }
            }
            let taken = optional.and_then(|number| self.bindings.get(&number));
            if matches!(taken, Some(Binding::Set | Binding::Text(_))) && !possessive {
                n_quantifiers += 1;
                continue;
            }
            let repeat = if java_loop && !capture::empty(&expr).is_fail() {
                self.java_empty_loops += 1;
                java::loop_repeat(&expr, min, max, greedy)
            } else if expr.sets_capture() && !possessive {
                // Java's `(X)?` is no loop: it keeps the group's empty match.
                let group_of_empty = capture.is_some()
                    && n_quantifiers == 0
                    && (min, max) != (0, Some(1))
                    && expr.is_zero_width();
                self.repeat_capturing(expr, n_groups, min, max, greedy, group_of_empty)
            } else {
                Expr::Repeat { sub: Box::new(expr), min, max, greedy }
            };
            expr = if possessive {
                self.groups[n_groups..].iter_mut().for_each(|group| group.in_atomic = true);
                self.atomic(repeat, "possessive quantifier", start..self.pos, java_loops)?
            } else {
                repeat
            };
            n_quantifiers += 1;
        }
    }

    /// `sub{min,max}` where `sub` (whose groups are those after the first `n_groups`)
    /// sets captured values, under the dialect's iteration rules (`capture.rs`).
    /// `group_of_empty`: `sub` is a capturing group that only matches "", which Java
    /// repeats without keeping an iteration past the minimum (its `GroupCurly`).
    fn repeat_capturing(
        &self,
        sub: Expr,
        n_groups: usize,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        group_of_empty: bool,
    ) -> Expr {
        let js = self.dialect == Dialect::Js;
        let resets = if js {
            (n_groups as u32 + 1..=self.groups.len() as u32)
                .filter(|number| self.tracked.contains(number))
                .map(|number| capture::set(number, None))
                .collect()
        } else {
            Vec::new()
        };
        let drops_empty = js || group_of_empty && self.dialect == Dialect::Java;
        capture::repeat(sub, min, max, greedy, resets, !drops_empty)
    }

    fn parse_atom(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        let Some(c) = self.peek() else { return Ok(Expr::Empty) };
        match c {
            '(' => self.parse_group(),
            '[' => {
                let (set, len) =
                    class::bracket(self.rest(), self.ctx()).map_err(|(message, span)| {
                        self.error(message, start + span.start..start + span.end)
                    })?;
                self.pos += len;
                Ok(Expr::set(set))
            }
            '.' => {
                self.pos += 1;
                Ok(Expr::set(class::dot(self.ctx())))
            }
            '^' => {
                self.pos += 1;
                self.unquantifiable = self.strict_assertions();
                Ok(self.start_anchor(self.flags.multi_line))
            }
            '$' => {
                self.pos += 1;
                self.unquantifiable = self.strict_assertions();
                Ok(self.end_anchor(
                    self.flags.multi_line,
                    self.dialect != Dialect::Rust && self.dialect != Dialect::Js,
                ))
            }
            '*' | '+' | '?' => {
                Err(self.error("repetition operator missing expression", start..start + 1))
            }
            // Java repeats nothing: `{1}a` is `a`.
            '{' if self.quantifier().is_some() && self.dialect == Dialect::Java => Ok(Expr::Empty),
            '{' if self.quantifier().is_some() && !self.pcre_text_brace() => {
                Err(self.error("repetition operator missing expression", start..start + 1))
            }
            '{' if self.dialect == Dialect::Java => Err(self.error(
                "illegal repetition: `{` must start a quantifier in Java",
                start..start + 1,
            )),
            '\\' => self.parse_escape(),
            c => {
                self.pos += c.len_utf8();
                Ok(Expr::set(class::fold(CharSet::singleton(c), self.ctx())))
            }
        }
    }

    /// `^` (or `\A`, `multi_line` false): no character before, or a line terminator.
    ///
    /// Under multi-line, Java's never holds at the end of the input nor inside `\r\n`, and
    /// PCRE's not after a newline that ends the input (`^` of an empty input holds).
    fn start_anchor(&self, multi_line: bool) -> Expr {
        let full = || Expr::set(CharSet::full());
        if !multi_line {
            return Expr::look(false, true, full());
        }
        let after_line =
            Expr::look(false, true, Expr::set(class::line_terminators(self.dialect).complement()));
        let not_at_end = Expr::look(true, false, full());
        match self.dialect {
            Dialect::Java => Expr::concat(vec![after_line, not_at_end, not_inside_crlf()]),
            Dialect::Pcre => Expr::concat(vec![
                after_line,
                Expr::alt(vec![Expr::look(false, true, full()), not_at_end]),
            ]),
            _ => after_line,
        }
    }

    /// `$` (or `\z`, both false): the end, or before a line terminator under multi-line
    /// (not inside `\r\n` in Java), or also before a final newline (`final_newline`:
    /// Python, Java and PCRE without multi-line).
    fn end_anchor(&self, multi_line: bool, final_newline: bool) -> Expr {
        let terminators = class::line_terminators(self.dialect);
        if multi_line {
            let before_line = Expr::look(true, true, Expr::set(terminators.complement()));
            if self.dialect == Dialect::Java {
                return Expr::concat(vec![before_line, not_inside_crlf()]);
            }
            return before_line;
        }
        if !final_newline {
            return Expr::look(true, true, Expr::set(CharSet::full()));
        }
        // Nothing left but one final line terminator (`\r\n` too in Java).
        let mut finals = vec![
            Expr::Empty,
            Expr::set(if self.dialect == Dialect::Java {
                terminators
            } else {
                CharSet::singleton('\n')
            }),
        ];
        if self.dialect == Dialect::Java {
            finals.push(Expr::literal("\r\n"));
        }
        let end = Expr::look(true, true, Expr::set(CharSet::full()));
        Expr::look(true, false, Expr::concat(vec![Expr::alt(finals), end]))
    }

    /// `\b` (`negated`: `\B`), or with `side` Some(true) the start of a word `\<`, Some(false)
    /// its end `\>`.
    fn word_boundary(&self, negated: bool, side: Option<bool>) -> Expr {
        let (word_before, word_after) = self.word_sides();
        let behind = |is_word: bool| Expr::look(false, !is_word, word_before.clone());
        let ahead = |is_word: bool| Expr::look(true, !is_word, word_after.clone());
        let pair = |before: bool, after: bool| Expr::concat(vec![behind(before), ahead(after)]);
        match side {
            Some(true) => pair(false, true),
            Some(false) => pair(true, false),
            // Python's `\B` never matches in the empty string (before Python 3.14).
            None if negated && self.dialect == Dialect::Python => Expr::concat(vec![
                Expr::alt(vec![pair(true, true), pair(false, false)]),
                Expr::alt(vec![
                    Expr::look(false, false, Expr::set(CharSet::full())),
                    Expr::look(true, false, Expr::set(CharSet::full())),
                ]),
            ]),
            None if negated => Expr::alt(vec![pair(true, true), pair(false, false)]),
            None => Expr::alt(vec![pair(true, false), pair(false, true)]),
        }
    }

    /// The bodies of a lookbehind and a lookahead that hold where the character before
    /// (after) is a word character for `\b`. In Java a non-spacing mark counts as one where
    /// the marks before it follow a letter or digit (`Pattern.Bound`'s
    /// `hasBaseCharacter`): `W|L M+` behind, `W|(?<=L M*)M` ahead.
    fn word_sides(&self) -> (Expr, Expr) {
        let word = Expr::set(class::boundary_word(self.ctx()));
        if self.dialect != Dialect::Java || self.flags.unicode_classes {
            return (word.clone(), word);
        }
        let base = class::rust_set(r"[\p{L}\p{Nd}]").unwrap_or_default();
        let mark = class::rust_set(r"\p{Mn}").unwrap_or_default();
        let marks = |min| Expr::repeat(Expr::set(mark.clone()), min, None);
        let after_base = |min| Expr::concat(vec![Expr::set(base.clone()), marks(min)]);
        let before = Expr::alt(vec![word.clone(), after_base(1)]);
        let marked = Expr::concat(vec![Expr::look(false, false, after_base(0)), Expr::set(mark)]);
        (before, Expr::alt(vec![word, marked]))
    }

    fn parse_escape(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(self.error(
                "incomplete escape sequence: a pattern cannot end with `\\`",
                start..start + 1,
            ));
        };
        let dialect = self.dialect;
        let not_js = dialect != Dialect::Js;
        let here = start..start + 1 + c.len_utf8();
        let assertion = match c {
            // PCRE2 (and Perl) read `\b{...}` as a bound type, and know none of ours.
            'b' | 'B' if dialect == Dialect::Pcre && self.rest()[1..].starts_with('{') => {
                return Err(self.error(r"unknown bound type: \b{...} is not read", here));
            }
            'b' => Some(self.word_boundary(false, None)),
            'B' => Some(self.word_boundary(true, None)),
            '<' if dialect == Dialect::Rust => Some(self.word_boundary(false, Some(true))),
            '>' if dialect == Dialect::Rust => Some(self.word_boundary(false, Some(false))),
            'A' if not_js => Some(self.start_anchor(false)),
            'z' if not_js && dialect != Dialect::Python => Some(self.end_anchor(false, false)),
            'Z' if dialect == Dialect::Python => Some(self.end_anchor(false, false)),
            'Z' if matches!(dialect, Dialect::Java | Dialect::Pcre) => {
                Some(self.end_anchor(false, true))
            }
            'Z' if dialect == Dialect::Rust => {
                return Err(self.unsupported(
                    "\\Z is the very end in Python but also before a final newline in Java and PCRE: \
                     use \\z, or give the pattern's dialect",
                    here,
                ));
            }
            // `\K` drops what matched so far from the reported match, not from the
            // match: under full match it is "" (PCRE2 refuses it inside lookarounds).
            'K' if dialect == Dialect::Pcre && self.looks.is_empty() => Some(Expr::Empty),
            'G' | 'K' | 'X' if matches!(dialect, Dialect::Java | Dialect::Pcre) => {
                return Err(self.unsupported(format!("\\{c} is not supported"), here));
            }
            _ => None,
        };
        if let Some(expr) = assertion {
            self.pos += c.len_utf8();
            self.unquantifiable = self.strict_assertions();
            return Ok(expr);
        }
        if c == 'R' && matches!(dialect, Dialect::Java | Dialect::Pcre) {
            self.pos += 1;
            self.java_atom = Some(java::Atom::Width { min: 1, max: 2 });
            let single = CharSet::from_ranges([
                ('\n', '\r'),
                ('\u{85}', '\u{85}'),
                ('\u{2028}', '\u{2029}'),
            ]);
            return Ok(Expr::alt(vec![Expr::literal("\r\n"), Expr::set(single)]));
        }
        if c == 'N' && dialect == Dialect::Python && self.rest()[1..].starts_with('{') {
            let end = self.rest().find('}').map_or(self.pattern.len(), |end| self.pos + end + 1);
            return Err(self.unsupported(
                "\\N{...} named characters are not supported yet: write the character or \\u",
                start..end,
            ));
        }
        // Without named groups, JavaScript's `\k` is the letter (Annex B).
        if c == 'k' && (not_js || self.js_groups.1) {
            return self.named_backref(start);
        }
        if c == 'g' && dialect == Dialect::Pcre {
            return self.pcre_g_reference(start);
        }
        if c.is_ascii_digit()
            && let Some(expr) = self.digit_escape(start)?
        {
            return Ok(expr);
        }
        let (atom, len) =
            class::escape(self.rest(), self.ctx(), false).map_err(|(message, span)| {
                self.error(message, self.pos + span.start..self.pos + span.end)
            })?;
        self.pos += len;
        Ok(Expr::set(class::fold(atom.into_set(), self.ctx())))
    }

    /// `\1`..`\99` or an octal escape, by the dialect's rules; `None` leaves it to
    /// `class.rs` (which refuses it).
    fn digit_escape(&mut self, start: usize) -> Result<Option<Expr>, ParseError> {
        let rest = self.rest();
        let digits: &str = &rest[..rest.bytes().take_while(u8::is_ascii_digit).count()];
        let octal_len = digits.bytes().take(3).take_while(|b| (b'0'..=b'7').contains(b)).count();
        let ctx = self.ctx();
        let literal = |c: char| Expr::set(class::fold(CharSet::singleton(c), ctx));
        let octal = |len: usize| -> Option<Expr> {
            let value = u32::from_str_radix(&digits[..len], 8).ok()?;
            Some(literal(char::from_u32(value)?))
        };
        if let Some(after_zero) = digits.strip_prefix('0') {
            let len = match self.dialect {
                // Java: \0n, \0nn, \0mnn.
                Dialect::Java => {
                    let more = after_zero
                        .bytes()
                        .take(3)
                        .take_while(|b| (b'0'..=b'7').contains(b))
                        .count();
                    let more = if more == 3 && digits.as_bytes()[1] > b'3' { 2 } else { more };
                    if more == 0 {
                        return Err(self.error(
                            "illegal octal escape: \\0 needs an octal digit in Java",
                            start..start + 2,
                        ));
                    }
                    self.pos += 1 + more;
                    let value = u32::from_str_radix(&after_zero[..more], 8).unwrap_or(0);
                    return Ok(char::from_u32(value).map(literal));
                }
                _ => octal_len,
            };
            self.pos += len;
            return Ok(octal(len));
        }
        if self.dialect == Dialect::Js {
            return self.js_digit_escape(start, digits, octal_len).map(Some);
        }
        // Python reads three octal digits as octal; every dialect reads \1.. as a group.
        if self.dialect == Dialect::Python && octal_len == 3 {
            self.pos += 3;
            return Ok(octal(3));
        }
        if self.dialect == Dialect::Pcre {
            // PCRE2: a reference when under 10, starting with 8 or 9, or naming a group
            // before it; else octal.
            let number: u32 = digits.parse().unwrap_or(u32::MAX);
            if number >= 10 && octal_len > 0 && number as usize > self.groups.len() {
                self.pos += octal_len;
                return Ok(octal(octal_len));
            }
            self.pos += digits.len();
            return self.backref(number, start..self.pos).map(Some);
        }
        let max_digits = if self.dialect == Dialect::Java { digits.len() } else { 2 };
        // The longest prefix that names an existing group (Java, JS), else one digit;
        // Python's two digits name the group, whether it exists or not.
        let mut len = digits.len().min(max_digits);
        while len > 1
            && self.dialect != Dialect::Python
            && digits[..len].parse::<usize>().is_ok_and(|n| n > self.groups.len())
        {
            len -= 1;
        }
        let number: u32 = digits[..len].parse().unwrap_or(u32::MAX);
        if number as usize > self.groups.len() && self.dialect == Dialect::Js && octal_len > 0 {
            self.pos += octal_len;
            return Ok(octal(octal_len));
        }
        self.pos += len;
        self.backref(number, start..self.pos).map(Some)
    }

    /// ECMAScript's `\1`..: a backreference when the whole number is at most the count of
    /// groups in the pattern, else a legacy octal escape or (`\8`, `\9`) the digit itself
    /// (Annex B). A reference to a group that has not closed yet (later in the pattern, or
    /// the one it stands in) always matches "": captures inside a repetition are reset at
    /// each iteration, so the group cannot have matched before.
    fn js_digit_escape(
        &mut self,
        start: usize,
        digits: &str,
        octal_len: usize,
    ) -> Result<Expr, ParseError> {
        let number = digits.parse::<usize>().unwrap_or(usize::MAX);
        if number <= self.js_groups.0 {
            self.pos += digits.len();
            let closed = self.groups.get(number - 1).is_some_and(|group| group.closed);
            if !closed {
                let span = start..self.pos;
                return Ok(self
                    .js_behind_reference(number as u32, true, span)?
                    .unwrap_or(Expr::Empty));
            }
            return self.backref(number as u32, start..self.pos);
        }
        if octal_len == 0 {
            // `\8`, `\9`: an identity escape.
            self.pos += 1;
            return Ok(Expr::set(class::fold(
                CharSet::singleton(char::from(digits.as_bytes()[0])),
                self.ctx(),
            )));
        }
        // At most 0o377: three digits when the first is 0 to 3, else two.
        let len = if digits.as_bytes()[0] <= b'3' { octal_len } else { octal_len.min(2) };
        self.pos += len;
        let value = u32::from_str_radix(&digits[..len], 8).unwrap_or(0);
        Ok(char::from_u32(value).map_or_else(
            || Expr::set(CharSet::empty()),
            |c| Expr::set(class::fold(CharSet::singleton(c), self.ctx())),
        ))
    }

    /// `\k<name>`, `\k'name'` or `\k{name}`.
    fn named_backref(&mut self, start: usize) -> Result<Expr, ParseError> {
        self.pos += 1;
        let (open, close) = match self.peek() {
            Some('<') => ('<', '>'),
            Some('\'') => ('\'', '\''),
            Some('{') => ('{', '}'),
            _ => return Err(self.error("\\k needs a group name in <>, '' or {}", start..self.pos)),
        };
        self.pos += open.len_utf8();
        let end = self
            .rest()
            .find(close)
            .ok_or_else(|| self.error("unclosed group name", start..self.pattern.len()))?;
        let name = &self.pattern[self.pos..self.pos + end];
        self.pos += end + 1;
        self.backref_by_name(name, start..self.pos)
    }

    /// PCRE's `\g1`, `\g{1}`, `\g{-1}`, `\g{name}`; `\g<..>` is a subroutine call.
    fn pcre_g_reference(&mut self, start: usize) -> Result<Expr, ParseError> {
        self.pos += 1;
        let text = if self.eat("{") {
            let end = self
                .rest()
                .find('}')
                .ok_or_else(|| self.error("unclosed \\g{", start..self.pattern.len()))?;
            let text = &self.pattern[self.pos..self.pos + end];
            self.pos += end + 1;
            text
        } else if self.rest().starts_with(['<', '\'']) {
            return Err(self.unsupported("subroutine calls are not supported", start..start + 3));
        } else {
            // An optional sign, then digits: `\g1-` is `\g1` and a hyphen.
            let sign = usize::from(self.rest().starts_with(['-', '+']));
            let len = sign + self.rest()[sign..].bytes().take_while(u8::is_ascii_digit).count();
            let text = &self.pattern[self.pos..self.pos + len];
            self.pos += len;
            text
        };
        let span = start..self.pos;
        match text.parse::<i64>() {
            Ok(relative) if relative < 0 || text.starts_with('+') => {
                // `-1` is the last group opened, `+1` the next one.
                let number = self.groups.len() as i64 + relative + i64::from(relative < 0);
                self.backref(u32::try_from(number).unwrap_or(0), span)
            }
            Ok(number) => self.backref(u32::try_from(number).unwrap_or(0), span),
            Err(_) => self.backref_by_name(text, span),
        }
    }

    fn backref_by_name(
        &mut self,
        name: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Expr, ParseError> {
        let mut found =
            self.groups.iter().enumerate().filter(|(_, group)| group.name.as_deref() == Some(name));
        match (found.next(), found.next()) {
            (Some((idx, _)), None) => self.backref(idx as u32 + 1, span),
            (Some(_), Some(_)) => Err(self.unsupported(
                format!("a backreference to the duplicate group name `{name}` is ambiguous"),
                span,
            )),
            (None, _) => Err(self.error(format!("unknown group name `{name}`"), span)),
        }
    }

    /// A reference to group `number`: checked and recorded (first pass), or read as the
    /// group's bound string or from the automaton's state (second pass).
    fn backref(&mut self, number: u32, span: std::ops::Range<usize>) -> Result<Expr, ParseError> {
        self.java_atom = Some(java::Atom::Reference);
        // Java and PCRE compile a reference to a group that has not closed (PCRE: that
        // exists, Java: or not); it fails but where a repetition holds both, which
        // `Parser::check_open_references` refuses once the pattern is read.
        let open =
            number == 0 || self.groups.get(number as usize - 1).is_none_or(|group| !group.closed);
        self.check_reference_behind(number, open, span.clone())?;
        if matches!(self.dialect, Dialect::Java | Dialect::Pcre) && number > 0 && open {
            self.open_refs.push((number, span, false));
            return Ok(Expr::set(CharSet::empty()));
        }
        if self.dialect == Dialect::Js
            && let Some(reversed) = self.js_behind_reference(number, open, span.clone())?
        {
            return Ok(reversed);
        }
        // JavaScript: a group that has not closed has no value here (a repetition holding
        // both clears it at each iteration).
        if self.dialect == Dialect::Js && number > 0 && open {
            return Ok(Expr::Empty);
        }
        match self.bindings.get(&number) {
            Some(Binding::Text(text)) => return Ok(self.folded(text)),
            // A group that did not take part: JavaScript matches "", the others fail.
            Some(Binding::Unset) => return Ok(self.unset_reference(number)),
            Some(Binding::Set) | None => {}
        }
        let group = self.closed_group(number, span.clone())?;
        if let Some(why) = &group.value_error {
            return Err(self.unsupported(why, span));
        }
        let in_behind = self.looks.iter().any(|&(_, ahead)| !ahead);
        // Stands for the reference until it is read: as wide as the group inside a
        // lookbehind, for the checks of its width.
        let width = if in_behind { group.width.unwrap_or(0) } else { 0 };
        let placeholder = Expr::concat(vec![Expr::set(CharSet::full()); width as usize]);
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
        if self.needs_reading(group) {
            once?;
            self.backrefs.push(number);
        } else {
            self.tracked_refs.push((number, once.err()));
        }
        self.needs_text.push(number);
        self.mark_enclosing_groups();
        Ok(placeholder)
    }

    /// The engines' limits on a reference to group `number` (`open`: not closed here)
    /// inside a lookbehind: Java takes none, Python only to a closed group whose strings
    /// have one length; PCRE2 takes such ones but Perl none, so PCRE's are not read.
    fn check_reference_behind(
        &self,
        number: u32,
        open: bool,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        if !self.looks.iter().any(|&(_, ahead)| !ahead) {
            return Ok(());
        }
        // Java measures a lookbehind without the lookaheads inside it.
        if self.dialect == Dialect::Java && self.looks.last().is_some_and(|&(_, ahead)| !ahead) {
            return Err(self.error(
                "Look-behind group does not have an obvious maximum length: Java takes no \
                 backreference in a lookbehind",
                span,
            ));
        }
        if self.dialect == Dialect::Pcre {
            return Err(self.unsupported(
                "a backreference in a lookbehind is not supported in PCRE (PCRE2 takes one to \
                 a group of one length, Perl none)",
                span,
            ));
        }
        self.check_python_behind(number, open, span.clone())?;
        let fixed = !open && self.groups[number as usize - 1].width.is_some();
        if self.dialect == Dialect::Python && !fixed {
            return Err(self.error(
                "look-behind requires fixed-width pattern: a backreference in a lookbehind \
                 must refer to a closed group whose strings have one length",
                span,
            ));
        }
        Ok(())
    }

    /// A JavaScript reference inside a lookbehind that also holds its group: a lookbehind
    /// matches right to left, so a group left of the reference is captured after it (the
    /// reference matches ""), and one right of it before (refused). `None` elsewhere.
    fn js_behind_reference(
        &self,
        number: u32,
        open: bool,
        span: std::ops::Range<usize>,
    ) -> Result<Option<Expr>, ParseError> {
        if !self.looks.iter().any(|&(_, ahead)| !ahead) {
            return Ok(None);
        }
        let refused = || {
            self.unsupported(
                "a JavaScript reference inside a lookbehind to a group right of it is not \
                 supported (a lookbehind matches right to left)",
                span.clone(),
            )
        };
        let Some(group) = (number as usize).checked_sub(1).and_then(|idx| self.groups.get(idx))
        else {
            return Err(refused());
        };
        let common = group.looks.iter().zip(&self.looks).take_while(|(a, b)| a == b).count();
        match common.checked_sub(1).map(|idx| self.looks[idx]) {
            Some((_, false)) if open => Err(refused()),
            Some((_, false)) => Ok(Some(Expr::Empty)),
            _ => Ok(None),
        }
    }

    /// Python's rule for a reference or conditional inside a lookbehind: its group
    /// (`open`: not closed here) must have closed before the lookbehind began.
    fn check_python_behind(
        &self,
        number: u32,
        open: bool,
        span: std::ops::Range<usize>,
    ) -> Result<(), ParseError> {
        if self.dialect != Dialect::Python || !self.looks.iter().any(|&(_, ahead)| !ahead) {
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
    fn mark_enclosing_groups(&mut self) {
        for group in self.groups.iter_mut().filter(|group| !group.closed) {
            group.holds_reference = true;
        }
    }

    /// What a backreference matches where its group captured `text`, under the flags in
    /// force.
    fn folded(&self, text: &str) -> Expr {
        let ctx = self.ctx();
        Expr::concat(text.chars().map(|c| Expr::set(case::fold_captured(c, ctx))).collect())
    }

    /// A reference to group `number` where it did not take part: "" in JavaScript, else
    /// no match, as wide as the group (for Python's check of a lookbehind's width).
    fn unset_reference(&self, number: u32) -> Expr {
        if self.dialect == Dialect::Js {
            return Expr::Empty;
        }
        let fail = Expr::set(CharSet::empty());
        match self.groups[number as usize - 1].width {
            Some(0) => Expr::look(true, false, fail),
            width => Expr::concat(vec![fail; width.unwrap_or(1) as usize]),
        }
    }

    /// A reference to tracked group `number` (second pass): a branch per string the group
    /// may hold, testing that it holds it, and one for no value.
    fn read_value(&self, number: u32) -> Expr {
        let group = &self.groups[number as usize - 1];
        let mut branches: Vec<Expr> = group
            .values
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

    /// A test that tracked group `number` holds a value (second pass).
    fn holds_value(&self, number: u32) -> Expr {
        if !self.needs_text.contains(&number) {
            return capture::test(number, Some(0));
        }
        let n_values = self.groups[number as usize - 1].values.len() as u32;
        Expr::alt((0..n_values).map(|idx| capture::test(number, Some(idx))).collect())
    }

    /// Group `number`, which a reference or conditional at `span` refers to: it exists and
    /// has closed.
    fn closed_group(
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
    fn matches_once(&self, group: &Group, span: std::ops::Range<usize>) -> Result<(), ParseError> {
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
    fn parse_conditional(&mut self, start: usize, number: u32) -> Result<Expr, ParseError> {
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
        let mut reads = false;
        if binding.is_none() && !tracked {
            let once = self.matches_once(group, span);
            if self.needs_reading(group) {
                once?;
                reads = true;
            } else {
                self.tracked_refs.push((number, once.err()));
            }
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
            None => {
                if reads {
                    self.backrefs.push(number);
                }
                Expr::alt(vec![yes, no])
            }
        })
    }

    /// A conditional on group `number`, which has not closed here (it opens later, or holds
    /// the conditional): it tests the value the group carries from an earlier iteration, if
    /// any (Python and PCRE compile it; `check_open_references` checks the group exists).
    fn open_conditional(&mut self, start: usize, number: u32) -> Result<Expr, ParseError> {
        let span = start..self.pos;
        if self.tracked.contains(&number) {
            if self.needs_text.contains(&number) {
                return Err(self.unsupported(
                    "a conditional on a group that has not closed, which a backreference also \
                     reads, is not supported",
                    span,
                ));
            }
            let (yes, no) = self.parse_branches(start)?;
            return Ok(Expr::alt(vec![
                Expr::concat(vec![capture::test(number, Some(0)), yes]),
                Expr::concat(vec![capture::test(number, None), no]),
            ]));
        }
        let tracked = self.unsupported("the group has not closed here", span.clone());
        self.tracked_refs.push((number, Some(tracked)));
        self.open_refs.push((number, span, true));
        self.mark_enclosing_groups();
        let (yes, no) = self.parse_branches(start)?;
        Ok(Expr::alt(vec![yes, no]))
    }

    /// The exact translation of `(?>body)` (`atomic.rs`), or an error naming `what` and
    /// why it is not read.
    fn atomic(
        &mut self,
        body: Expr,
        what: &str,
        span: std::ops::Range<usize>,
        java_loops: usize,
    ) -> Result<Expr, ParseError> {
        if self.java_empty_loops > java_loops {
            return Err(self.unsupported(
                format!(
                    "{what} not supported yet: it holds a Java loop whose body may match \"\", \
                     which ends the loop (no rule orders such a loop's matches)"
                ),
                span,
            ));
        }
        atomic::atomic(body, self.budget).map_err(|refusal| match refusal {
            Refusal::Unsupported(why) => {
                self.unsupported(format!("{what} not supported yet: {why}"), span)
            }
            Refusal::Budget(err) => {
                self.over_budget = Some(err);
                self.error(format!("the budget ran out reading this {what}"), span)
            }
        })
    }

    /// The `yes|no` branches of a conditional, up to its closing parenthesis.
    fn parse_branches(&mut self, start: usize) -> Result<(Expr, Expr), ParseError> {
        let saved = self.flags;
        self.depth += 1;
        let level = self.open_level();
        let yes = self.parse_concat()?;
        let no = if self.eat("|") {
            if let Some(last) = self.levels.last_mut() {
                last.1 += 1;
            }
            self.parse_concat()?
        } else {
            Expr::Empty
        };
        self.close_level(level);
        self.depth -= 1;
        self.flags = saved;
        if self.peek() == Some('|') {
            return Err(self.error("a conditional has at most two branches", start..self.pos + 1));
        }
        if !self.eat(")") {
            return Err(self.error("unclosed group", start..start + 1));
        }
        Ok((yes, no))
    }

    /// `(?(?=X)yes|no)` and the other lookarounds as conditions: `(?=X)yes|(?!X)no`.
    fn parse_look_conditional(&mut self, start: usize) -> Result<Expr, ParseError> {
        let Expr::Look(look) = self.parse_group()? else {
            return Err(self.error("a conditional needs a condition", start..self.pos));
        };
        let (yes, no) = self.parse_branches(start)?;
        let otherwise = Expr::look(look.ahead, !look.negated, (*look.body).clone());
        Ok(Expr::alt(vec![
            Expr::concat(vec![Expr::Look(look), yes]),
            Expr::concat(vec![otherwise, no]),
        ]))
    }

    fn parse_group(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        self.pos += 1;
        if self.depth >= NEST_LIMIT {
            return Err(self.error(
                "nest limit exceeded: the pattern nests groups too deeply",
                start..start + 1,
            ));
        }
        // Each arm is its own function returning directly: this frame is on the stack
        // once per nesting level.
        match self.group_kind(start)? {
            GroupKind::Flags => {
                // Nothing to repeat: Python, Java and PCRE refuse `(?i)*`.
                self.unquantifiable = true;
                Ok(Expr::Empty)
            }
            GroupKind::Reference(expr) => Ok(expr),
            GroupKind::Conditional(number) => self.parse_conditional(start, number),
            GroupKind::LookConditional => self.parse_look_conditional(start),
            GroupKind::Plain(saved) => self.parse_plain(start, saved),
            GroupKind::Atomic => self.parse_atomic_group(start),
            GroupKind::Capture(name) => self.parse_capture(start, name),
            GroupKind::Look { ahead, negated } => self.parse_look(start, ahead, negated),
        }
    }

    /// The body of a non-capturing group; its flags end with it.
    fn parse_plain(&mut self, start: usize, saved: Flags) -> Result<Expr, ParseError> {
        let body = self.parse_group_body(start)?;
        self.java_atom = Some(java::Atom::Group(std::mem::take(&mut self.java_chain)));
        self.flags = saved;
        Ok(body)
    }

    /// The body of a lookaround and its closing parenthesis (kept out of `parse_group`,
    /// whose frame is on the stack once per nesting level).
    fn parse_look(&mut self, start: usize, ahead: bool, negated: bool) -> Result<Expr, ParseError> {
        let n_groups = self.groups.len();
        let (body_start, flags) = (self.pos, self.flags);
        let (n_backrefs, n_behind) = (self.backrefs.len(), self.behind_refs.len());
        self.looks.push((self.n_looks, ahead));
        self.n_looks += 1;
        let body = self.parse_group_body(start);
        let chain = std::mem::take(&mut self.java_chain);
        let body =
            body.and_then(|body| self.expand_inside(body, body_start, flags, n_groups, n_backrefs));
        let look = body.and_then(|body| {
            if ahead {
                return Ok(Expr::look(true, negated, body));
            }
            let window = self.check_behind(&body, &chain, start)?;
            let look = self.expand_behind(body, negated, body_start, flags, n_groups, n_behind)?;
            Ok(match window {
                java::Window::After(after) => java::behind_after(look, negated, after),
                java::Window::Never if negated => Expr::Empty,
                java::Window::Never => Expr::set(CharSet::empty()),
                java::Window::Whole | java::Window::Shorter(_) => look,
            })
        });
        self.looks.pop();
        let look = look?;
        self.java_atom = Some(java::Atom::Zero);
        // A lookaround is atomic in backtracking engines: the values it keeps are those of
        // its body's first match, not of any match, so no reading per choice serves them.
        for group in &mut self.groups[n_groups..] {
            group.varies = true;
        }
        self.unquantifiable = !ahead && self.dialect == Dialect::Js;
        Ok(look)
    }

    /// Java's, PCRE's and Python's limits on a lookbehind's body (which `start` opens, and
    /// which Java compiles to `chain`), and where Java tries it.
    fn check_behind(
        &self,
        body: &Expr,
        chain: &[Piece],
        start: usize,
    ) -> Result<java::Window, ParseError> {
        if self.dialect == Dialect::Java {
            let study = java::study(chain);
            if !study.max_valid {
                return Err(self.error(
                    "Look-behind group does not have an obvious maximum length: Java's \
                     maximum of the body is unbounded or overflows (a group repeated without \
                     bound, a backreference, or a lazy or counted repetition past 2^31-1)",
                    start..self.pos,
                ));
            }
            let window = java::window(&study, max_width(body));
            if let java::Window::Shorter(max) = window {
                return Err(self.unsupported(
                    format!(
                        "a Java lookbehind that tries only its body's strings of at most {max} \
                         characters (Java's maximum wrapped around 2^31) is not supported"
                    ),
                    start..self.pos,
                ));
            }
            return Ok(window);
        }
        if self.dialect == Dialect::Pcre && max_width(body).is_none_or(|width| width > 255) {
            return Err(self.error(
                "lookbehind assertion is not fixed length: PCRE's lookbehind body must match \
                 strings of at most 255 characters",
                start..self.pos,
            ));
        }
        if self.dialect == Dialect::Python && fixed_width(body).is_none() {
            return Err(self.error(
                "look-behind requires fixed-width pattern: Python's lookbehind body \
                     must match strings of one length",
                start..self.pos,
            ));
        }
        Ok(java::Window::Whole)
    }

    /// The body of an atomic group and its closing parenthesis, translated.
    fn parse_atomic_group(&mut self, start: usize) -> Result<Expr, ParseError> {
        let (n_groups, loops) = (self.groups.len(), self.java_empty_loops);
        let body = self.parse_group_body(start)?;
        self.java_atom = Some(java::Atom::Independent(std::mem::take(&mut self.java_chain)));
        self.groups[n_groups..].iter_mut().for_each(|group| group.in_atomic = true);
        self.atomic(body, "atomic group", start..self.pos, loops)
    }

    /// The alternation inside a group and its closing parenthesis.
    fn parse_group_body(&mut self, start: usize) -> Result<Expr, ParseError> {
        self.depth += 1;
        let body = self.parse_alternation()?;
        self.depth -= 1;
        if !self.eat(")") {
            return Err(self.error("unclosed group", start..start + 1));
        }
        Ok(body)
    }

    fn parse_capture(&mut self, start: usize, name: Option<String>) -> Result<Expr, ParseError> {
        if let Some(name) = &name {
            let duplicate = self.groups.iter().any(|group| group.name.as_ref() == Some(name));
            if duplicate && self.dialect != Dialect::Rust && !self.flags.duplicate_names {
                return Err(self.error(format!("duplicate group name `{name}`"), start..self.pos));
            }
        }
        let number = self.groups.len() as u32 + 1;
        self.groups.push(Group {
            name,
            span: start..start,
            path: self.levels.clone(),
            closed: false,
            varies: false,
            optional: false,
            strings: Vec::new(),
            error: None,
            value_error: None,
            looks: self.looks.clone(),
            values: Vec::new(),
            holds_reference: false,
            width: None,
            in_atomic: false,
        });
        let body = self.parse_group_body(start)?;
        self.java_atom = Some(java::Atom::Group(std::mem::take(&mut self.java_chain)));
        let group = &mut self.groups[number as usize - 1];
        group.closed = true;
        group.span = start..self.pos;
        match strings(&body) {
            Ok(found) => group.strings = found,
            // A reference inside stands for its strings only in the second pass.
            Err(why) if group.holds_reference => group.error = Some(why),
            Err(why) => {
                group.value_error =
                    if body.has_look() { value_strings(&body).err() } else { Some(why.clone()) };
                group.error = Some(why);
            }
        }
        group.width = fixed_width(&body);
        self.last_capture = Some(number);
        if self.tracked.contains(&number) {
            return self.tracked_capture(number, body);
        }
        Ok(match self.bindings.get(&number) {
            Some(Binding::Text(text)) => Expr::literal(text),
            Some(Binding::Unset) => Expr::set(CharSet::empty()),
            Some(Binding::Set) | None => body,
        })
    }

    /// Tracked group `number` matching `body` (second pass): sets the group's value as it
    /// closes, one branch per string of the group when a reference reads the string
    /// (`capture.rs`).
    fn tracked_capture(&mut self, number: u32, body: Expr) -> Result<Expr, ParseError> {
        if !self.needs_text.contains(&number) {
            return Ok(Expr::concat(vec![body, capture::set(number, Some(0))]));
        }
        let span = self.groups[number as usize - 1].span.clone();
        let values = value_strings(&body).map_err(|why| self.unsupported(why, span.clone()))?;
        let mut branches = Vec::with_capacity(values.len());
        let mut nodes = 0;
        for (idx, text) in values.iter().enumerate() {
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
            branches.push(Expr::concat(vec![matched, capture::set(number, Some(idx as u32))]));
        }
        self.groups[number as usize - 1].values = values;
        Ok(Expr::alt(branches))
    }

    /// Reads what follows `(`: the kind of group, consuming its opening syntax.
    fn group_kind(&mut self, start: usize) -> Result<GroupKind, ParseError> {
        let dialect = self.dialect;
        if !self.eat("?") {
            return Ok(GroupKind::Capture(None));
        }
        let opening = |parser: &Parser<'_>| start..parser.pos;
        if self.eat(":") {
            return Ok(GroupKind::Plain(self.flags));
        }
        for (syntax, ahead, negated) in
            [("=", true, false), ("!", true, true), ("<=", false, false), ("<!", false, true)]
        {
            if self.eat(syntax) {
                return Ok(GroupKind::Look { ahead, negated });
            }
        }
        // `(?P<n>`: Python, PCRE, Rust; `(?<n>`: all but Python; `(?'n'`: PCRE, Rust.
        let named = match self.rest().chars().next() {
            Some('P') => {
                self.rest().starts_with("P<") && !matches!(dialect, Dialect::Js | Dialect::Java)
            }
            Some('<') => dialect != Dialect::Python,
            Some('\'') => matches!(dialect, Dialect::Pcre | Dialect::Rust),
            _ => false,
        };
        if named {
            self.eat("P");
            let close = if self.eat("<") {
                '>'
            } else {
                self.pos += 1;
                '\''
            };
            let end = self
                .rest()
                .find(close)
                .ok_or_else(|| self.error("unclosed group name", start..self.pattern.len()))?;
            let name = self.pattern[self.pos..self.pos + end].to_owned();
            if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Err(
                    self.error(format!("invalid group name `{name}`"), start..self.pos + end + 1)
                );
            }
            self.pos += end + 1;
            return Ok(GroupKind::Capture(Some(name)));
        }
        if self.rest().starts_with("P=")
            && matches!(dialect, Dialect::Python | Dialect::Pcre | Dialect::Rust)
        {
            self.pos += 2;
            let end = self
                .rest()
                .find(')')
                .ok_or_else(|| self.error("unclosed group", start..start + 1))?;
            let name = &self.pattern[self.pos..self.pos + end];
            self.pos += end + 1;
            return self.backref_by_name(name, start..self.pos).map(GroupKind::Reference);
        }
        if self.rest().starts_with('#') && self.has_comments() {
            // Closed comments are skipped with whitespace (`skip_verbose`).
            return Err(self.error("unclosed comment", start..self.pattern.len()));
        }
        if self.rest().starts_with('>') && dialect == Dialect::Js {
            return Err(
                self.error("invalid group: atomic groups are not JavaScript", start..self.pos + 1)
            );
        }
        if self.eat(">") {
            return Ok(GroupKind::Atomic);
        }
        if ["(?=", "(?!", "(?<=", "(?<!"].iter().any(|open| self.rest().starts_with(open))
            && matches!(dialect, Dialect::Pcre | Dialect::Rust)
        {
            return Ok(GroupKind::LookConditional);
        }
        if self.rest().starts_with('(')
            && matches!(dialect, Dialect::Python | Dialect::Pcre | Dialect::Rust)
        {
            self.pos += 1;
            let end = self
                .rest()
                .find(')')
                .ok_or_else(|| self.error("unclosed group", start..start + 1))?;
            let condition = &self.pattern[self.pos..self.pos + end];
            self.pos += end + 1;
            let name = condition
                .strip_prefix('<')
                .and_then(|rest| rest.strip_suffix('>'))
                .or_else(|| condition.strip_prefix('\'').and_then(|rest| rest.strip_suffix('\'')))
                .unwrap_or(condition);
            if let Ok(number) = name.parse::<u32>() {
                return Ok(GroupKind::Conditional(number));
            }
            let mut found = self
                .groups
                .iter()
                .enumerate()
                .filter(|(_, group)| group.name.as_deref() == Some(name));
            return match (found.next(), found.next()) {
                (Some((idx, _)), None) => Ok(GroupKind::Conditional(idx as u32 + 1)),
                _ => Err(self.unsupported(
                    "conditionals are only supported on a group's number or name (not on \
                     lookarounds, recursion or DEFINE)",
                    start..self.pos,
                )),
            };
        }
        if self.rest().starts_with('(') {
            return Err(self.unsupported("conditionals are not supported", start..self.pos + 1));
        }
        if self.rest().starts_with(['R', '|', '&'])
            || self.rest().starts_with(|c: char| {
                c.is_ascii_digit()
                    || c == '+'
                    || c == '-' && self.rest()[1..].starts_with(|d: char| d.is_ascii_digit())
            })
        {
            return Err(self.unsupported(
                "recursion, subroutine calls and branch reset are not supported",
                opening(self),
            ));
        }
        // Flags: (?imsx-imsx) or (?imsx-imsx:...).
        let mut flags = self.flags;
        let mut on = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error("unclosed group", start..start + 1));
            };
            self.pos += c.len_utf8();
            match c {
                // ECMAScript 2025 modifiers: `(?ims-ims:...)`, no global form.
                c if dialect == Dialect::Js && !matches!(c, '-' | 'i' | 'm' | 's' | ':') => {
                    return Err(self.error(
                        "invalid group: JavaScript's modifiers are (?ims-ims:...) only",
                        start..self.pos,
                    ));
                }
                c if dialect == Dialect::Python
                    && !matches!(c, '-' | 'a' | 'i' | 'L' | 'm' | 's' | 'u' | 'x' | ':' | ')') =>
                {
                    return Err(self.error(format!("unknown flag `{c}`"), start..self.pos));
                }
                '-' => on = false,
                'i' => flags.case_insensitive = on,
                'm' => flags.multi_line = on,
                's' => flags.dot_all = on,
                'x' => {
                    flags.verbose = on;
                    // PCRE: `xx` ignores spaces in classes too; `x` and `-x` end that.
                    flags.verbose_classes = on && dialect == Dialect::Pcre && self.eat("x");
                }
                'a' if dialect == Dialect::Python => flags.ascii = on,
                'u' if dialect == Dialect::Python => flags.ascii = !on,
                'J' if dialect == Dialect::Pcre => flags.duplicate_names = on,
                'U' if dialect == Dialect::Java => {
                    flags.unicode_classes = on;
                    flags.unicode_case = on;
                }
                'u' if dialect == Dialect::Java => flags.unicode_case = on,
                'U' if matches!(dialect, Dialect::Pcre | Dialect::Rust) => flags.swap_greed = on,
                'L' if dialect == Dialect::Python => {
                    return Err(self.error(
                        "bad inline flags: cannot use 'L' flag with a str pattern",
                        start..self.pos,
                    ));
                }
                'u' | 'U' | 'L' | 'd' | 'n' | 'J' => {}
                ':' => {
                    let saved = self.flags;
                    self.flags = flags;
                    return Ok(GroupKind::Plain(saved));
                }
                ')' if dialect == Dialect::Python && self.pos == start + 3 => {
                    return Err(self.error("missing -, : or )", start..self.pos));
                }
                ')' if dialect == Dialect::Python && !on => {
                    return Err(self
                        .error("bad inline flags: cannot turn off global flag", start..self.pos));
                }
                ')' => {
                    if dialect == Dialect::Python && !is_pattern_start(&self.pattern[..start]) {
                        return Err(self.error(
                            "global flags not at the start of the expression: Python wants \
                             (?i) first, or a scoped (?i:...)",
                            start..self.pos,
                        ));
                    }
                    self.flags = flags;
                    return Ok(GroupKind::Flags);
                }
                other => {
                    return Err(self.error(
                        format!("unknown group flag or syntax `{other}`"),
                        start..self.pos,
                    ));
                }
            }
        }
    }
}

/// Not between the `\r` and the `\n` of a `\r\n`, which Java's multi-line anchors read as
/// one line terminator: `(?<!\r)|(?!\n)`.
fn not_inside_crlf() -> Expr {
    Expr::alt(vec![
        Expr::look(false, true, Expr::set(CharSet::singleton('\r'))),
        Expr::look(true, true, Expr::set(CharSet::singleton('\n'))),
    ])
}

/// What an opening parenthesis starts.
enum GroupKind {
    /// `(?:...)` or `(?flags:...)`: the flags to restore after it.
    Plain(Flags),
    /// A capturing group, maybe named.
    Capture(Option<String>),
    /// `(?>...)`: an atomic group.
    Atomic,
    /// A lookaround.
    Look { ahead: bool, negated: bool },
    /// `(?flags)`: changes the flags for the rest of the enclosing group.
    Flags,
    /// `(?P=name)`: a backreference, already read.
    Reference(Expr),
    /// `(?(n)yes|no)`: the branches are read next.
    Conditional(u32),
    /// `(?(?=X)yes|no)`: the lookaround and the branches are read next.
    LookConditional,
}

/// Whether `prefix` holds only global flag groups, comments and (once a flag group has
/// set verbose mode) whitespace: Python's rule for where `(?i)` may stand.
fn is_pattern_start(prefix: &str) -> bool {
    let (mut rest, mut verbose) = (prefix, false);
    loop {
        if verbose && rest.starts_with(char::is_whitespace) {
            rest = rest.trim_start();
            continue;
        }
        let Some(group) = rest.strip_prefix("(?") else { return rest.is_empty() };
        let Some(close) = group.find(')') else { return false };
        let inner = &group[..close];
        if !inner.starts_with('#') {
            if !inner.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
                return false;
            }
            verbose |= inner.split('-').next().is_some_and(|on| on.contains('x'));
        }
        rest = &group[close + 1..];
    }
}

/// The number of capturing groups of an ECMAScript pattern (`(` not followed by `?`, or
/// opening `(?<name>`, outside classes and escapes) and whether one is named.
fn js_groups(pattern: &str) -> (usize, bool) {
    let bytes = pattern.as_bytes();
    let (mut pos, mut count, mut in_class, mut any_named) = (0, 0, false, false);
    while pos < bytes.len() {
        match bytes[pos] {
            b'\\' => pos += 1,
            b'[' if !in_class => in_class = true,
            b']' if in_class => in_class = false,
            b'(' if !in_class => {
                let rest = &bytes[pos + 1..];
                let named = rest.starts_with(b"?<")
                    && !rest[2..].starts_with(b"=")
                    && !rest[2..].starts_with(b"!");
                if !rest.starts_with(b"?") || named {
                    count += 1;
                }
                any_named |= named;
            }
            _ => {}
        }
        pos += 1;
    }
    (count, any_named)
}

/// The one length of every string `expr` matches, if it has one (Python's rule for
/// lookbehind bodies; a branch that matches nothing still counts).
fn fixed_width(expr: &Expr) -> Option<u32> {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => Some(0),
        Expr::Set(_) => Some(1),
        Expr::Concat(parts) => {
            parts.iter().try_fold(0u32, |acc, part| acc.checked_add(fixed_width(part)?))
        }
        Expr::Alt(branches) => {
            let first = fixed_width(branches.first()?)?;
            branches[1..].iter().all(|branch| fixed_width(branch) == Some(first)).then_some(first)
        }
        Expr::Repeat { sub, min, max, .. } => {
            let width = fixed_width(sub)?;
            match *max {
                Some(max) if max == *min || width == 0 => width.checked_mul(max),
                None if width == 0 => Some(0),
                _ => None,
            }
        }
        Expr::Atomic(sub) => fixed_width(sub),
    }
}

/// The most characters a string of `expr` has, if bounded.
fn max_width(expr: &Expr) -> Option<u32> {
    match expr {
        Expr::Empty | Expr::Look(_) | Expr::Capture(_) => Some(0),
        Expr::Set(_) => Some(1),
        Expr::Concat(parts) => {
            parts.iter().try_fold(0u32, |acc, part| acc.checked_add(max_width(part)?))
        }
        Expr::Alt(branches) => branches.iter().try_fold(0, |acc, b| Some(acc.max(max_width(b)?))),
        Expr::Repeat { sub, max, .. } => match (max_width(sub)?, max) {
            (0, _) => Some(0),
            (width, Some(max)) => width.checked_mul(*max),
            (_, None) => None,
        },
        Expr::Atomic(sub) => max_width(sub),
    }
}

/// The strings of an expression without assertions, if finite and at most
/// [`MAX_BACKREF_CHOICES`]; otherwise why not.
fn strings(expr: &Expr) -> Result<Vec<String>, String> {
    if is_infinite(expr) {
        return Err("a backreference to a group with infinitely many strings is not regular".into());
    }
    finite_strings(expr, false)
}

/// The strings an expression may match, assertions and tests of captured values taken as
/// "" (so more than it matches, each then restricted by `capture::restrict`), if finite
/// and at most [`MAX_BACKREF_CHOICES`]; otherwise why not.
fn value_strings(expr: &Expr) -> Result<Vec<String>, String> {
    if is_infinite(expr) {
        return Err("a backreference to a group with infinitely many strings is not regular".into());
    }
    finite_strings(expr, true)
}

/// Whether an expression without assertions has infinitely many strings: an unbounded
/// repetition of something that matches a non-empty string.
fn is_infinite(expr: &Expr) -> bool {
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
/// `looks_match` an assertion counts as "", else it is refused.
fn finite_strings(expr: &Expr, looks_match: bool) -> Result<Vec<String>, String> {
    const TOO_MANY: &str =
        "the group referred to has too many strings to expand its backreferences: too large";
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
                let tails = finite_strings(part, looks_match)?;
                if acc.len().saturating_mul(tails.len()) > MAX_BACKREF_CHOICES {
                    return Err(TOO_MANY.into());
                }
                acc = acc
                    .iter()
                    .flat_map(|head| tails.iter().map(move |tail| format!("{head}{tail}")))
                    .collect();
            }
            Ok(acc)
        }
        Expr::Alt(branches) => {
            let mut acc = Vec::new();
            for branch in branches {
                acc.extend(finite_strings(branch, looks_match)?);
                if acc.len() > MAX_BACKREF_CHOICES {
                    return Err(TOO_MANY.into());
                }
            }
            acc.sort();
            acc.dedup();
            Ok(acc)
        }
        Expr::Repeat { sub, min, max, .. } => {
            let once = finite_strings(sub, looks_match)?;
            let Some(max) = *max else {
                if once.is_empty() && *min > 0 {
                    return Ok(Vec::new());
                }
                if once.iter().all(String::is_empty) {
                    return Ok(vec![String::new()]);
                }
                return Err(
                    "a backreference to a group with infinitely many strings is not regular".into(),
                );
            };
            let mut acc = Vec::new();
            let mut level = vec![String::new()];
            for count in 0..=max {
                if count >= *min {
                    acc.extend(level.iter().cloned());
                }
                if count == max || level.is_empty() {
                    break;
                }
                if level.len().saturating_mul(once.len()) > MAX_BACKREF_CHOICES
                    || acc.len() > MAX_BACKREF_CHOICES
                {
                    return Err(TOO_MANY.into());
                }
                let next: Vec<String> = level
                    .iter()
                    .flat_map(|head| once.iter().map(move |tail| format!("{head}{tail}")))
                    .collect();
                if next == level {
                    // Every further count gives these strings, the minimum's included.
                    acc.extend(level);
                    break;
                }
                level = next;
            }
            acc.sort();
            acc.dedup();
            if acc.len() > MAX_BACKREF_CHOICES {
                return Err(TOO_MANY.into());
            }
            Ok(acc)
        }
        Expr::Look(_) if looks_match => Ok(vec![String::new()]),
        Expr::Look(_) => Err("a backreference to a group with assertions is not supported".into()),
        Expr::Capture(_) => Ok(vec![String::new()]),
        Expr::Atomic(sub) => finite_strings(sub, looks_match),
    }
}
