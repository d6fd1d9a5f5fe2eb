//! The structure of a pattern in each dialect: alternation, groups, quantifiers,
//! assertions and backreferences, into an [`Expr`].
//!
//! # Algorithm
//! Recursive descent, one call per group level, with nesting limited to [`NEST_LIMIT`].
//! Characters, escapes and classes are read by `class.rs`. Assertions are lowered to
//! lookarounds as they are read (`^` becomes `(?<![\s\S])`, `\b` an alternation of two
//! pairs of one-character lookarounds, and so on), so the IR has one kind of assertion.
//!
//! Backreferences and conditionals `(?(n)yes|no)` are read in two passes, by the methods
//! of `parse/reference.rs`.
//!
//! Atomic groups and possessive quantifiers are rewritten exactly by `atomic.rs`, or
//! refused with the reason; conditionals on a lookaround `(?(?=X)yes|no)` are
//! `(?=X)yes|(?!X)no`. PCRE's branch resets number groups by `parse/reset.rs`. Recursion and
//! subroutine calls are refused.

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::atomic::{self, Refusal};
use super::class;
use super::java::{self, Piece};
use super::{Capture, Ctx, Expr, IR_BYTES_PER_PATTERN_BYTE, NEST_LIMIT};
use super::{capture, case, utf16};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dialect::Dialect;
use crate::error::Error;
use crate::error::ParseError;
use reference::{strings, value_strings};

mod passing;
mod reference;
mod reset;

pub(super) use passing::reversed;
use passing::{Look, Otherwise};
use reference::Named;
use reset::Reset;

/// Why an atomic group holding a Java loop whose body matches "" is refused.
const JAVA_EMPTY_LOOP: &str = "it holds a Java loop whose body may match \"\", which ends the \
     loop, where no rule orders its matches (its paths that match \"\" come between its others, \
     or several of those are tried first at each count)";

/// Why an atomic group holding a repetition of a body that sets values and may match ""
/// is refused.
const EMPTY_ITERATION: &str = "it holds a repetition of a group that a reference reads whose \
     body may match \"\" (no rule orders the iterations that end such a loop)";

/// The negation of a lookaround read as a condition: the lookaround negated, or for a
/// lookbehind read once per value it reads (`Parser::expand_behind`), each reading's.
fn negated_condition(condition: &Expr) -> Option<Expr> {
    match condition {
        Expr::Look(look) => Some(Expr::look(look.ahead, !look.negated, (*look.body).clone())),
        Expr::Alt(readings) => {
            let reading = |reading: &Expr| match reading {
                Expr::Concat(_) => negated_condition(reading),
                _ => None,
            };
            readings.iter().map(reading).collect::<Option<_>>().map(Expr::alt)
        }
        Expr::Concat(parts) => {
            let (look, tests) = parts.split_last()?;
            let tests_only =
                tests.iter().all(|test| matches!(test, Expr::Capture(Capture::Test { .. })));
            let look = negated_condition(look).filter(|_| tests_only)?;
            Some(Expr::concat(tests.iter().cloned().chain([look]).collect()))
        }
        _ => None,
    }
}

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
    parse_with(pattern, dialect, budget, None).map(|(expr, ..)| expr)
}

/// The byte spans of a tagged parse's atoms, by tag index.
type Spans = Vec<std::ops::Range<usize>>;

/// Parses `pattern` of `dialect` into an [`Expr`] whose one-set atoms outside atomic groups
/// carry a tag character (`super::tag_char`), with the span of each tag's atom, so that
/// what an analysis finds in the expression can be shown in the pattern. The readings per
/// choice of a referenced group's string (`parse/reference.rs`) tag their atoms in turn,
/// each reading's copy of an atom with its own tag and the atom's span. With `copies`,
/// every reference that a copy of its group's body may stand for is one
/// (`Parser::copied_reference`): fewer readings, a weaker reading of the references.
/// `None` for a pattern whose text holds tag characters. Also the spans of the loops whose
/// failed positions Java caches (`Parser::java_cached`).
pub(super) fn parse_tagged(
    pattern: &str,
    dialect: Dialect,
    copies: bool,
    budget: &Budget,
) -> Result<Option<(Expr, Spans, Spans)>, Error> {
    if pattern.chars().any(|c| super::tag_index(c).is_some()) {
        return Ok(None);
    }
    let (expr, tags, cached) = parse_with(pattern, dialect, budget, Some(copies))?;
    Ok(tags.map(|tags| (expr, tags, cached)))
}

/// [`parse`], tagging atoms when `tag` is given (the tags come back then), references
/// read as copies where it is true, and the spans of the loops Java caches.
fn parse_with(
    pattern: &str,
    dialect: Dialect,
    budget: &Budget,
    tag: Option<bool>,
) -> Result<(Expr, Option<Spans>, Spans), Error> {
    if let Some(at) = too_deep(pattern) {
        return Err(Error::Parse(ParseError::at(
            pattern,
            format!("nest limit exceeded: groups nest deeper than {NEST_LIMIT}"),
            at..at + 1,
        )));
    }
    let mut parser = Parser::new(pattern, dialect, HashMap::new(), budget);
    parser.tags = tag.map(|_| Vec::new());
    parser.copy_references = tag == Some(true);
    let mut parsed = parser.parse_all();
    if parser.names_ahead && parsed.is_ok() {
        // A reference named a group written after it: read again, every name known.
        let names = parser.groups.iter().map(|group| group.name.clone()).collect();
        parser = Parser::new(pattern, dialect, HashMap::new(), budget);
        parser.tags = tag.map(|_| Vec::new());
        parser.copy_references = tag == Some(true);
        parser.later_names = Some(names);
        parsed = parser.parse_all();
    }
    if let Some(err) = parser.over_budget.take() {
        return Err(Error::Budget(err));
    }
    let expr = parsed?;
    parser.check_open_references()?;
    // Java caches no loop of a pattern with a backreference (`hasGroupRef`).
    let cached =
        if parser.has_reference { Vec::new() } else { std::mem::take(&mut parser.java_cached) };
    if parser.backrefs.is_empty() && parser.tracked_refs.is_empty() {
        return Ok((expr, parser.tags.take(), cached));
    }
    let tracked = parser.split_references()?;
    parser.index_shared_values(&tracked);
    let choices = parser.choices(&parser.backrefs)?;
    let ir_bytes = pattern.len().saturating_mul(IR_BYTES_PER_PATTERN_BYTE);
    budget.check_memory(Operation::Parse, choices.len().saturating_mul(ir_bytes))?;
    let (expr, tags) = parser.read_in_rounds(&choices, &tracked, tag.is_some())?;
    Ok((expr, tags, cached))
}

/// A reference or conditional to a group that has not closed where it stands.
#[derive(Clone, Debug)]
struct OpenRef {
    number: u32,
    span: std::ops::Range<usize>,
    conditional: bool,
    /// The groups open where it stands (the group itself among them when it stands inside
    /// it), and the lookarounds it is inside.
    enclosing: Vec<u32>,
    looks: Vec<(usize, bool)>,
    /// The groups opened before it.
    n_groups: usize,
}

/// A JavaScript reference inside a lookbehind to a group right of it, not read yet (first
/// pass): where it stands.
#[derive(Clone, Debug)]
struct RightRef {
    number: u32,
    span: std::ops::Range<usize>,
    levels: Vec<(usize, usize)>,
    looks: Vec<(usize, bool)>,
    /// It stands in a lookaround inside `looks`' last, whose check passed it on.
    nested: bool,
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
    /// PCRE's `(?n)`: a plain `(...)` does not capture (named groups still do).
    no_auto_capture: bool,
    /// Java's `(?d)`, see [`Ctx`].
    unix_lines: bool,
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
    /// The most times it closes in one match: the product of the maximum counts of the
    /// quantifiers around it (`None`: unbounded). Bounds the rounds that find the values
    /// of a group whose strings depend on references (`parse`).
    closes: Option<u32>,
    /// Its strings, when its language is finite and small; the error otherwise.
    strings: Arc<[String]>,
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
    /// Its body, kept where atoms are tagged and its strings are too many to read: a
    /// reference to it is then a copy (`Parser::copied_reference`).
    body: Option<Expr>,
}

/// The strings of each group's body as last computed (`Parser::group_strings`), shared by
/// the readings of one pattern.
type StringsMemo = Rc<RefCell<HashMap<u32, (Expr, Result<Arc<[String]>, String>)>>>;

struct Parser<'p> {
    /// Shared by every reading of the pattern (`reference.rs` reads it again per choice of
    /// the groups' values), so that a group's strings are expanded once per body.
    strings_memo: StringsMemo,
    pattern: &'p str,
    dialect: Dialect,
    pos: usize,
    /// JavaScript: the character at `pos`, above U+FFFF, has given its high unit
    /// (`utf16.rs`).
    low_half: bool,
    flags: Flags,
    depth: u32,
    /// Current group levels: (level id, branch number).
    levels: Vec<(usize, usize)>,
    n_levels: usize,
    /// Per level id, its number of branches once closed (0 while open).
    level_branches: Vec<usize>,
    groups: Vec<Group>,
    /// The number the next capturing group takes: after the last group, or inside a
    /// branch reset, after the last group of its branch (`parse/reset.rs`).
    next_group: u32,
    /// The branch resets open here, innermost last.
    resets: Vec<Reset>,
    /// The alternation read next is a branch reset's.
    reset_next: bool,
    /// The numbers that groups of several branches of a branch reset share.
    shared: Vec<u32>,
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
    /// Groups inside lookarounds that references or conditionals outside them read (first
    /// pass): such a lookaround passes out the values of its body's first match
    /// (`passing.rs`).
    exported: Vec<u32>,
    /// JavaScript references inside lookbehinds to groups right of them (first pass),
    /// checked as each lookbehind closes (`Parser::check_right_references`).
    right_refs: Vec<RightRef>,
    /// Where those references stand whose group opens after their lookbehind (first
    /// pass): they match "" in every reading, even where a reading binds the group.
    unset_right_refs: Vec<usize>,
    /// Groups in a JavaScript lookbehind that references left of them read where a reading
    /// per string cannot (repeated, optional, in another part of the lookbehind): tracked,
    /// their values read right to left (`passing.rs`, [`Parser::right_to_left`]).
    behind_values: Vec<u32>,
    /// The no branch's condition of a conditional on the last lookaround whose groups are
    /// read outside it (`passing.rs`).
    otherwise: Option<Otherwise>,
    /// Lookarounds under a repetition (first pass): a group inside one may keep the
    /// value an earlier iteration's lookahead passed out.
    repeated_looks: Vec<usize>,
    /// References and conditionals of the first pass that may read their group's value
    /// from the automaton's state: the group, and why a reading would not do (when the
    /// group must be read once per choice for another reference).
    tracked_refs: Vec<(u32, Option<ParseError>)>,
    /// Tracked groups that references inside a lookbehind outside of which they stand read
    /// (second pass): the lookbehind is read again per value (`Parser::expand_behind`).
    behind_refs: Vec<u32>,
    /// References and conditionals to groups that had not closed where they stand (first
    /// pass).
    open_refs: Vec<OpenRef>,
    /// The strings of tracked groups that references read before the group closes
    /// (second pass), in the order of their indexes: from the first pass, or, for a group
    /// that holds a reference, found round by round (`parse`).
    open_values: HashMap<u32, Vec<String>>,
    /// Strings that groups of `open_values` closed with and that list lacks (second
    /// pass): the next round's values.
    grown: HashMap<u32, Vec<String>>,
    /// The last round: the values of `open_values` are all that a match can hold, and
    /// other strings a group closes with are dropped (they need more iterations than
    /// the quantifiers allow).
    capped: bool,
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
    /// The spans of the loops whose failed positions Java caches, so far: a greedy group
    /// loop without bound that `Pattern.compile` makes a `Loop` (its body not
    /// deterministic), not inside a quantified group nor a lookbehind, in a pattern without
    /// backreferences (`Pattern.compile` gives them a `posIndex`, `Loop.match` then skips
    /// an iteration at a position where one failed).
    java_cached: Spans,
    /// Whether the pattern holds a backreference (Java's `hasGroupRef`).
    has_reference: bool,
    /// Why parts written so far have paths in another order than the engine tries them
    /// (a Java loop whose body matches "", `java::loop_repeat`; the iteration rules of
    /// `capture::repeat` on a body that matches ""; a group's paths by string,
    /// `tracked_capture`): an atomic group holding one is refused, as its rules read the
    /// order of paths.
    unordered: Vec<&'static str>,
    /// Every group's name, in order, where a reference may name a group written after it
    /// (PCRE, JavaScript) and one did: from a first reading of the whole pattern.
    later_names: Option<Vec<Option<String>>>,
    /// A reference named a group not read yet, and `later_names` is not known: the
    /// pattern is read again once it is.
    names_ahead: bool,
    /// The spans of the atoms tagged so far, when atoms are tagged (see [`parse_tagged`]).
    tags: Option<Vec<std::ops::Range<usize>>>,
    /// Whether a reference is read as a copy of its group's body wherever one may stand
    /// for it (`Parser::copied_reference`), not only where the group's strings are too
    /// many: tagged atoms only (see [`parse_tagged`]).
    copy_references: bool,
}

impl<'p> Parser<'p> {
    fn new(
        pattern: &'p str,
        dialect: Dialect,
        bindings: HashMap<u32, Binding>,
        budget: &'p Budget,
    ) -> Parser<'p> {
        Parser {
            strings_memo: StringsMemo::default(),
            pattern,
            dialect,
            pos: 0,
            low_half: false,
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
                no_auto_capture: false,
                unix_lines: false,
            },
            depth: 0,
            levels: Vec::new(),
            n_levels: 0,
            level_branches: Vec::new(),
            groups: Vec::new(),
            next_group: 1,
            resets: Vec::new(),
            reset_next: false,
            shared: Vec::new(),
            backrefs: Vec::new(),
            bindings,
            needs_text: Vec::new(),
            last_capture: None,
            looks: Vec::new(),
            n_looks: 0,
            tracked: Vec::new(),
            exported: Vec::new(),
            repeated_looks: Vec::new(),
            otherwise: None,
            right_refs: Vec::new(),
            unset_right_refs: Vec::new(),
            behind_values: Vec::new(),
            tracked_refs: Vec::new(),
            behind_refs: Vec::new(),
            open_refs: Vec::new(),
            open_values: HashMap::new(),
            grown: HashMap::new(),
            capped: false,
            unquantifiable: false,
            budget,
            set_bytes: 0,
            over_budget: None,
            js_groups: if dialect == Dialect::Js { js_groups(pattern) } else { (0, false) },
            java_chain: Vec::new(),
            java_atom: None,
            java_pieces: Vec::new(),
            java_cached: Vec::new(),
            has_reference: false,
            unordered: Vec::new(),
            later_names: None,
            names_ahead: false,
            tags: None,
            copy_references: false,
        }
    }

    /// `atom` with its tag when atoms are tagged and it is one character set: its
    /// characters in the tag range replaced by the one [`super::tag_char`] of its index,
    /// its span recorded.
    fn tagged(&mut self, atom: Expr, span: std::ops::Range<usize>) -> Expr {
        let Some(tags) = self.tags.as_mut() else { return atom };
        match atom {
            Expr::Set(set) if !set.is_empty() => match super::tag_char(tags.len()) {
                Some(tag) => {
                    tags.push(span);
                    Expr::Set(set.difference(&super::tags()).union(&CharSet::singleton(tag)))
                }
                None => Expr::Set(set),
            },
            other => other,
        }
    }

    /// The strings of group `number` with `body` (`reference::strings`), expanded once for
    /// all the readings of the pattern: the second pass reads the pattern again for each
    /// choice of the groups' values, 4,096 of them for `([ab]{12})\1`, each time with the
    /// same body for the group, whose 4,096 strings took a millisecond to expand. The first
    /// reading (no values chosen) reads each group once and keeps nothing.
    fn group_strings(&self, number: u32, body: &Expr) -> Result<Arc<[String]>, String> {
        if self.bindings.is_empty() {
            return strings(&self.untagged(body)).map(Arc::from);
        }
        let mut memo = self.strings_memo.borrow_mut();
        if let Some((seen, found)) = memo.get(&number)
            && seen == body
        {
            return found.clone();
        }
        let found = strings(&self.untagged(body)).map(Arc::from);
        memo.insert(number, (body.clone(), found.clone()));
        found
    }

    /// `body` as its strings are read: without the tags of a tagged parse
    /// ([`parse_tagged`]), which are no characters of the text. Elsewhere the tag range
    /// holds characters like any other.
    fn untagged<'e>(&self, body: &'e Expr) -> Cow<'e, Expr> {
        match self.tags {
            Some(_) => Cow::Owned(body.clone().untagged()),
            None => Cow::Borrowed(body),
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
            unix_lines: self.flags.unix_lines,
        }
    }

    /// Whether the current position is inside a lookbehind (at any depth).
    fn in_lookbehind(&self) -> bool {
        self.looks.iter().any(|&(_, ahead)| !ahead)
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
        self.skip_verbose_under(self.flags.verbose);
    }

    /// [`Parser::skip_verbose`] where `verbose` says whether `(?x)` is on (Java's flags
    /// group reads its own as it goes: `(?x i)`).
    fn skip_verbose_under(&mut self, verbose: bool) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() && verbose => self.pos += c.len_utf8(),
                // PCRE2 ignores an `\E` that ends no `\Q`.
                Some('\\') if self.dialect == Dialect::Pcre && self.rest().starts_with("\\E") => {
                    self.pos += 2;
                }
                Some('#') if verbose => {
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
        let reset = std::mem::take(&mut self.reset_next);
        let level = self.open_level();
        if reset {
            self.open_reset(level);
        }
        let saved = self.flags;
        let mut branches = vec![self.parse_concat()?];
        let mut chains = vec![std::mem::take(&mut self.java_chain)];
        while self.eat("|") {
            if let Some(last) = self.levels.last_mut() {
                last.1 += 1;
            }
            if reset {
                self.next_reset_branch();
            }
            branches.push(self.parse_concat()?);
            chains.push(std::mem::take(&mut self.java_chain));
        }
        self.flags = saved;
        self.close_level(level);
        if reset {
            self.close_reset();
        }
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
                        let unordered = self.unordered.len();
                        parts.push(self.parse_quantifiers(last, end, n_groups, unordered)?);
                        chain.append(&mut self.java_pieces);
                    }
                }
                Some(_) => {
                    let start = self.pos;
                    let (n_groups, unordered) = (self.groups.len(), self.unordered.len());
                    let atom = self.parse_atom()?;
                    let atom = self.tagged(atom, start..self.pos);
                    self.charge(&atom, start)?;
                    let piece = self.parse_quantifiers(atom, start, n_groups, unordered)?;
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
                // Spaces around the numbers: PCRE2 10.43 and here; text in the others.
                let trims = matches!(self.dialect, Dialect::Pcre | Dialect::Rust);
                let spaced = |text: &'p str| if trims { text.trim() } else { text };
                let (min, max) = match inner.split_once(',') {
                    None => {
                        let exact = number(inner)??;
                        (Some(exact), Some(exact))
                    }
                    Some((min, max)) => (number(spaced(min))?, number(spaced(max))?),
                };
                let min = match (min, self.dialect) {
                    (Some(min), _) => min,
                    // `{,n}`: up to n in Python, PCRE2 and here; text in JavaScript and Java.
                    // Python reads `{,}` as `*`.
                    (None, Dialect::Pcre | Dialect::Rust) if max.is_some() => 0,
                    (None, Dialect::Python) => 0,
                    _ => return None,
                };
                Some((min, max, close + 1))
            }
            _ => None,
        }
    }

    /// The quantifiers after `atom` (which starts at `start`, after the first `n_groups`
    /// groups and the first `unordered` of [`Parser::unordered`]).
    fn parse_quantifiers(
        &mut self,
        atom: Expr,
        start: usize,
        n_groups: usize,
        unordered: usize,
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
            // Java and PCRE read a lazy or possessive mark past whitespace and comments.
            if matches!(self.dialect, Dialect::Java | Dialect::Pcre) {
                self.skip_verbose();
            }
            if max.is_some_and(|max| max < min) {
                return Err(self.error(
                    "invalid repetition: the minimum is above the maximum",
                    quantifier_start..self.pos,
                ));
            }
            // The engines' own bounds on a count (the parse saturates at `u32::MAX`).
            let limit = match self.dialect {
                Dialect::Python => Some(u32::MAX - 1),
                Dialect::Java => Some(i32::MAX as u32),
                Dialect::Pcre => Some(65_535),
                _ => None,
            };
            if let Some(limit) = limit.filter(|&limit| max.unwrap_or(min).max(min) > limit) {
                return Err(self.error(
                    format!(
                        "the repetition number is too large: {} allows at most {limit}",
                        self.dialect
                    ),
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
            let (mut java_loop, mut java_group) = (false, false);
            if let Some(atom) = java.take() {
                java_group = self.dialect == Dialect::Java && matches!(atom, java::Atom::Group(_));
                java_loop = self.dialect == Dialect::Java && atom.loops(min, max, possessive);
                self.java_pieces = atom.quantified(min, max, greedy, possessive);
            }
            // `(...)?` matches once or not at all: a reading decides which.
            let optional = capture.filter(|_| n_quantifiers == 0 && (min, max) == (0, Some(1)));
            if (min, max) != (1, Some(1)) {
                // The lookarounds inside the atom, closed here.
                for group in &self.groups[n_groups..] {
                    let inside = group.looks.iter().filter(|look| !self.looks.contains(look));
                    self.repeated_looks.extend(inside.map(|look| look.0));
                }
                for (idx, group) in self.groups[n_groups..].iter_mut().enumerate() {
                    group.closes = group.closes.zip(max).and_then(|(c, max)| c.checked_mul(max));
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
            // CPython and Java backtrack into no iteration of a possessive repetition
            // either: `(?:a+){2}+` does not match `aaa` (CPython's POSSESSIVE_REPEAT, 3.11
            // to 3.13; Java's possessive `Curly` takes each iteration's first match).
            if possessive && matches!(self.dialect, Dialect::Python | Dialect::Java) {
                expr = self.atomic(expr, "possessive quantifier", start..self.pos, unordered)?;
            }
            let repeat = if java_loop && !capture::empty(&expr).is_fail() {
                let (repeat, ordered) = java::loop_repeat(&expr, min, max, greedy);
                if !ordered {
                    self.unordered.push(JAVA_EMPTY_LOOP);
                }
                repeat
            } else if expr.sets_capture() {
                let nullable = !capture::empty(&expr).is_fail();
                if nullable && (!greedy || !capture::empty_last(&expr)) {
                    // `capture::repeat` reads the body's paths that match "" after the
                    // others, and a lazy loop's empty iteration after its last one.
                    self.unordered.push(EMPTY_ITERATION);
                }
                // Java's `(X)?` is no loop: it keeps the group's empty match, and so does a
                // possessive one (`GroupCurly`'s `match2`).
                let group_of_empty = capture.is_some()
                    && n_quantifiers == 0
                    && (min, max) != (0, Some(1))
                    && !possessive
                    && expr.is_zero_width();
                self.repeat_capturing(expr, n_groups, min, max, greedy, group_of_empty)
            } else {
                Expr::Repeat { sub: Box::new(expr), min, max, greedy }
            };
            // Java takes the loops inside a quantified group (not a lookaround's nor an
            // atomic group's) off its list of loops to cache (`group0`), then lists a greedy
            // one without bound, outside lookbehinds.
            if java_group {
                self.java_cached.retain(|inside| inside.start < start);
            }
            let unbounded = max.is_none_or(|max| max == i32::MAX as u32);
            if java_loop && greedy && unbounded && !self.in_lookbehind() {
                self.java_cached.push(start..self.pos);
            }
            expr = if possessive {
                self.groups[n_groups..].iter_mut().for_each(|group| group.in_atomic = true);
                self.atomic(repeat, "possessive quantifier", start..self.pos, unordered)?
            } else {
                repeat
            };
            n_quantifiers += 1;
        }
    }

    /// `sub{min,max}` where `sub` (whose groups are those after the first `n_groups`)
    /// sets captured values, under the dialect's iteration rules (`capture.rs`).
    /// `group_of_empty`: `sub` is a capturing group that only matches "", which Java
    /// repeats past the minimum without keeping its own value (its `GroupCurly`).
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
        if group_of_empty && self.dialect == Dialect::Java {
            return java::group_curly_of_empty(sub, n_groups as u32 + 1, min, max, greedy);
        }
        // Java's lazy `Curly` (no `Loop` here) fails an iteration that matches "", as
        // JavaScript does; Java runs `X??` and `X{0,1}?` as a branch, which keeps it.
        let java_curly = self.dialect == Dialect::Java && (min, max) != (0, Some(1));
        let keeps_empty = !js && (greedy || !java_curly);
        capture::repeat(sub, min, max, greedy, resets, keeps_empty, self.dialect == Dialect::Pcre)
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
            '{' if self.quantifier().is_some() => {
                Err(self.error("repetition operator missing expression", start..start + 1))
            }
            '{' if self.dialect == Dialect::Java => Err(self.error(
                "illegal repetition: `{` must start a quantifier in Java",
                start..start + 1,
            )),
            '\\' => self.parse_escape(),
            c => {
                let mut unit = c;
                if let Some([high, low]) = utf16::halves(c).filter(|_| self.dialect == Dialect::Js)
                {
                    // Two units: the high one, then (the next time) the low one, which a
                    // quantifier after it repeats alone.
                    self.low_half = !self.low_half;
                    unit = if self.low_half { high } else { low };
                }
                if !self.low_half {
                    self.pos += c.len_utf8();
                }
                Ok(Expr::set(class::fold(CharSet::singleton(unit), self.ctx())))
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
            Expr::look(false, true, Expr::set(class::line_terminators(self.ctx()).complement()));
        let not_at_end = Expr::look(true, false, full());
        match self.dialect {
            Dialect::Java if self.flags.unix_lines => Expr::concat(vec![after_line, not_at_end]),
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
        let terminators = class::line_terminators(self.ctx());
        // Java's `\r\n` is one line terminator (not under `(?d)`, where `\r` is none).
        let crlf = self.dialect == Dialect::Java && !self.flags.unix_lines;
        if multi_line {
            let before_line = Expr::look(true, true, Expr::set(terminators.complement()));
            if crlf {
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
        if crlf {
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
            // The start of the match, which here is the start of the input (`Matcher.find`'s
            // first search, `pcre2_match` from offset 0).
            'G' if matches!(dialect, Dialect::Java | Dialect::Pcre) => {
                Some(self.start_anchor(false))
            }
            'K' | 'X' if matches!(dialect, Dialect::Java | Dialect::Pcre) => {
                return Err(self.unsupported(format!("\\{c} is not supported"), here));
            }
            'C' if dialect == Dialect::Pcre => {
                return Err(self.unsupported("\\C (one code unit) is not supported", here));
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
        if c == 'N' && dialect == Dialect::Pcre {
            // Any character but a newline, whatever `(?s)` says; `\N{U+hh}` is a code point
            // and other names are PCRE2's error 137.
            self.pos += 1;
            if self.rest().starts_with('{') && self.quantifier().is_none() {
                let close = self.rest().find('}').map_or(self.rest().len(), |close| close + 1);
                let code = self.rest()[..close].strip_prefix("{U+").and_then(|hex| {
                    u32::from_str_radix(hex.strip_suffix('}')?, 16).ok().and_then(char::from_u32)
                });
                let Some(code) = code else {
                    return Err(self.error(
                        "PCRE2 does not support \\N{name}: write \\N{U+hh} or \\x{hh}",
                        start..self.pos + close,
                    ));
                };
                self.pos += close;
                return Ok(Expr::set(class::fold(CharSet::singleton(code), self.ctx())));
            }
            return Ok(Expr::set(CharSet::singleton('\n').complement()));
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
        if digits.starts_with('0') {
            if self.dialect == Dialect::Java {
                let (len, c) = class::java_octal(digits)
                    .map_err(|message| self.error(message, start..start + 2))?;
                self.pos += len;
                return Ok(Some(literal(c)));
            }
            self.pos += octal_len;
            return Ok(octal(octal_len));
        }
        if self.dialect == Dialect::Js {
            return self.js_digit_escape(start, digits, octal_len).map(Some);
        }
        // Python reads three octal digits as octal; every dialect reads \1.. as a group.
        if self.dialect == Dialect::Python && octal_len == 3 {
            if let Some(message) = class::python_octal_error(digits) {
                return Err(self.error(message, start..start + 4));
            }
            self.pos += 3;
            return Ok(octal(3));
        }
        if self.dialect == Dialect::Pcre {
            // PCRE2: a reference when under 10, starting with 8 or 9, or naming a group
            // before it; else octal.
            let number: u32 = digits.parse().unwrap_or(u32::MAX);
            if number >= 10 && octal_len > 0 && number >= self.next_group {
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
                return Ok(self.js_behind_reference(number as u32, span)?.unwrap_or(Expr::Empty));
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
        let (len, c) = class::octal_prefix(digits);
        self.pos += len;
        Ok(Expr::set(class::fold(CharSet::singleton(c), self.ctx())))
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
                let number = i64::from(self.next_group) - 1 + relative + i64::from(relative < 0);
                self.backref(u32::try_from(number).unwrap_or(0), span)
            }
            Ok(number) => self.backref(u32::try_from(number).unwrap_or(0), span),
            Err(_) => self.backref_by_name(text, span),
        }
    }

    /// The exact translation of `(?>body)` (`atomic.rs`), or an error naming `what` and
    /// why it is not read.
    fn atomic(
        &mut self,
        body: Expr,
        what: &str,
        span: std::ops::Range<usize>,
        unordered: usize,
    ) -> Result<Expr, ParseError> {
        // Python measures a lookbehind before any rewriting: `(?<=(?>a|ab))` is refused, as
        // the lookbehind's check finds two widths (branches that match nothing count).
        let measured = self.looks.last().is_some_and(|&(_, ahead)| !ahead);
        let widths = (self.dialect == Dialect::Python && measured && fixed_width(&body).is_none())
            .then(|| {
                let fail = Expr::set(CharSet::empty());
                vec![Expr::look(true, false, fail.clone()), fail]
            });
        if let Some(why) = self.unordered.get(unordered) {
            return Err(self.unsupported(format!("{what} not supported yet: {why}"), span));
        }
        let empty_ends_loop = self.dialect != Dialect::Js;
        // Tags would make the rewriting's language tests see distinct characters.
        let body = if self.tags.is_some() { body.untagged() } else { body };
        // The backtracking analysis (tagged) counts paths: one per start where the rules
        // find it, else the translation by ends (whose paths may be more than the engine's).
        let by_ends = |body| atomic::atomic(body, empty_ends_loop, false, self.budget);
        let rewritten = match self.tags {
            Some(_) => match atomic::atomic(body.clone(), empty_ends_loop, true, self.budget) {
                Err(Refusal::Unsupported(_)) => by_ends(body),
                by_paths => by_paths,
            },
            None => by_ends(body),
        };
        let rewritten = rewritten.map_err(|refusal| match refusal {
            Refusal::Unsupported(why) => {
                self.unsupported(format!("{what} not supported yet: {why}"), span)
            }
            Refusal::Budget(err) => {
                self.over_budget = Some(err);
                self.error(format!("the budget ran out reading this {what}"), span)
            }
        })?;
        Ok(match widths {
            Some(widths) => Expr::alt([rewritten].into_iter().chain(widths).collect()),
            None => rewritten,
        })
    }

    /// The `yes|no` branches of a conditional, up to its closing parenthesis.
    fn parse_branches(&mut self, start: usize) -> Result<(Expr, Expr), ParseError> {
        let saved = self.flags;
        self.depth += 1;
        let level = self.open_level();
        let yes = self.parse_concat()?;
        // The no branch, written or empty: a group in the yes branch may not take part.
        let written = self.eat("|");
        if let Some(last) = self.levels.last_mut() {
            last.1 += 1;
        }
        let no = if written { self.parse_concat()? } else { Expr::Empty };
        self.close_level(level);
        self.depth -= 1;
        self.flags = saved;
        if self.peek() == Some('|') {
            return Err(self.error("a conditional has at most two branches", start..self.pos + 1));
        }
        if !self.eat(")") {
            return Err(self.error("unclosed group", start..start + 1));
        }
        let measured = self.looks.last().is_some_and(|&(_, ahead)| !ahead);
        if self.dialect == Dialect::Pcre && measured && !written && !yes.is_zero_width() {
            return Err(self.unsupported(
                "a conditional without a no branch in a lookbehind is not supported in PCRE: \
                 PCRE2 10.42 measures it by its yes branch and lets the lookbehind end before \
                 the current position when the condition fails",
                start..self.pos,
            ));
        }
        Ok((yes, no))
    }

    /// `(?(?=X)yes|no)` and the other lookarounds as conditions: `(?=X)yes|(?!X)no`.
    fn parse_look_conditional(&mut self, start: usize) -> Result<Expr, ParseError> {
        self.otherwise = None;
        let condition = self.parse_group()?;
        let otherwise = match self.otherwise.take() {
            Some(Otherwise::Negation(negation)) => Some(negation),
            Some(Otherwise::Passing(look)) => Some(self.passing(look)?),
            Some(Otherwise::Unavailable) => {
                return Err(self.unsupported(
                    "a conditional on a lookbehind that reads values from outside it and whose \
                     groups are read outside it is not supported",
                    start..self.pos,
                ));
            }
            None => negated_condition(&condition),
        };
        let Some(otherwise) = otherwise else {
            return Err(self.error("a conditional needs a condition", start..self.pos));
        };
        let (yes, no) = self.parse_branches(start)?;
        Ok(Expr::alt(vec![Expr::concat(vec![condition, yes]), Expr::concat(vec![otherwise, no])]))
    }

    fn parse_group(&mut self) -> Result<Expr, ParseError> {
        let start = self.pos;
        self.pos += 1;
        // Java reads a group's `?` past whitespace and comments under `(?x)` (`( ?:a)`).
        if self.dialect == Dialect::Java {
            self.skip_verbose();
        }
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
            GroupKind::BranchReset => {
                self.reset_next = true;
                self.parse_plain(start, self.flags)
            }
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
        let (n_groups, unordered) = (self.groups.len(), self.unordered.len());
        let (body_start, flags) = (self.pos, self.flags);
        let (n_backrefs, n_behind) = (self.backrefs.len(), self.behind_refs.len());
        self.looks.push((self.n_looks, ahead));
        self.n_looks += 1;
        let body = self.parse_group_body(start);
        let chain = std::mem::take(&mut self.java_chain);
        let body = body
            .and_then(|body| self.check_right_references().map(|()| body))
            .and_then(|body| self.expand_inside(body, body_start, flags, n_groups, n_backrefs));
        let look = body.and_then(|body| {
            if ahead {
                let span = start..self.pos;
                let look = Look { ahead, body, n_groups, unordered, span };
                return self.lookaround(look, negated);
            }
            let window = self.check_behind(&body, &chain, start)?;
            let body = match window {
                java::Window::Shorter(max) => java::within(&body, max).ok_or_else(|| {
                    self.unsupported(
                        "the paths of a Java lookbehind within its window take too many nodes: \
                         too large",
                        start..self.pos,
                    )
                })?,
                _ => body,
            };
            let body_at = (body_start, flags);
            let look = self.expand_behind(body, negated, body_at, n_groups, n_behind, unordered)?;
            let every_start = matches!(window, java::Window::Whole | java::Window::Shorter(_));
            if !every_start && self.otherwise.is_some() {
                return Err(self.unsupported(
                    "a Java lookbehind whose groups are read outside it is only supported where \
                     Java tries it at every position",
                    start..self.pos,
                ));
            }
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
            // Where a character above U+FFFF stands from the lookbehind on, Java counts its
            // window in code points (`BehindS`), and a maximum wrapped below 0 counts forward:
            // it tries starts as far back as the text after the position is long.
            let counted = self.pattern[start..].chars().any(|c| u32::from(c) > 0xFFFF);
            if counted && study.max < 0 {
                return Err(self.unsupported(
                    "a Java lookbehind whose maximum length wraps below 0 is not supported in a \
                     pattern with a character above U+FFFF from it on: Java then looks back as \
                     far as the text after the position is long, which is not regular",
                    start..self.pos,
                ));
            }
            return Ok(java::window(&study, max_width(body)));
        }
        // The first pass measured the body as written; the second one's tracked groups
        // are rewritten (`capture.rs`), with branches that match nothing.
        let written = self.tracked.is_empty();
        if written
            && self.dialect == Dialect::Pcre
            && max_width(body).is_none_or(|width| width > 255)
        {
            return Err(self.error(
                "lookbehind assertion is not fixed length: PCRE's lookbehind body must match \
                 strings of at most 255 characters",
                start..self.pos,
            ));
        }
        if written && self.dialect == Dialect::Python && fixed_width(body).is_none() {
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
        let (n_groups, unordered) = (self.groups.len(), self.unordered.len());
        let body = self.parse_group_body(start)?;
        self.java_atom = Some(java::Atom::Independent(std::mem::take(&mut self.java_chain)));
        self.groups[n_groups..].iter_mut().for_each(|group| group.in_atomic = true);
        self.atomic(body, "atomic group", start..self.pos, unordered)
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
        let number = self.next_group;
        self.next_group += 1;
        if number as usize <= self.groups.len() {
            // A later branch of a branch reset: the number's group again.
            self.reopen_group(number, name, start)?;
            let body = self.parse_group_body(start)?;
            self.java_atom = Some(java::Atom::Group(std::mem::take(&mut self.java_chain)));
            self.merge_occurrence(number, start, &body)?;
            return self.captured(number, body);
        }
        if let Some(name) = &name
            && self.duplicate_name(name, None)
        {
            return Err(self.error(format!("duplicate group name `{name}`"), start..self.pos));
        }
        self.groups.push(Group {
            name,
            span: start..start,
            path: self.levels.clone(),
            closed: false,
            varies: false,
            optional: false,
            closes: Some(1),
            strings: Arc::from([]),
            error: None,
            value_error: None,
            looks: self.looks.clone(),
            values: Vec::new(),
            holds_reference: false,
            width: None,
            in_atomic: false,
            body: None,
        });
        let body = self.parse_group_body(start)?;
        self.java_atom = Some(java::Atom::Group(std::mem::take(&mut self.java_chain)));
        let found = self.group_strings(number, &body);
        // Why a group with lookarounds has no values either (read before `group` borrows).
        let look_values = (found.is_err() && body.has_look())
            .then(|| value_strings(&self.untagged(&body)).err())
            .flatten();
        let group = &mut self.groups[number as usize - 1];
        group.closed = true;
        group.span = start..self.pos;
        match found {
            Ok(found) => group.strings = found,
            // A reference inside stands for its strings only in the second pass.
            Err(why) if group.holds_reference => group.error = Some(why),
            Err(why) => {
                group.value_error = if body.has_look() { look_values } else { Some(why.clone()) };
                group.error = Some(why);
            }
        }
        if self.tags.is_some() && (self.copy_references || group.value_error.is_some()) {
            group.body = Some(body.clone());
        }
        group.width = fixed_width(&body);
        self.captured(number, body)
    }

    /// Whether another group than the one at `except` has the name `name` where names
    /// must differ.
    fn duplicate_name(&self, name: &str, except: Option<usize>) -> bool {
        let taken = self
            .groups
            .iter()
            .enumerate()
            .any(|(idx, group)| Some(idx) != except && group.name.as_deref() == Some(name));
        taken && self.dialect != Dialect::Rust && !self.flags.duplicate_names
    }

    /// Group `number`, just read with `body`: as the reading in progress takes it.
    fn captured(&mut self, number: u32, body: Expr) -> Result<Expr, ParseError> {
        self.last_capture = Some(number);
        if self.tracked.contains(&number) {
            return self.tracked_capture(number, body);
        }
        Ok(match self.bindings.get(&number) {
            // The group's paths that match the text, with the values they set: none when
            // the groups inside are read as strings that do not make up this one.
            Some(Binding::Text(text)) => {
                let span = self.groups[number as usize - 1].span.clone();
                let restricted = if self.tags.is_some() {
                    let chars: Vec<_> = text.chars().map(capture::Tagged).collect();
                    capture::restrict(&body, &chars, &mut 0)
                } else {
                    capture::restrict(&body, &text.chars().collect::<Vec<_>>(), &mut 0)
                };
                restricted.ok_or_else(|| {
                    self.unsupported(
                        format!(
                            "the paths of this group that match one of its strings take more \
                             than {} nodes: too large",
                            capture::MAX_NODES
                        ),
                        span,
                    )
                })?
            }
            Some(Binding::Unset) => Expr::set(CharSet::empty()),
            Some(Binding::Set) | None => body,
        })
    }

    /// Reads what follows `(`: the kind of group, consuming its opening syntax.
    fn group_kind(&mut self, start: usize) -> Result<GroupKind, ParseError> {
        let dialect = self.dialect;
        if dialect == Dialect::Pcre && self.eat("*") {
            return self.pcre_verb(start);
        }
        if !self.eat("?") {
            if self.flags.no_auto_capture {
                return Ok(GroupKind::Plain(self.flags));
            }
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
            return match self.named_group(name) {
                Named::One(number) => Ok(GroupKind::Conditional(number)),
                // Stands for the group until the pattern is read again.
                Named::Ahead => Ok(GroupKind::Conditional(self.groups.len() as u32 + 1)),
                Named::Several | Named::Unknown => Err(self.unsupported(
                    "conditionals are only supported on a group's number or name (not on \
                     lookarounds, recursion or DEFINE)",
                    start..self.pos,
                )),
            };
        }
        if self.rest().starts_with('(') {
            return Err(self.unsupported("conditionals are not supported", start..self.pos + 1));
        }
        if self.rest().starts_with('|') {
            if dialect == Dialect::Pcre {
                self.pos += 1;
                return Ok(GroupKind::BranchReset);
            }
            return Err(self.unsupported(
                format!("branch reset `(?|...)` is PCRE's, not supported in {dialect}"),
                opening(self),
            ));
        }
        if self.rest().starts_with(['R', '&'])
            || self.rest().starts_with(|c: char| {
                c.is_ascii_digit()
                    || c == '+'
                    || c == '-' && self.rest()[1..].starts_with(|d: char| d.is_ascii_digit())
            })
        {
            return Err(
                self.unsupported("recursion and subroutine calls are not supported", opening(self))
            );
        }
        if dialect == Dialect::Pcre && self.rest().starts_with(['C', '*']) {
            let what = if self.rest().starts_with('C') {
                "callouts `(?C...)` are"
            } else {
                "non-atomic lookarounds `(?*...)` are"
            };
            return Err(self.unsupported(format!("{what} not supported"), opening(self)));
        }
        if dialect == Dialect::Python && self.rest().starts_with('t') {
            return Err(self.unsupported(
                "Python's (?t) (TEMPLATE, undocumented) is not supported",
                start..self.pos + 1,
            ));
        }
        // Flags: (?imsx-imsx) or (?imsx-imsx:...).
        let mut flags = self.flags;
        let mut on = true;
        // The flag read last, and the class flag (`a` or `u`) Python's group chose.
        let (mut previous, mut python_classes) = ('?', None);
        loop {
            if dialect == Dialect::Java {
                self.skip_verbose_under(flags.verbose);
            }
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
                '-' if !on || previous == '^' => {
                    let message = if on { "no `-` after `^`" } else { "one `-` at most" };
                    return Err(self.error(format!("a flag group has {message}"), start..self.pos));
                }
                // Python and JavaScript want a flag after `-`.
                ':' | ')'
                    if previous == '-' && matches!(dialect, Dialect::Python | Dialect::Js) =>
                {
                    return Err(self.error("missing flag after `-`", start..self.pos));
                }
                // Python: `a`, `u` and `L` choose the classes, one at most.
                'a' | 'u'
                    if dialect == Dialect::Python
                        && python_classes.is_some_and(|chosen| chosen != c) =>
                {
                    return Err(self.error(
                        "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                        start..self.pos,
                    ));
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
                'n' if dialect == Dialect::Pcre => flags.no_auto_capture = on,
                'd' if dialect == Dialect::Java => flags.unix_lines = on,
                // PCRE2: `(?^)` turns `i`, `m`, `n`, `s` and `x` off first.
                '^' if dialect == Dialect::Pcre && self.pos == start + 3 => {
                    flags.case_insensitive = false;
                    flags.multi_line = false;
                    flags.dot_all = false;
                    flags.verbose = false;
                    flags.verbose_classes = false;
                    flags.no_auto_capture = false;
                }
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
                // Rust: Unicode mode is on already; off, classes and `.` read bytes.
                'u' if dialect == Dialect::Rust && on => {}
                'u' if dialect == Dialect::Rust => {
                    return Err(self.unsupported(
                        "(?-u) is not supported: patterns match Unicode text",
                        start..self.pos,
                    ));
                }
                'c' if dialect == Dialect::Java => {
                    return Err(self.unsupported(
                        "Java's (?c) (canonical equivalence) is not supported",
                        start..self.pos,
                    ));
                }
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
            if dialect == Dialect::Python && matches!(c, 'a' | 'u') {
                python_classes = Some(c);
            }
            previous = c;
        }
    }
}

impl Parser<'_> {
    /// PCRE2's `(*...)` after its `(*`: an alphabetic assertion (`(*pla:...)` is `(?=...)`,
    /// `(*atomic:...)` is `(?>...)`), `(*FAIL)`, a mark, or at the start of the pattern an option
    /// that leaves the language alone (`(*UTF)`, `(*LIMIT_MATCH=10)`). Options that change
    /// what `$`, `.`, `\R` or `\w` mean, and the backtracking control verbs, are refused.
    fn pcre_verb(&mut self, start: usize) -> Result<GroupKind, ParseError> {
        let name_len = self.rest().find([':', ')']).unwrap_or(self.rest().len());
        let name = &self.rest()[..name_len];
        let assertion = match name {
            "pla" | "positive_lookahead" => Some(GroupKind::Look { ahead: true, negated: false }),
            "nla" | "negative_lookahead" => Some(GroupKind::Look { ahead: true, negated: true }),
            "plb" | "positive_lookbehind" => Some(GroupKind::Look { ahead: false, negated: false }),
            "nlb" | "negative_lookbehind" => Some(GroupKind::Look { ahead: false, negated: true }),
            "atomic" => Some(GroupKind::Atomic),
            _ => None,
        };
        let opening = start..self.pos + name_len + 1;
        if let Some(kind) = assertion.filter(|_| self.rest()[name_len..].starts_with(':')) {
            self.pos += name_len + 1;
            return Ok(kind);
        }
        if matches!(name, "MARK" | "") && self.rest()[name_len..].starts_with(':') {
            // A mark only names the path that reached it.
            let end = self
                .rest()
                .find(')')
                .ok_or_else(|| self.error("unclosed (*MARK)", opening.clone()))?;
            self.pos += end + 1;
            // `(*MARK:m)*` is PCRE2's error 109, as for an option.
            self.unquantifiable = true;
            return Ok(GroupKind::Reference(Expr::Empty));
        }
        if !self.rest()[name_len..].starts_with(')') {
            let what = if name.is_empty() { "(*:NAME)" } else { name };
            return Err(self.unsupported(format!("(*{what}...) is not supported"), opening));
        }
        let at_start = is_pcre_options(&self.pattern[..start]);
        let limit =
            ["LIMIT_HEAP=", "LIMIT_MATCH=", "LIMIT_DEPTH=", "LIMIT_RECURSION="].iter().any(|key| {
                name.strip_prefix(key)
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            });
        let kind = match name {
            "FAIL" | "F" => GroupKind::Reference(Expr::set(CharSet::empty())),
            "UTF" | "LF" | "BSR_UNICODE" | "NO_AUTO_POSSESS" | "NO_DOTSTAR_ANCHOR" | "NO_JIT"
            | "NO_START_OPT"
                if at_start =>
            {
                GroupKind::Reference(Expr::Empty)
            }
            _ if limit && at_start => GroupKind::Reference(Expr::Empty),
            // Unicode `\d`, `\s`, `\w`, `\b` and POSIX classes (`class.rs`).
            "UCP" if at_start => {
                self.flags.unicode_classes = true;
                GroupKind::Reference(Expr::Empty)
            }
            "CR" | "CRLF" | "ANYCRLF" | "ANY" | "NUL" | "BSR_ANYCRLF" | "NOTEMPTY"
            | "NOTEMPTY_ATSTART" | "ACCEPT" | "COMMIT" | "PRUNE" | "SKIP" | "THEN" => {
                return Err(self.unsupported(
                    format!("(*{name}) is not supported: it changes how PCRE2 matches"),
                    opening,
                ));
            }
            _ => {
                return Err(self.error(
                    format!("(*{name}) is not recognized here (options stand at the start)"),
                    opening,
                ));
            }
        };
        self.pos += name_len + 1;
        // `(*FAIL)?` is PCRE2's error 109, as for an option.
        self.unquantifiable = true;
        Ok(kind)
    }
}

/// Whether `prefix` is only PCRE2 start-of-pattern options, `(*NAME)` each.
fn is_pcre_options(prefix: &str) -> bool {
    let mut rest = prefix;
    while let Some(after) = rest.strip_prefix("(*") {
        match after.find(')') {
            Some(end) if !after[..end].contains(['(', ':']) => rest = &after[end + 1..],
            _ => return false,
        }
    }
    rest.is_empty()
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
    /// PCRE's `(?|...)`: a group whose branches number their groups alike.
    BranchReset,
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
        // `X{0}` is "" whatever X (Python's `getwidth`: 0 times X's widths).
        Expr::Repeat { max: Some(0), .. } => Some(0),
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
