//! Uniform random samples, with replacement: each string drawn independently, uniformly
//! among the strings of the length band, or with its length drawn first, uniformly among
//! the band's lengths that hold strings.
//!
//! # Algorithm
//! The count tables of the uniform order cover the band (`Catalog`, one big integer per
//! state and length), and strings are ranked in its reflected sweep order, by length first
//! (`uniform.rs`). A sample draws a rank below the band's total (or a length, then a rank
//! among that length's strings, offset by the counts of the shorter lengths) and unranks
//! it. Ranks come from the seeded [`Shuffles`] generator (PCG-64) by rejection: the fewest
//! random bits holding `n − 1`, drawn again when the value is `n` or more, so every rank is
//! exactly equally likely, whatever the size of `n` (`.{0,100}` has about 2^2000 strings).
//! Cost: the tables, O(max_length × edges), then O(length × edges) per string.
//!
//! # Budgets
//! [`Operation::Generate`]: the tables check their own, and the deadline is checked once
//! per [`STRINGS_PER_CHECK`] strings.

use num_bigint::BigUint;

use super::count::Count;
use super::options::{CharOrder, GenerateOptions, PathOrder};
use super::shuffle::Shuffles;
use super::uniform::Unranker;
use super::{Catalog, STRINGS_PER_CHECK};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;

/// The [`Shuffles`] context tag of samples.
const SAMPLE_TAG: u64 = u64::from_be_bytes(*b"\0\0sample");

/// How each string of a sample is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SampleMode {
    /// Uniformly among all strings of the band: long strings dominate when there are more
    /// of them (`[a-z]{0,12}` gives 12 letters 96% of the time).
    #[default]
    Strings,
    /// A length first, uniformly among the band's lengths that hold strings, then a string
    /// uniformly among those of that length.
    Lengths,
}

/// `options.limit()` strings of `dfa`'s language drawn as `mode` says, with a length in
/// `options`' band and only characters of its charset, from `options.seed()`; none when
/// the band holds no string. The orders and the offset of `options` are not read.
pub(crate) fn sample(
    dfa: &Dfa,
    options: &GenerateOptions,
    mode: SampleMode,
    budget: &Budget,
) -> Result<Vec<String>, BudgetError> {
    if options.limit() == 0 || options.max_length() < options.min_length() {
        return Ok(Vec::new());
    }
    // The uniform order's catalog: tables over the whole band.
    let band = options
        .clone()
        .with_offset(0)
        .with_path_order(PathOrder::Shuffled)
        .with_char_order(CharOrder::Shuffled);
    let Some(catalog) = Catalog::new(dfa, &band, budget)? else { return Ok(Vec::new()) };
    // The first rank of each length of the band holding strings, and how many it holds.
    let mut lengths = Vec::new();
    let mut total = Count::ZERO;
    for length in catalog.lengths() {
        let strings = &catalog.counts.cell(catalog.routes.start(), length).strings;
        if !strings.is_zero() {
            lengths.push((total.clone(), strings.clone()));
            total += strings;
        }
    }
    let mut random = Shuffles::new(&[SAMPLE_TAG, options.seed()]);
    let mut unranker = Unranker::default();
    let mut out = Vec::with_capacity(options.limit());
    while out.len() < options.limit() {
        if out.len().is_multiple_of(STRINGS_PER_CHECK) {
            budget.check_time(Operation::Generate)?;
        }
        let rank = match mode {
            SampleMode::Strings => below(&total, &mut random),
            SampleMode::Lengths => {
                let which = below(&Count::from(lengths.len() as u128), &mut random);
                let (first, strings) = &lengths[which.saturated() as usize];
                let mut rank = below(strings, &mut random);
                rank += first;
                rank
            }
        };
        // The rank is below the total, so the string exists.
        out.extend(match rank {
            Count::Small(rank) => unranker.string_at(&catalog, rank),
            Count::Big(rank) => unranker.string_at(&catalog, rank),
        });
    }
    Ok(out)
}

/// A number drawn uniformly from `[0, n)`, `n ≥ 1`, by rejection on the fewest bits that
/// hold `n − 1` (fewer than two draws expected).
fn below(n: &Count, random: &mut Shuffles) -> Count {
    let last = n - &Count::ONE;
    let bits = last.to_big().bits();
    loop {
        let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| random.word()).collect();
        let mut value = words.iter().rev().fold(BigUint::ZERO, |acc, &word| (acc << 64) + word);
        // Keep the low `bits` bits.
        value &= (BigUint::from(1u8) << bits) - 1u8;
        let value = Count::from_big(value);
        if value <= last {
            return value;
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::{SampleMode, sample};
    use crate::alphabet::CharSet;
    use crate::{Budget, Dfa, GenerateOptions};

    fn dfa(pattern: &str) -> Dfa {
        Dfa::from_regex_with(pattern, &Budget::unlimited()).unwrap()
    }

    fn draw(pattern: &str, options: &GenerateOptions, mode: SampleMode) -> Vec<String> {
        sample(&dfa(pattern), options, mode, &Budget::unlimited()).unwrap()
    }

    /// The chi-square statistic of `counts` against equal expectations over `cells` cells.
    fn chi_square(counts: &HashMap<String, usize>, cells: usize) -> f64 {
        let total: usize = counts.values().sum();
        let expected = total as f64 / cells as f64;
        let seen: f64 = counts.values().map(|&n| (n as f64 - expected).powi(2) / expected).sum();
        seen + (cells - counts.len()) as f64 * expected
    }

    /// The chi-square critical value for `dof` degrees of freedom at p = 10^-4.
    fn critical(dof: usize) -> f64 {
        let (k, z) = (dof as f64, 3.719);
        k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
    }

    #[test]
    fn samples_are_uniform_over_a_language_of_known_size() {
        // 1 + 2 + 4 + 8 strings of [ab]{0,3} and 5 of c{1,5}: 20 in all, some of each length.
        let options = GenerateOptions::default().with_limit(10_000).with_max_length(5);
        let strings = draw("[ab]{0,3}|c{1,5}", &options, SampleMode::Strings);
        let mut counts = HashMap::new();
        for string in strings {
            *counts.entry(string).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 20);
        let statistic = chi_square(&counts, 20);
        assert!(statistic < critical(19), "chi-square {statistic}: {counts:?}");
    }

    #[test]
    fn lengths_first_weighs_each_length_alike() {
        // Lengths 0 to 3: each a quarter of the draws, though length 3 has 8 of 15 strings.
        let options = GenerateOptions::default().with_limit(8_000).with_max_length(3);
        let strings = draw("[ab]{0,3}", &options, SampleMode::Lengths);
        let mut by_length = HashMap::new();
        for string in &strings {
            *by_length.entry(string.len().to_string()).or_insert(0) += 1;
        }
        let statistic = chi_square(&by_length, 4);
        assert!(statistic < critical(3), "chi-square {statistic}: {by_length:?}");
        // Within length 3, each of the 8 strings alike.
        let mut within = HashMap::new();
        for string in strings.into_iter().filter(|string| string.len() == 3) {
            *within.entry(string).or_insert(0) += 1;
        }
        assert!(chi_square(&within, 8) < critical(7), "{within:?}");
    }

    #[test]
    fn huge_languages_sample_without_bias() {
        // 26^14 > 2^64 strings: every position's letter is uniform.
        let options = GenerateOptions::default().with_limit(5_200).with_seed(5);
        let strings = draw("[a-z]{14}", &options, SampleMode::Strings);
        for position in [0, 7, 13] {
            let mut counts = HashMap::new();
            for string in &strings {
                *counts.entry(string[position..=position].to_owned()).or_insert(0) += 1;
            }
            let statistic = chi_square(&counts, 26);
            assert!(statistic < critical(25), "position {position}: chi-square {statistic}");
        }
        // Beyond 2^128: `.{0,100}` has about 2^2000 strings, nearly all 100 long.
        let options = GenerateOptions::default().with_limit(20);
        let strings = draw(".{0,100}", &options, SampleMode::Strings);
        assert!(strings.iter().all(|string| string.chars().count() == 100));
    }

    #[test]
    fn samples_are_seeded_and_keep_the_band_and_charset() {
        let options = GenerateOptions::default()
            .with_limit(50)
            .with_min_length(2)
            .with_max_length(4)
            .with_seed(7)
            .with_charset(Some(CharSet::range('a', 'c')));
        let first = draw("[a-z]*", &options, SampleMode::Strings);
        assert_eq!(first, draw("[a-z]*", &options, SampleMode::Strings));
        assert_ne!(first, draw("[a-z]*", &options.clone().with_seed(8), SampleMode::Strings));
        assert_eq!(first.len(), 50);
        assert!(first.iter().all(|s| (2..=4).contains(&s.len()) && s.chars().all(|c| c <= 'c')));
        assert!(draw("[a-z]{6}", &options, SampleMode::Strings).is_empty());
        assert!(draw("[]", &options, SampleMode::Lengths).is_empty());
    }
}
