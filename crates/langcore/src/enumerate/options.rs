//! The options of string generation: which page, which lengths and characters, which order.
//!
//! # Overview
//! - [`GenerateOptions`]: a value type with documented defaults and by-value setters.
//! - [`PathOrder`]: how paths (shapes of strings) take turns: `Sweep`, `Interleave`, `Shuffled`.
//! - [`CharOrder`]: how the strings of one path are ordered: `Ascending` or `Shuffled`.
//!
//! The defaults are those of the wire contract's `generate/strings`, except `limit`, which
//! the contract requires and which defaults to [`DEFAULT_LIMIT`] here.
//!
//! # Algorithm
//! None: plain data with O(1) setters (the charset is moved, not copied).
//!
//! # Invariants
//! Options are plain data: any combination is valid. Empty answers come from the data
//! (`limit` 0, `max_length < min_length`, an offset past the end), never an error.
//!
//! # Budgets
//! None here; the engine checks the budget it is given.

use crate::alphabet::CharSet;

/// The number of strings [`GenerateOptions::default`] asks for.
///
/// # Example
/// ```
/// use langcore::{Budget, DEFAULT_LIMIT, Dfa, GenerateOptions};
///
/// let numbers = Dfa::from_regex("[0-9]+")?;
/// let strings = numbers.generate(&GenerateOptions::default(), &Budget::default())?;
/// assert_eq!(strings.len(), DEFAULT_LIMIT);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const DEFAULT_LIMIT: usize = 10;

/// The longest strings [`GenerateOptions::default`] generates, as on the wire.
///
/// # Example
/// ```
/// use langcore::{DEFAULT_MAX_LENGTH, GenerateOptions};
///
/// assert_eq!(GenerateOptions::default().max_length(), DEFAULT_MAX_LENGTH);
/// ```
pub const DEFAULT_MAX_LENGTH: usize = 100;

/// How the paths of a language take turns in the output.
///
/// A *path* is one route through the canonical minimal automaton from the start to an
/// accepting state; each step is a set of characters (all characters leading to the same
/// next state), and the strings of a path are the product of its sets. Every string of the
/// language lies on exactly one path. Within one length, paths are ordered lexicographically
/// by the smallest character of each step.
///
/// # Example
/// ```
/// use langcore::{Budget, Dfa, GenerateOptions, PathOrder};
///
/// let budget = Budget::default();
/// let ids = Dfa::from_regex("a[0-9]|b[a-z]")?;
/// let sweep = GenerateOptions::default().with_limit(3);
/// assert_eq!(ids.generate(&sweep, &budget)?, ["a0", "a1", "a2"]);
/// let rounds = sweep.with_path_order(PathOrder::Interleave);
/// assert_eq!(ids.generate(&rounds, &budget)?, ["a0", "ba", "a1"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PathOrder {
    /// Shortest paths first, lexicographically within a length; each path is expanded
    /// completely before the next one starts.
    #[default]
    Sweep,
    /// In rounds: round `k` takes the `k`-th string (in the character order) of every path
    /// that has more than `k` strings, shorter paths first and lexicographically within a
    /// length. Every path gives one string before any gives a second.
    Interleave,
    /// With [`CharOrder::Ascending`]: like [`Interleave`](PathOrder::Interleave), but within
    /// one length (and one round) the paths come in a pseudo-random order drawn from the seed.
    ///
    /// With [`CharOrder::Shuffled`]: the *uniform* order, a seeded pseudo-random permutation
    /// of all the strings with a length in the band (the `k`-th string is the `π(k)`-th of
    /// the sweep order with ascending characters, `π` a keyed bijection of `[0, N)`). Every
    /// page is a sample without replacement in which every string of the band is equally
    /// likely, whatever its length or path; paging stays exact.
    ///
    /// These orders need the minimal DFA: where [`Language::generate`](crate::Language::generate)
    /// pages a language whose DFA does not fit, every shuffled order is its seeded draws
    /// instead, defined there (not uniform over the band).
    Shuffled,
}

impl PathOrder {
    /// Every path order.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, GenerateOptions, PathOrder};
    ///
    /// let pairs = Dfa::from_regex("a[0-9]|b[a-z]")?;
    /// for order in PathOrder::ALL {
    ///     let all = GenerateOptions::default().with_limit(100).with_path_order(order);
    ///     assert_eq!(pairs.generate(&all, &Budget::default())?.len(), 36);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const ALL: [PathOrder; 3] = [PathOrder::Sweep, PathOrder::Interleave, PathOrder::Shuffled];
}

/// How the strings of one path are ordered.
///
/// # Example
/// ```
/// use langcore::{Budget, CharOrder, Dfa, GenerateOptions};
///
/// let budget = Budget::default();
/// let digits = Dfa::from_regex("[0-9]{2}")?;
/// let ascending = GenerateOptions::default().with_limit(3);
/// assert_eq!(digits.generate(&ascending, &budget)?, ["00", "01", "02"]);
/// let shuffled = ascending.with_char_order(CharOrder::Shuffled).with_seed(42);
/// assert_eq!(digits.generate(&shuffled, &budget)?, digits.generate(&shuffled, &budget)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CharOrder {
    /// An odometer over the path's character sets: the last position turns fastest, and each
    /// position counts up from the smallest character of its set (`[a-z]{2}` gives `aa`,
    /// `ab`, …, `az`, `ba`, …).
    #[default]
    Ascending,
    /// The `i`-th string of a path is the one at index `σ(i)` of its ascending odometer,
    /// where `σ` is a pseudo-random bijection of the path's whole index space drawn from the
    /// seed and the path: consecutive strings look independent at every position. Together
    /// with [`PathOrder::Shuffled`], the uniform order of the whole band (see there).
    Shuffled,
}

impl CharOrder {
    /// Every character order.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, CharOrder, Dfa, GenerateOptions};
    ///
    /// let digits = Dfa::from_regex("[0-9]{2}")?;
    /// for order in CharOrder::ALL {
    ///     let all = GenerateOptions::default().with_limit(1_000).with_char_order(order);
    ///     let mut strings = digits.generate(&all, &Budget::default())?;
    ///     strings.sort();
    ///     assert_eq!(strings, (0..100).map(|n| format!("{n:02}")).collect::<Vec<_>>());
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const ALL: [CharOrder; 2] = [CharOrder::Ascending, CharOrder::Shuffled];
}

/// What [`Dfa::generate`](crate::Dfa::generate) produces: one page of the strings of a
/// language, in a documented order.
///
/// The defaults are `limit` [`DEFAULT_LIMIT`], `offset` 0, lengths 0 to
/// [`DEFAULT_MAX_LENGTH`], [`PathOrder::Sweep`], [`CharOrder::Ascending`], seed 0 and no
/// charset (every character).
///
/// # Example
/// ```
/// use langcore::alphabet::CharSet;
/// use langcore::{Budget, CharOrder, Dfa, GenerateOptions, PathOrder};
///
/// let options = GenerateOptions::default()
///     .with_limit(3)
///     .with_offset(26)
///     .with_path_order(PathOrder::Sweep)
///     .with_char_order(CharOrder::Ascending)
///     .with_charset(Some(CharSet::parse("[a-z]")?));
/// let strings = Dfa::from_regex(".{2}")?.generate(&options, &Budget::default())?;
/// assert_eq!(strings, ["ba", "bb", "bc"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GenerateOptions {
    limit: usize,
    offset: u64,
    min_length: usize,
    max_length: usize,
    path_order: PathOrder,
    char_order: CharOrder,
    seed: u64,
    charset: Option<CharSet>,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            limit: DEFAULT_LIMIT,
            offset: 0,
            min_length: 0,
            max_length: DEFAULT_MAX_LENGTH,
            path_order: PathOrder::Sweep,
            char_order: CharOrder::Ascending,
            seed: 0,
            charset: None,
        }
    }
}

impl GenerateOptions {
    /// Returns these options asking for at most `limit` strings (fewer at the end).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, GenerateOptions};
    ///
    /// let options = GenerateOptions::default().with_limit(2);
    /// assert_eq!(Dfa::from_regex("[a-z]")?.generate(&options, &Budget::default())?, ["a", "b"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_limit(self, limit: usize) -> Self {
        GenerateOptions { limit, ..self }
    }

    /// Returns these options skipping the first `offset` strings of the order. Only strings
    /// inside the length band and the charset count.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, GenerateOptions};
    ///
    /// let options = GenerateOptions::default().with_limit(2).with_offset(24);
    /// assert_eq!(Dfa::from_regex("[a-z]")?.generate(&options, &Budget::default())?, ["y", "z"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_offset(self, offset: u64) -> Self {
        GenerateOptions { offset, ..self }
    }

    /// Returns these options generating strings of at least `min_length` characters.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, GenerateOptions};
    ///
    /// let options = GenerateOptions::default().with_limit(2).with_min_length(3);
    /// assert_eq!(Dfa::from_regex("a*")?.generate(&options, &Budget::default())?, ["aaa", "aaaa"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_min_length(self, min_length: usize) -> Self {
        GenerateOptions { min_length, ..self }
    }

    /// Returns these options generating strings of at most `max_length` characters. Below
    /// `min_length`, nothing is generated.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, GenerateOptions};
    ///
    /// let options = GenerateOptions::default().with_max_length(2);
    /// assert_eq!(Dfa::from_regex("a*")?.generate(&options, &Budget::default())?, ["", "a", "aa"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_max_length(self, max_length: usize) -> Self {
        GenerateOptions { max_length, ..self }
    }

    /// Returns these options with paths taking turns in `path_order`.
    ///
    /// # Example
    /// ```
    /// use langcore::{GenerateOptions, PathOrder};
    ///
    /// let options = GenerateOptions::default().with_path_order(PathOrder::Interleave);
    /// assert_eq!(options.path_order(), PathOrder::Interleave);
    /// ```
    pub fn with_path_order(self, path_order: PathOrder) -> Self {
        GenerateOptions { path_order, ..self }
    }

    /// Returns these options with the strings of a path in `char_order`.
    ///
    /// # Example
    /// ```
    /// use langcore::{CharOrder, GenerateOptions};
    ///
    /// let options = GenerateOptions::default().with_char_order(CharOrder::Shuffled);
    /// assert_eq!(options.char_order(), CharOrder::Shuffled);
    /// ```
    pub fn with_char_order(self, char_order: CharOrder) -> Self {
        GenerateOptions { char_order, ..self }
    }

    /// Returns these options with `seed` for the shuffled orders; ascending and
    /// non-shuffled orders ignore it.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, CharOrder, Dfa, GenerateOptions};
    ///
    /// let budget = Budget::default();
    /// let words = Dfa::from_regex("[a-z]{8}")?;
    /// let options = GenerateOptions::default().with_char_order(CharOrder::Shuffled);
    /// let first = words.generate(&options.clone().with_seed(1), &budget)?;
    /// assert_ne!(first, words.generate(&options.with_seed(2), &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_seed(self, seed: u64) -> Self {
        GenerateOptions { seed, ..self }
    }

    /// Returns these options generating only strings whose every character is in `charset`
    /// (`None`: every character).
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::CharSet;
    /// use langcore::{Budget, Dfa, GenerateOptions};
    ///
    /// let hex = Some(CharSet::parse("[0-9a-f]")?);
    /// let options = GenerateOptions::default().with_limit(3).with_offset(9).with_charset(hex);
    /// assert_eq!(Dfa::from_regex(".")?.generate(&options, &Budget::default())?, ["9", "a", "b"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_charset(self, charset: Option<CharSet>) -> Self {
        GenerateOptions { charset, ..self }
    }

    /// The most strings to return.
    ///
    /// # Example
    /// ```
    /// use langcore::{DEFAULT_LIMIT, GenerateOptions};
    ///
    /// assert_eq!(GenerateOptions::default().limit(), DEFAULT_LIMIT);
    /// assert_eq!(GenerateOptions::default().with_limit(5).limit(), 5);
    /// ```
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// How many strings of the order to skip.
    ///
    /// # Example
    /// ```
    /// use langcore::GenerateOptions;
    ///
    /// assert_eq!(GenerateOptions::default().offset(), 0);
    /// assert_eq!(GenerateOptions::default().with_offset(5).offset(), 5);
    /// ```
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The shortest length to generate.
    ///
    /// # Example
    /// ```
    /// use langcore::GenerateOptions;
    ///
    /// assert_eq!(GenerateOptions::default().min_length(), 0);
    /// assert_eq!(GenerateOptions::default().with_min_length(5).min_length(), 5);
    /// ```
    pub fn min_length(&self) -> usize {
        self.min_length
    }

    /// The longest length to generate.
    ///
    /// # Example
    /// ```
    /// use langcore::{DEFAULT_MAX_LENGTH, GenerateOptions};
    ///
    /// assert_eq!(GenerateOptions::default().max_length(), DEFAULT_MAX_LENGTH);
    /// assert_eq!(GenerateOptions::default().with_max_length(5).max_length(), 5);
    /// ```
    pub fn max_length(&self) -> usize {
        self.max_length
    }

    /// How paths take turns.
    ///
    /// # Example
    /// ```
    /// use langcore::{GenerateOptions, PathOrder};
    ///
    /// assert_eq!(GenerateOptions::default().path_order(), PathOrder::Sweep);
    /// ```
    pub fn path_order(&self) -> PathOrder {
        self.path_order
    }

    /// How the strings of one path are ordered.
    ///
    /// # Example
    /// ```
    /// use langcore::{CharOrder, GenerateOptions};
    ///
    /// assert_eq!(GenerateOptions::default().char_order(), CharOrder::Ascending);
    /// ```
    pub fn char_order(&self) -> CharOrder {
        self.char_order
    }

    /// The seed of the shuffled orders.
    ///
    /// # Example
    /// ```
    /// use langcore::GenerateOptions;
    ///
    /// assert_eq!(GenerateOptions::default().seed(), 0);
    /// assert_eq!(GenerateOptions::default().with_seed(7).seed(), 7);
    /// ```
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The characters strings may use; `None` for all.
    ///
    /// # Example
    /// ```
    /// use langcore::GenerateOptions;
    /// use langcore::alphabet::CharSet;
    ///
    /// assert_eq!(GenerateOptions::default().charset(), None);
    /// let digits = GenerateOptions::default().with_charset(Some(CharSet::range('0', '9')));
    /// assert_eq!(digits.charset(), Some(&CharSet::range('0', '9')));
    /// ```
    pub fn charset(&self) -> Option<&CharSet> {
        self.charset.as_ref()
    }
}
