//! Fuzzes string generation: arbitrary `GenerateOptions` on fixed and arbitrary patterns.
//!
//! The input is read as a pattern choice (one of `PATTERNS`, or a pattern from the input),
//! then every option: limit, offset, length band, orders, seed and a charset in the wire's
//! syntax. Under a small budget, generation must never panic; a page it returns must hold
//! distinct strings of the language, inside the band and the charset, no more than the
//! limit, and it must be the concatenation of the two half pages on either side of any split.

#![no_main]

use std::collections::HashSet;
use std::time::Duration;

use langcore::alphabet::CharSet;
use langcore::{Budget, CharOrder, Dfa, GenerateOptions, PathOrder};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

/// Languages with distinct shapes: finite, infinite, many paths, wide classes, astral
/// characters, the empty language and {""}.
const PATTERNS: [&str; 12] = [
    "[a-c]{2}",
    "(a|b)*abb",
    "x[0-9]{2}|y[0-9]",
    ".{0,3}",
    "[a-z]+@[a-z]+\\.(com|org)",
    "",
    "[]",
    "(ab|c)*d?",
    "\\w{1,3}",
    "[\u{10000}-\u{10FFFF}]+",
    "(?i)k[^k]*",
    "a{0,20}b{3,}",
];

/// One fuzz case: the pattern and the options.
struct Case {
    pattern: String,
    options: GenerateOptions,
}

impl Case {
    fn read(input: &mut Unstructured<'_>) -> Result<Case> {
        let pattern = if input.arbitrary()? {
            PATTERNS[input.choose_index(PATTERNS.len())?].to_owned()
        } else {
            input.arbitrary::<String>()?
        };
        let charset = match input.arbitrary::<Option<String>>()? {
            Some(class) => {
                Some(CharSet::parse(&class).unwrap_or_else(|_| CharSet::range('a', 'd')))
            }
            None => None,
        };
        let options = GenerateOptions::default()
            .with_limit(input.int_in_range(0..=100)?)
            .with_offset(input.arbitrary()?)
            .with_min_length(input.int_in_range(0..=40)?)
            .with_max_length(input.int_in_range(0..=200)?)
            .with_path_order(*input.choose(&PathOrder::ALL)?)
            .with_char_order(*input.choose(&CharOrder::ALL)?)
            .with_seed(input.arbitrary()?)
            .with_charset(charset);
        Ok(Case { pattern, options })
    }
}

fn budget() -> Budget {
    Budget::new(Duration::from_millis(300)).with_max_states(2_000).with_max_memory(32 << 20)
}

fuzz_target!(|data: &[u8]| {
    let Ok(Case { pattern, options }) = Case::read(&mut Unstructured::new(data)) else { return };
    let Ok(dfa) = Dfa::from_regex_with(&pattern, &budget()) else { return };
    let Ok(page) = dfa.generate(&options, &budget()) else { return };

    assert!(page.len() <= options.limit(), "{} strings for limit {}", page.len(), options.limit());
    let mut seen = HashSet::new();
    for string in &page {
        assert!(dfa.matches(string), "{string:?} is not in {pattern:?}");
        let length = string.chars().count();
        assert!(
            (options.min_length()..=options.max_length()).contains(&length),
            "{string:?} is outside the band {}..={}",
            options.min_length(),
            options.max_length()
        );
        if let Some(charset) = options.charset() {
            assert!(string.chars().all(|ch| charset.contains(ch)), "{string:?} leaves the charset");
        }
        assert!(seen.insert(string), "{string:?} twice in one page");
    }

    let split = options.limit() / 2;
    let Some(second_offset) = options.offset().checked_add(split as u64) else { return };
    let first = options.clone().with_limit(split);
    let second = options.clone().with_limit(options.limit() - split).with_offset(second_offset);
    if let (Ok(mut head), Ok(tail)) =
        (dfa.generate(&first, &budget()), dfa.generate(&second, &budget()))
    {
        head.extend(tail);
        assert_eq!(head, page, "two half pages differ from the whole page");
    }
});
