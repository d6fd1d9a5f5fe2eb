//! Statistical and exact tests of the shuffled orders: strings that look independent, a
//! uniform permutation of the language, exact paging, and pinned outputs.
//!
//! The statistical tests use a fixed set of seeds, so they are deterministic; their
//! thresholds are chi-square critical values at p = 10^-4 (Wilson and Hilferty's
//! approximation), generous enough that only a real bias fails them.

use std::collections::{BTreeSet, HashMap};

use super::*;

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).unwrap()
}

fn page(dfa: &Dfa, options: &GenerateOptions) -> Vec<String> {
    generate(dfa, options, &Budget::unlimited()).unwrap()
}

/// Both orders shuffled: the uniform order.
fn uniform() -> GenerateOptions {
    GenerateOptions::default()
        .with_path_order(PathOrder::Shuffled)
        .with_char_order(CharOrder::Shuffled)
}

/// Every string of `pattern` (finite within `max_length`) over `alphabet`, by the `regex`
/// crate: the independent oracle.
fn oracle(pattern: &str, alphabet: &[char], max_length: usize) -> BTreeSet<String> {
    let regex = crate::test_patterns::oracle(pattern);
    let mut all = BTreeSet::new();
    let mut level = vec![String::new()];
    for _ in 0..=max_length {
        all.extend(level.iter().filter(|s| regex.is_match(s)).cloned());
        level =
            level.iter().flat_map(|s| alphabet.iter().map(move |&c| format!("{s}{c}"))).collect();
    }
    all
}

/// The chi-square critical value for `dof` degrees of freedom at p = 10^-4.
fn critical(dof: usize) -> f64 {
    let (k, z) = (dof as f64, 3.719);
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// The chi-square statistic of `counts` against equal expectations over `cells` cells.
fn chi_square<K>(counts: &HashMap<K, usize>, cells: usize) -> f64 {
    let total: usize = counts.values().sum();
    let expected = total as f64 / cells as f64;
    let seen: f64 = counts.values().map(|&n| (n as f64 - expected).powi(2) / expected).sum();
    // Cells never seen contribute `expected` each.
    seen + (cells - counts.len()) as f64 * expected
}

/// The cases of the statistical tests: (pattern, maximum length, alphabet).
const SMALL_LANGUAGES: [(&str, usize, &[char]); 2] =
    [("[ab]{0,3}|c{1,5}", 5, &['a', 'b', 'c']), ("(a|bc)*", 6, &['a', 'b', 'c'])];

#[test]
fn every_string_is_equally_likely_first() {
    for (pattern, max_length, alphabet) in SMALL_LANGUAGES {
        let language = oracle(pattern, alphabet, max_length);
        let dfa = dfa(pattern);
        let mut counts = HashMap::new();
        for seed in 0..3000 {
            let options = uniform().with_max_length(max_length).with_limit(1).with_seed(seed);
            let [first] = <[String; 1]>::try_from(page(&dfa, &options)).unwrap();
            assert!(language.contains(&first), "{pattern}: {first}");
            *counts.entry(first).or_insert(0) += 1;
        }
        let statistic = chi_square(&counts, language.len());
        let limit = critical(language.len() - 1);
        assert!(statistic < limit, "{pattern}: chi-square {statistic} >= {limit}: {counts:?}");
    }
}

#[test]
fn adjacent_strings_are_independent() {
    for (pattern, max_length, alphabet) in SMALL_LANGUAGES {
        let language = oracle(pattern, alphabet, max_length);
        let dfa = dfa(pattern);
        let mut counts = HashMap::new();
        for seed in 0..600 {
            let options = uniform().with_max_length(max_length).with_limit(100).with_seed(seed);
            let sequence = page(&dfa, &options);
            assert_eq!(sequence.iter().cloned().collect::<BTreeSet<_>>(), language, "{pattern}");
            for pair in sequence.windows(2) {
                *counts.entry((pair[0].clone(), pair[1].clone())).or_insert(0) += 1;
            }
        }
        // Ordered pairs of distinct strings.
        let cells = language.len() * (language.len() - 1);
        let statistic = chi_square(&counts, cells);
        let limit = critical(cells - 1);
        assert!(statistic < limit, "{pattern}: chi-square {statistic} >= {limit}");
    }
}

#[test]
fn shuffled_characters_vary_at_every_position() {
    for length in [8, 20] {
        let dfa = dfa(&format!("[a-z]{{{length}}}"));
        for path_order in PathOrder::ALL {
            for seed in 0..6 {
                let options = GenerateOptions::default()
                    .with_limit(100)
                    .with_path_order(path_order)
                    .with_char_order(CharOrder::Shuffled)
                    .with_seed(seed);
                let strings = page(&dfa, &options);
                assert_eq!(strings.len(), 100);
                for position in 0..length {
                    let letters: BTreeSet<u8> =
                        strings.iter().map(|s| s.as_bytes()[position]).collect();
                    assert!(letters.len() >= 15, "{length} {path_order:?} {seed} {position}");
                }
            }
        }
    }
}

#[test]
fn uniform_order_favours_no_length() {
    // Strings of 12 letters are 96% of `[a-z]{0,12}`.
    let strings = page(&dfa("[a-z]{0,12}"), &uniform().with_limit(200).with_seed(9));
    let longest = strings.iter().filter(|s| s.len() == 12).count();
    assert!(longest >= 170, "{longest} of 200");
}

/// Pages of a huge language (counts past 2^128) tile one sequence of distinct strings of
/// the language, and a deep offset costs what offset 0 does.
#[test]
fn huge_languages_page_exactly() {
    for pattern in [".{0,100}", "[a-z]{40}", "(a|bc)*[0-9]{30}"] {
        let dfa = dfa(pattern);
        let regex = crate::test_patterns::oracle(pattern);
        for offset in [0, 1_000_000_007, u64::MAX - 40] {
            let whole = page(&dfa, &uniform().with_offset(offset).with_limit(30).with_seed(4));
            assert_eq!(whole.len(), 30, "{pattern}");
            assert!(whole.iter().all(|s| regex.is_match(s)), "{pattern}");
            assert_eq!(whole.iter().collect::<BTreeSet<_>>().len(), 30, "{pattern}");
            let first = uniform().with_offset(offset).with_limit(11).with_seed(4);
            let rest = uniform().with_offset(offset + 11).with_limit(19).with_seed(4);
            assert_eq!([page(&dfa, &first), page(&dfa, &rest)].concat(), whole, "{pattern}");
        }
    }
}

/// The whole uniform sequence of a finite language is the language, whatever the seed, and
/// pages of any size cut the same sequence.
#[test]
fn uniform_pages_tile_a_permutation() {
    let pattern = "[ab]{0,4}|x[0-9]{2}";
    let language = oracle(pattern, &['a', 'b', 'x', '0', '5', '9'], 3);
    let dfa = dfa(pattern);
    for seed in 0..4 {
        let everything = page(&dfa, &uniform().with_limit(10_000).with_seed(seed));
        assert_eq!(everything.len(), 31 + 100);
        let all: BTreeSet<&String> = everything.iter().collect();
        assert_eq!(all.len(), everything.len());
        assert!(language.iter().all(|s| all.contains(s)));
        for size in [1, 7, 50] {
            let pages = (0..everything.len()).step_by(size).flat_map(|offset| {
                let options = uniform().with_offset(offset as u64).with_limit(size).with_seed(seed);
                page(&dfa, &options)
            });
            assert_eq!(pages.collect::<Vec<_>>(), everything, "pages of {size}");
        }
    }
}

/// Fixed outputs: a change here changes the shuffled orders for every user, which breaks
/// paging across releases; do it on purpose only, and say so in the changelog.
#[test]
fn shuffled_outputs_are_pinned() {
    let words = dfa("[a-z]{8}");
    let chars = GenerateOptions::default().with_limit(3).with_char_order(CharOrder::Shuffled);
    assert_eq!(page(&words, &chars), ["dlfzocdr", "ulptdoey", "nqyjupox"]);
    let email = dfa("[a-z]{3,8}@[a-z]{3,6}\\.(com|org)");
    assert_eq!(
        page(&email, &uniform().with_limit(2).with_seed(42)),
        ["ugqmvivt@ciskce.com", "wqrfqsqg@ioqnzi.org"]
    );
    // More than 2^128 strings: big ranks, shuffled and unranked on words.
    let wide = dfa("\\w{20}");
    let deep = uniform().with_limit(2).with_seed(3).with_offset(u64::MAX - 1);
    assert_eq!(
        page(&wide, &deep),
        [
            "\u{24f50}\u{2d191}\u{2bc61}\u{1df1}\u{21fa6}\u{2b421}\u{13f10}\u{24943}\u{2c18f}\u{2516f}\u{b2ba}\u{3c82}\u{2b480}\u{27aac}\u{20560}\u{5153}\u{13f49}\u{20903}\u{320aa}\u{ab8c}",
            "\u{bef8}\u{bef4}\u{279}\u{274b9}\u{25f38}\u{fa57}\u{2dd47}\u{d319}\u{5900}\u{28505}\u{111ca}\u{212c}\u{120c9}\u{1daa2}\u{24837}\u{2a6df}\u{2e4fa}\u{2b803}\u{13983}\u{12242}",
        ]
    );
}
