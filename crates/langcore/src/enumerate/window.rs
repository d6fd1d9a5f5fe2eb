//! Generation from an NFA whose DFA does not fit: the length window first, then only the
//! subsets a page reaches.
//!
//! # Overview
//! [`generate`] pages through the strings of an [`Nfa`]'s language with a length in
//! `[min_length, max_length]` and every character in the charset, without building its DFA
//! (`(?:.*a.{100})+` has 2^101 subsets; a 2,000-character street-name validator has 75,615
//! minimal states that take seconds to build). [`Language::generate`](crate::Language::generate)
//! comes here only when the DFA exceeds its first limits; otherwise the orders of
//! `enumerate/mod.rs` apply.
//!
//! # Orders
//! Without the canonical minimal DFA there are no canonical paths, so the orders read:
//! - ascending characters with [`PathOrder::Sweep`] or [`PathOrder::Interleave`]:
//!   *shortlex*, lengths ascending, then code points lexicographically; a function of the
//!   language and the options alone.
//! - any shuffled order: *seeded draws*. A band of fewer than [`PERMUTE_ALL_BELOW`]
//!   strings in a seeded permutation (`shuffle.rs`); otherwise distinct strings in the
//!   order a seeded random walk first draws them: a length uniformly among those that hold
//!   strings, then each character uniformly among those that can still complete a string
//!   of that length (so not uniform over the band); after [`MISSES_BEFORE_SHORTLEX`] draws
//!   in a row that find nothing new, the smallest string not drawn yet comes next.
//!
//! In every order, pages of any size concatenate to the same sequence without repeats.
//!
//! # Algorithm
//! 1. The NFA is restricted to the charset (labels intersected), then the product with the
//!    length window: for each NFA state the set of lengths `r ≤ max_length` of the strings
//!    it accepts, level by level backwards from the accepting states; O(max_length ×
//!    (states + moves)) and max_length / 64 words per state. A subset accepts a string of
//!    exactly `r` characters iff one of its states does, so no walk below ever enters a
//!    subset that cannot complete a string of the band: every descent succeeds.
//! 2. The subsets are found lazily (`dfa/determinize.rs`'s [`LazyDfa`]): only those a page
//!    reaches are built.
//! 3. Positions are found by counts of strings per (subset, remaining length), memoised and
//!    capped at the first position past the page (`offset + limit`), so a count stops as
//!    soon as it is known to cover the page: the cost follows the page and the offset, not
//!    the language.
//!
//! # Budgets
//! The length sets, the per-subset sets and the count memo are charged against the memory
//! limit ([`Operation::Generate`]); the deadline is checked per level, per 64 counted
//! nodes and per string; new subsets count as states of [`Operation::Determinize`].

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::options::{CharOrder, GenerateOptions, PathOrder};
use super::page;
use super::shuffle::{Shuffle, Shuffles};
use crate::alphabet::{ClassId, nth_after, span_len};
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::determinize::LazyDfa;
use crate::nfa::{Nfa, NfaTrim};
use crate::state_id::StateId;

/// Draws in a row that find nothing new before a seeded order takes the smallest string not
/// drawn yet.
const MISSES_BEFORE_SHORTLEX: usize = 64;

/// A band with fewer strings is permuted whole by the seeded orders.
const PERMUTE_ALL_BELOW: u128 = 4096;

/// Bytes a memoised count costs: key, value and the hash table's share.
const COUNT_ENTRY_BYTES: usize = 48;

/// The context tags of the seeded orders here (distinct from those of `path.rs` and
/// `rounds.rs`).
const WINDOW_PERMUTATION_TAG: u64 = 0x5749_4e44_4f57_5045;
const WINDOW_WALK_TAG: u64 = 0x5749_4e44_4f57_574b;

/// The strings of `nfa`'s language at the positions `options` asks for, in the orders of
/// the module docs.
pub(crate) fn generate(
    nfa: &Nfa,
    options: &GenerateOptions,
    budget: &Budget,
) -> Result<Vec<String>, BudgetError> {
    let restricted;
    let nfa = match options.charset() {
        Some(charset) if !charset.is_full() => {
            restricted = nfa.restricted(charset);
            &restricted
        }
        _ => nfa,
    };
    let (Some(shortest), longest) = NfaTrim::new(nfa).length() else { return Ok(Vec::new()) };
    let min_length = options.min_length().max(shortest);
    let max_length =
        longest.map_or(options.max_length(), |longest| longest.min(options.max_length()));
    if options.limit() == 0 || max_length < min_length {
        return Ok(Vec::new());
    }
    let needed = u128::from(options.offset()) + options.limit() as u128;
    let shuffled =
        options.path_order() == PathOrder::Shuffled || options.char_order() == CharOrder::Shuffled;
    // Counts are exact below the cap, which covers every position the page needs (and,
    // shuffled, the size of a band that is permuted whole).
    let cap = if shuffled { needed.max(PERMUTE_ALL_BELOW) + 1 } else { needed };
    let mut window = Window::new(nfa, min_length, max_length, cap, budget)?;
    if !shuffled {
        return window.shortlex(options.offset().into(), options.limit());
    }
    let total = window.total()?;
    let offset = u128::from(options.offset());
    if total < PERMUTE_ALL_BELOW {
        // Few strings: all of them, in a seeded permutation.
        let all = window.shortlex(0, usize::try_from(total).unwrap_or(usize::MAX))?;
        let permutation = Shuffle::new(&[WINDOW_PERMUTATION_TAG, options.seed()])
            .on_last(total.saturating_sub(1));
        let positions = offset..total.min(needed);
        return Ok(positions
            .map(|position| all[usize::try_from(permutation.apply(position)).unwrap_or(0)].clone())
            .collect());
    }
    let mut drawn = window.draws(options.seed(), needed)?;
    let mut out = page(options);
    out.extend(drawn.drain(usize::try_from(offset).unwrap_or(usize::MAX).min(drawn.len())..));
    Ok(out)
}

/// One run of characters of one class, in ascending order.
struct Piece {
    first: char,
    len: u64,
    class: ClassId,
}

/// The lazily determinized NFA restricted to the length window, with its counts.
struct Window<'n> {
    dfa: LazyDfa<'n>,
    budget: &'n Budget,
    /// The runs of every class, ascending.
    pieces: Vec<Piece>,
    /// The number of characters of each class.
    class_sizes: Vec<u64>,
    /// Per NFA state, the lengths of the strings it accepts, as bits.
    nfa_lengths: Vec<u64>,
    /// Words per length set.
    words: usize,
    /// Per subset found, its length set, once computed.
    subset_lengths: Vec<Option<Box<[u64]>>>,
    /// Strings per (subset, remaining length), capped at `cap`.
    counts: HashMap<(StateId, usize), u128>,
    cap: u128,
    min_length: usize,
    max_length: usize,
    /// Bytes charged so far.
    bytes: usize,
}

impl<'n> Window<'n> {
    fn new(
        nfa: &'n Nfa,
        min_length: usize,
        max_length: usize,
        cap: u128,
        budget: &'n Budget,
    ) -> Result<Window<'n>, BudgetError> {
        let words = max_length / 64 + 1;
        let bytes = nfa.n_states().saturating_mul(words).saturating_mul(size_of::<u64>());
        budget.check_memory(Operation::Generate, bytes)?;
        let nfa_lengths = exact_lengths(nfa, max_length, words, budget)?;
        let dfa = LazyDfa::new(nfa, budget)?;
        let mut pieces = Vec::new();
        let mut class_sizes = Vec::new();
        for (class, set) in dfa.classes().iter() {
            class_sizes.push(set.len());
            pieces.extend(set.ranges().iter().map(|&range| Piece {
                first: range.0,
                len: span_len(&range),
                class,
            }));
        }
        pieces.sort_unstable_by_key(|piece| piece.first);
        Ok(Window {
            dfa,
            budget,
            pieces,
            class_sizes,
            nfa_lengths,
            words,
            subset_lengths: Vec::new(),
            counts: HashMap::default(),
            cap,
            min_length,
            max_length,
            bytes,
        })
    }

    fn start(&self) -> StateId {
        StateId::from_index(0)
    }

    /// Whether `state` accepts a string of exactly `remaining` characters.
    fn is_viable(&mut self, state: StateId, remaining: usize) -> Result<bool, BudgetError> {
        if self.subset_lengths.get(state.index()).is_none_or(Option::is_none) {
            let mut set = vec![0u64; self.words].into_boxed_slice();
            for &nfa_state in self.dfa.subset(state) {
                let own = &self.nfa_lengths[nfa_state.index() * self.words..][..self.words];
                for (word, own) in set.iter_mut().zip(own) {
                    *word |= own;
                }
            }
            self.charge(self.words * size_of::<u64>())?;
            if self.subset_lengths.len() <= state.index() {
                self.subset_lengths.resize(state.index() + 1, None);
            }
            self.subset_lengths[state.index()] = Some(set);
        }
        let set = self.subset_lengths[state.index()].as_deref().unwrap_or_default();
        Ok(set.get(remaining / 64).is_some_and(|word| word >> (remaining % 64) & 1 == 1))
    }

    fn charge(&mut self, n_bytes: usize) -> Result<(), BudgetError> {
        self.bytes = self.bytes.saturating_add(n_bytes);
        self.budget.check_memory(Operation::Generate, self.bytes)
    }

    /// The number of strings of exactly `remaining` characters from `state`, capped.
    fn count(&mut self, state: StateId, remaining: usize) -> Result<u128, BudgetError> {
        if !self.is_viable(state, remaining)? {
            return Ok(0);
        }
        if remaining == 0 {
            return Ok(1);
        }
        if let Some(&known) = self.counts.get(&(state, remaining)) {
            return Ok(known);
        }
        // Depth-first over (state, remaining, next class, sum so far), without recursion.
        let mut stack = vec![(state, remaining, 0usize, 0u128)];
        let mut steps = 0usize;
        while let Some(&mut (state, remaining, class_idx, sum)) = stack.last_mut() {
            steps += 1;
            if steps.is_multiple_of(64) {
                self.budget.check_time(Operation::Generate)?;
            }
            if class_idx == self.class_sizes.len() || sum >= self.cap {
                stack.pop();
                let sum = sum.min(self.cap);
                self.charge(COUNT_ENTRY_BYTES)?;
                self.counts.insert((state, remaining), sum);
                if let Some(parent) = stack.last_mut() {
                    let weight = u128::from(self.class_sizes[parent.2]);
                    parent.3 = parent.3.saturating_add(weight.saturating_mul(sum));
                    parent.2 += 1;
                }
                continue;
            }
            let class = ClassId::new(class_idx);
            let target = self.dfa.target(state, class)?;
            let below = if !self.is_viable(target, remaining - 1)? {
                Some(0)
            } else if remaining == 1 {
                Some(1)
            } else {
                self.counts.get(&(target, remaining - 1)).copied()
            };
            match below {
                Some(below) => {
                    let frame = stack.last_mut().expect("the frame just read");
                    let weight = u128::from(self.class_sizes[class_idx]);
                    frame.3 = frame.3.saturating_add(weight.saturating_mul(below));
                    frame.2 += 1;
                }
                None => stack.push((target, remaining - 1, 0, 0)),
            }
        }
        Ok(self.counts.get(&(state, remaining)).copied().unwrap_or(0))
    }

    /// The number of strings of the band, capped.
    fn total(&mut self) -> Result<u128, BudgetError> {
        let mut total = 0u128;
        for length in self.min_length..=self.max_length {
            total = total.saturating_add(self.count(self.start(), length)?);
            if total >= self.cap {
                return Ok(self.cap);
            }
        }
        Ok(total)
    }

    /// Up to `limit` strings of the band in shortlex order, from position `offset`.
    fn shortlex(&mut self, offset: u128, limit: usize) -> Result<Vec<String>, BudgetError> {
        let mut strings = Vec::with_capacity(limit.min(1024));
        let mut rest = offset;
        for length in self.min_length..=self.max_length {
            if strings.len() == limit {
                break;
            }
            let total = self.count(self.start(), length)?;
            if rest >= total {
                rest -= total;
                continue;
            }
            // The frames of the current string: (state before, piece, index in the piece).
            let mut frames = Vec::with_capacity(length);
            self.descend(&mut frames, length, rest)?;
            rest = 0;
            loop {
                self.budget.check_time(Operation::Generate)?;
                strings.push(self.spell(&frames));
                if strings.len() == limit || !self.advance(&mut frames, length)? {
                    break;
                }
            }
        }
        Ok(strings)
    }

    /// Extends `frames` (a prefix of a string of `length` characters) to the string at
    /// position `rank` among the completions of that prefix, ranked in shortlex order;
    /// `rank` is below their number.
    fn descend(
        &mut self,
        frames: &mut Vec<(StateId, usize, u64)>,
        length: usize,
        mut rank: u128,
    ) -> Result<(), BudgetError> {
        let mut state = match frames.last() {
            Some(&(state, piece, _)) => self.dfa.target(state, self.pieces[piece].class)?,
            None => self.start(),
        };
        while frames.len() < length {
            let remaining = length - frames.len() - 1;
            let (piece, index, target) = self.choose(state, remaining, 0, &mut rank)?;
            frames.push((state, piece, index));
            state = target;
        }
        Ok(())
    }

    /// The piece (from `first_piece` on) and the index in it of the character starting the
    /// completion at position `rank` from `state`, with `remaining` characters after it;
    /// `rank` becomes the position among the completions after that character.
    fn choose(
        &mut self,
        state: StateId,
        remaining: usize,
        first_piece: usize,
        rank: &mut u128,
    ) -> Result<(usize, u64, StateId), BudgetError> {
        for piece_idx in first_piece..self.pieces.len() {
            let target = self.dfa.target(state, self.pieces[piece_idx].class)?;
            if !self.is_viable(target, remaining)? {
                continue;
            }
            let per_char = if *rank == 0 { 1 } else { self.count(target, remaining)? };
            let block = per_char.saturating_mul(u128::from(self.pieces[piece_idx].len));
            if *rank < block {
                let index = u64::try_from(*rank / per_char).unwrap_or(u64::MAX);
                *rank %= per_char;
                return Ok((piece_idx, index, target));
            }
            *rank -= block;
        }
        unreachable!("a viable state has a viable move for every rank below its count")
    }

    /// Moves `frames` to the next string of the same length, or returns `false` when it was
    /// the last.
    fn advance(
        &mut self,
        frames: &mut Vec<(StateId, usize, u64)>,
        length: usize,
    ) -> Result<bool, BudgetError> {
        while let Some((state, piece, index)) = frames.pop() {
            let remaining = length - frames.len() - 1;
            if index + 1 < self.pieces[piece].len {
                frames.push((state, piece, index + 1));
                self.descend(frames, length, 0)?;
                return Ok(true);
            }
            let next = (piece + 1..self.pieces.len()).try_fold(None, |found, piece_idx| {
                if found.is_some() {
                    return Ok(found);
                }
                let target = self.dfa.target(state, self.pieces[piece_idx].class)?;
                Ok::<_, BudgetError>(self.is_viable(target, remaining)?.then_some(piece_idx))
            })?;
            if let Some(piece) = next {
                frames.push((state, piece, 0));
                self.descend(frames, length, 0)?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn spell(&self, frames: &[(StateId, usize, u64)]) -> String {
        frames
            .iter()
            .filter_map(|&(_, piece, index)| nth_after(self.pieces[piece].first, index))
            .collect()
    }

    /// The first `needed` strings of the seeded sequence: distinct strings in the order a
    /// seeded walk first draws them, where after [`MISSES_BEFORE_SHORTLEX`] draws in a row
    /// that find nothing new the next string is the smallest not drawn yet (shortlex). Each
    /// string depends only on those before it, so pages tile.
    fn draws(&mut self, seed: u64, needed: u128) -> Result<Vec<String>, BudgetError> {
        let needed = usize::try_from(needed).unwrap_or(usize::MAX);
        let mut lengths = Vec::new();
        for length in self.min_length..=self.max_length {
            if self.is_viable(self.start(), length)? {
                lengths.push(length);
            }
        }
        let mut rng = Shuffles::new(&[WINDOW_WALK_TAG, seed]);
        let mut seen = HashSet::default();
        let mut drawn = Vec::new();
        let (mut misses, mut cursor) = (0usize, 0u128);
        while drawn.len() < needed {
            self.budget.check_time(Operation::Generate)?;
            let string = if misses < MISSES_BEFORE_SHORTLEX {
                let length = lengths[below(rng.word(), lengths.len() as u64) as usize];
                let string = self.walk(length, &mut rng)?;
                if seen.contains(&string) {
                    misses += 1;
                    continue;
                }
                string
            } else {
                let Some(string) = self.smallest_unseen(&seen, &mut cursor)? else { break };
                string
            };
            misses = 0;
            self.charge(string.len() * 2 + COUNT_ENTRY_BYTES)?;
            seen.insert(string.clone());
            drawn.push(string);
        }
        Ok(drawn)
    }

    /// The smallest string of the band in shortlex order, from position `cursor` on, that
    /// is not in `seen`; `cursor` moves past it. `None` when every string is seen.
    fn smallest_unseen(
        &mut self,
        seen: &HashSet<String>,
        cursor: &mut u128,
    ) -> Result<Option<String>, BudgetError> {
        loop {
            let batch = self.shortlex(*cursor, 64)?;
            if batch.is_empty() {
                return Ok(None);
            }
            for string in batch {
                *cursor += 1;
                if !seen.contains(&string) {
                    return Ok(Some(string));
                }
            }
        }
    }

    /// One string of `length` characters, each drawn uniformly among those that can still
    /// complete one.
    fn walk(&mut self, length: usize, rng: &mut Shuffles) -> Result<String, BudgetError> {
        let mut state = self.start();
        let mut string = String::with_capacity(length);
        for position in 0..length {
            let remaining = length - position - 1;
            let mut viable = Vec::new();
            let mut n_chars = 0u64;
            for piece_idx in 0..self.pieces.len() {
                let target = self.dfa.target(state, self.pieces[piece_idx].class)?;
                if self.is_viable(target, remaining)? {
                    viable.push((piece_idx, target));
                    n_chars = n_chars.saturating_add(self.pieces[piece_idx].len);
                }
            }
            let mut pick = below(rng.word(), n_chars);
            for (piece_idx, target) in viable {
                let piece = &self.pieces[piece_idx];
                if pick < piece.len {
                    string.extend(nth_after(piece.first, pick));
                    state = target;
                    break;
                }
                pick -= piece.len;
            }
        }
        Ok(string)
    }
}

/// A value below `n` (≥ 1) from 64 random bits, by the multiply-shift reduction.
fn below(bits: u64, n: u64) -> u64 {
    ((u128::from(bits) * u128::from(n)) >> 64) as u64
}

/// For each state of `nfa`, `words` words of bits: bit `r` is set when the state accepts a
/// string of exactly `r ≤ max_length` characters. Computed level by level from the
/// accepting states backwards (ε-moves weigh nothing).
fn exact_lengths(
    nfa: &Nfa,
    max_length: usize,
    words: usize,
    budget: &Budget,
) -> Result<Vec<u64>, BudgetError> {
    let n_states = nfa.n_states();
    let mut reversed_epsilons: Vec<Vec<StateId>> = vec![Vec::new(); n_states];
    let mut reversed_moves: Vec<Vec<StateId>> = vec![Vec::new(); n_states];
    for source in (0..n_states).map(StateId::from_index) {
        let state = nfa.state(source);
        for &target in &state.epsilons {
            reversed_epsilons[target.index()].push(source);
        }
        for &(_, target) in &state.transitions {
            reversed_moves[target.index()].push(source);
        }
    }
    let mut lengths = vec![0u64; n_states * words];
    let mut level: Vec<StateId> =
        (0..n_states).map(StateId::from_index).filter(|&id| nfa.state(id).accepting).collect();
    let mut in_level = vec![usize::MAX; n_states];
    for length in 0..=max_length {
        budget.check_time(Operation::Generate)?;
        // The ε-closure backwards: states that reach the level without reading.
        let mut stack = std::mem::take(&mut level);
        while let Some(state) = stack.pop() {
            if in_level[state.index()] == length {
                continue;
            }
            in_level[state.index()] = length;
            level.push(state);
            stack.extend(&reversed_epsilons[state.index()]);
        }
        if level.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for &state in &level {
            lengths[state.index() * words + length / 64] |= 1 << (length % 64);
            next.extend(&reversed_moves[state.index()]);
        }
        next.sort_unstable();
        next.dedup();
        level = next;
    }
    Ok(lengths)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::generate;
    use crate::alphabet::CharSet;
    use crate::budget::{Budget, BudgetError};
    use crate::enumerate::{CharOrder, GenerateOptions, PathOrder};
    use crate::nfa::Nfa;
    use crate::test_patterns::{oracle, patterns};

    /// Every string over `alphabet` of at most `max_length` characters, in shortlex order.
    fn shortlex_strings(alphabet: &[char], max_length: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut level = vec![String::new()];
        for _ in 0..max_length {
            level = level
                .iter()
                .flat_map(|prefix| alphabet.iter().map(move |&c| format!("{prefix}{c}")))
                .collect();
            all.extend(level.iter().cloned());
        }
        all
    }

    fn run(pattern: &str, options: &GenerateOptions) -> Result<Vec<String>, BudgetError> {
        generate(&Nfa::from_regex(pattern).unwrap(), options, &Budget::unlimited())
    }

    fn over_abc(min_length: usize, max_length: usize) -> GenerateOptions {
        GenerateOptions::default()
            .with_charset(Some(CharSet::range('a', 'c')))
            .with_min_length(min_length)
            .with_max_length(max_length)
    }

    fn pattern() -> impl Strategy<Value = String> {
        patterns(&["a", "b", "[bc]", ".", "a?", "[^a]"], &["*", "+", "?", "{2}", "{0,2}"], 3, 10)
    }

    proptest! {
        /// Shortlex pages are the slices of the brute-force list of the band, filtered by
        /// the `regex` crate.
        #[test]
        fn shortlex_pages_are_brute_force_slices(
            pattern in pattern(),
            min_length in 0usize..3,
            offset in 0u64..40,
            limit in 1usize..20,
            interleave in any::<bool>(),
        ) {
            let regex = oracle(&pattern);
            let expected: Vec<String> = shortlex_strings(&['a', 'b', 'c'], 4)
                .into_iter()
                .filter(|string| string.chars().count() >= min_length && regex.is_match(string))
                .skip(offset as usize)
                .take(limit)
                .collect();
            let order = if interleave { PathOrder::Interleave } else { PathOrder::Sweep };
            let options =
                over_abc(min_length, 4).with_offset(offset).with_limit(limit).with_path_order(order);
            prop_assert_eq!(run(&pattern, &options).unwrap(), expected);
        }

        /// Seeded pages hold distinct strings of the band, are a function of the seed, and
        /// tile: two pages give what one page of both sizes gives.
        #[test]
        fn seeded_pages_tile_with_distinct_strings_of_the_band(
            pattern in pattern(),
            seed in any::<u64>(),
            split in 0usize..30,
            orders in prop::sample::select(vec![
                (PathOrder::Shuffled, CharOrder::Ascending),
                (PathOrder::Sweep, CharOrder::Shuffled),
                (PathOrder::Shuffled, CharOrder::Shuffled),
            ]),
        ) {
            let regex = oracle(&pattern);
            let base = over_abc(1, 4).with_path_order(orders.0).with_char_order(orders.1).with_seed(seed);
            let whole = run(&pattern, &base.clone().with_limit(30)).unwrap();
            let first = run(&pattern, &base.clone().with_limit(split.max(1))).unwrap();
            let rest = run(&pattern, &base.clone().with_offset(split as u64).with_limit(30 - split)).unwrap();
            prop_assert_eq!(&whole[..first.len().min(split.max(1))], &first[..]);
            prop_assert_eq!(&whole[split.min(whole.len())..], &rest[..]);
            let mut distinct = whole.clone();
            distinct.sort();
            distinct.dedup();
            prop_assert_eq!(distinct.len(), whole.len());
            for string in &whole {
                prop_assert!(regex.is_match(string), "{string:?}");
                prop_assert!((1..=4).contains(&string.chars().count()), "{string:?}");
            }
            // Fewer strings than asked for: all of them.
            let band = shortlex_strings(&['a', 'b', 'c'], 4)
                .into_iter()
                .filter(|string| !string.is_empty() && regex.is_match(string))
                .count();
            prop_assert_eq!(whole.len(), band.min(30));
        }
    }

    /// `(?:.*a.{100})+` has 2^101 subsets, but strings of at most 103 characters need only
    /// those with their `a` among the first three characters.
    #[test]
    fn windows_of_exponential_languages_are_cheap() {
        let options = GenerateOptions::default().with_max_length(103).with_limit(3);
        let budget = Budget::default().with_max_states(5_000);
        let nfa = Nfa::from_regex("(?:.*a.{100})+").unwrap();
        let zeros = "\0".repeat(99);
        assert_eq!(
            generate(&nfa, &options, &budget).unwrap(),
            [format!("a{zeros}\0"), format!("a{zeros}\u{1}"), format!("a{zeros}\u{2}")]
        );
        let far = options.with_offset(1 << 40).with_limit(1);
        let page = generate(&nfa, &far, &budget).unwrap();
        assert_eq!(page.len(), 1);
        assert!(oracle("(?:.*a.{100})+").is_match(&page[0]));
    }

    /// The seeded walk on a large band draws every page the same way for a seed.
    #[test]
    fn seeded_draws_depend_on_the_seed() {
        let options = GenerateOptions::default()
            .with_path_order(PathOrder::Shuffled)
            .with_charset(Some(CharSet::range('a', 'z')))
            .with_limit(20);
        let pattern = "(?:.*e.{30})+";
        let regex = oracle(pattern);
        let page = run(pattern, &options.clone().with_seed(1)).unwrap();
        assert_eq!(page, run(pattern, &options.clone().with_seed(1)).unwrap());
        assert_ne!(page, run(pattern, &options.with_seed(2)).unwrap());
        assert!(page.iter().all(|string| regex.is_match(string)));
        // Most lengths of this band hold one string: draws soon find nothing new, and the
        // smallest strings not drawn fill in; pages still tile without repeats.
        let pattern = "a{1,200}|[a-z]{3}";
        let regex = oracle(pattern);
        let options = GenerateOptions::default().with_max_length(200).with_seed(5);
        let shuffled = options.with_char_order(CharOrder::Shuffled);
        let whole = run(pattern, &shuffled.clone().with_limit(300)).unwrap();
        let mut halves = run(pattern, &shuffled.clone().with_limit(150)).unwrap();
        halves.extend(run(pattern, &shuffled.with_offset(150).with_limit(150)).unwrap());
        assert_eq!(whole, halves);
        let mut distinct = whole.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 300);
        assert!(whole.iter().all(|string| regex.is_match(string)));
    }

    /// The documented draws, not a uniform permutation: a length is drawn uniformly among
    /// those holding strings, so the one string of length 1 comes within the first few
    /// draws for most seeds, where a uniform order of the 456,977 strings would put it
    /// there about once in 100,000 seeds; and a character uniformly among those that can
    /// complete the string, so every first letter is about equally frequent.
    #[test]
    fn seeded_draws_pick_lengths_then_characters_uniformly() {
        let pattern = "[a-z]{4}|b";
        let options = GenerateOptions::default()
            .with_path_order(PathOrder::Shuffled)
            .with_char_order(CharOrder::Shuffled)
            .with_max_length(4)
            .with_limit(4);
        let mut early = 0;
        let mut first_letters = [0usize; 26];
        for seed in 0..64 {
            let page = run(pattern, &options.clone().with_seed(seed)).unwrap();
            early += usize::from(page.iter().any(|string| string == "b"));
            for string in page.iter().filter(|string| string.len() == 4) {
                first_letters[usize::from(string.as_bytes()[0] - b'a')] += 1;
            }
        }
        // Expected: 64 × (1 − 2^-4) = 60 seeds.
        assert!(early >= 50, "{early} of 64 seeds");
        // About 128 strings of length 4, 5 per letter on average.
        assert!(first_letters.iter().all(|&count| count <= 20), "{first_letters:?}");
    }

    /// The window is the length band: nothing outside it, and `[]` where it holds nothing.
    #[test]
    fn empty_windows() {
        let options = GenerateOptions::default().with_min_length(4).with_max_length(6);
        assert_eq!(run("a{3}|b{7}", &options).unwrap(), Vec::<String>::new());
        assert_eq!(run("[]", &options).unwrap(), Vec::<String>::new());
        assert_eq!(run("a{2,}", &options.clone().with_limit(0)).unwrap(), Vec::<String>::new());
        assert_eq!(run("a{2,}", &options).unwrap(), ["aaaa", "aaaaa", "aaaaaa"]);
        let budget = Budget::default().with_max_memory(1 << 10);
        let nfa = Nfa::from_regex("(?:.*a.{100})+").unwrap();
        let long = GenerateOptions::default().with_max_length(1_000_000);
        assert!(matches!(generate(&nfa, &long, &budget), Err(BudgetError::TooMuchMemory { .. })));
    }
}
