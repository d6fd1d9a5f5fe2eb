//! Intersections and differences written with a lookahead, in the dialects that have one.
//!
//! # Overview
//! Under full match, a lookahead at the start of the string that reads to its end tests
//! the whole string: `(?=(?:A)$)(?:B)` is `A ∩ B` and `(?!(?:B)$)(?:A)` is `A − B`, with
//! `$` the dialect's end of the text (`\Z` in Python, `$` in JavaScript without the `m`
//! flag, `\z` in Java and PCRE, where `$` also matches before a final newline). Where the
//! minimal automaton of a product remembers the progress of both operands ("contains X and
//! contains Y"), its elimination multiplies the operands out, while this form costs their
//! two patterns and a dozen characters. [`Lookaheads`] writes it for an intersection or a
//! difference of two operands, each operand by its own conversion (so an operand that is
//! itself a product may hold a lookahead: it too starts at the start of the string), both
//! orders of an intersection, and keeps the shortest that is exact and shorter than the
//! product written without lookaround. Our dialect has no lookaround, so there is none
//! there.
//!
//! # Budgets
//! [`Operation::ToRegex`]: the operands' conversions and the checks share a quarter of the
//! time left ([`LOOKAHEAD_SHARE`]); running out of it only drops the candidate.
//!
//! # Invariants
//! A returned text, read in its dialect by relang's own front end, has exactly the
//! product's canonical minimal DFA (in JavaScript too, whose surrogate pairs relang reads
//! as code units).

use super::{Shape, term_to_pattern, time_share};
use crate::budget::Budget;
use crate::dfa::Dfa;
use crate::dialect::Dialect;
use crate::pattern::parse_in;
use crate::witness::BoolOp;

/// The lookahead candidate may take this fraction (1/n) of the time left: the classic
/// candidates still get the rest.
const LOOKAHEAD_SHARE: u32 = 4;

/// The texts with a lookahead for `op` on two `operands` (each with its minimal DFA),
/// shortest first, and the time share their checks get; see [`Lookaheads::first_exact`].
pub(super) struct Lookaheads {
    texts: Vec<String>,
    dialect: Dialect,
    share: Budget,
}

impl Lookaheads {
    /// The texts for `op` on `operands` within `budget`'s pattern limit: both orders of an
    /// intersection, and the same with groups everywhere (should the scan for a top-level
    /// `|` have read a spelling wrongly); none in a dialect without lookaround, for other
    /// operations, or when an operand does not convert within the time share.
    pub(super) fn new(
        op: BoolOp,
        operands: &[(Shape<'_>, &Dfa)],
        dialect: Dialect,
        budget: &Budget,
    ) -> Lookaheads {
        let share = time_share(budget, LOOKAHEAD_SHARE);
        let texts = Self::written_for(op, operands, dialect, &share)
            .unwrap_or_default()
            .into_iter()
            .filter(|text| text.len() <= budget.max_pattern())
            .collect();
        Lookaheads { texts, dialect, share }
    }

    fn written_for(
        op: BoolOp,
        operands: &[(Shape<'_>, &Dfa)],
        dialect: Dialect,
        share: &Budget,
    ) -> Option<Vec<String>> {
        let end = end_of_text(dialect)?;
        let [(left, left_dfa), (right, right_dfa)] = operands else { return None };
        if !matches!(op, BoolOp::Intersection | BoolOp::Difference) {
            return None;
        }
        let convert = |shape: &Shape<'_>, dfa: &Dfa| {
            term_to_pattern(shape, None, dialect, share, |_| Ok(dfa)).ok()
        };
        let (left, right) = (convert(left, left_dfa)?, convert(right, right_dfa)?);
        // The empty language's `[]` is not valid in every dialect (the product is empty too).
        if left == "[]" || right == "[]" {
            return None;
        }
        let (mut texts, grouped) = match op {
            BoolOp::Intersection => (
                vec![
                    written('=', &left, &right, end, has_top_alternation),
                    written('=', &right, &left, end, has_top_alternation),
                ],
                written('=', &left, &right, end, |_| true),
            ),
            _ => (
                vec![written('!', &right, &left, end, has_top_alternation)],
                written('!', &right, &left, end, |_| true),
            ),
        };
        texts.sort_by_key(String::len);
        if !texts.contains(&grouped) {
            texts.push(grouped);
        }
        Some(texts)
    }

    /// The length of the longest text, if there is one.
    pub(super) fn longest(&self) -> Option<usize> {
        self.texts.iter().map(String::len).max()
    }

    /// The first text shorter than `shorter_than` that is exact for the product's minimal
    /// DFA `result`. Checking a text builds its automaton, in JavaScript over code units,
    /// which can take seconds: the caller asks only once it knows what the text must beat.
    pub(super) fn first_exact(&self, result: &Dfa, shorter_than: usize) -> Option<String> {
        self.texts
            .iter()
            .filter(|text| text.len() < shorter_than)
            .find(|text| is_exact(text, self.dialect, result, &self.share))
            .cloned()
    }
}

/// `(?<kind>(?:look)<end>)(?:body)`, each group only where `needs_group` says the text has
/// an alternation that would otherwise escape it.
fn written(kind: char, look: &str, body: &str, end: &str, needs_group: fn(&str) -> bool) -> String {
    let group = |text: &str| {
        if needs_group(text) { format!("(?:{text})") } else { text.to_owned() }
    };
    format!("(?{kind}{}{end}){}", group(look), group(body))
}

/// The assertion of the end of the whole text in `dialect`, when it has lookaheads.
fn end_of_text(dialect: Dialect) -> Option<&'static str> {
    match dialect {
        Dialect::Rust => None,
        Dialect::Python => Some(r"\Z"),
        Dialect::Js => Some("$"),
        Dialect::Java | Dialect::Pcre => Some(r"\z"),
    }
}

/// Whether the pattern `text`, as this module's writer spells patterns (metacharacters in
/// classes escaped), has an alternation outside every group.
fn has_top_alternation(text: &str) -> bool {
    let (mut depth, mut in_class) = (0_usize, 0_usize);
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' => in_class += 1,
            ']' if in_class > 0 => in_class -= 1,
            _ if in_class > 0 => {}
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

/// Whether `text`, read in `dialect`, has the canonical minimal DFA `target`; `false` when
/// it does not parse or its automaton does not fit `budget`.
fn is_exact(text: &str, dialect: Dialect, target: &Dfa, budget: &Budget) -> bool {
    let dfa = parse_in(text, dialect, budget).and_then(|parsed| Ok(parsed.into_dfa(budget)?));
    dfa.is_ok_and(|dfa| dfa == *target)
}

#[cfg(test)]
mod tests {
    use super::{has_top_alternation, written};
    use crate::to_regex::tests::combined as converted;
    use crate::{Budget, Dialect, Language};

    #[test]
    fn contains_both_is_a_lookahead_where_the_dialect_has_one() {
        let (left, right) = (".*Kein.*Kunde.*", ".*phpsessid=[0-9a-zA-Z]{32}.*");
        assert_eq!(
            converted(left, '&', right, Dialect::Python),
            r"(?=[\s\S]*Kein[\s\S]*Kunde[\s\S]*\Z)[\s\S]*phpsessid=[0-9A-Za-z]{32}[\s\S]*"
        );
        let (ascii, sessions) = ("[ -~]*Kein[ -~]*", "[ -~]*id=[0-9a-z]{32}[ -~]*");
        assert_eq!(
            converted(ascii, '&', sessions, Dialect::Js),
            r"(?=[ -\~]*Kein[ -\~]*$)[ -\~]*id=[\da-z]{32}[ -\~]*"
        );
        assert!(converted(left, '&', right, Dialect::Java).contains(r"Kunde[\s\S]*\z)"));
        assert!(converted(left, '&', right, Dialect::Pcre).starts_with("(?="));
        // Our dialect has no lookaround: the product is written out.
        let (left, right) = (".*ab.*", ".*c[0-9]{3}.*");
        assert!(converted(left, '&', right, Dialect::Python).starts_with("(?="));
        assert!(!converted(left, '&', right, Dialect::Rust).contains("(?"));
    }

    #[test]
    fn a_difference_is_a_negative_lookahead() {
        assert_eq!(
            converted(".*Kunde.*", '-', ".*Kein.*", Dialect::Python),
            r"(?![\s\S]*Kein[\s\S]*\Z)[\s\S]*Kunde[\s\S]*"
        );
    }

    #[test]
    fn alternations_are_grouped_and_short_forms_kept() {
        assert_eq!(written('=', "a|b", "c|d", "$", has_top_alternation), "(?=(?:a|b)$)(?:c|d)");
        assert_eq!(written('!', "(a|b)", "c", r"\z", has_top_alternation), r"(?!(a|b)\z)c");
        // A product the classic candidates write short stays without a lookahead.
        assert_eq!(converted("[a-z]{2,40}", '&', "[a-x0-9]+", Dialect::Python), "[a-x]{2,40}");
        // An empty product is `[]` (JavaScript reads it back; no lookahead is checked).
        let (tag, email) = (r"<\w[^>]*\son\w+=(\w+|'[^']*')>", r"[\w.-]+@([\w-]+\.)+\w{2,4}");
        assert_eq!(converted(tag, '&', email, Dialect::Js), "[]");
    }

    #[test]
    fn javascript_past_the_bmp_is_read_back_as_code_units() {
        // `.*` is a run of code units, `[^]*` (`class.rs`), and `.` two of them or one.
        let output = converted(".*Kein.*", '-', ".*Kunde.*", Dialect::Js);
        assert_eq!(output, "(?![^]*Kunde[^]*$)[^]*Kein[^]*");
        let output = converted(".*Kein.", '-', ".*Kunde.*", Dialect::Js);
        assert!(output.starts_with("(?!"), "{output}");
        assert!(output.contains(r"[\uD800-\uDBFF][\uDC00-\uDFFF]"), "{output}");
    }

    #[test]
    fn the_pattern_limit_holds_for_the_lookahead_too() {
        let budget = Budget::default();
        let both = Language::from_regex(".*ab.*")
            .unwrap()
            .intersection(&Language::from_regex(".*c[0-9]{3}.*").unwrap(), &budget)
            .unwrap();
        let looked = both.to_pattern_in(Dialect::Python, &budget).unwrap();
        assert!(looked.starts_with("(?="), "{looked}");
        let limited = budget.with_max_pattern(looked.len() - 1);
        match both.to_pattern_in(Dialect::Python, &limited) {
            Ok(text) => assert!(text.len() < looked.len(), "{text}"),
            Err(err) => assert!(err.to_string().contains("pattern"), "{err}"),
        }
    }

    #[test]
    fn top_alternations_are_found_outside_groups_and_classes() {
        assert!(has_top_alternation("a|b"));
        assert!(has_top_alternation(r"(a)\||b"));
        assert!(!has_top_alternation("(a|b)c"));
        assert!(!has_top_alternation(r"[|]\|"));
        assert!(!has_top_alternation(r"[\]|]x"));
    }
}
