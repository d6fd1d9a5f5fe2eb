//! Characters, escapes and bracketed classes of each dialect, as [`CharSet`]s.
//!
//! # Overview
//! [`Ctx`] (`mod.rs`) is what a class means in: the dialect and the flags in force. [`escape`] reads
//! one escape after its backslash, [`bracket`] one bracketed class, [`fold`] applies case
//! insensitivity, and [`dot`], [`word`], [`line_terminators`] are the dialect's sets.
//!
//! In the default dialect a bracketed class is found by its extent (nested brackets
//! included) and handed to `regex-syntax` whole, so it means exactly what it means in
//! `syntax.rs`. Other dialects are read here item by item; Unicode tables (`\p{Greek}`, `\w`)
//! and case folding still come from `regex-syntax`, asked about one item at a time.
//!
//! # Dialect differences handled here
//! `\d`, `\w`, `\s` are ASCII in JavaScript, Java and PCRE, Unicode in Rust and Python
//! (and ASCII under Python's `(?a)`); Java folds case in ASCII only; JavaScript reads `[]`
//! as the empty class, `[^]` as every character, a `[` inside a class as itself, and an
//! unknown escape as the escaped character; Java nests classes and intersects them with
//! `&&`; Java's property names (`\p{Alnum}`, the script `\p{IsGreek}`, the block
//! `\p{InGreek}`, `\p{javaLetterOrDigit}`) are translated; a `-` after a class escape
//! (`[\w-.]`) is a literal hyphen everywhere.

use std::sync::OnceLock;

use regex_syntax::hir::HirKind;

use super::Ctx;
use super::case::{self, Item};
use super::names;
use super::utf16;
use crate::alphabet::CharSet;
use crate::dialect::Dialect;

/// What an escape stands for: one character (which may bound a range) or a set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Atom {
    Char(char),
    Set(CharSet),
}

impl Atom {
    pub(super) fn into_set(self) -> CharSet {
        match self {
            Atom::Char(c) => CharSet::singleton(c),
            Atom::Set(set) => set,
        }
    }

    fn into_item(self) -> Item {
        match self {
            Atom::Char(c) => Item::Char(c),
            Atom::Set(set) => Item::Set(set),
        }
    }
}

/// An error inside a class or escape: the message and the byte range, relative to the
/// text the function was given.
pub(super) type ClassError = (String, std::ops::Range<usize>);

fn ascii_set(ranges: &[(char, char)]) -> CharSet {
    CharSet::from_ranges(ranges.iter().copied())
}

/// The set of a `regex-syntax` class expression such as `\p{Greek}` or `[[:alpha:]]`.
pub(super) fn rust_set(text: &str) -> Option<CharSet> {
    let hir =
        regex_syntax::ParserBuilder::new().unicode(true).utf8(true).build().parse(text).ok()?;
    match hir.kind() {
        HirKind::Class(class) => Some(CharSet::from_hir_class(class)),
        HirKind::Literal(literal) => {
            let text = std::str::from_utf8(&literal.0).ok()?;
            let mut chars = text.chars();
            match (chars.next(), chars.next()) {
                (Some(only), None) => Some(CharSet::singleton(only)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn is_ascii_only(ctx: Ctx) -> bool {
    ctx.ascii
        || !ctx.unicode_classes
            && matches!(ctx.dialect, Dialect::Js | Dialect::Java | Dialect::Pcre)
}

/// The dialect's `\d`.
fn digit(ctx: Ctx) -> CharSet {
    if is_ascii_only(ctx) { ascii_set(&[('0', '9')]) } else { rust_set(r"\d").unwrap_or_default() }
}

/// The word characters of `\b`: the dialect's `\w`, but letters and digits of every
/// script in Java without `(?U)` (`Character.isLetterOrDigit`, as Java 17's `\b` reads
/// them).
pub(super) fn boundary_word(ctx: Ctx) -> CharSet {
    match ctx.dialect {
        Dialect::Java if !ctx.unicode_classes => rust_set(r"[\p{L}\p{Nd}_]").unwrap_or_default(),
        _ => word(ctx),
    }
}

/// The dialect's `\w`: in Python `str.isalnum()` or `_` (letters and numbers, no marks
/// or other connector punctuation).
pub(super) fn word(ctx: Ctx) -> CharSet {
    let unicode = match ctx.dialect {
        _ if is_ascii_only(ctx) => {
            return ascii_set(&[('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')]);
        }
        Dialect::Python | Dialect::Pcre => r"[\p{L}\p{N}_]",
        _ => r"\w",
    };
    rust_set(unicode).unwrap_or_default()
}

/// The dialect's `\s`.
fn space(ctx: Ctx) -> CharSet {
    let ascii = ascii_set(&[('\t', '\r'), (' ', ' ')]);
    match ctx.dialect {
        _ if ctx.ascii => ascii,
        Dialect::Java if ctx.unicode_classes => rust_set(r"\s").unwrap_or_default(),
        Dialect::Pcre if ctx.unicode_classes => pcre_property("Xsp").unwrap_or_default(),
        Dialect::Java | Dialect::Pcre => ascii,
        Dialect::Js => ascii.union(&CharSet::from_ranges([
            ('\u{a0}', '\u{a0}'),
            ('\u{1680}', '\u{1680}'),
            ('\u{2000}', '\u{200a}'),
            ('\u{2028}', '\u{2029}'),
            ('\u{202f}', '\u{202f}'),
            ('\u{205f}', '\u{205f}'),
            ('\u{3000}', '\u{3000}'),
            ('\u{feff}', '\u{feff}'),
        ])),
        // str.isspace() also holds for the four information separators.
        Dialect::Python => {
            rust_set(r"\s").unwrap_or_default().union(&ascii_set(&[('\x1c', '\x1f')]))
        }
        _ => rust_set(r"\s").unwrap_or_default(),
    }
}

/// The class escapes `\d`, `\D`, `\w`, `\W`, `\s`, `\S` of `dialect` without flags, with
/// their sets as its patterns are read here: what an output may write them for
/// (`to_regex/class.rs`), so that writing and reading share one definition.
pub(crate) fn shorthands(dialect: Dialect) -> Vec<(&'static str, CharSet)> {
    let ctx = Ctx {
        dialect,
        case_insensitive: false,
        ascii: false,
        unicode_classes: false,
        unicode_case: false,
        dot_all: false,
        verbose: false,
        verbose_classes: false,
        unix_lines: false,
    };
    [r"\d", r"\D", r"\w", r"\W", r"\s", r"\S"]
        .into_iter()
        .filter_map(|text| match escape(&text[1..], ctx, false) {
            Ok((Atom::Set(set), _)) => Some((text, set)),
            _ => None,
        })
        .collect()
}

/// The characters that end a line for `.`, `^` and `$` under multi-line.
pub(super) fn line_terminators(ctx: Ctx) -> CharSet {
    match ctx.dialect {
        Dialect::Java if ctx.unix_lines => CharSet::singleton('\n'),
        Dialect::Js => CharSet::from_ranges([('\n', '\n'), ('\r', '\r'), ('\u{2028}', '\u{2029}')]),
        Dialect::Java => CharSet::from_ranges([
            ('\n', '\n'),
            ('\r', '\r'),
            ('\u{85}', '\u{85}'),
            ('\u{2028}', '\u{2029}'),
        ]),
        _ => CharSet::singleton('\n'),
    }
}

/// What `.` matches.
pub(super) fn dot(ctx: Ctx) -> CharSet {
    if ctx.dot_all { CharSet::full() } else { line_terminators(ctx).complement() }
}

/// `set` under the case insensitivity of `ctx`, as a literal when it is one character and
/// as a class escape otherwise (`case.rs` has each dialect's rules).
pub(super) fn fold(set: CharSet, ctx: Ctx) -> CharSet {
    let item = match set.ranges() {
        [(lo, hi)] if lo == hi => Item::Char(*lo),
        _ => Item::Set(set),
    };
    case::fold_items(&[item], ctx)
}

/// Java's POSIX and `java*` property names, and Unicode block names (`InGreek`: `Is` is
/// a script, binary property or category, which `regex-syntax` knows), as sets; `None`
/// for names `regex-syntax` knows itself.
fn named_property(name: &str) -> Option<CharSet> {
    let posix: Option<&[(char, char)]> = match name {
        "Lower" => Some(&[('a', 'z')]),
        "Upper" => Some(&[('A', 'Z')]),
        "ASCII" => Some(&[('\0', '\x7f')]),
        "Alpha" => Some(&[('A', 'Z'), ('a', 'z')]),
        "Digit" => Some(&[('0', '9')]),
        "Alnum" => Some(&[('0', '9'), ('A', 'Z'), ('a', 'z')]),
        "Punct" => Some(&[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')]),
        "Graph" => Some(&[('!', '~')]),
        "Print" => Some(&[(' ', '~')]),
        "Blank" => Some(&[('\t', '\t'), (' ', ' ')]),
        "Cntrl" => Some(&[('\0', '\x1f'), ('\x7f', '\x7f')]),
        "XDigit" => Some(&[('0', '9'), ('A', 'F'), ('a', 'f')]),
        "Space" => Some(&[('\t', '\r'), (' ', ' ')]),
        _ => None,
    };
    if let Some(ranges) = posix {
        return Some(ascii_set(ranges));
    }
    let java = match name {
        "javaLowerCase" => Some(r"\p{Lowercase}"),
        "javaUpperCase" => Some(r"\p{Uppercase}"),
        "javaWhitespace" => Some(r"[[\s&&[^\u{a0}\u{2007}\u{202f}]]\x1c-\x1f]"),
        "javaMirrored" => Some(r"\p{Bidi_Mirrored}"),
        "javaLetter" => Some(r"\p{L}"),
        "javaDigit" => Some(r"\p{Nd}"),
        "javaLetterOrDigit" => Some(r"[\p{L}\p{Nd}]"),
        "javaAlphabetic" => Some(r"\p{Alphabetic}"),
        "javaTitleCase" => Some(r"\p{Lt}"),
        "javaSpaceChar" => Some(r"\p{Z}"),
        "javaDefined" => Some(r"\P{Cn}"),
        "javaISOControl" => Some(r"[\x00-\x1f\x7f-\x9f]"),
        "javaIdentifierIgnorable" => Some(r"[\x00-\x08\x0e-\x1b\x7f-\x9f\p{Cf}]"),
        "javaJavaIdentifierStart" => Some(r"[\p{L}\p{Nl}\p{Sc}\p{Pc}]"),
        "javaJavaIdentifierPart" => {
            Some(r"[\p{L}\p{Nl}\p{Sc}\p{Pc}\p{Nd}\p{Mc}\p{Mn}\p{Cf}\x00-\x08\x0e-\x1b\x7f-\x9f]")
        }
        "javaUnicodeIdentifierStart" => Some(r"[\p{L}\p{Nl}]"),
        "javaUnicodeIdentifierPart" => {
            Some(r"[\p{L}\p{Nl}\p{Pc}\p{Nd}\p{Mc}\p{Mn}\p{Cf}\x00-\x08\x0e-\x1b\x7f-\x9f]")
        }
        _ => None,
    };
    if let Some(text) = java {
        return rust_set(text);
    }
    let keyword = name.split_once('=').filter(|(key, _)| matches!(*key, "block" | "blk"));
    block(keyword.map_or_else(|| name.strip_prefix("In"), |(_, block)| Some(block))?)
}

/// The Unicode block `name` (`Character.UnicodeBlock.forName`: the block's name or its
/// constant's, in any case, with or without its spaces, `_` or `-`, and Java's older
/// names), from the `unicode-blocks` tables.
fn block(name: &str) -> Option<CharSet> {
    static BLOCKS: OnceLock<Vec<(String, char, char)>> = OnceLock::new();
    let loose = |name: &str| -> String {
        name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
    };
    let blocks = BLOCKS.get_or_init(|| {
        let mut blocks = Vec::new();
        let mut code = 0;
        while let Some(c) = char::from_u32(code).or_else(|| char::from_u32(code.max(0xE000))) {
            match unicode_blocks::find_unicode_block(c) {
                Some(block) => {
                    let last = char::from_u32(block.end()).unwrap_or(char::MAX);
                    blocks.push((loose(block.name()), c, last));
                    code = block.end() + 1;
                }
                None => code = u32::from(c) + 1,
            }
        }
        blocks
    });
    let key = loose(name);
    let key = match key.as_str() {
        "greek" => "greekandcoptic",
        "cyrillicsupplementary" => "cyrillicsupplement",
        "combiningmarksforsymbols" => "combiningdiacriticalmarksforsymbols",
        key => key,
    };
    let (_, lo, hi) = blocks.iter().find(|(name, ..)| name == key)?;
    Some(CharSet::range(*lo, *hi))
}

/// The set of property `name` (the text between the braces, or one letter) in `dialect`:
/// Java reads the POSIX names (`Alpha`, `Punct`, ...) as ASCII classes (Unicode ones under
/// `(?U)`), the others as Unicode properties.
fn property(name: &str, ctx: Ctx) -> Option<CharSet> {
    // `\p{^L}` is PCRE's (and Rust's) negation; Java has no such name.
    let (negated, name) = match name.strip_prefix('^').filter(|_| ctx.dialect != Dialect::Java) {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    if ctx.dialect == Dialect::Pcre {
        let set = pcre_property(name)?;
        return Some(if negated { set.complement() } else { set });
    }
    let ascii_posix = ctx.dialect == Dialect::Java && !ctx.unicode_classes;
    let java_first = if ascii_posix { named_property(name) } else { None };
    let set = java_case_insensitive_property(name, ctx)
        .or(java_first)
        .or_else(|| rust_set(&format!(r"\p{{{name}}}")))
        .or_else(|| named_property(name))
        .or_else(|| name.strip_prefix("Is").and_then(|rest| rust_set(&format!(r"\p{{{rest}}}"))))?;
    Some(if negated { set.complement() } else { set })
}

/// A property of PCRE2 (10.42): its own, cased letters `L&` (`Lc`) and the `X` ones
/// (`pcre2pattern`'s "PCRE2 special category properties"; spaces as `pcre2_match` lists
/// them); general categories by their short names only (`Lu`, not `Uppercase_Letter` nor
/// `Punct`); scripts (`Greek`, `sc=Grek`, `scx=Greek`) and binary properties (`Alphabetic`,
/// `White_Space`). Names are loose, as in Unicode and PCRE2. Java's names (`IsGreek`,
/// `InBasicLatin`, `javaLowerCase`, `XDigit`) are not PCRE2's.
fn pcre_property(name: &str) -> Option<CharSet> {
    let spaces = r"[\p{Z}\t\n\x0B\f\r\x85\u180E]";
    let text = match name {
        "L&" | "Lc" => r"[\p{Lu}\p{Ll}\p{Lt}]",
        "Xan" => r"[\p{L}\p{N}]",
        "Xwd" => r"[\p{L}\p{N}_]",
        "Xsp" | "Xps" => spaces,
        "Xuc" => r"[$@`\u{A0}-\u{D7FF}\u{E000}-\u{10FFFF}]",
        _ => {
            let loose: String = name
                .chars()
                .filter(|c| !matches!(c, ' ' | '_' | '-'))
                .map(|c| c.to_ascii_lowercase())
                .collect();
            match loose.as_str() {
                "any" => return Some(CharSet::full()),
                "ascii" => return Some(CharSet::range('\0', '\x7f')),
                // Unicode's loose matching drops a leading `is`; PCRE2 does not.
                _ if loose.starts_with("is") => return None,
                _ => {}
            }
            let category = rust_set(&format!(r"\p{{gc={name}}}")).is_some();
            return if category && loose.len() > 2 {
                None
            } else {
                rust_set(&format!(r"\p{{{name}}}"))
            };
        }
    };
    rust_set(text)
}

/// The case properties Java widens under `(?i)` (`CharPredicates.forProperty` and
/// `forUnicodeProperty`): `Lu`, `Ll`, `Lt` to all three, `Lower`, `Upper` to ASCII letters
/// (cased letters of any case under `(?U)`), `javaLowerCase`, `IsLowercase` and the like to
/// lowercase, uppercase and titlecase characters.
fn java_case_insensitive_property(name: &str, ctx: Ctx) -> Option<CharSet> {
    if ctx.dialect != Dialect::Java || !ctx.case_insensitive {
        return None;
    }
    let cased_letters = r"[\p{Lu}\p{Ll}\p{Lt}]";
    let cased = r"[\p{Lowercase}\p{Uppercase}\p{Lt}]";
    let general_category = name
        .split_once('=')
        .filter(|(key, _)| matches!(key.to_ascii_lowercase().as_str(), "gc" | "general_category"))
        .map(|(_, value)| value);
    let text = match (name, name.strip_prefix("Is"), general_category) {
        (_, _, Some("Lu" | "Ll" | "Lt")) | ("Lu" | "Ll" | "Lt", _, _) => cased_letters,
        ("Lower" | "Upper", _, _) if !ctx.unicode_classes => return named_property("Alpha"),
        ("Lower" | "Upper" | "javaLowerCase" | "javaUpperCase" | "javaTitleCase", _, _) => cased,
        (_, Some("Lu" | "Ll" | "Lt"), _) => cased_letters,
        (_, Some(short), _)
            if matches!(
                short.to_ascii_uppercase().as_str(),
                "LOWERCASE" | "UPPERCASE" | "TITLECASE" | "LOWER" | "UPPER"
            ) =>
        {
            cased
        }
        _ => return None,
    };
    rust_set(text)
}

/// The number of leading characters of `text` that satisfy `pred`, at most `max`.
fn count_prefix(text: &str, max: usize, pred: impl Fn(char) -> bool) -> usize {
    text.chars().take(max).take_while(|&c| pred(c)).count()
}

/// The first `len` of `digits` read as an octal character code (at most `\777`).
fn octal_digits(digits: &str, len: usize) -> (usize, char) {
    let value = u32::from_str_radix(&digits[..len], 8).unwrap_or(0);
    (len, char::from_u32(value).unwrap_or('\0'))
}

/// The octal escape of JavaScript and of Java after its `\0`: up to three octal digits,
/// three only while the value stays within `\377` (`\400` is `\40` then `0`).
pub(super) fn octal_prefix(digits: &str) -> (usize, char) {
    let len = count_prefix(digits, 3, |c| c.is_digit(8));
    let len = if len == 3 && digits.as_bytes()[0] > b'3' { 2 } else { len };
    octal_digits(digits, len)
}

/// Java's octal escape, `text` starting after the backslash: `\0` and one to three octal
/// digits (Java's only octal form, in a class and out); the length read and the character.
pub(super) fn java_octal(text: &str) -> Result<(usize, char), String> {
    let (len, c) = text.strip_prefix('0').map_or((0, '\0'), octal_prefix);
    if len == 0 {
        return Err("illegal octal escape: Java's is \\0 and one to three octal digits".into());
    }
    Ok((1 + len, c))
}

/// Python refuses three octal digits past `\377` where JavaScript and Java read two.
pub(super) fn python_octal_error(digits: &str) -> Option<String> {
    (count_prefix(digits, 3, |c| c.is_digit(8)) == 3 && digits.as_bytes()[0] > b'3')
        .then(|| format!("octal escape value \\{} outside of range 0-0o377", &digits[..3]))
}

/// A code point from hex digits.
fn hex_char(digits: &str) -> Option<char> {
    u32::from_str_radix(digits, 16).ok().and_then(char::from_u32)
}

/// The value of a `\uDC00`-`\uDFFF` escape (a low surrogate) at the start of `text`.
fn low_surrogate(text: &str) -> Option<u32> {
    let digits = text.strip_prefix("\\u")?.get(..4)?;
    let value = u32::from_str_radix(digits, 16).ok()?;
    (digits.chars().all(|c| c.is_ascii_hexdigit()) && (0xdc00..=0xdfff).contains(&value))
        .then_some(value)
}

/// Reads one escape of `text`, which starts just after the backslash; `in_class` when it
/// stands in a bracketed class (where `\b` is a backspace). Returns what it stands for and
/// the bytes it took. Assertions, backreferences and `\Q` are the caller's (parse.rs).
pub(super) fn escape(text: &str, ctx: Ctx, in_class: bool) -> Result<(Atom, usize), ClassError> {
    let Some(first) = text.chars().next() else {
        return Err(("incomplete escape sequence: a pattern cannot end with `\\`".into(), 0..0));
    };
    let dialect = ctx.dialect;
    let one = first.len_utf8();
    let set = |set: CharSet| Ok((Atom::Set(set), one));
    let ch = |c: char| Ok((Atom::Char(c), one));
    match first {
        'd' => set(digit(ctx)),
        'D' => set(digit(ctx).complement()),
        'w' => set(word(ctx)),
        'W' => set(word(ctx).complement()),
        's' => set(space(ctx)),
        'S' => set(space(ctx).complement()),
        'n' => ch('\n'),
        't' => ch('\t'),
        'r' => ch('\r'),
        'f' => ch('\x0c'),
        'b' if in_class && dialect == Dialect::Java => {
            Err(("Java has no \\b in a class: write \\x08 for a backspace".into(), 0..1))
        }
        'b' if in_class && dialect != Dialect::Rust => ch('\x08'),
        // PCRE2 reads `\g` in a class as the letter (its `check_escape` stops there).
        'g' if in_class && dialect == Dialect::Pcre => ch('g'),
        'h' | 'H' if matches!(dialect, Dialect::Java | Dialect::Pcre) => {
            let horizontal = CharSet::from_ranges([
                ('\t', '\t'),
                (' ', ' '),
                ('\u{a0}', '\u{a0}'),
                ('\u{1680}', '\u{1680}'),
                ('\u{180e}', '\u{180e}'),
                ('\u{2000}', '\u{200a}'),
                ('\u{202f}', '\u{202f}'),
                ('\u{205f}', '\u{205f}'),
                ('\u{3000}', '\u{3000}'),
            ]);
            set(if first == 'h' { horizontal } else { horizontal.complement() })
        }
        'v' | 'V' if matches!(dialect, Dialect::Java | Dialect::Pcre) => {
            let vertical = CharSet::from_ranges([
                ('\n', '\r'),
                ('\u{85}', '\u{85}'),
                ('\u{2028}', '\u{2029}'),
            ]);
            set(if first == 'v' { vertical } else { vertical.complement() })
        }
        'v' => ch('\x0b'),
        'a' if dialect != Dialect::Js => ch('\x07'),
        'e' if matches!(dialect, Dialect::Java | Dialect::Pcre | Dialect::Rust) => ch('\x1b'),
        // `\1` is a reference in Java, which a class cannot hold.
        '0'..='7' if in_class && dialect == Dialect::Java => {
            let (len, c) = java_octal(text).map_err(|message| (message, 0..1))?;
            Ok((Atom::Char(c), len))
        }
        // PCRE2 reads `\8` and `\9` in a class as the digits.
        '8' | '9' if in_class && dialect == Dialect::Pcre => ch(first),
        '0'..='7' if in_class && dialect != Dialect::Rust => {
            if dialect == Dialect::Python
                && let Some(message) = python_octal_error(text)
            {
                return Err((message, 0..3));
            }
            let (len, c) = match dialect {
                Dialect::Js => octal_prefix(text),
                _ => octal_digits(text, count_prefix(text, 3, |c| c.is_digit(8))),
            };
            Ok((Atom::Char(c), len))
        }
        'x' => {
            let rest = &text[1..];
            if let Some(braced) = rest
                .strip_prefix('{')
                .filter(|_| dialect != Dialect::Js && dialect != Dialect::Python)
            {
                let close = braced
                    .find('}')
                    .ok_or_else(|| ("unclosed \\x{...} escape".to_owned(), 0..text.len()))?;
                let c = hex_char(&braced[..close])
                    .ok_or_else(|| ("invalid code point in \\x{...}".to_owned(), 0..close + 3))?;
                return Ok((Atom::Char(c), close + 3));
            }
            let len = count_prefix(rest, 2, |c| c.is_ascii_hexdigit());
            match (len, dialect) {
                // PCRE2: `\x` with no hex digit is NUL.
                (2, _) | (0 | 1, Dialect::Pcre) => {
                    Ok((Atom::Char(hex_char(&rest[..len]).unwrap_or('\0')), 1 + len))
                }
                (_, Dialect::Js) => ch('x'),
                _ => Err(("\\x needs two hex digits".into(), 0..1 + len)),
            }
        }
        'o' if dialect == Dialect::Pcre && text[1..].starts_with('{') => {
            let braced = &text[2..];
            let close = braced
                .find('}')
                .ok_or_else(|| ("unclosed \\o{...} escape".to_owned(), 0..text.len()))?;
            let c = u32::from_str_radix(&braced[..close], 8)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| ("invalid code point in \\o{...}".to_owned(), 0..close + 3))?;
            Ok((Atom::Char(c), close + 3))
        }
        'u' | 'U' if dialect != Dialect::Pcre => {
            let rest = &text[1..];
            if let Some(braced) = rest.strip_prefix('{').filter(|_| dialect == Dialect::Rust) {
                let close = braced
                    .find('}')
                    .ok_or_else(|| ("unclosed \\u{...} escape".to_owned(), 0..text.len()))?;
                let c = hex_char(&braced[..close])
                    .ok_or_else(|| ("invalid code point".to_owned(), 0..close + 3))?;
                return Ok((Atom::Char(c), close + 3));
            }
            let width = if first == 'u' { 4 } else { 8 };
            let len = count_prefix(rest, width, |c| c.is_ascii_hexdigit());
            if first == 'U' && !matches!(dialect, Dialect::Python | Dialect::Rust) {
                return if dialect == Dialect::Js {
                    ch('U')
                } else {
                    Err(("unknown escape \\U".into(), 0..1))
                };
            }
            let value = u32::from_str_radix(&rest[..len], 16).ok().filter(|_| len == width);
            match value {
                // JavaScript reads code units (`utf16.rs`), a surrogate too.
                Some(unit) if dialect == Dialect::Js => {
                    Ok((Atom::Char(utf16::unit_char(unit)), 1 + len))
                }
                // Java reads a pattern in UTF-16 but matches characters: an escaped
                // surrogate pair is one character.
                Some(high @ 0xd800..=0xdbff)
                    if dialect == Dialect::Java
                        && let Some(low) = low_surrogate(&rest[len..]) =>
                {
                    let code = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
                    Ok((Atom::Char(char::from_u32(code).unwrap_or('\0')), 1 + len + 6))
                }
                Some(value) => match char::from_u32(value) {
                    Some(c) => Ok((Atom::Char(c), 1 + len)),
                    None => Err((
                        format!(
                            "\\{first}{} is a lone surrogate, not a character: strings here are \
                             of Unicode scalar values (write the character, or its escaped pair)",
                            &rest[..len]
                        ),
                        0..1 + len,
                    )),
                },
                None if dialect == Dialect::Js => ch(first),
                None => Err((format!("\\{first} needs {width} hex digits"), 0..1 + len)),
            }
        }
        // PCRE2's `\N{U+hh}` is a code point in a class too (`\N` alone is not).
        'N' if dialect == Dialect::Pcre && text[1..].starts_with("{U+") => {
            let close = text.find('}').ok_or(("unclosed \\N{U+...}".to_owned(), 0..text.len()))?;
            let c = hex_char(&text[4..close])
                .ok_or_else(|| ("invalid code point in \\N{U+...}".to_owned(), 0..close + 1))?;
            Ok((Atom::Char(c), close + 1))
        }
        'N' if matches!(dialect, Dialect::Python | Dialect::Java) => {
            let braced = text[1..].strip_prefix('{').ok_or(("missing {".to_owned(), 0..1))?;
            let close = braced.find('}').ok_or(("missing }".to_owned(), 0..text.len()))?;
            let name = &braced[..close];
            let c = match dialect {
                Dialect::Java => names::java_named(name),
                _ => names::python_named(name),
            };
            let c =
                c.ok_or_else(|| (format!("undefined character name '{name}'"), 0..close + 3))?;
            Ok((Atom::Char(c), close + 3))
        }
        'c' if matches!(dialect, Dialect::Js | Dialect::Java | Dialect::Pcre | Dialect::Rust) => {
            match text[1..].chars().next() {
                // Java flips bit 6 of the character as written; the others uppercase first.
                Some(letter) if dialect == Dialect::Java && letter.is_ascii() => {
                    Ok((Atom::Char(char::from_u32(letter as u32 ^ 0x40).unwrap_or('\0')), 2))
                }
                Some(letter)
                    if letter.is_ascii_alphabetic()
                        || dialect != Dialect::Js && letter.is_ascii() =>
                {
                    let code = (letter.to_ascii_uppercase() as u32) ^ 0x40;
                    Ok((Atom::Char(char::from_u32(code).unwrap_or('\0')), 2))
                }
                // Annex B: in a class, `\c` also takes a digit or `_`, modulo 32.
                Some(digit) if in_class && (digit.is_ascii_digit() || digit == '_') => {
                    Ok((Atom::Char(char::from_u32(digit as u32 % 32).unwrap_or('\0')), 2))
                }
                _ if dialect == Dialect::Js => Ok((Atom::Char('\\'), 0)),
                _ => Err(("\\c needs a control letter".into(), 0..1)),
            }
        }
        'p' | 'P' if dialect != Dialect::Js && dialect != Dialect::Python => {
            let rest = &text[1..];
            let (name, len) = match rest.strip_prefix('{') {
                Some(braced) => {
                    let close = braced
                        .find('}')
                        .ok_or_else(|| ("unclosed \\p{...}".to_owned(), 0..text.len()))?;
                    (&braced[..close], close + 3)
                }
                None => match rest.chars().next() {
                    Some(letter) if letter.is_ascii_alphabetic() => (&rest[..1], 2),
                    _ => return Err(("\\p needs a property name".into(), 0..1)),
                },
            };
            let found = property(name.trim(), ctx)
                .ok_or_else(|| (format!("unknown Unicode property or block `{name}`"), 0..len))?;
            Ok((Atom::Set(if first == 'P' { found.complement() } else { found }), len))
        }
        c if c.is_ascii_alphanumeric() => {
            if dialect == Dialect::Js {
                ch(c)
            } else {
                Err((format!("unknown escape \\{c} in the {dialect} dialect"), 0..one))
            }
        }
        c => ch(c),
    }
}

/// Reads the bracketed class at the start of `text` (which starts with `[`): its set and
/// the bytes it took.
pub(super) fn bracket(text: &str, ctx: Ctx) -> Result<(CharSet, usize), ClassError> {
    if ctx.dialect == Dialect::Rust {
        return rust_bracket(text, ctx);
    }
    let mut reader = ClassReader { text, pos: 1, ctx, quoted: false, low_half: false };
    let negated = reader.eat('^');
    let set = reader.items(true)?;
    Ok((if negated { set.complement() } else { set }, reader.pos))
}

/// A bracketed class of the default dialect: its extent, then `regex-syntax` on it.
/// `[]`, where no class that starts with `]` closes, is the empty class.
fn rust_bracket(text: &str, ctx: Ctx) -> Result<(CharSet, usize), ClassError> {
    let Some(len) = rust_class_len(text) else {
        // `[]` and `[^]` where no class starting with `]` closes: JavaScript's readings.
        if text.starts_with("[]") {
            return Ok((CharSet::empty(), 2));
        }
        if text.starts_with("[^]") {
            return Ok((CharSet::full(), 3));
        }
        return Err(("unclosed character class".into(), 0..1));
    };
    let mut flags = String::new();
    if ctx.case_insensitive {
        flags.push('i');
    }
    if ctx.verbose {
        flags.push('x');
    }
    let prefix = if flags.is_empty() { String::new() } else { format!("(?{flags})") };
    // The error as its last line says it.
    let parse = |class: &str| {
        regex_syntax::ParserBuilder::new()
            .unicode(true)
            .utf8(true)
            .build()
            .parse(&format!("{prefix}{class}"))
            .map_err(|err| {
                err.to_string().lines().last().unwrap_or("invalid class").trim().to_owned()
            })
    };
    // `[\w-.]`: every engine that reads it takes the hyphen literally; `regex-syntax`
    // refuses it as a range.
    let parsed = parse(&text[..len]).or_else(|err| match hyphens_escaped(&text[..len]) {
        Some(escaped) => parse(&escaped).map_err(|_| err),
        None => Err(err),
    });
    match parsed {
        Ok(hir) => match hir.kind() {
            HirKind::Class(class) => Ok((CharSet::from_hir_class(class), len)),
            HirKind::Literal(_) => {
                Ok((rust_set(&text[..len]).map(|set| fold(set, ctx)).unwrap_or_default(), len))
            }
            _ => Err(("not a character class".into(), 0..len)),
        },
        Err(message) => Err((message, 0..len)),
    }
}

/// The length of the `regex-syntax` class at the start of `text`, nested classes
/// included, or `None` when it does not close.
fn rust_class_len(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut pos = 0;
    while pos < bytes.len() {
        match bytes[pos] {
            b'\\' => pos += 2,
            b'[' if bytes[pos..].starts_with(b"[:") && depth > 0 => {
                pos +=
                    bytes[pos..].windows(2).position(|pair| pair == b":]").map_or(1, |end| end + 2);
            }
            b'[' => {
                depth += 1;
                pos += 1;
                if bytes.get(pos) == Some(&b'^') {
                    pos += 1;
                }
                if bytes.get(pos) == Some(&b']') {
                    pos += 1;
                }
            }
            b']' => {
                depth -= 1;
                pos += 1;
                if depth == 0 {
                    return Some(pos);
                }
            }
            _ => pos += 1,
        }
    }
    None
}

/// The class `class` (`[...]`, in `regex-syntax` syntax) with each hyphen next to a class
/// escape (`\w`, `\d`, `\s`, `\p{..}` and their negations) escaped, if there is one.
fn hyphens_escaped(class: &str) -> Option<String> {
    let is_class_escape = |item: &str| {
        item.len() >= 2
            && item.starts_with('\\')
            && matches!(item.as_bytes()[1], b'w' | b'W' | b'd' | b'D' | b's' | b'S' | b'p' | b'P')
    };
    // The items of the class: escapes (with their braces) and single characters.
    let mut items: Vec<&str> = Vec::new();
    let mut pos = 0;
    while pos < class.len() {
        let rest = &class[pos..];
        let len = match rest.strip_prefix('\\') {
            Some(after) if after.starts_with(['p', 'P']) && after[1..].starts_with('{') => {
                after.find('}').map_or(rest.len(), |close| close + 2)
            }
            Some(after) => 1 + after.chars().next().map_or(0, char::len_utf8),
            None => rest.chars().next().map_or(1, char::len_utf8),
        };
        items.push(&rest[..len.min(rest.len())]);
        pos += len.max(1);
    }
    let mut changed = false;
    let mut res = String::with_capacity(class.len() + 2);
    for (idx, item) in items.iter().enumerate() {
        let beside = |offset: isize| {
            idx.checked_add_signed(offset)
                .and_then(|at| items.get(at))
                .is_some_and(|x| is_class_escape(x))
        };
        if *item == "-" && idx > 1 && idx + 2 < items.len() && (beside(-1) || beside(1)) {
            res.push_str("\\-");
            changed = true;
        } else {
            res.push_str(item);
        }
    }
    changed.then_some(res)
}

/// PCRE's POSIX class `[:name:]` or `[:^name:]`, if the name is one (PCRE2's list);
/// under `(?i)` `lower` and `upper` are every cased letter, as PCRE2 and Perl read them.
fn pcre_posix(posix: &str, ctx: Ctx) -> Option<CharSet> {
    const NAMES: [&str; 14] = [
        "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct",
        "space", "upper", "word", "xdigit",
    ];
    let inner = posix.strip_prefix("[:")?.strip_suffix(":]")?;
    let (negated, name) = match inner.strip_prefix('^') {
        Some(name) => (true, name),
        None => (false, inner),
    };
    if !NAMES.contains(&name) {
        return None;
    }
    if ctx.unicode_classes
        && let Some(set) = pcre_ucp_posix(name)
    {
        return Some(if negated { set.complement() } else { set });
    }
    let name =
        if ctx.case_insensitive && matches!(name, "lower" | "upper") { "alpha" } else { name };
    let caret = if negated { "^" } else { "" };
    rust_set(&format!("[[:{caret}{name}:]]"))
}

/// A POSIX class under PCRE2's `(*UCP)` (`pcre2pattern`, "POSIX character classes"):
/// Unicode properties for nine of them, the special rules for `graph`, `print` and
/// `punct`; `None` for `ascii` and `xdigit`, which stay as they are.
fn pcre_ucp_posix(name: &str) -> Option<CharSet> {
    let graph = r"[[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Cf}]--[\u{61C}\u{180E}\u{2066}-\u{2069}]]";
    let text = match name {
        "alnum" => return pcre_property("Xan"),
        "space" => return pcre_property("Xps"),
        "word" => return pcre_property("Xwd"),
        "alpha" => r"\p{L}",
        "blank" => r"[\t\p{Zs}\u{180E}]",
        "cntrl" => r"\p{Cc}",
        "digit" => r"\p{Nd}",
        "lower" => r"\p{Ll}",
        "upper" => r"\p{Lu}",
        "graph" => graph,
        "print" => return rust_set(graph)?.union(&rust_set(r"\p{Zs}")?).into(),
        "punct" => r"[\p{P}[\p{S}&&\x00-\xFF]]",
        _ => return None,
    };
    rust_set(text)
}

/// PCRE2's error for a range with a class at either end (`[a-\d]`, `[[:digit:]-z]`).
fn invalid_range(span: std::ops::Range<usize>) -> ClassError {
    ("invalid range in character class: a class cannot end or start a range".into(), span)
}

/// The items of a class of the other dialects.
struct ClassReader<'t> {
    text: &'t str,
    pos: usize,
    ctx: Ctx,
    /// Inside `\Q...\E` (Java, PCRE): every character is itself, `-` and `]` too.
    quoted: bool,
    /// JavaScript: the character here, above U+FFFF, has given its high unit.
    low_half: bool,
}

impl ClassReader<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    /// Skips what the class ignores: whitespace in Java's comments mode, spaces and tabs
    /// under PCRE's `(?xx)`, anywhere between the class's items and range ends.
    fn skip_verbose(&mut self) {
        let ignored = |c: char| match self.ctx.dialect {
            Dialect::Java => self.ctx.verbose && c.is_whitespace(),
            Dialect::Pcre => self.ctx.verbose_classes && matches!(c, ' ' | '\t'),
            _ => false,
        };
        while let Some(c) = self.peek().filter(|&c| ignored(c)) {
            self.pos += c.len_utf8();
        }
    }

    /// The union of the items up to and including the closing `]`.
    fn items(&mut self, first: bool) -> Result<CharSet, ClassError> {
        let dialect = self.ctx.dialect;
        let mut items: Vec<Item> = Vec::new();
        let mut first = first;
        loop {
            self.skip_ignored();
            let start = self.pos;
            let Some(c) = self.peek() else {
                return Err(("unclosed character class".into(), 0..1));
            };
            if self.quoted {
                first = false;
                self.pos += c.len_utf8();
                self.range_from(Atom::Char(c), start, &mut items)?;
                continue;
            }
            if c == ']' && (!first || dialect == Dialect::Js) {
                self.pos += 1;
                return Ok(case::fold_items(&items, self.ctx));
            }
            first = false;
            if dialect == Dialect::Java && self.text[self.pos..].starts_with("&&") {
                // Java passes over an empty operand: `[&&b]` is `[b]`, `[a&&]` is `[a]`.
                self.pos += 2;
                self.skip_verbose();
                let right_is_empty = self.peek() == Some(']');
                let right = self.items(false)?;
                let left = case::fold_items(&items, self.ctx);
                return Ok(match (items.is_empty(), right_is_empty) {
                    (true, _) => right,
                    (false, true) => left,
                    (false, false) => left.intersection(&right),
                });
            }
            if c == '[' && dialect == Dialect::Java {
                let (nested, len) = bracket(&self.text[self.pos..], self.ctx)
                    .map_err(|(message, span)| (message, span.start + start..span.end + start))?;
                self.pos += len;
                items.push(Item::Set(nested));
                continue;
            }
            let lo = self.item()?;
            self.range_from(lo, start, &mut items)?;
        }
    }

    /// Skips what the class ignores here: whitespace (`skip_verbose`) and the marks of
    /// quoted text, `\Q` and `\E` (Java, PCRE), which are transparent: `[a-\Q\Ec]` is
    /// `[a-c]`.
    fn skip_ignored(&mut self) {
        loop {
            if !self.quoted {
                self.skip_verbose();
            }
            let rest = &self.text[self.pos..];
            let quotes = matches!(self.ctx.dialect, Dialect::Java | Dialect::Pcre);
            let stray_end = self.ctx.dialect == Dialect::Pcre;
            if quotes && !self.quoted && rest.starts_with("\\Q") {
                self.quoted = true;
            } else if (self.quoted || stray_end) && rest.starts_with("\\E") {
                // PCRE2 ignores an `\E` that ends no `\Q`.
                self.quoted = false;
            } else {
                return;
            }
            self.pos += 2;
        }
    }

    /// `lo` (read from `start`), or the range it starts when a `-` follows, into `items`.
    fn range_from(
        &mut self,
        lo: Atom,
        start: usize,
        items: &mut Vec<Item>,
    ) -> Result<(), ClassError> {
        let dialect = self.ctx.dialect;
        self.skip_ignored();
        // Java: a `-` after a class escape is a character, which may start a range itself
        // (`[\w--&]` is an error: `-` to `&`).
        let java_set = dialect == Dialect::Java && matches!(lo, Atom::Set(_));
        if self.quoted || java_set || !self.eat('-') {
            items.push(lo.into_item());
            return Ok(());
        }
        // Java decides on the character right after the `-`, before `(?x)` skips spaces
        // (`(?x)[a- ]]` is `a` to `]`) but after its `\Q...\E` pass, which escapes each
        // quoted character that is not a letter or digit.
        let java = dialect == Dialect::Java;
        let raw_next = {
            let (mut after, mut quoting) = (&self.text[self.pos..], false);
            while let Some(rest) = after.strip_prefix("\\Q").or_else(|| after.strip_prefix("\\E")) {
                quoting = after.starts_with("\\Q");
                after = rest;
            }
            after.chars().next().map(|c| if quoting && !c.is_alphanumeric() { '\\' } else { c })
        };
        self.skip_ignored();
        let next = if java { raw_next } else { self.peek() };
        // Java: `b-[a]` is `b`, `-` and the nested class.
        let nested_next = java && !self.quoted && next == Some('[');
        let closes = !self.quoted && next == Some(']');
        match (&lo, self.peek()) {
            (Atom::Char(lo_char), Some(_)) if !closes && !nested_next => {
                let hi = match self.peek() {
                    Some(bracket @ ('[' | ']')) if java && !self.quoted => {
                        self.pos += 1;
                        Atom::Char(bracket)
                    }
                    _ => self.item()?,
                };
                let Atom::Char(hi_char) = hi else {
                    if dialect == Dialect::Pcre {
                        return Err(invalid_range(start..self.pos));
                    }
                    if matches!(dialect, Dialect::Python | Dialect::Java) {
                        return Err((
                            "bad character range: a class escape cannot end a range".into(),
                            start..self.pos,
                        ));
                    }
                    // `[a-\d]`: a literal hyphen in JavaScript.
                    items.extend([Item::Char(*lo_char), Item::Char('-'), hi.into_item()]);
                    return Ok(());
                };
                let units =
                    |c: char| if dialect == Dialect::Js { utf16::unit_of(c) } else { c.into() };
                let (lo_unit, hi_unit) = (units(*lo_char), units(hi_char));
                if hi_unit < lo_unit {
                    return Err((
                        "invalid character class range: the start is after the end".into(),
                        start..self.pos,
                    ));
                }
                if dialect == Dialect::Js && hi_unit >= 0xD800 && lo_unit <= 0xDFFF {
                    // Surrogate units stand for themselves and do not fold.
                    let set = utf16::unit_range(lo_unit, hi_unit);
                    let chars = set.ranges().iter().filter(|(lo, _)| u32::from(*lo) <= 0xFFFF);
                    items.extend(chars.map(|&(lo, hi)| Item::Range(lo, hi)));
                    let surrogates = set.ranges().iter().filter(|(lo, _)| u32::from(*lo) > 0xFFFF);
                    items.extend(surrogates.map(|&(lo, hi)| Item::Set(CharSet::range(lo, hi))));
                } else {
                    items.push(Item::Range(*lo_char, hi_char));
                }
            }
            (Atom::Set(_), Some(next)) if !closes && dialect == Dialect::Python => {
                return Err((
                    "bad character range: a class escape cannot start a range".into(),
                    start..self.pos + next.len_utf8(),
                ));
            }
            (Atom::Set(_), Some(next)) if !closes && dialect == Dialect::Pcre => {
                return Err(invalid_range(start..self.pos + next.len_utf8()));
            }
            (Atom::Set(_), Some(_)) if !closes && dialect == Dialect::Js => {
                // `[\s-a-z]`: `\s`, `-` and `a`, which ends the would-be range
                // (ECMAScript Annex B), so starts none: `-` and `z` follow.
                let hi = self.atom()?;
                items.extend([lo.into_item(), Item::Char('-'), hi.into_item()]);
            }
            _ => {
                // `[\w-.]` or `[a-]`: the hyphen is itself.
                items.extend([lo.into_item(), Item::Char('-')]);
            }
        }
        Ok(())
    }

    /// One character, escape or (PCRE) POSIX class `[:name:]` of a class.
    fn item(&mut self) -> Result<Atom, ClassError> {
        let start = self.pos;
        if self.quoted
            && let Some(c) = self.peek()
        {
            self.pos += c.len_utf8();
            return Ok(Atom::Char(c));
        }
        let rest = &self.text[self.pos..];
        if let (Dialect::Pcre, true, Some(end)) =
            (self.ctx.dialect, rest.starts_with("[:"), rest.find(":]"))
        {
            let posix = &rest[..end + 2];
            let found = pcre_posix(posix, self.ctx)
                .ok_or_else(|| (format!("unknown POSIX class {posix}"), start..start + end + 2))?;
            self.pos += end + 2;
            return Ok(Atom::Set(found));
        }
        self.atom()
    }

    /// One character or escape of a class.
    fn atom(&mut self) -> Result<Atom, ClassError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(("unclosed character class".into(), 0..1));
        };
        if self.ctx.dialect == Dialect::Js
            && let Some([high, low]) = utf16::halves(c)
        {
            // Two units: the high one, then (the next time) the low one.
            self.low_half = !self.low_half;
            if self.low_half {
                return Ok(Atom::Char(high));
            }
            self.pos += c.len_utf8();
            return Ok(Atom::Char(low));
        }
        self.pos += c.len_utf8();
        if c != '\\' {
            return Ok(Atom::Char(c));
        }
        let (atom, len) = escape(&self.text[self.pos..], self.ctx, true)
            .map_err(|(message, span)| (message, start + 1 + span.start..start + 1 + span.end))?;
        self.pos += len;
        Ok(atom)
    }
}
