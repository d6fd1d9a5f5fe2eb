//! Patterns of the common shapes read straight to HIR, without `regex-syntax`'s AST.
//!
//! # Overview
//! [`parse`] reads literal characters, escaped punctuation, the escapes `\n \t \r \f \v \a`,
//! `.`, the Perl classes `\d \s \w` and their negations, bracketed classes of literals,
//! ranges and Perl classes (negated or not), groups `(…)` and `(?:…)`, alternation, and the
//! quantifiers `* + ? {n} {n,} {n,m}`, greedy or lazy. It builds the HIR with the
//! constructors that `regex-syntax`'s translator calls, on the same sub-expressions, under
//! the flags of `syntax.rs` (Unicode on, `.` matching `\n`): the result is equal to the
//! general road's. Anything else gives `None` and the pattern takes the general road:
//! flags, anchors, Unicode properties, numeric escapes, class set operations, nested
//! classes, empty branches or groups, deep nesting, and every syntax error (so the error
//! keeps `regex-syntax`'s words and span).
//!
//! Why: `regex-syntax` parses into an AST that keeps spans and comments, then translates
//! it; for a typical real pattern that costs as much as its whole subset construction,
//! and most real patterns use nothing beyond the shapes above.
//!
//! # Invariants
//! - `parse(p) == Some(hir)` only when the general road reads `p` to an equal `hir` (the
//!   tests compare both on the real-pattern corpus and on generated patterns).
//! - Groups nest at most [`MAX_DEPTH`] deep, far below [`crate::NEST_LIMIT`].

use std::sync::OnceLock;

use regex_syntax::hir::{Capture, Class, ClassUnicode, ClassUnicodeRange, Dot, Hir, Repetition};

/// The deepest nesting of groups read here; deeper patterns take the general road.
const MAX_DEPTH: usize = 32;

/// The HIR of `pattern` when it has only the common shapes (see the module docs), else
/// `None`.
pub(crate) fn parse(pattern: &str) -> Option<Hir> {
    let mut reader = Reader { rest: pattern, next_capture: 1 };
    let mut open: Vec<Group> = Vec::new();
    let mut group = Group::new(None);
    while let Some(c) = reader.next() {
        match c {
            '(' => {
                if open.len() == MAX_DEPTH {
                    return None;
                }
                let capture = if let Some(rest) = reader.rest.strip_prefix("?:") {
                    reader.rest = rest;
                    None
                } else if reader.rest.starts_with('?') {
                    return None;
                } else {
                    reader.next_capture += 1;
                    Some(reader.next_capture - 1)
                };
                open.push(std::mem::replace(&mut group, Group::new(capture)));
            }
            ')' => {
                let inner = std::mem::replace(&mut group, open.pop()?).finish()?;
                group.branch.push_item(inner);
            }
            '|' => group.end_branch()?,
            '*' => group.branch.repeat(reader.lazy(0, None))?,
            '+' => group.branch.repeat(reader.lazy(1, None))?,
            '?' => group.branch.repeat(reader.lazy(0, Some(1)))?,
            '{' => {
                let (min, max) = reader.counts()?;
                group.branch.repeat(reader.lazy(min, max))?;
            }
            '.' => group.branch.push_item(Hir::dot(Dot::AnyChar)),
            '[' => group.branch.push_item(Hir::class(Class::Unicode(reader.bracketed()?))),
            '\\' => match reader.escape()? {
                Escaped::Char(c) => group.branch.push_char(c),
                Escaped::Perl(class) => group.branch.push_item(Hir::class(Class::Unicode(class))),
            },
            ']' | '}' | '^' | '$' => return None,
            c => group.branch.push_char(c),
        }
    }
    if !open.is_empty() {
        return None;
    }
    group.finish()
}

/// The text left to read, and the index of the next capture group.
struct Reader<'p> {
    rest: &'p str,
    next_capture: u32,
}

/// What an escape stands for.
enum Escaped {
    Char(char),
    Perl(ClassUnicode),
}

impl Reader<'_> {
    fn next(&mut self) -> Option<char> {
        let mut chars = self.rest.chars();
        let c = chars.next()?;
        self.rest = chars.as_str();
        Some(c)
    }

    fn peek(&self) -> Option<char> {
        self.rest.chars().next()
    }

    /// A repetition from `min` to `max`, lazy when a `?` follows the quantifier.
    fn lazy(&mut self, min: u32, max: Option<u32>) -> Bounds {
        let lazy = self.peek() == Some('?');
        if lazy {
            self.next();
        }
        Bounds { min, max, greedy: !lazy }
    }

    /// The counts of `{n}`, `{n,}` or `{n,m}` after the `{`, with `m >= n`.
    fn counts(&mut self) -> Option<(u32, Option<u32>)> {
        let min = self.number()?;
        match self.next()? {
            '}' => Some((min, Some(min))),
            ',' if self.peek() == Some('}') => {
                self.next();
                Some((min, None))
            }
            ',' => {
                let max = self.number()?;
                (self.next()? == '}' && max >= min).then_some((min, Some(max)))
            }
            _ => None,
        }
    }

    /// A decimal number of ASCII digits that fits in a `u32`.
    fn number(&mut self) -> Option<u32> {
        let digits = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        let (number, rest) = self.rest.split_at(digits);
        self.rest = rest;
        number.parse().ok()
    }

    /// The escape after a `\`.
    fn escape(&mut self) -> Option<Escaped> {
        let c = self.next()?;
        let class = |index: usize, negated: bool| {
            let mut class = perl_classes()[index].clone();
            if negated {
                class.negate();
            }
            Some(Escaped::Perl(class))
        };
        match c {
            'd' | 'D' => class(0, c == 'D'),
            's' | 'S' => class(1, c == 'S'),
            'w' | 'W' => class(2, c == 'W'),
            'n' => Some(Escaped::Char('\n')),
            't' => Some(Escaped::Char('\t')),
            'r' => Some(Escaped::Char('\r')),
            'f' => Some(Escaped::Char('\x0C')),
            'v' => Some(Escaped::Char('\x0B')),
            'a' => Some(Escaped::Char('\x07')),
            // Escaped punctuation stands for itself; letters and digits are other syntax.
            c if c.is_ascii() && regex_syntax::is_escapeable_character(c) => Some(Escaped::Char(c)),
            _ => None,
        }
    }

    /// The class of a bracketed class after its `[`: literals, ranges of literals and
    /// Perl classes; `-` only first or last.
    fn bracketed(&mut self) -> Option<ClassUnicode> {
        let negated = self.peek() == Some('^');
        if negated {
            self.next();
        }
        // `]` first is a literal in `regex-syntax`; left to it.
        if self.peek() == Some(']') {
            return None;
        }
        let mut ranges = Vec::new();
        let mut perl = Vec::new();
        let mut first = true;
        loop {
            // `&&`, `--` and `~~` are set operations.
            if ["&&", "--", "~~"].iter().any(|op| self.rest.starts_with(op)) {
                return None;
            }
            let start = match self.next()? {
                ']' => break,
                '[' => return None,
                '-' if first || self.peek() == Some(']') => '-',
                '-' => return None,
                '\\' => match self.escape()? {
                    Escaped::Char(c) => c,
                    Escaped::Perl(class) => {
                        perl.push(class);
                        first = false;
                        continue;
                    }
                },
                c => c,
            };
            first = false;
            let end = if self.rest.starts_with('-') && !self.rest.starts_with("-]") {
                self.next();
                let end = match self.next()? {
                    '\\' => match self.escape()? {
                        Escaped::Char(c) => c,
                        Escaped::Perl(_) => return None,
                    },
                    '[' | ']' | '-' | '&' | '~' => return None,
                    c => c,
                };
                if end < start {
                    return None;
                }
                end
            } else {
                start
            };
            ranges.push(ClassUnicodeRange::new(start, end));
        }
        let mut class = ClassUnicode::new(ranges);
        for other in &perl {
            class.union(other);
        }
        if negated {
            class.negate();
        }
        Some(class)
    }
}

/// `\d`, `\s` and `\w` as `regex-syntax` reads them, built once.
fn perl_classes() -> &'static [ClassUnicode; 3] {
    static CLASSES: OnceLock<[ClassUnicode; 3]> = OnceLock::new();
    CLASSES.get_or_init(|| {
        [r"\d", r"\s", r"\w"].map(|class| {
            match regex_syntax::Parser::new().parse(class).map(Hir::into_kind) {
                Ok(regex_syntax::hir::HirKind::Class(Class::Unicode(class))) => class,
                other => unreachable!("{class} is a Unicode class, not {other:?}"),
            }
        })
    })
}

/// The bounds of a quantifier.
struct Bounds {
    min: u32,
    max: Option<u32>,
    greedy: bool,
}

/// A group being read: the branches read so far and the current one.
struct Group {
    capture: Option<u32>,
    branches: Vec<Hir>,
    branch: Branch,
}

impl Group {
    fn new(capture: Option<u32>) -> Group {
        Group { capture, branches: Vec::new(), branch: Branch::default() }
    }

    /// Closes the current branch; an empty one is left to the general road.
    fn end_branch(&mut self) -> Option<()> {
        let branch = std::mem::take(&mut self.branch).finish()?;
        self.branches.push(branch);
        Some(())
    }

    /// The HIR of the group: its alternation (or only branch), captured when it captures.
    fn finish(mut self) -> Option<Hir> {
        self.end_branch()?;
        let sub = if self.branches.len() == 1 {
            self.branches.pop()?
        } else {
            Hir::alternation(self.branches)
        };
        Some(match self.capture {
            Some(index) => Hir::capture(Capture { index, name: None, sub: Box::new(sub) }),
            None => sub,
        })
    }
}

/// A concatenation being read: its items, then the literal characters read since the last
/// item (kept apart until the end, as the translator does, so that a quantifier can take
/// the last one).
#[derive(Default)]
struct Branch {
    items: Vec<Hir>,
    literal: Vec<u8>,
    /// What a quantifier would repeat: the last character of `literal`, from this byte,
    /// or the last item.
    last: Last,
}

#[derive(Default)]
enum Last {
    /// Nothing, or a repetition (a quantifier after a quantifier is left to the general
    /// road).
    #[default]
    Nothing,
    Char(usize),
    Item,
}

impl Branch {
    fn push_char(&mut self, c: char) {
        self.last = Last::Char(self.literal.len());
        self.literal.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
    }

    fn push_item(&mut self, item: Hir) {
        self.flush();
        self.items.push(item);
        self.last = Last::Item;
    }

    /// Repeats the last character or item.
    fn repeat(&mut self, bounds: Bounds) -> Option<()> {
        let sub = match std::mem::take(&mut self.last) {
            Last::Nothing => return None,
            Last::Char(at) => {
                let sub = Hir::literal(self.literal.split_off(at));
                self.flush();
                sub
            }
            Last::Item => self.items.pop()?,
        };
        let Bounds { min, max, greedy } = bounds;
        self.items.push(Hir::repetition(Repetition { min, max, greedy, sub: Box::new(sub) }));
        Some(())
    }

    /// Moves the pending literal characters into the items.
    fn flush(&mut self) {
        if !self.literal.is_empty() {
            self.items.push(Hir::literal(std::mem::take(&mut self.literal)));
        }
    }

    /// The HIR of the concatenation; `None` when it is empty.
    fn finish(mut self) -> Option<Hir> {
        self.flush();
        (!self.items.is_empty()).then(|| Hir::concat(self.items))
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use regex_syntax::hir::Hir;

    use super::parse;

    /// The general road: `regex-syntax` with the flags of `syntax.rs`.
    fn general(pattern: &str) -> Result<Hir, String> {
        regex_syntax::ParserBuilder::new()
            .utf8(true)
            .unicode(true)
            .dot_matches_new_line(true)
            .nest_limit(crate::NEST_LIMIT)
            .build()
            .parse(pattern)
            .map_err(|err| err.to_string())
    }

    /// Whether `parse` agrees with the general road on `pattern`: the same HIR when it
    /// reads it (so never a pattern the general road refuses); true when it declines.
    fn agrees(pattern: &str) -> bool {
        match parse(pattern) {
            Some(hir) => general(pattern).is_ok_and(|expected| expected == hir),
            None => true,
        }
    }

    /// The patterns of the benchmark corpora.
    fn corpus_patterns() -> Vec<String> {
        #[derive(serde::Deserialize)]
        struct Corpus {
            pattern: Vec<Entry>,
        }
        #[derive(serde::Deserialize)]
        struct Entry {
            pattern: String,
        }
        let bench = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench");
        ["real_corpus.toml", "real_patterns.toml"]
            .iter()
            .flat_map(|file| {
                let text = std::fs::read_to_string(bench.join(file)).expect("corpus file");
                let corpus: Corpus = toml::from_str(&text).expect("corpus format");
                corpus.pattern.into_iter().map(|entry| entry.pattern)
            })
            .collect()
    }

    #[test]
    fn real_patterns_read_directly_are_read_as_the_general_road_reads_them() {
        let patterns = corpus_patterns();
        let mut direct = 0;
        for pattern in &patterns {
            assert!(
                agrees(pattern),
                "{pattern:?}: {:?} against {:?}",
                parse(pattern),
                general(pattern)
            );
            direct += usize::from(parse(pattern).is_some());
        }
        // The point of the road: most real patterns take it.
        assert!(2 * direct > patterns.len(), "{direct} of {} read directly", patterns.len());
    }

    #[test]
    fn each_shape_is_read_and_each_other_construct_is_left_to_the_general_road() {
        let read = [
            "abc",
            "a|b|c",
            "(a|bc)*d",
            "(?:ab)+?c",
            "a{2}b{3,}c{4,5}?",
            "x??",
            ".",
            r"\d\D\s\S\w\W",
            r"[a-z0-9_.-]+",
            r"[^\s@]+@[^\s@]+",
            r"[-+]?\d*",
            r"[\]\[\\^]",
            r"\.\+\*\?\(\)\|\{\}",
            r"\n\t\r\f\v\a",
            r"\/\%\@\ ",
            "é+[à-ü]",
            "[a-]",
            "[-]",
            "[^-a]",
            r"[\--/]",
            "((a)(b(c)))",
            "(a){0}",
            "(?:)?a",
            "a#b&c~d-e,f:g",
        ];
        for pattern in read {
            assert!(parse(pattern).is_some() || pattern == "(?:)?a", "{pattern} is read");
            assert!(agrees(pattern), "{pattern}");
        }
        let left = [
            "",
            "a|",
            "|a",
            "()",
            "(?i)a",
            "(?P<n>a)",
            "(?<n>a)",
            "^a",
            "a$",
            r"\ba",
            r"\pL",
            r"\x41",
            r"\u{41}",
            r"\1",
            r"\e",
            r"\<",
            "[]a]",
            "[a[b]]",
            "[a&&b]",
            "[a--b]",
            "[a~~b]",
            "[[:alpha:]]",
            r"[\d-z]",
            "[z-a]",
            "a**",
            "a+*",
            "*a",
            "a{",
            "a{2",
            "a{,2}",
            "a{3,2}",
            "a{99999999999}",
            "(a",
            "a)",
            "a]",
            "a}",
            r"a\",
            "[a",
            "[^",
            r"\é",
        ];
        for pattern in left {
            assert!(parse(pattern).is_none(), "{pattern} is left to the general road");
        }
        let deep =
            format!("{}a{}", "(".repeat(super::MAX_DEPTH + 1), ")".repeat(super::MAX_DEPTH + 1));
        assert!(parse(&deep).is_none());
        let deepest = format!("{}a{}", "(".repeat(super::MAX_DEPTH), ")".repeat(super::MAX_DEPTH));
        assert!(parse(&deepest).is_some() && agrees(&deepest));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        /// Any text over the characters that matter to the syntax: read alike or declined.
        #[test]
        fn generated_text_is_read_alike_or_declined(
            pattern in r"[ab\-\]\[\\^(){}|*+?.,:0-9dDwWsSnxP&~#é ]{0,14}"
        ) {
            prop_assert!(agrees(&pattern), "{:?}: {:?} against {:?}", pattern, parse(&pattern), general(&pattern));
        }

        /// Valid patterns built from the shapes read here: read alike.
        #[test]
        fn generated_patterns_are_read_alike(pattern in shaped_pattern()) {
            prop_assert!(parse(&pattern).is_some(), "{:?} is read", pattern);
            prop_assert!(agrees(&pattern), "{:?}: {:?} against {:?}", pattern, parse(&pattern), general(&pattern));
        }
    }

    /// Patterns of the shapes of the module docs, nested.
    fn shaped_pattern() -> impl Strategy<Value = String> {
        let atom = prop_oneof![
            "[abcé.]",
            r"\\[dDsSwWnt.*+?()|\[\]{}\\/-]",
            r"\[\^?(-?)([a-c]|[a-c]-[d-f]|\\[dws.\]-]){1,4}(-?)\]",
        ];
        atom.prop_recursive(4, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 1..4).prop_map(|items| items.concat()),
                prop::collection::vec(inner.clone(), 2..4).prop_map(|items| items.join("|")),
                (inner.clone(), prop_oneof![Just("("), Just("(?:")])
                    .prop_map(|(sub, open)| format!("{open}{sub})")),
                (inner, r"[*+?]\??|\{[0-3](,[3-5]?)?\}\??")
                    .prop_map(|(sub, quantifier)| format!("(?:{sub}){quantifier}")),
            ]
        })
    }
}
