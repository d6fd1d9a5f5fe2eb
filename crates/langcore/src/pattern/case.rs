//! Case-insensitive matching as each dialect's engine does it: the characters a literal, a
//! range or a class escape matches under `(?i)`.
//!
//! # Overview
//! [`Item`] is one member of a class as written (a character, a range, a set such as `\w`);
//! [`fold_items`] is the set the dialect's engine matches for a class of such items under
//! case insensitivity. A literal outside a class is a class of one [`Item::Char`] here.
//!
//! # Algorithm
//! Every engine compares characters through a mapping m (a lowercase, an uppercase, a
//! canonicalization): ch matches a literal c when m(ch) = m(c). Its sets are images and
//! preimages of m, computed from the pairs m changes ([`Mapping`], about 1,500, found once
//! by scanning every scalar value). Each engine's rules, from its source:
//!
//! - Python (`Lib/re/_compiler.py`, `_sre`): `lower` is the simple lowercase mapping
//!   (`_sre.unicode_tolower`: the first character of the full one), and a cased literal c
//!   (`_sre.unicode_iscased`: lower(c) != c or upper(c) != c) matches every ch with
//!   lower(ch) in {lower(c)} plus its `re._casefix` equivalents (`ı ~ i`, `ſ ~ s`, ...); an
//!   uncased one only itself. A class with a cased member or a member above U+FFFF matches
//!   ch when lower(ch) is in the set of its members lowered (with their equivalents), its
//!   escapes as they are, its members above U+FFFF unlowered, its ranges that reach above
//!   U+FFFF also through upper; otherwise it matches as written. A class of one character
//!   is a literal. Under `(?a)` the mapping is ASCII's and there are no equivalents.
//! - Java (`Pattern.single`, `CIRange`, `CIRangeU`): a literal c matches ch when
//!   lower(upper(ch)) = lower(upper(c)) (the simple mappings of `Character`), if c is cased
//!   so; a range also matches ch when upper(ch) or lower(upper(ch)) is in it; escapes and
//!   properties match as they are (the properties Java widens under `(?i)`, `\p{Lower}` and
//!   the like, are widened in class.rs). Without `(?u)` only ASCII letters fold.
//! - JavaScript without the `u` flag (ECMAScript `Canonicalize`): ch matches a class (or a
//!   literal, or `\w`) when some member has the same canonical form, the full uppercase
//!   mapping if it is one UTF-16 unit and does not take a non-ASCII character into ASCII.
//! - Rust: simple case folding (`regex-syntax`), escapes and properties included.
//! - PCRE (`pcre2pattern`: "caseless matching does not affect these escape sequences"):
//!   characters and ranges by simple case folding; escapes and properties as they are
//!   (its POSIX classes, which PCRE2 widens under `(?i)`, are widened in class.rs).
//!
//! # Weak spots
//! The mappings are Rust's `char::to_lowercase`/`to_uppercase` (Unicode
//! `char::UNICODE_VERSION`), the Unicode tables `regex-syntax`'s: characters whose case
//! changed between those versions and the engine's differ.
//!
//! A backreference under `(?i)` matches what its captured text matches as literals
//! ([`fold_captured`]), but in Python, which compares lower(ch) without the equivalents.

use std::sync::OnceLock;

use regex_syntax::hir;

use super::Ctx;
use crate::alphabet::CharSet;
use crate::dialect::Dialect;

/// One member of a bracketed class as written, or a literal or escape outside one.
#[derive(Clone, Debug)]
pub(super) enum Item {
    Char(char),
    Range(char, char),
    /// A class escape, a property, a nested class: a set the engines do not fold as
    /// characters.
    Set(CharSet),
}

impl Item {
    fn to_set(&self) -> CharSet {
        match self {
            Item::Char(c) => CharSet::singleton(*c),
            Item::Range(lo, hi) => CharSet::range(*lo, *hi),
            Item::Set(set) => set.clone(),
        }
    }
}

/// The union of `items` as written.
fn union(items: &[Item]) -> CharSet {
    items.iter().fold(CharSet::empty(), |acc, item| acc.union(&item.to_set()))
}

/// The characters a class of `items` matches under the case insensitivity of `ctx`.
pub(super) fn fold_items(items: &[Item], ctx: Ctx) -> CharSet {
    if !ctx.case_insensitive {
        return union(items);
    }
    match ctx.dialect {
        Dialect::Python => python_class(items, ctx.ascii),
        Dialect::Java => items
            .iter()
            .fold(CharSet::empty(), |acc, item| acc.union(&java_item(item, ctx.unicode_case))),
        Dialect::Js => {
            let canon = mapping(&JS_CANON, js_canonicalize);
            canon.preimage(&canon.image(&union(items)))
        }
        Dialect::Rust => simple_case_fold(&union(items)),
        Dialect::Pcre => {
            let (sets, chars): (Vec<Item>, Vec<Item>) =
                items.iter().cloned().partition(|item| matches!(item, Item::Set(_)));
            simple_case_fold(&union(&chars)).union(&union(&sets))
        }
    }
}

/// The characters a backreference matches where its group captured `c`, under the case
/// insensitivity of `ctx`: as the literal `c`, but in Python, whose `GROUPREF_UNI_IGNORE`
/// compares lowered forms without the `_casefix` equivalents.
pub(super) fn fold_captured(c: char, ctx: Ctx) -> CharSet {
    if ctx.case_insensitive && ctx.dialect == Dialect::Python {
        let lower = PythonCase::new(ctx.ascii).lower;
        return lower.preimage(&lower.image(&CharSet::singleton(c)));
    }
    fold_items(&[Item::Char(c)], ctx)
}

/// `set` closed under simple case folding.
fn simple_case_fold(set: &CharSet) -> CharSet {
    let mut class = hir::ClassUnicode::new(
        set.ranges().iter().map(|&(lo, hi)| hir::ClassUnicodeRange::new(lo, hi)),
    );
    class.case_fold_simple();
    CharSet::from_ranges(class.ranges().iter().map(|range| (range.start(), range.end())))
}

/// A mapping of characters, as the pairs it changes: for images and preimages of sets.
struct Mapping {
    /// (c, m(c)) for every c with m(c) != c.
    pairs: Vec<(char, char)>,
    changed: CharSet,
}

impl Mapping {
    /// The mapping `map`, found by asking it about every scalar value.
    fn new(map: fn(char) -> char) -> Mapping {
        let pairs: Vec<(char, char)> = (0..=char::MAX as u32)
            .filter_map(char::from_u32)
            .filter_map(|c| Some((c, map(c))).filter(|&(c, m)| c != m))
            .collect();
        let changed = pairs.iter().map(|&(c, _)| c).collect();
        Mapping { pairs, changed }
    }

    /// {m(c) : c in set}.
    fn image(&self, set: &CharSet) -> CharSet {
        let moved: CharSet =
            self.pairs.iter().filter(|&&(c, _)| set.contains(c)).map(|&(_, m)| m).collect();
        set.difference(&self.changed).union(&moved)
    }

    /// {c : m(c) in set}.
    fn preimage(&self, set: &CharSet) -> CharSet {
        let sources: CharSet =
            self.pairs.iter().filter(|&&(_, m)| set.contains(m)).map(|&(c, _)| c).collect();
        set.difference(&self.changed).union(&sources)
    }
}

/// The mapping in `cell`, built by `map` on first use.
fn mapping(cell: &'static OnceLock<Mapping>, map: fn(char) -> char) -> &'static Mapping {
    cell.get_or_init(|| Mapping::new(map))
}

static PY_LOWER: OnceLock<Mapping> = OnceLock::new();
static PY_UPPER: OnceLock<Mapping> = OnceLock::new();
static ASCII_LOWER: OnceLock<Mapping> = OnceLock::new();
static ASCII_UPPER: OnceLock<Mapping> = OnceLock::new();
static JAVA_UPPER: OnceLock<Mapping> = OnceLock::new();
static JAVA_FOLD: OnceLock<Mapping> = OnceLock::new();
static JS_CANON: OnceLock<Mapping> = OnceLock::new();

/// The first character of a full case mapping: CPython's `_PyUnicode_ToLowercase` and
/// `_PyUnicode_ToUppercase` (so upper('ß') is 'S').
fn first(mut chars: impl Iterator<Item = char>, c: char) -> char {
    chars.next().unwrap_or(c)
}

fn python_lower(c: char) -> char {
    first(c.to_lowercase(), c)
}

fn python_upper(c: char) -> char {
    first(c.to_uppercase(), c)
}

/// The only character of a full case mapping, or `None` when it has several.
fn only(mut chars: impl Iterator<Item = char>) -> Option<char> {
    let res = chars.next()?;
    chars.next().is_none().then_some(res)
}

/// `Character.toLowerCase(int)`: the simple lowercase mapping. Only U+0130 has a full
/// mapping of several characters and a simple one.
fn java_lower(c: char) -> char {
    if c == '\u{130}' {
        return 'i';
    }
    only(c.to_lowercase()).unwrap_or(c)
}

/// `Character.toUpperCase(int)`: the simple uppercase mapping. The Greek letters with
/// ypogegrammeni have full mappings of two characters and simple ones to their title case.
fn java_upper(c: char) -> char {
    let ypogegrammeni = match c {
        '\u{1f80}'..='\u{1f87}' | '\u{1f90}'..='\u{1f97}' | '\u{1fa0}'..='\u{1fa7}' => 8,
        '\u{1fb3}' | '\u{1fc3}' | '\u{1ff3}' => 9,
        _ => 0,
    };
    if ypogegrammeni > 0 {
        return char::from_u32(c as u32 + ypogegrammeni).unwrap_or(c);
    }
    only(c.to_uppercase()).unwrap_or(c)
}

/// What `Pattern.single` and `SliceU` compare: lower(upper(c)).
fn java_fold(c: char) -> char {
    java_lower(java_upper(c))
}

/// ECMAScript's `Canonicalize` without the `u` flag: the full uppercase mapping when it is
/// one UTF-16 unit and does not take a non-ASCII character into ASCII.
fn js_canonicalize(c: char) -> char {
    match only(c.to_uppercase()) {
        Some(upper) if upper as u32 <= 0xffff && (c.is_ascii() || !upper.is_ascii()) => upper,
        _ => c,
    }
}

/// Python 3.11's `re._casefix`: lowercase characters `re` also takes as equal, each group
/// of one case-insensitive class (`sre_compile` adds the others to a cased literal).
const PYTHON_EQUIVALENTS: &[&[char]] = &[
    &['i', '\u{131}'],
    &['s', '\u{17f}'],
    &['\u{b5}', '\u{3bc}'],
    &['\u{345}', '\u{3b9}', '\u{1fbe}'],
    &['\u{390}', '\u{1fd3}'],
    &['\u{3b0}', '\u{1fe3}'],
    &['\u{3b2}', '\u{3d0}'],
    &['\u{3b5}', '\u{3f5}'],
    &['\u{3b8}', '\u{3d1}'],
    &['\u{3ba}', '\u{3f0}'],
    &['\u{3c0}', '\u{3d6}'],
    &['\u{3c1}', '\u{3f1}'],
    &['\u{3c2}', '\u{3c3}'],
    &['\u{3c6}', '\u{3d5}'],
    &['\u{432}', '\u{1c80}'],
    &['\u{434}', '\u{1c81}'],
    &['\u{43e}', '\u{1c82}'],
    &['\u{441}', '\u{1c83}'],
    &['\u{442}', '\u{1c84}', '\u{1c85}'],
    &['\u{44a}', '\u{1c86}'],
    &['\u{463}', '\u{1c87}'],
    &['\u{1c88}', '\u{a64b}'],
    &['\u{1e61}', '\u{1e9b}'],
    &['\u{fb05}', '\u{fb06}'],
];

/// `set` with the `re._casefix` equivalents of its members.
fn with_python_equivalents(set: &CharSet) -> CharSet {
    PYTHON_EQUIVALENTS
        .iter()
        .filter(|group| group.iter().any(|&c| set.contains(c)))
        .fold(set.clone(), |acc, group| acc.union(&group.iter().copied().collect()))
}

/// How Python compares characters under `(?i)`, `(?a)` or not.
struct PythonCase {
    lower: &'static Mapping,
    /// The characters `iscased` holds for.
    cased: CharSet,
    ascii: bool,
}

/// The characters of one UTF-16 unit: Python's class compiler lowers only these.
fn bmp() -> CharSet {
    CharSet::range('\0', '\u{ffff}')
}

impl PythonCase {
    fn new(ascii: bool) -> PythonCase {
        if ascii {
            let lower = mapping(&ASCII_LOWER, |c| c.to_ascii_lowercase());
            let cased = CharSet::from_ranges([('A', 'Z'), ('a', 'z')]);
            return PythonCase { lower, cased, ascii };
        }
        let lower = mapping(&PY_LOWER, python_lower);
        let upper = mapping(&PY_UPPER, python_upper);
        PythonCase { lower, cased: lower.changed.union(&upper.changed), ascii }
    }

    /// The lowered forms of `set`, with their equivalents.
    fn lowered(&self, set: &CharSet) -> CharSet {
        let image = self.lower.image(set);
        if self.ascii { image } else { with_python_equivalents(&image) }
    }

    /// A literal: itself if uncased, else every character of the same lowered form.
    fn literal(&self, c: char) -> CharSet {
        let set = CharSet::singleton(c);
        if self.cased.contains(c) { self.lower.preimage(&self.lowered(&set)) } else { set }
    }

    /// Whether a class member makes the class compare lowered forms (`hascased`).
    fn is_cased(&self, item: &Item) -> bool {
        match item {
            Item::Set(_) => false,
            _ => {
                let set = item.to_set();
                !set.is_subset(&bmp()) || !set.is_disjoint(&self.cased)
            }
        }
    }

    /// The forms a class member puts in the compiled class, which lowered characters are
    /// looked up in: members up to U+FFFF lowered, others as written, a range reaching
    /// above U+FFFF also through upper (`RANGE_UNI_IGNORE`), escapes as they are.
    fn target(&self, item: &Item) -> CharSet {
        let written = item.to_set();
        if matches!(item, Item::Set(_)) {
            return written;
        }
        let lowered = self.lowered(&written.intersection(&bmp()));
        match item {
            Item::Range(_, hi) if *hi > '\u{ffff}' => {
                let upper = mapping(&PY_UPPER, python_upper);
                lowered.union(&written).union(&upper.preimage(&written))
            }
            _ => lowered.union(&written.difference(&bmp())),
        }
    }
}

/// The character of a class whose members are all that one character: `re` reads it
/// as a literal.
fn only_char(items: &[Item]) -> Option<char> {
    let Some(Item::Char(c)) = items.first() else { return None };
    items.iter().all(|item| matches!(item, Item::Char(other) if other == c)).then_some(*c)
}

/// A Python class (or literal, a class of one character) under `(?i)`.
fn python_class(items: &[Item], ascii: bool) -> CharSet {
    let case = PythonCase::new(ascii);
    if let Some(c) = only_char(items) {
        return case.literal(c);
    }
    if !items.iter().any(|item| case.is_cased(item)) {
        return union(items);
    }
    let targets = items.iter().fold(CharSet::empty(), |acc, item| acc.union(&case.target(item)));
    case.lower.preimage(&targets)
}

/// A Java class member under `(?i)`: `unicode` with `(?u)`.
fn java_item(item: &Item, unicode: bool) -> CharSet {
    match (item, unicode) {
        (Item::Char(c), true) if java_upper(*c) != java_fold(*c) => {
            let target = CharSet::singleton(java_fold(*c));
            target.union(&mapping(&JAVA_FOLD, java_fold).preimage(&target))
        }
        (Item::Char(c), false) if c.is_ascii_alphabetic() => {
            CharSet::from_iter([c.to_ascii_lowercase(), c.to_ascii_uppercase()])
        }
        (Item::Range(..), true) => {
            let range = item.to_set();
            let upper = mapping(&JAVA_UPPER, java_upper).preimage(&range);
            range.union(&upper).union(&mapping(&JAVA_FOLD, java_fold).preimage(&range))
        }
        (Item::Range(..), false) => {
            let range = item.to_set();
            let upper = mapping(&ASCII_UPPER, |c| c.to_ascii_uppercase()).preimage(&range);
            let lower = mapping(&ASCII_LOWER, |c| c.to_ascii_lowercase()).preimage(&range);
            range.union(&upper).union(&lower)
        }
        _ => item.to_set(),
    }
}
