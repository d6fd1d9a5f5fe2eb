//! String generation against brute force, the `regex` oracle and the definitions of the
//! orders, on random patterns and on hand-picked ones.
//!
//! Random languages are restricted to the charset `[a-d]` and lengths up to
//! [`MAX_BRUTE_LEN`], so every one is finite and brute force over `a`..`d` lists it exactly.

use std::collections::{BTreeMap, BTreeSet};

use langcore::alphabet::CharSet;
use langcore::{Budget, Cardinality, CharOrder, Dfa, GenerateOptions, Language, PathOrder};
use proptest::prelude::*;

use crate::patterns::{oracle, pattern};

/// The longest strings generated and brute-forced in the random properties.
const MAX_BRUTE_LEN: usize = 5;

/// The most pages the random properties fetch per order; larger languages take larger pages.
const MAX_PAGES: usize = 32;

/// The charset of the random properties.
const BRUTE_CHARS: [char; 4] = ['a', 'b', 'c', 'd'];

/// Every (path order, character order) pair.
fn all_orders() -> impl Iterator<Item = (PathOrder, CharOrder)> {
    PathOrder::ALL.into_iter().flat_map(|path| CharOrder::ALL.map(move |chars| (path, chars)))
}

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).unwrap()
}

fn generate(dfa: &Dfa, options: &GenerateOptions) -> Vec<String> {
    dfa.generate(options, &Budget::unlimited()).unwrap()
}

fn with_order(options: &GenerateOptions, (path, chars): (PathOrder, CharOrder)) -> GenerateOptions {
    options.clone().with_path_order(path).with_char_order(chars)
}

/// Every string over [`BRUTE_CHARS`] with a length in `min..=max` that the `regex` crate
/// accepts for `pattern`.
fn brute_force(pattern: &str, min: usize, max: usize) -> BTreeSet<String> {
    let oracle = oracle(pattern);
    let mut layer = vec![String::new()];
    let mut found = BTreeSet::new();
    for length in 0..=max {
        if length >= min {
            found.extend(layer.iter().filter(|input| oracle.is_match(input)).cloned());
        }
        layer = layer
            .iter()
            .flat_map(|prefix| BRUTE_CHARS.iter().map(move |&ch| format!("{prefix}{ch}")))
            .collect();
    }
    found
}

/// The path of each string: the sequence of states it visits in the canonical minimal DFA
/// of `restricted` (two strings share a path exactly when they visit the same states).
fn path_of(restricted: &Dfa, input: &str) -> Vec<usize> {
    let mut state = restricted.start();
    let mut states = vec![state.index()];
    for ch in input.chars() {
        state = restricted.next_state(state, restricted.classes().class_of(ch));
        states.push(state.index());
    }
    states
}

/// The concatenation of pages of `page_size` strings from offset 0 until a short page.
fn paged(dfa: &Dfa, options: &GenerateOptions, page_size: usize) -> Vec<String> {
    let mut all = Vec::new();
    loop {
        let page = options.clone().with_offset(all.len() as u64).with_limit(page_size);
        let strings = generate(dfa, &page);
        let done = strings.len() < page_size;
        all.extend(strings);
        if done {
            return all;
        }
    }
}

/// Checks the order-specific structure of `sequence`, the whole output under `options`:
/// - sweep keeps each path's strings together, shorter paths first;
/// - the interleaved orders give every path a first string before any gives a second (the
///   uniform order, both shuffled, has no structure beyond being a permutation);
/// - with ascending characters, each path's strings come in ascending order.
fn check_structure(
    restricted: &Dfa,
    options: &GenerateOptions,
    sequence: &[String],
) -> Result<(), TestCaseError> {
    let paths: Vec<Vec<usize>> = sequence.iter().map(|input| path_of(restricted, input)).collect();
    let n_paths = paths.iter().collect::<BTreeSet<_>>().len();
    match (options.path_order(), options.char_order()) {
        (PathOrder::Shuffled, CharOrder::Shuffled) => {}
        (PathOrder::Sweep, _) => {
            let mut runs = paths.clone();
            runs.dedup();
            prop_assert_eq!(runs.len(), n_paths, "a path's strings are split");
            prop_assert!(runs.windows(2).all(|pair| pair[0].len() <= pair[1].len()));
        }
        (PathOrder::Interleave | PathOrder::Shuffled, _) => {
            let first_round: BTreeSet<_> = paths.iter().take(n_paths).collect();
            prop_assert_eq!(first_round.len(), n_paths, "a path gave two strings in round 0");
        }
    }
    if options.char_order() == CharOrder::Ascending {
        let mut last_of_path: BTreeMap<&[usize], &str> = BTreeMap::new();
        for (input, path) in sequence.iter().zip(&paths) {
            if let Some(previous) = last_of_path.insert(path, input) {
                prop_assert!(previous < input.as_str(), "{previous:?} before {input:?}");
            }
        }
    }
    Ok(())
}

/// The random-language properties for one pattern, band and order.
fn check_generation(
    pattern: &str,
    min: usize,
    max: usize,
    order: (PathOrder, CharOrder),
    seed: u64,
    page_size: usize,
) -> Result<(), TestCaseError> {
    let dfa = dfa(pattern);
    let charset = CharSet::parse("[a-d]").unwrap();
    let restricted = dfa.intersection(&self::dfa("[a-d]*"), &Budget::unlimited()).unwrap();
    let base = GenerateOptions::default()
        .with_min_length(min)
        .with_max_length(max)
        .with_charset(Some(charset))
        .with_seed(seed);
    let options = with_order(&base, order);
    let expected = if min <= max { brute_force(pattern, min, max) } else { BTreeSet::new() };
    let total = expected.len();

    let whole = generate(&dfa, &options.clone().with_limit(total + 1));
    let as_set: BTreeSet<String> = whole.iter().cloned().collect();
    prop_assert_eq!(as_set.len(), whole.len(), "repeated strings");
    prop_assert_eq!(&as_set, &expected);
    let in_band = |input: &String| (min..=max).contains(&input.chars().count());
    let in_charset = |input: &String| input.chars().all(|ch| BRUTE_CHARS.contains(&ch));
    let matcher = oracle(pattern);
    for input in &whole {
        prop_assert!(matcher.is_match(input) && in_band(input) && in_charset(input), "{input:?}");
    }
    prop_assert_eq!(&generate(&dfa, &options.clone().with_limit(total + 1)), &whole, "not pure");
    // Paging a large language one string at a time would dominate the test time.
    let page_size = page_size.max(total.div_ceil(MAX_PAGES));
    prop_assert_eq!(&paged(&dfa, &options, page_size), &whole, "pages of {}", page_size);
    let prefix = total / 2 + 1;
    prop_assert_eq!(
        generate(&dfa, &options.clone().with_limit(prefix)),
        &whole[..prefix.min(total)]
    );
    check_structure(&restricted, &options, &whole)?;

    // Seeds: with room to differ, some other seed gives another sequence; without, none.
    let mut lengths_of_paths: BTreeMap<usize, BTreeSet<Vec<usize>>> = BTreeMap::new();
    let mut strings_of_path: BTreeMap<Vec<usize>, usize> = BTreeMap::new();
    for input in &whole {
        let path = path_of(&restricted, input);
        lengths_of_paths.entry(input.chars().count()).or_default().insert(path.clone());
        *strings_of_path.entry(path).or_default() += 1;
    }
    let room_for_paths = lengths_of_paths.values().any(|paths| paths.len() >= 2);
    let room_for_chars = strings_of_path.values().any(|&n| n >= 2);
    let room = match order {
        // The uniform order permutes the whole band, across lengths and paths.
        (PathOrder::Shuffled, CharOrder::Shuffled) => whole.len() >= 2,
        (PathOrder::Shuffled, CharOrder::Ascending) => room_for_paths,
        (_, CharOrder::Shuffled) => room_for_chars,
        (_, CharOrder::Ascending) => false,
    };
    // A shuffle of two items stays the same for a given other seed with probability 1/2, so
    // 31 seeds make a false alarm a 2^-31 event; without room, a few seeds suffice.
    let other_seeds = if room { 1..32 } else { 1..4 };
    let differs = other_seeds.into_iter().any(|other| {
        let reseeded = options.clone().with_seed(seed.wrapping_add(other)).with_limit(total + 1);
        generate(&dfa, &reseeded) != whole
    });
    prop_assert_eq!(
        differs,
        room,
        "room for paths {}, for chars {}",
        room_for_paths,
        room_for_chars
    );
    Ok(())
}

/// A length band up to [`MAX_BRUTE_LEN`]: mostly from 0, sometimes empty (`min > max`).
fn band() -> impl Strategy<Value = (usize, usize)> {
    (0..=MAX_BRUTE_LEN).prop_flat_map(|max| {
        let min = prop_oneof![6 => Just(0), 3 => 0..=max, 1 => Just(max + 1)];
        (min, Just(max))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generation_lists_exactly_the_language_in_every_order(
        pattern in pattern(),
        (min, max) in band(),
        seed in any::<u64>(),
        page_size in 1usize..8,
    ) {
        for order in all_orders() {
            check_generation(&pattern, min, max, order, seed, page_size)?;
        }
    }
}

#[test]
fn every_page_size_tiles_the_sequence() {
    let dfa = dfa("[ab]{0,2}|c+|d[ab]c");
    let base = GenerateOptions::default().with_max_length(3);
    for order in all_orders() {
        let options = with_order(&base, order);
        let whole = generate(&dfa, &options.clone().with_limit(100));
        assert_eq!(whole.len(), 1 + 2 + 4 + 1 + 1 + 1 + 2, "{order:?}");
        for page_size in 1..=whole.len() + 1 {
            assert_eq!(paged(&dfa, &options, page_size), whole, "{order:?}, pages of {page_size}");
        }
    }
}

#[test]
fn equivalent_patterns_give_identical_sequences() {
    for (left, right) in [("(a|b)*", "(a*b*)*"), ("[ab]{2}", "aa|ab|ba|bb")] {
        for order in all_orders() {
            for seed in [0, 1, 99] {
                let options = with_order(&GenerateOptions::default(), order)
                    .with_max_length(6)
                    .with_limit(200)
                    .with_seed(seed);
                let sequence = generate(&dfa(left), &options);
                assert_eq!(sequence, generate(&dfa(right), &options), "{left} {order:?} {seed}");
                let deep = options.with_offset(50).with_limit(7);
                assert_eq!(generate(&dfa(left), &deep), generate(&dfa(right), &deep));
            }
        }
    }
}

/// The string at `offset` of `[a-z]{length}` in ascending odometer order: `offset` in base
/// 26 with `a`..`z` as digits.
fn odometer(mut offset: u64, length: usize) -> String {
    let mut reversed = Vec::new();
    for _ in 0..length {
        reversed.push(char::from(b'a' + u8::try_from(offset % 26).unwrap()));
        offset /= 26;
    }
    reversed.into_iter().rev().collect()
}

#[test]
fn deep_offsets_land_on_odometer_positions() {
    for (length, offset) in [(8, 10_000_000_000), (6, 10_000_000), (8, 26u64.pow(8) - 3)] {
        let dfa = dfa(&format!("[a-z]{{{length}}}"));
        let expected: Vec<String> =
            (offset..(offset + 5).min(26u64.pow(8))).map(|at| odometer(at, length)).collect();
        // One path: every path order lists its strings in character order.
        for path_order in [PathOrder::Sweep, PathOrder::Interleave, PathOrder::Shuffled] {
            let options = GenerateOptions::default()
                .with_path_order(path_order)
                .with_offset(offset)
                .with_limit(5);
            assert_eq!(generate(&dfa, &options), expected, "{length} {offset} {path_order:?}");
        }
        let shuffled = GenerateOptions::default()
            .with_char_order(CharOrder::Shuffled)
            .with_offset(offset)
            .with_limit(4);
        let page = generate(&dfa, &shuffled);
        let halves = [
            generate(&dfa, &shuffled.clone().with_limit(2)),
            generate(&dfa, &shuffled.clone().with_offset(offset + 2).with_limit(2)),
        ];
        assert_eq!(page, halves.concat());
        assert!(page.iter().all(|input| dfa.matches(input)));
    }
    assert_eq!(odometer(10_000_000_000, 8), "bgjqzrkq");
}

/// Counts beyond 128 bits (`[a-z]{40}` has 26^40 ≈ 2^188 strings; `(a|bc)*` up to 200
/// characters has about 2^138 paths of length 200) page like small ones: pages tile, every
/// string is in the language, and sweep still lands on odometer positions.
#[test]
fn counts_beyond_128_bits_page_consistently() {
    for (pattern, max_length) in [("[a-z]{40}", 100), ("(a|bc)*", 200)] {
        let dfa = dfa(pattern);
        let matcher = oracle(pattern);
        for order in all_orders() {
            for offset in [1_000_000_000_000_000_000, u64::MAX - 7] {
                let options = with_order(&GenerateOptions::default(), order)
                    .with_max_length(max_length)
                    .with_offset(offset)
                    .with_limit(8)
                    .with_seed(7);
                let page = generate(&dfa, &options);
                let halves = [
                    generate(&dfa, &options.clone().with_limit(3)),
                    generate(&dfa, &options.clone().with_offset(offset + 3).with_limit(5)),
                ];
                assert_eq!(page, halves.concat(), "{pattern} {order:?} {offset}");
                assert_eq!(page.iter().collect::<BTreeSet<_>>().len(), 8);
                assert!(page.iter().all(|input| matcher.is_match(input)), "{pattern} {order:?}");
            }
        }
    }
    let sweep = GenerateOptions::default().with_offset(u64::MAX - 7).with_limit(2);
    let expected = [odometer(u64::MAX - 7, 40), odometer(u64::MAX - 6, 40)];
    assert_eq!(generate(&dfa("[a-z]{40}"), &sweep), expected);
}

#[test]
fn defaults_follow_the_contract() {
    let options = GenerateOptions::default();
    assert_eq!((options.limit(), options.offset(), options.seed()), (10, 0, 0));
    assert_eq!((options.min_length(), options.max_length()), (0, 100));
    assert_eq!(
        (options.path_order(), options.char_order()),
        (PathOrder::Sweep, CharOrder::Ascending)
    );
    assert_eq!(options.charset(), None);
    let infinite = generate(&dfa("a+"), &GenerateOptions::default().with_limit(1000));
    assert_eq!(infinite.len(), 100);
    assert_eq!(infinite.last().map(String::len), Some(100));
}

#[test]
fn realistic_patterns_in_every_order() {
    let patterns = [
        "[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,6}",
        "(19|20)[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])",
        "\\w{20}",
        "(abc|de){2,5}x*",
        "\\p{Greek}+[0-9]?",
    ];
    for pattern in patterns {
        let dfa = dfa(pattern);
        let matcher = oracle(pattern);
        // The strings of at most 100 characters, the default band.
        let band = dfa.intersection(&self::dfa(".{0,100}"), &Budget::unlimited()).unwrap();
        let total = match band.cardinality(&Budget::unlimited()).unwrap() {
            Cardinality::Finite(count) => u64::try_from(count).unwrap_or(u64::MAX),
            Cardinality::Infinite => u64::MAX,
        };
        for order in all_orders() {
            for offset in [0, 50_000, 1_000_000_000_000] {
                let options = with_order(&GenerateOptions::default(), order)
                    .with_limit(100)
                    .with_offset(offset)
                    .with_seed(42);
                let strings = generate(&dfa, &options);
                let expected_len = total.saturating_sub(offset).min(100);
                assert_eq!(strings.len() as u64, expected_len, "{pattern} {order:?} {offset}");
                let distinct: BTreeSet<&String> = strings.iter().collect();
                assert_eq!(distinct.len(), strings.len(), "{pattern} {order:?} {offset}");
                for input in &strings {
                    assert!(matcher.is_match(input), "{pattern} {order:?}: {input:?}");
                    assert!(input.chars().count() <= 100);
                }
            }
        }
    }
}

#[test]
fn charsets_in_the_dialect_restrict_the_strings() {
    let greek = CharSet::parse("\\p{Greek}").unwrap();
    let options = GenerateOptions::default().with_limit(50).with_charset(Some(greek.clone()));
    let strings = generate(&dfa(".{2}|[a-z]"), &options);
    assert_eq!(strings.len(), 50);
    assert!(strings.iter().all(|input| input.chars().count() == 2));
    assert!(strings.iter().flat_map(|input| input.chars()).all(|ch| greek.contains(ch)));
    let printable = CharSet::parse("[^\\x00-\\x1f]").unwrap();
    let first = generate(&dfa("."), &options.with_charset(Some(printable)).with_limit(2));
    assert_eq!(first, [" ", "!"]);
}

/// Issue 22: a language whose DFA does not fit is paged from its NFA restricted to the
/// length window (shortlex for ascending characters, seeded draws otherwise); one whose DFA
/// fits keeps the DFA's orders, byte for byte.
#[test]
fn languages_past_their_dfa_page_from_the_window() {
    // The default limits, with time for an unoptimised build.
    let budget = Budget::new(std::time::Duration::from_secs(600));
    for (pattern, orders) in [
        (".*a.{12}", all_orders().collect()),
        (".*a.{15}", vec![(PathOrder::Sweep, CharOrder::Ascending)]),
    ] {
        let fits = Language::from_regex(pattern).unwrap();
        for order in orders {
            let options =
                with_order(&GenerateOptions::default().with_limit(20).with_seed(3), order);
            assert_eq!(
                fits.generate(&options, &budget).unwrap(),
                generate(&dfa(pattern), &options)
            );
        }
    }
    // 2^21 states: past the state limit. Its strings of 21 characters over `ab` are `a`
    // then any 20, in shortlex order the binary numbers with `a` as 0 and `b` as 1.
    let pattern = ".*a.{20}";
    let big = Language::from_regex(pattern).unwrap();
    let ab = GenerateOptions::default()
        .with_charset(Some(CharSet::range('a', 'b')))
        .with_max_length(22)
        .with_limit(50)
        .with_offset(1000);
    let expected: Vec<String> = (1000..1050)
        .map(|n: u32| format!("a{n:020b}").replace('0', "a").replace('1', "b"))
        .collect();
    assert_eq!(big.generate(&ab, &budget).unwrap(), expected);
    let interleaved = ab.clone().with_path_order(PathOrder::Interleave);
    assert_eq!(big.generate(&interleaved, &budget).unwrap(), expected);
    let regex = oracle(pattern);
    for order in all_orders().filter(|order| *order != (PathOrder::Sweep, CharOrder::Ascending)) {
        let options = with_order(&ab, order).with_seed(11);
        let page = big.generate(&options, &budget).unwrap();
        assert_eq!(page.iter().collect::<BTreeSet<_>>().len(), 50, "{order:?}");
        for string in &page {
            assert!(regex.is_match(string) && string.len() <= 22, "{order:?}: {string}");
            assert!(string.chars().all(|c| c == 'a' || c == 'b'), "{order:?}: {string}");
        }
    }
}
