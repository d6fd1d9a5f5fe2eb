//! The regex front end: pattern text to a validated `regex-syntax` HIR.
//!
//! # Overview
//! [`parse`] turns a pattern of the relang dialect into a [`Hir`] that only holds
//! regular-language constructs, or a [`ParseError`] that points at the offending span.
//! [`parse_class`] reads a single character class of the same dialect (the `charset` of
//! string generation) into a [`CharSet`].
//!
//! The dialect is Rust `regex` syntax with Unicode on, every pattern anchored at both ends,
//! and `.` matching every character including `\n`. `[]` (the whole pattern) is the empty
//! language; the empty pattern is {""}. Lazy quantifiers mean the same language as greedy
//! ones, captures are plain groups.
//!
//! # Algorithm
//! A pattern of the common shapes (literals, Perl classes, bracketed classes, groups,
//! alternation, quantifiers) is read straight to the same HIR (`direct_hir.rs`), in one
//! pass without an AST. Any other takes two passes of `regex-syntax`: the AST parser (which already rejects look-around and
//! backreferences with a span), a walk over the AST that rejects word boundaries and every
//! anchor except a leading `^`/`\A` and a trailing `$`/`\z`, then the HIR translator. The
//! AST walk uses `regex-syntax`'s heap-based visitor, so deep patterns use no stack. Those
//! rejections are marked unsupported: `pattern::parse_in` then reads the pattern with the
//! lookaround front end (`pattern/`), whose answer or error is the one users see.
//!
//! # Invariants
//! - Every `Look` left in the returned HIR is a permitted boundary anchor, which means
//!   nothing for an implicitly anchored pattern: the NFA builder treats it as empty.
//! - Nesting is limited to [`NEST_LIMIT`], which bounds the recursion depth of every later
//!   pass over the HIR.

use std::fmt;

use regex_syntax::ast::{self, AssertionKind, Ast};
use regex_syntax::hir::{Hir, HirKind};

use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::direct_hir;
use crate::error::{Error, ParseError};

/// The deepest nesting of groups and repetitions a pattern may have.
///
/// # Example
/// ```
/// use langcore::{Language, NEST_LIMIT};
///
/// let nested = |depth: usize| format!("{}a{}", "(".repeat(depth), ")".repeat(depth));
/// assert!(Language::from_regex(&nested(10)).is_ok());
/// assert!(Language::from_regex(&nested(2 * NEST_LIMIT as usize)).is_err());
/// ```
pub const NEST_LIMIT: u32 = 250;

/// What a character class given where a class is expected must look like.
const NOT_A_CLASS: &str =
    "expected a single character class, such as [a-z], \\p{Greek}, \\d or one character";

/// Bytes the parser's trees (AST, then HIR) may take per byte of pattern, at their peak:
/// measured at about 300 for a pattern of bracketed classes (`[ab][ab]...`), 90 for letters.
const TREE_BYTES_PER_PATTERN_BYTE: usize = 320;
/// Bytes the HIR of one Unicode or Perl class (`\w`, `\p{L}`) may take: each becomes a
/// table of ranges, about 6 KiB for `\w`.
const UNICODE_CLASS_BYTES: usize = 8 << 10;
/// Bytes one Unicode or Perl class may take under case folding (`(?i)\PL`): folding adds
/// the case variants of every range and sorts them again, measured at about 37 KiB.
const FOLDED_CLASS_BYTES: usize = 48 << 10;

/// Parses `pattern` in the relang dialect.
///
/// # Budgets
/// `regex-syntax` cannot be interrupted, so the memory limit is charged before anything is
/// built ([`Operation::Parse`], [`charge`]): the pattern's length times
/// [`TREE_BYTES_PER_PATTERN_BYTE`] for the trees, plus [`class_bytes`] for the tables of
/// its Unicode classes, which is what keeps a megabyte of `\w` from taking gigabytes. A
/// refused pattern allocates nothing, so it leaves nothing behind either. The deadline is
/// checked between passes.
pub(crate) fn parse(pattern: &str, budget: &Budget) -> Result<Hir, Error> {
    if is_empty_class(pattern) {
        return Ok(Hir::fail());
    }
    charge(pattern, budget)?;
    if let Some(hir) = direct_hir::parse(pattern) {
        budget.check_time(Operation::Parse)?;
        return Ok(hir);
    }
    let ast = parse_ast(pattern)?;
    if needs_walk(pattern) {
        ast::visit(&ast, AstCheck { pattern, start: start_offset(pattern) })?;
    }
    budget.check_time(Operation::Parse)?;
    translate_items(pattern, &ast, budget)
}

/// [`translate`] with the deadline checked between the items of a top-level concatenation,
/// each translated on its own under the flags in force where it stands, then concatenated:
/// the same HIR (`Hir::concat` merges literals and flattens as the translator does), but a
/// pattern of many costly items (1,000 case-folded `[\p{L}--\p{Lu}]` take 250 ms in a
/// debug build) stops at its deadline instead of after its last item (issue 17). Weak
/// spot: the items of a group, or of a top-level alternation, are translated at once.
fn translate_items(pattern: &str, ast: &Ast, budget: &Budget) -> Result<Hir, Error> {
    let Ast::Concat(concat) = ast else { return Ok(translate(pattern, ast)?) };
    let mut flags = ItemFlags::default();
    let mut items = Vec::with_capacity(concat.asts.len());
    for item in &concat.asts {
        budget.check_time(Operation::Parse)?;
        match item {
            Ast::Flags(set) => flags.set(&set.flags),
            item => items.push(flags.translate(pattern, item)?),
        }
    }
    Ok(Hir::concat(items))
}

/// The translator's flags at one item of a concatenation: ours ([`translate`]), changed by
/// the flag groups before it.
#[derive(Clone, Copy, Debug)]
struct ItemFlags {
    case_insensitive: bool,
    multi_line: bool,
    dot_matches_new_line: bool,
    swap_greed: bool,
    unicode: bool,
    crlf: bool,
}

impl Default for ItemFlags {
    fn default() -> ItemFlags {
        ItemFlags {
            case_insensitive: false,
            multi_line: false,
            dot_matches_new_line: true,
            swap_greed: false,
            unicode: true,
            crlf: false,
        }
    }
}

impl ItemFlags {
    /// Applies a flag group such as `(?i-s)`: flags after `-` are turned off.
    fn set(&mut self, flags: &ast::Flags) {
        let mut on = true;
        for item in &flags.items {
            match item.kind {
                ast::FlagsItemKind::Negation => on = false,
                ast::FlagsItemKind::Flag(flag) => match flag {
                    ast::Flag::CaseInsensitive => self.case_insensitive = on,
                    ast::Flag::MultiLine => self.multi_line = on,
                    ast::Flag::DotMatchesNewLine => self.dot_matches_new_line = on,
                    ast::Flag::SwapGreed => self.swap_greed = on,
                    ast::Flag::Unicode => self.unicode = on,
                    ast::Flag::CRLF => self.crlf = on,
                    // Read by the parser, which already skipped the whitespace.
                    ast::Flag::IgnoreWhitespace => {}
                },
            }
        }
    }

    /// The HIR of `item` of `pattern` under these flags.
    fn translate(self, pattern: &str, item: &Ast) -> Result<Hir, ParseError> {
        regex_syntax::hir::translate::TranslatorBuilder::new()
            .utf8(true)
            .case_insensitive(self.case_insensitive)
            .multi_line(self.multi_line)
            .dot_matches_new_line(self.dot_matches_new_line)
            .swap_greed(self.swap_greed)
            .unicode(self.unicode)
            .crlf(self.crlf)
            .build()
            .translate(pattern, item)
            .map_err(|err| ParseError::new(pattern, err.kind(), err.span()))
    }
}

/// Charges what parsing and translating `pattern` may take to the memory limit, before
/// any of it is built.
fn charge(pattern: &str, budget: &Budget) -> Result<(), BudgetError> {
    let tree_bytes = pattern.len().saturating_mul(TREE_BYTES_PER_PATTERN_BYTE);
    budget.check_memory(Operation::Parse, tree_bytes.saturating_add(class_bytes(pattern)))
}

/// An upper bound, from the text alone, of what the Unicode and Perl classes of `pattern`
/// take once translated: [`UNICODE_CLASS_BYTES`] per class, [`FOLDED_CLASS_BYTES`] once an
/// `i` flag is written anywhere (flags apply only after they are set, so this never
/// undercharges). Every such class is written as a backslash and one of `pPwWdDsS`, so
/// counting those counts them all, and an escaped backslash before such a letter at worst
/// overcharges.
fn class_bytes(pattern: &str) -> usize {
    let bytes = pattern.as_bytes();
    let n_classes =
        bytes.windows(2).filter(|pair| pair[0] == b'\\' && b"pPwWdDsS".contains(&pair[1])).count();
    let folds = pattern.match_indices("(?").any(|(at, _)| {
        let flags = pattern[at + 2..].bytes().take_while(|&b| b.is_ascii_alphabetic() || b == b'-');
        flags.take_while(|&b| b != b'-').any(|b| b == b'i')
    });
    let cost = if folds { FOLDED_CLASS_BYTES } else { UNICODE_CLASS_BYTES };
    n_classes.saturating_mul(cost)
}

/// Whether `left` and `right` are the same expression once groups are ignored (a group
/// only captures, which means nothing here), and so certainly the same language: the cheap
/// test that settles `(a|b)*abb` against `[ab]*abb` before any automaton is built, since
/// the translator already folds single-character alternations into classes. Laziness is
/// ignored too. Recursion follows the nesting, which [`NEST_LIMIT`] bounds.
pub(crate) fn is_same_expression(left: &Hir, right: &Hir) -> bool {
    let (left, right) = (without_groups(left), without_groups(right));
    match (left.kind(), right.kind()) {
        (HirKind::Empty | HirKind::Look(_), HirKind::Empty | HirKind::Look(_)) => true,
        (HirKind::Literal(left), HirKind::Literal(right)) => left == right,
        (HirKind::Class(left), HirKind::Class(right)) => left == right,
        (HirKind::Repetition(left), HirKind::Repetition(right)) => {
            left.min == right.min
                && left.max == right.max
                && is_same_expression(&left.sub, &right.sub)
        }
        (HirKind::Concat(left), HirKind::Concat(right))
        | (HirKind::Alternation(left), HirKind::Alternation(right)) => {
            left.len() == right.len()
                && left.iter().zip(right).all(|(left, right)| is_same_expression(left, right))
        }
        _ => false,
    }
}

/// `hir` without the groups around it.
fn without_groups(mut hir: &Hir) -> &Hir {
    while let HirKind::Capture(capture) = hir.kind() {
        hir = &capture.sub;
    }
    hir
}

/// Parses `class`, one character class of the dialect: a bracketed class (`[a-z]`,
/// `[^\x00-\x1f]`, `[]` for the empty set), a Unicode or Perl class (`\p{Greek}`, `\d`),
/// `.` (every character) or a single literal character. Anything else, even a pattern that
/// means a set of single characters such as `a|b`, is an error spanning the whole input.
pub(crate) fn parse_class(class: &str) -> Result<CharSet, ParseError> {
    if class == "[]" {
        return Ok(CharSet::empty());
    }
    class_in(class, &parse_ast(class)?)
}

/// The set `ast`, parsed from `class`, means, as [`parse_class`] reads it.
fn class_in(class: &str, ast: &Ast) -> Result<CharSet, ParseError> {
    let whole = ast::Span::new(ast::Position::new(0, 1, 1), ast::Position::new(class.len(), 1, 1));
    if !matches!(
        ast,
        Ast::Literal(_)
            | Ast::Dot(_)
            | Ast::ClassUnicode(_)
            | Ast::ClassPerl(_)
            | Ast::ClassBracketed(_)
    ) {
        return Err(ParseError::new(class, NOT_A_CLASS, &whole));
    }
    class_of(&translate(class, ast)?).ok_or_else(|| ParseError::new(class, NOT_A_CLASS, &whole))
}

/// The set of characters a class's HIR matches, if it is one character's.
fn class_of(hir: &Hir) -> Option<CharSet> {
    match hir.kind() {
        HirKind::Class(set) => Some(CharSet::from_hir_class(set)),
        HirKind::Literal(literal) => {
            let mut chars = std::str::from_utf8(&literal.0).unwrap_or_default().chars();
            match (chars.next(), chars.next()) {
                (Some(only), None) => Some(CharSet::singleton(only)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// [`parse_class`] with the deadline checked between the items of a bracket class's union,
/// each translated alone (their union is the class's): a class of 1,200 nested set
/// operations takes a debug build a third of a second, which one translation could not
/// stop at the deadline.
fn parse_class_within(class: &str, budget: &Budget) -> Result<CharSet, Error> {
    // `[]` and errors as `parse_class` has them.
    let Ok(ast) = parse_ast(class) else { return Ok(parse_class(class)?) };
    // One parse serves both roads: a class that is not a bracket union is read whole.
    let union = match &ast {
        Ast::ClassBracketed(bracketed) => match &bracketed.kind {
            ast::ClassSet::Item(ast::ClassSetItem::Union(union)) => Some((bracketed, union)),
            _ => None,
        },
        _ => None,
    };
    let Some((bracketed, union)) = union else { return Ok(class_in(class, &ast)?) };
    let mut set = CharSet::empty();
    for item in &union.items {
        budget.check_time(Operation::Parse)?;
        let kind = ast::ClassSet::Item(item.clone());
        let alone = ast::ClassBracketed { span: bracketed.span, negated: false, kind };
        match class_of(&translate(class, &Ast::class_bracketed(alone))?) {
            Some(part) => set = set.union(&part),
            None => return Ok(class_in(class, &ast)?),
        }
    }
    Ok(if bracketed.negated { set.complement() } else { set })
}

/// The AST of `pattern`, with nesting limited to [`NEST_LIMIT`].
fn parse_ast(pattern: &str) -> Result<Ast, ParseError> {
    ast::parse::ParserBuilder::new().nest_limit(NEST_LIMIT).build().parse(pattern).map_err(|err| {
        match err.kind() {
            // Read by `pattern/` instead (see `pattern::parse_in`).
            ast::ErrorKind::UnsupportedLookAround | ast::ErrorKind::UnsupportedBackreference => {
                let span = err.span();
                ParseError::unsupported_at(pattern, err.kind(), span.start.offset..span.end.offset)
            }
            _ => ParseError::new(pattern, err.kind(), err.span()),
        }
    })
}

/// The HIR of a parsed pattern: Unicode on, `.` matching `\n` too.
fn translate(pattern: &str, ast: &Ast) -> Result<Hir, ParseError> {
    ItemFlags::default().translate(pattern, ast)
}

/// Whether the AST walk has anything to find: every assertion and every Unicode or Perl
/// class is written with `^`, `$` or a backslash (`\A`, `\b`, `\w`, `\p{L}`). Most
/// patterns have none, and the walk costs as much as parsing them.
fn needs_walk(pattern: &str) -> bool {
    pattern.contains(['^', '$', '\\'])
}

/// `[]` is not valid `regex-syntax` (it opens a class starting with `]`), but the contract
/// spells the empty language that way, also between the permitted anchors.
fn is_empty_class(pattern: &str) -> bool {
    let pattern = pattern.strip_prefix('^').unwrap_or(pattern);
    let pattern = pattern.strip_suffix('$').unwrap_or(pattern);
    pattern == "[]"
}

/// Where a start anchor may stand: after any leading flag groups such as `(?i)`.
///
/// An anchor there or a `$`/`\z` that ends the pattern can only be reached with nothing
/// consumed before it (or nothing left after it), so under implicit anchoring it means
/// nothing, whatever alternation it belongs to.
fn start_offset(pattern: &str) -> usize {
    let mut offset = 0;
    while let Some(group) = pattern[offset..].strip_prefix("(?") {
        let Some(close) = group.find(')') else { break };
        if !group[..close].chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
            break;
        }
        offset += 2 + close + 1;
    }
    offset
}

/// Rejects every assertion that is not one of the permitted boundary anchors.
struct AstCheck<'p> {
    pattern: &'p str,
    /// The offset a start anchor must have, see [`start_offset`].
    start: usize,
}

impl ast::Visitor for AstCheck<'_> {
    type Output = ();
    type Err = ParseError;

    fn finish(self) -> Result<(), ParseError> {
        Ok(())
    }

    fn visit_pre(&mut self, ast: &Ast) -> Result<(), ParseError> {
        let Ast::Assertion(assertion) = ast else { return Ok(()) };
        let span = &assertion.span;
        let what = match assertion.kind {
            AssertionKind::StartLine | AssertionKind::StartText
                if span.start.offset == self.start =>
            {
                return Ok(());
            }
            AssertionKind::EndLine | AssertionKind::EndText
                if span.end.offset == self.pattern.len() =>
            {
                return Ok(());
            }
            AssertionKind::StartLine
            | AssertionKind::EndLine
            | AssertionKind::StartText
            | AssertionKind::EndText => {
                "an anchor inside the pattern needs the lookaround front end"
            }
            _ => "a word boundary needs the lookaround front end",
        };
        // Not an error of the pattern: `pattern::parse_in` reads it with `pattern/`.
        Err(ParseError::unsupported_at(self.pattern, what, span.start.offset..span.end.offset))
    }
}

/// Errors at a span of `regex-syntax`'s AST.
impl ParseError {
    fn new(pattern: &str, message: impl fmt::Display, span: &ast::Span) -> ParseError {
        ParseError::at(pattern, message, span.start.offset..span.end.offset)
    }
}

/// Parsing a single class, for callers that hold a [`CharSet`].
impl CharSet {
    /// The set that one character class of the pattern dialect denotes: a bracketed class
    /// (`[a-z]`, `[^\x00-\x1f]`, `[]` for the empty set), a Unicode or Perl class
    /// (`\p{Greek}`, `\d`, `\w`), `.` for every character, or a single literal character.
    /// This is how the `charset` of string generation is given.
    ///
    /// # Errors
    /// A [`ParseError`] for invalid syntax, and for anything that is not exactly one class,
    /// even a pattern that denotes a set of single characters such as `a|b`.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    ///
    /// assert_eq!(CharSet::parse("[a-f0-9]")?, CharSet::from_ranges([('0', '9'), ('a', 'f')]));
    /// assert!(CharSet::parse(r"\p{Greek}")?.contains('λ'));
    /// assert_eq!(CharSet::parse("x")?, CharSet::singleton('x'));
    /// assert!(CharSet::parse("[a-z]+").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse(class: &str) -> Result<CharSet, ParseError> {
        parse_class(class)
    }

    /// [`CharSet::parse`] under `budget` ([`Operation::Parse`]): the syntax tree's memory
    /// and the tables of its Unicode classes (as for a pattern) are charged and the deadline
    /// checked before parsing, and between the items of a bracket class; the set's own
    /// memory is charged and the deadline checked again after it. Each item's translation
    /// cannot be interrupted, but it is linear in its text except for Unicode classes, whose
    /// sets are bounded by the number of scalar values.
    ///
    /// # Errors
    /// [`Error::Parse`] as [`CharSet::parse`], or [`Error::Budget`] when the budget runs out.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    /// use langcore::{Budget, Error};
    ///
    /// let budget = Budget::unlimited();
    /// assert_eq!(CharSet::parse_with("[a-c]", &budget)?, CharSet::range('a', 'c'));
    /// let small = Budget::unlimited().with_max_memory(1_000);
    /// assert!(matches!(CharSet::parse_with("[a-z0-9_]", &small), Err(Error::Budget(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn parse_with(class: &str, budget: &Budget) -> Result<CharSet, Error> {
        let tree_bytes = class.len().saturating_mul(TREE_BYTES_PER_PATTERN_BYTE);
        charge(class, budget)?;
        budget.check_time(Operation::Parse)?;
        let set = parse_class_within(class, budget)?;
        let set_bytes = set.ranges().len().saturating_mul(size_of::<(char, char)>());
        budget.check_memory(Operation::Parse, tree_bytes.saturating_add(set_bytes))?;
        budget.check_time(Operation::Parse)?;
        Ok(set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`super::parse`] under the default budget, for patterns the budget never refuses.
    fn parse(pattern: &str) -> Result<Hir, ParseError> {
        super::parse(pattern, &Budget::default()).map_err(|err| match err {
            Error::Parse(err) => err,
            other => panic!("{pattern}: {other}"),
        })
    }

    #[test]
    fn charset_parse_with_agrees_with_parse_and_obeys_the_budget() {
        let unlimited = Budget::unlimited();
        for class in ["[a-f0-9]", r"\p{Greek}", ".", "x", "[]"] {
            assert_eq!(
                CharSet::parse_with(class, &unlimited).unwrap(),
                CharSet::parse(class).unwrap()
            );
        }
        assert!(matches!(CharSet::parse_with("a|b", &unlimited), Err(Error::Parse(_))));
        let tight = Budget::unlimited().with_max_memory(TREE_BYTES_PER_PATTERN_BYTE * 3);
        let err = CharSet::parse_with("[ab]", &tight).unwrap_err();
        assert!(matches!(err, Error::Budget(err) if err.operation() == Operation::Parse));
        // Fits before parsing, but `\w`'s hundreds of ranges do not.
        let words = Budget::unlimited().with_max_memory(TREE_BYTES_PER_PATTERN_BYTE * 2 + 64);
        assert!(matches!(CharSet::parse_with(r"\w", &words), Err(Error::Budget(_))));
        let expired = Budget::unlimited().with_deadline(std::time::Instant::now());
        assert!(matches!(CharSet::parse_with("[ab]", &expired), Err(Error::Budget(_))));
    }

    #[test]
    fn trees_are_charged_to_the_memory_limit_before_they_are_built() {
        let budget = Budget::default().with_max_memory(1 << 20);
        let too_long = "ab".repeat(2_000);
        let err = super::parse(&too_long, &budget).unwrap_err();
        assert_eq!(
            err,
            Error::Budget(BudgetError::TooMuchMemory { op: Operation::Parse, limit: 1 << 20 })
        );
        // Short, but each \w becomes a table of ranges.
        let classes = "\\w[\\pL]".repeat(64);
        assert!(matches!(super::parse(&classes, &budget), Err(Error::Budget(_))));
        assert!(super::parse(&"\\w".repeat(8), &budget).is_ok());
    }

    /// Case folding multiplies what a class costs (issue 17: `(?i)\PL` repeated took about
    /// 37 KiB each, and 13,500 of them half a gigabyte, under a charge of 8 KiB each).
    #[test]
    fn r17_folded_classes_are_charged_as_folded() {
        let budget = Budget::default().with_max_memory(1 << 20);
        let folded = format!("(?i){}", "\\PL".repeat(24));
        let err = super::parse(&folded, &budget).unwrap_err();
        assert_eq!(
            err,
            Error::Budget(BudgetError::TooMuchMemory { op: Operation::Parse, limit: 1 << 20 })
        );
        assert!(super::parse(&format!("(?i:a){}", "\\PL".repeat(24)), &budget).is_err());
        // The same classes unfolded, or with folding turned off, still fit.
        assert!(super::parse(&"\\PL".repeat(24), &budget).is_ok());
        assert!(super::parse(&format!("(?-i){}", "\\PL".repeat(24)), &budget).is_ok());
        assert_eq!(class_bytes("\\w[\\pL]\\d(?s:a)"), 3 * UNICODE_CLASS_BYTES);
        assert_eq!(class_bytes("(?s-i)\\w(?mi:a)\\s"), 2 * FOLDED_CLASS_BYTES);
    }

    /// A charset is charged like a pattern (issue 17: a charset of 100,000 `\p{L}` took
    /// over a second with a 50 ms deadline, uncharged).
    #[test]
    fn r17_charsets_are_charged_and_timed() {
        let budget = Budget::default().with_max_memory(1 << 20);
        let many = format!("[{}]", "\\p{L}".repeat(200));
        let err = CharSet::parse_with(&many, &budget).unwrap_err();
        assert_eq!(
            err,
            Error::Budget(BudgetError::TooMuchMemory { op: Operation::Parse, limit: 1 << 20 })
        );
        assert_eq!(CharSet::parse_with("[a-c]", &budget).unwrap(), parse_class("[a-c]").unwrap());
        let expired = Budget::unlimited().with_deadline(std::time::Instant::now());
        let err = CharSet::parse_with("\\p{L}", &expired).unwrap_err();
        assert_eq!(err, Error::Budget(BudgetError::Timeout { op: Operation::Parse }));
        assert!(matches!(CharSet::parse_with("a|b", &budget), Err(Error::Parse(_))));
    }

    /// A bracket class read item by item under a budget is the class read whole: negated,
    /// nested, with set operations, ranges, escapes, literal `^`, `-` and `]`.
    #[test]
    fn charsets_read_item_by_item_are_the_class_read_whole() {
        let budget = Budget::default();
        for class in [
            "[a-c]",
            "[^a-c]",
            "[]a]",
            "[a^]",
            "[-a]",
            "[a-]",
            "[\\^x]",
            "[\\d\\s]",
            "[^\\w]",
            "[\\p{L}--\\p{Lu}]",
            "[a[b-d]]",
            "[^a[^b]]",
            "[[:alpha:]_]",
            "[^[:^digit:]x]",
            "[\\p{Greek}\\P{L}&&\\p{N}]",
            "[x[\\p{L}--\\p{Lu}][0-9]]",
            "[\\x{1F600}a]",
            "[(?i:[\\p{L}--\\p{Lu}])a]",
            "[^\\p{L}[a-z]]",
            "[a-c~~b]",
            "[^]",
            "[\\]]",
            "a",
            "\\d",
            ".",
            "[^\\x00-\\x{10FFFF}]",
        ] {
            let whole = parse_class(class).map_err(|err| err.to_string());
            let items = CharSet::parse_with(class, &budget).map_err(|err| err.to_string());
            assert_eq!(items, whole, "{class}");
        }
        // A deadline passed stops between two items.
        let nested = format!("[{}]", "[\\p{L}--\\p{Lu}]".repeat(50));
        let expired = Budget::unlimited().with_deadline(std::time::Instant::now());
        let err = CharSet::parse_with(&nested, &expired).unwrap_err();
        assert_eq!(err, Error::Budget(BudgetError::Timeout { op: Operation::Parse }));
    }

    #[track_caller]
    fn check_rejected(pattern: &str, message_part: &str, span: std::ops::Range<usize>) {
        let err = parse(pattern).unwrap_err();
        assert!(err.message().contains(message_part), "{pattern}: {err}");
        assert_eq!(err.span(), span, "{pattern}: {err}");
    }

    #[test]
    fn rejects_look_around_and_backreferences() {
        check_rejected("ab(?=c)", "look-around", 2..5);
        check_rejected("a(?!b)", "look-around", 1..4);
        check_rejected("(?<=a)b", "look-around", 0..4);
        check_rejected("(a)\\1", "backreferences", 3..5);
    }

    #[test]
    fn same_expressions_ignore_groups_and_laziness_only() {
        let same = |left: &str, right: &str| {
            is_same_expression(&parse(left).unwrap(), &parse(right).unwrap())
        };
        assert!(same("(a|b)*abb", "[ab]*abb"));
        assert!(same("((x))+?y", "x+y"));
        assert!(same("b|a", "[ab]"));
        assert!(!same("ab|c", "c|ab"), "only syntax: reordered branches are left to the walk");
        assert!(!same("a{2}", "a{2,}"));
        assert!(!same("a*", "b*"));
    }

    /// Flag groups among the items, as leaves, so that items are translated under flags
    /// set, unset and set again.
    fn flagged_pattern() -> impl proptest::strategy::Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "B", "k", "\\w", ".", "[a-c]", "(?i)", "(?-i)", "(?i-s)", "(?U)", "(?s)", "\\n"],
            &["*", "+?", "{1,2}", "??"],
            3,
            16,
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]

        /// Item by item, the translation is the translator's own, flags included.
        #[test]
        fn items_translate_as_the_whole(pattern in flagged_pattern()) {
            let Ok(ast) = parse_ast(&pattern) else { return Ok(()) };
            let whole = translate(&pattern, &ast).map_err(Error::Parse);
            proptest::prop_assert_eq!(translate_items(&pattern, &ast, &Budget::unlimited()), whole);
        }
    }

    /// Many costly items stop at the deadline between two of them (issue 17: 1,000
    /// case-folded classes, 250 ms of translation in a debug build, went on after a 200 ms
    /// deadline was answered; the deadline was checked only before translating).
    #[test]
    fn r17_items_are_translated_under_the_deadline() {
        use std::time::{Duration, Instant};
        let folded = format!("(?i){}", "[\\p{L}--\\p{Lu}]".repeat(2_000));
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + Duration::from_millis(20));
        let err = super::parse(&folded, &budget).unwrap_err();
        assert_eq!(err, Error::Budget(BudgetError::Timeout { op: Operation::Parse }));
        // One item takes well under a millisecond, even in a debug build.
        let elapsed = started.elapsed();
        assert!(elapsed < Duration::from_millis(120), "{elapsed:?}");
    }

    #[test]
    fn rejects_word_boundaries() {
        check_rejected("a\\bc", "word boundary", 1..3);
        check_rejected("\\Bx", "word boundary", 0..2);
        check_rejected("x\\<", "word boundary", 1..3);
    }

    #[test]
    fn rejects_inner_anchors() {
        check_rejected("a^b", "anchor", 1..2);
        check_rejected("a$b", "anchor", 1..2);
        check_rejected("(^a)", "anchor", 1..2);
        check_rejected("a|^b", "anchor", 2..3);
        check_rejected("$a", "anchor", 0..1);
        check_rejected("a^", "anchor", 1..2);
        check_rejected("^^a", "anchor", 1..2);
    }

    #[test]
    fn accepts_boundary_anchors() {
        for pattern in
            ["^abc$", "^", "$", "^$", "\\Aabc\\z", "(?i)^abc$", "(?i)(?-s)^a", "^a|b$", "^*a"]
        {
            assert!(parse(pattern).is_ok(), "{pattern}");
        }
    }

    #[test]
    fn reports_syntax_errors_with_position() {
        check_rejected("a(b", "unclosed group", 1..2);
        check_rejected("a{3,2}", "invalid repetition", 1..6);
        let deep = "(".repeat(300) + &")".repeat(300);
        assert!(parse(&deep).unwrap_err().message().contains("nest"));
    }

    #[test]
    fn empty_class_pattern_is_the_empty_language() {
        for pattern in ["[]", "^[]$"] {
            assert_eq!(parse(pattern), Ok(Hir::fail()));
        }
        assert!(parse("[]a]").is_ok(), "a class starting with ] stays a class");
    }

    #[track_caller]
    fn check_class(class: &str, expected: &[(char, char)]) {
        let set = parse_class(class).unwrap_or_else(|err| panic!("{class}: {err}"));
        assert_eq!(set.ranges(), expected, "{class}");
    }

    #[test]
    fn classes_parse_to_their_sets() {
        check_class("[a-z]", &[('a', 'z')]);
        check_class("[^\\x00-\\x1f]", &[('\u{20}', char::MAX)]);
        check_class("x", &[('x', 'x')]);
        check_class("é", &[('é', 'é')]);
        check_class("\\.", &[('.', '.')]);
        check_class(".", &[('\0', char::MAX)]);
        check_class("[]", &[]);
        let digits = parse_class("\\d").unwrap();
        assert!(digits.contains('7') && digits.contains('٣') && !digits.contains('a'));
        assert_eq!(parse_class("\\p{Greek}").unwrap().len(), 518);
        assert!(parse_class("\\p{Greek}").unwrap().contains('λ'));
    }

    #[test]
    fn anything_but_one_class_is_rejected() {
        for class in ["", "ab", "[a-z]+", "a|b", "(a)", "^[a-z]$", "(?i)a", "[a-z]{2}"] {
            let err = parse_class(class).unwrap_err();
            assert!(err.message().contains("single character class"), "{class}: {err}");
            assert_eq!(err.span(), 0..class.len(), "{class}");
        }
        let err = parse_class("[a-").unwrap_err();
        assert!(err.message().contains("unclosed"), "{err}");
        assert!(parse_class("\\p{Nope}").is_err());
    }

    #[test]
    fn error_display_points_at_the_text() {
        let err = parse("ab(?=c)").unwrap_err();
        assert_eq!(
            err.to_string(),
            "look-around, including look-ahead and look-behind, is not supported (at 2..5: `(?=`)"
        );
    }
}
