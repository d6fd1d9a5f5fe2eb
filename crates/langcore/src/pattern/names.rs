//! Character names of `\\N{...}` escapes, as each dialect's engine looks them up.

use std::borrow::Cow;

/// The character of Python's `\\N{name}`: `unicodedata.lookup`'s, a name or an alias in any
/// case (from the `unicode_names2` tables), but not the loose forms those tables also take
/// (`EMDASH`, `em_dash`: CPython wants `EM DASH`).
pub(super) fn python_named(name: &str) -> Option<char> {
    let c = unicode_names2::character(name)?;
    let upper = name.to_ascii_uppercase();
    let canonical = unicode_names2::name(c).map(|name| name.to_string()).unwrap_or_default();
    let squeezed = |text: &str| text.replace([' ', '_', '-'], "");
    // A loose form of the character's own name; an alias squeezes to something else.
    let loose = upper != canonical && squeezed(&upper) == squeezed(&canonical);
    (!loose && !name.contains('_')).then_some(c)
}

/// The character of Java's `\\N{name}` (`Character.codePointOf`): the one whose
/// `Character.getName` is the name once trimmed and uppercased. No aliases, no loose forms.
pub(super) fn java_named(name: &str) -> Option<char> {
    let upper = name.trim_matches(|c: char| c <= ' ').to_uppercase();
    let candidate = unicode_names2::character(&upper)
        .or_else(|| {
            let index = CONTROL_NAMES.iter().position(|&control| control == upper)?;
            controls().nth(index)
        })
        .or_else(|| {
            let (_, hex) = upper.rsplit_once(' ')?;
            u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)
        })?;
    java_name(candidate).is_some_and(|name| name == upper).then_some(candidate)
}

/// Java's `Character.getName`: the Unicode 1.0 name of a control character, the name of
/// the Unicode data for a character it names one by one, and the block and the hex code
/// for one it names by range (ideographs, Hangul syllables, private use).
fn java_name(c: char) -> Option<Cow<'static, str>> {
    let by_block = || {
        let block = unicode_blocks::find_unicode_block(c)?;
        Some(Cow::Owned(format!(
            "{} {:X}",
            block.name().to_uppercase().replace('-', " "),
            u32::from(c)
        )))
    };
    if let Some(index) = controls().position(|control| control == c) {
        return match CONTROL_NAMES[index] {
            "" => by_block(),
            name => Some(Cow::Borrowed(name)),
        };
    }
    // Private use, and Tangut (whose names the `unicode_names2` tables lack).
    let ranged = matches!(
        u32::from(c),
        0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x10_0000..=0x10_FFFD | 0x17000..=0x187F7 | 0x18D00..=0x18D08
    );
    let name = unicode_names2::name(c).map(|name| name.to_string());
    match name {
        Some(name) if !RANGED.iter().any(|prefix| name.starts_with(prefix)) => {
            Some(Cow::Owned(name))
        }
        Some(_) => by_block(),
        None if ranged => by_block(),
        None => None,
    }
}

/// Names the Unicode data gives by range, which Java writes as the block and the code.
const RANGED: [&str; 2] = ["CJK UNIFIED IDEOGRAPH-", "HANGUL SYLLABLE "];

/// The control characters, in the order of [`CONTROL_NAMES`].
fn controls() -> impl Iterator<Item = char> {
    ('\0'..='\x1f').chain('\x7f'..='\u{9f}')
}

/// The Unicode 1.0 names of the control characters (`UnicodeData.txt`'s tenth field, which
/// Java's names take); U+0084 has none.
const CONTROL_NAMES: [&str; 65] = [
    "NULL",
    "START OF HEADING",
    "START OF TEXT",
    "END OF TEXT",
    "END OF TRANSMISSION",
    "ENQUIRY",
    "ACKNOWLEDGE",
    "BEL",
    "BACKSPACE",
    "CHARACTER TABULATION",
    "LINE FEED (LF)",
    "LINE TABULATION",
    "FORM FEED (FF)",
    "CARRIAGE RETURN (CR)",
    "SHIFT OUT",
    "SHIFT IN",
    "DATA LINK ESCAPE",
    "DEVICE CONTROL ONE",
    "DEVICE CONTROL TWO",
    "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR",
    "NEGATIVE ACKNOWLEDGE",
    "SYNCHRONOUS IDLE",
    "END OF TRANSMISSION BLOCK",
    "CANCEL",
    "END OF MEDIUM",
    "SUBSTITUTE",
    "ESCAPE",
    "INFORMATION SEPARATOR FOUR",
    "INFORMATION SEPARATOR THREE",
    "INFORMATION SEPARATOR TWO",
    "INFORMATION SEPARATOR ONE",
    "DELETE",
    "PADDING CHARACTER",
    "HIGH OCTET PRESET",
    "BREAK PERMITTED HERE",
    "NO BREAK HERE",
    "",
    "NEXT LINE (NEL)",
    "START OF SELECTED AREA",
    "END OF SELECTED AREA",
    "CHARACTER TABULATION SET",
    "CHARACTER TABULATION WITH JUSTIFICATION",
    "LINE TABULATION SET",
    "PARTIAL LINE FORWARD",
    "PARTIAL LINE BACKWARD",
    "REVERSE LINE FEED",
    "SINGLE SHIFT TWO",
    "SINGLE SHIFT THREE",
    "DEVICE CONTROL STRING",
    "PRIVATE USE ONE",
    "PRIVATE USE TWO",
    "SET TRANSMIT STATE",
    "CANCEL CHARACTER",
    "MESSAGE WAITING",
    "START OF GUARDED AREA",
    "END OF GUARDED AREA",
    "START OF STRING",
    "SINGLE GRAPHIC CHARACTER INTRODUCER",
    "SINGLE CHARACTER INTRODUCER",
    "CONTROL SEQUENCE INTRODUCER",
    "STRING TERMINATOR",
    "OPERATING SYSTEM COMMAND",
    "PRIVACY MESSAGE",
    "APPLICATION PROGRAM COMMAND",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_reads_the_names_getname_gives() {
        assert_eq!(java_named("latin small letter a"), Some('a'));
        assert_eq!(java_named(" LINE FEED (LF) "), Some('\n'));
        assert_eq!(java_named("NULL"), Some('\0'));
        assert_eq!(java_named("HANGUL SYLLABLES AC00"), Some('\u{ac00}'));
        assert_eq!(java_named("CJK UNIFIED IDEOGRAPHS EXTENSION A 3400"), Some('\u{3400}'));
        assert_eq!(java_named("LATIN 1 SUPPLEMENT 84"), Some('\u{84}'));
        assert_eq!(java_named("SUPPLEMENTARY PRIVATE USE AREA A F0000"), Some('\u{f0000}'));
        assert_eq!(java_named("CJK COMPATIBILITY IDEOGRAPH-F900"), Some('\u{f900}'));
        assert_eq!(java_named("TANGUT 17029"), Some('\u{17029}'));
        assert_eq!(java_named("latin ſmall letter a"), Some('a'));
        for refused in [
            "LINE FEED",
            "HANGUL SYLLABLE GA",
            "CJK UNIFIED IDEOGRAPH-4E00",
            "BASIC LATIN 41",
            "LATIN_SMALL_LETTER_A",
            "LATIN SMALL LETTER  A",
            "BYTE ORDER MARK",
            "HANGUL SYLLABLES 0AC00",
            "LATIN 1 SUPPLEMENT 85",
            "",
        ] {
            assert_eq!(java_named(refused), None, "{refused}");
        }
    }
}
