//! Writing characters and character sets as pattern text that both our dialect and
//! Python's `re` accept.
//!
//! # Overview
//! - [`write_class`] writes a character set as a single character, a `[...]` class or a
//!   negated `[^...]` class, whichever is shorter; [`class_size`] is the length it writes.
//! - [`write_char`] writes one character, escaped for use outside or inside a class.
//!
//! # Escaping
//! The output is printable ASCII only, so it survives any transport and reads the same in
//! every font:
//! - Outside classes, `\ . + * ? ( ) | [ ] { } ^ $` get a backslash. Inside classes,
//!   `\ [ ] ^ - & ~ | #` do: `&&`, `--` and `~~` are class operators in `regex-syntax`, and
//!   Python warns about doubled `& ~ | -` and about `[` as possible future set syntax.
//! - Tab, line feed and carriage return are `\t`, `\n`, `\r`; other characters below U+0020,
//!   U+007F and everything above it are hexadecimal escapes in the three fixed-width forms
//!   that both engines accept: `\xHH` up to U+00FF, `\uHHHH` up to U+FFFF and `\UHHHHHHHH`
//!   above. (`\x{...}` is not valid in Python, and `\u{...}` is not either.)
//! - The full set is `[\s\S]`, the same everywhere whatever the flags: `.` would exclude
//!   `\n` in Python without `re.DOTALL`. No Unicode property classes (`\p{..}`, `\d`, `\w`)
//!   are ever written: their tables differ between engines and versions.
//! - Groups are plain `( )`: capture groups mean nothing for a language, and both engines
//!   accept them without limit.

use std::fmt::Write as _;

use crate::alphabet::CharSet;

/// The length of [`write_class`]'s output for `set`.
pub(super) fn class_size(set: &CharSet) -> usize {
    let mut out = String::new();
    write_class(set, &mut out);
    out.len()
}

/// Writes a non-empty set as one character, `[...]` or `[^...]`, whichever is shortest
/// (ties to the positive class).
pub(super) fn write_class(set: &CharSet, out: &mut String) {
    if set.is_full() {
        out.push_str(r"[\s\S]");
        return;
    }
    if let [(lo, hi)] = set.ranges()
        && lo == hi
    {
        write_char(*lo, false, out);
        return;
    }
    let positive = bracketed(set.ranges(), "[");
    let complement = set.complement();
    let negative = (!complement.is_empty()).then(|| bracketed(complement.ranges(), "[^"));
    match negative {
        Some(negative) if negative.len() < positive.len() => out.push_str(&negative),
        _ => out.push_str(&positive),
    }
}

fn bracketed(ranges: &[(char, char)], open: &str) -> String {
    let mut out = String::from(open);
    for &(lo, hi) in ranges {
        let mut lo_text = String::new();
        write_char(lo, true, &mut lo_text);
        out.push_str(&lo_text);
        if lo == hi {
            continue;
        }
        let mut hi_text = String::new();
        write_char(hi, true, &mut hi_text);
        // Two members side by side when that is shorter than a range (`ab`, not `a-b`).
        // Not U+D7FF and U+E000: `regex-syntax` negates `[^\uD7FF\uE000]` into everything,
        // while `[^\uD7FF-\uE000]` is read right.
        if u32::from(hi) != u32::from(lo) + 1 {
            out.push('-');
        }
        out.push_str(&hi_text);
    }
    out.push(']');
    out
}

/// Writes one character, escaped for use outside or inside a class.
fn write_char(c: char, in_class: bool, out: &mut String) {
    let special = if in_class {
        matches!(c, '\\' | '[' | ']' | '^' | '-' | '&' | '~' | '|' | '#')
    } else {
        matches!(
            c,
            '\\' | '.' | '+' | '*' | '?' | '(' | ')' | '|' | '[' | ']' | '{' | '}' | '^' | '$'
        )
    };
    match c {
        _ if special => {
            out.push('\\');
            out.push(c);
        }
        '\t' => out.push_str(r"\t"),
        '\n' => out.push_str(r"\n"),
        '\r' => out.push_str(r"\r"),
        ' '..='~' => out.push(c),
        _ => {
            let value = u32::from(c);
            // Infallible: writing to a String.
            let _ = match value {
                0..=0xFF => write!(out, r"\x{value:02X}"),
                0x100..=0xFFFF => write!(out, r"\u{value:04X}"),
                _ => write!(out, r"\U{value:08X}"),
            };
        }
    }
}
