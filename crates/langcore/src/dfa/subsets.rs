//! The subsets of a subset construction: each found once, stored in one arena, looked up by
//! hash.
//!
//! # Overview
//! [`Subsets`] turns the targets of one DFA state's moves on one class (the *seeds*) into
//! the DFA state of their ε-closure, adding it if it is new. A subset is the sorted list of
//! the *important* NFA states of the closure (accepting, or with labelled moves), optionally
//! reduced by a simulation preorder (`dfa/simulation.rs`); `dfa/determinize.rs` drives it.
//!
//! # Algorithm
//! - The seeds, sorted and without repeats, are first looked up among the seed sets met
//!   before: a DFA state's move on a class is decided by its seeds alone, and in a large
//!   construction most moves repeat a seed set (the street-name validator of issue 22: 4
//!   seeds but 87 closure states per move on average, over 9.6 million moves), so most
//!   moves cost a hash of a few states. The cache holds at most as many bytes as the
//!   subsets and is charged with them; when it would not fit it stops growing, so it never
//!   decides whether a construction fits.
//! - ε-closures are computed once per NFA state, the first time the state is a seed, and
//!   kept as lists of important states (the states with only ε-moves are walked once, then
//!   never again).
//! - The closure of the seeds is the union of their lists, gathered in a bitset of the NFA
//!   states (a bit per state, so each is taken once) with a dense list of the states set.
//!   The sorted subset is then read in ascending order from the bitset when the subset is
//!   large against the bitset's words, else by sorting the dense list; either way the bits
//!   set are cleared, so nothing is allocated or zeroed per step.
//! - Interning, of subsets and of seed sets alike ([`SliceTable`]): the FxHash of the list
//!   finds the first list stored with that hash, and a chain links the later ones; the
//!   lists lie one after another in one arena, delimited by offsets, so a subset costs its
//!   states and a few words, not an allocation.
//!
//! Cost per move: the sort and hash of its seeds; for a seed set not met before, the seeds'
//! closure lists (a state in the closures of several seeds is visited once per seed), then
//! O(n_states / 64) or O(k log k) for a subset of k states, and its hash.
//!
//! # Budgets
//! [`Operation::Determinize`]: every new subset against the state limit (the caller,
//! `dfa/determinize.rs`, reads the deadline by the work done);
//! the memory charged before anything grows is everything held: the DFA table (one row per
//! subset, the caller's), the subsets and seed sets with their hash tables and chains, and
//! the closure lists.

use std::hash::BuildHasher;

use rustc_hash::{FxBuildHasher, FxHashMap as HashMap};

use super::simulation::Simulation;
use crate::budget::{Budget, BudgetError, Operation};
use crate::nfa::{ClosureScratch, Nfa};
use crate::state_id::StateId;

/// No subset, or no closure list yet.
const NONE: u32 = u32::MAX;

/// Bytes per bucket of a hash table (key, value and control byte).
const BUCKET_BYTES: usize = size_of::<(u64, u32)>() + 1;

/// The subsets found so far, numbered in the order they were found.
pub(super) struct Subsets<'n> {
    nfa: &'n Nfa,
    simulation: Option<&'n Simulation>,
    /// Each DFA state adds this many transitions to the caller's table.
    n_classes: usize,
    /// The subsets; the index of one is its DFA state.
    sets: SliceTable,
    /// Seed sets met before (sorted, without repeats), and the subset each leads to.
    seen_seeds: SliceTable,
    seed_targets: Vec<StateId>,
    seeds: Vec<StateId>,
    /// Scratch space of [`Simulation::reduce`].
    reduce_mask: Vec<u64>,
    closures: Closures,
    members: Members,
}

/// How many subsets a construction finds before it keeps its seed sets (see
/// [`Subsets::intern`]).
const SEED_CACHE_FROM: usize = 64;

impl<'n> Subsets<'n> {
    /// No subset yet, for a construction whose DFA has `n_classes` classes.
    pub(super) fn new(
        nfa: &'n Nfa,
        simulation: Option<&'n Simulation>,
        n_classes: usize,
    ) -> Subsets<'n> {
        Subsets {
            nfa,
            simulation,
            n_classes,
            sets: SliceTable::default(),
            seen_seeds: SliceTable::default(),
            seed_targets: Vec::new(),
            seeds: Vec::new(),
            reduce_mask: Vec::new(),
            closures: Closures::new(nfa.n_states()),
            members: Members::new(nfa.n_states()),
        }
    }

    /// How many subsets are found.
    pub(super) fn len(&self) -> usize {
        self.sets.len()
    }

    /// The important NFA states of subset `id`, ascending.
    pub(super) fn get(&self, id: StateId) -> &[StateId] {
        self.sets.get(id.index())
    }

    /// The DFA state of the ε-closure of `seeds` (in any order, repeats allowed), added if
    /// it is new.
    ///
    /// # Errors
    /// When a new subset exceeds the state limit, or what it adds (a table row included)
    /// exceeds the memory limit. The deadline is the caller's to check.
    pub(super) fn intern(
        &mut self,
        seeds: &[StateId],
        budget: &Budget,
    ) -> Result<StateId, BudgetError> {
        self.seeds.clear();
        self.seeds.extend_from_slice(seeds);
        self.seeds.sort_unstable();
        self.seeds.dedup();
        // Small constructions rarely meet a seed set twice: the cache would cost more than
        // it saves (a tenth of `[a-z]{8}`'s whole generation).
        let cached = self.len() >= SEED_CACHE_FROM;
        let seeds_hash = if cached { FxBuildHasher.hash_one(self.seeds.as_slice()) } else { 0 };
        if cached && let Some(known) = self.seen_seeds.find(seeds_hash, &self.seeds) {
            return Ok(self.seed_targets[known]);
        }
        self.members.clear();
        // What a new closure list is charged with: only needed when one is new.
        let others = if self.seeds.iter().all(|&seed| self.closures.is_known(seed)) {
            0
        } else {
            self.held_bytes(self.len()) - self.closures.bytes()
        };
        for &seed in &self.seeds {
            self.members.add_all(self.closures.get(self.nfa, seed, others, budget)?);
        }
        let mut set = self.members.finish();
        if let Some(simulation) = self.simulation {
            simulation.reduce(&mut set, &mut self.reduce_mask);
        }
        let hash = FxBuildHasher.hash_one(set.as_slice());
        let id = match self.sets.find(hash, &set) {
            Some(known) => StateId::from_index(known),
            None => {
                let id = StateId::new(self.len(), Operation::Determinize)?;
                budget.check_state_count(Operation::Determinize, self.len() + 1)?;
                let grown = self.sets.bytes_after_push(set.len());
                let others = self.held_bytes(self.len() + 1) - self.sets.bytes();
                let total = others.saturating_add(grown);
                budget.check_memory(Operation::Determinize, total)?;
                self.sets.push(hash, &set);
                id
            }
        };
        self.members.recycle(set);
        if !cached {
            return Ok(id);
        }
        // The cache of seed sets grows while it holds no more than the subsets and the
        // whole still fits: it saves work, never decides whether the construction fits.
        let targets = grown(self.seed_targets.len(), self.seed_targets.capacity(), 1);
        let cache =
            self.seen_seeds.bytes_after_push(self.seeds.len()) + targets * size_of::<StateId>();
        let total = (self.held_bytes(self.len()) - self.seed_cache_bytes()).saturating_add(cache);
        if cache <= self.sets.bytes() && budget.check_memory(Operation::Determinize, total).is_ok()
        {
            self.seen_seeds.push(seeds_hash, &self.seeds);
            self.seed_targets.reserve_exact(targets - self.seed_targets.len());
            self.seed_targets.push(id);
        }
        Ok(id)
    }

    /// Everything held, the caller's table of one row per subset included.
    pub(super) fn bytes(&self) -> usize {
        self.held_bytes(self.len())
    }

    /// Everything held: subsets, seed sets, closure lists, and the caller's table with
    /// `n_rows` rows.
    fn held_bytes(&self, n_rows: usize) -> usize {
        let table = n_rows.saturating_mul(self.n_classes * size_of::<StateId>());
        self.sets.bytes() + self.seed_cache_bytes() + self.closures.bytes() + table
    }

    /// What the cache of seed sets holds.
    fn seed_cache_bytes(&self) -> usize {
        self.seen_seeds.bytes() + self.seed_targets.capacity() * size_of::<StateId>()
    }
}

/// Slices of states stored one after another in one arena and found by their hash: the
/// first slice with each hash is in a hash table, later ones are chained from it.
#[derive(Default)]
struct SliceTable {
    arena: Vec<StateId>,
    /// Slice `i` ends at `ends[i]` and starts where slice `i - 1` ends.
    ends: Vec<usize>,
    /// The first slice with each hash.
    by_hash: HashMap<u64, u32>,
    /// The next slice with the same hash as slice `i`, or [`NONE`].
    same_hash: Vec<u32>,
}

impl SliceTable {
    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, idx: usize) -> &[StateId] {
        let start = if idx == 0 { 0 } else { self.ends[idx - 1] };
        &self.arena[start..self.ends[idx]]
    }

    /// The index of `slice`, whose hash is `hash`, if it is stored.
    fn find(&self, hash: u64, slice: &[StateId]) -> Option<usize> {
        let mut found = self.by_hash.get(&hash).copied().unwrap_or(NONE);
        while found != NONE {
            if self.get(found as usize) == slice {
                return Some(found as usize);
            }
            found = self.same_hash[found as usize];
        }
        None
    }

    /// Stores `slice` (not stored yet) as the next index; [`SliceTable::bytes_after_push`]
    /// is what it then holds.
    fn push(&mut self, hash: u64, slice: &[StateId]) {
        let arena = grown(self.arena.len(), self.arena.capacity(), slice.len());
        self.arena.reserve_exact(arena - self.arena.len());
        let ends = grown(self.ends.len(), self.ends.capacity(), 1);
        self.ends.reserve_exact(ends - self.ends.len());
        let chain = grown(self.same_hash.len(), self.same_hash.capacity(), 1);
        self.same_hash.reserve_exact(chain - self.same_hash.len());
        if self.by_hash.len() == self.by_hash.capacity() {
            self.by_hash.reserve(grown_entries(self.by_hash.capacity()) - self.by_hash.len());
        }
        // Fewer slices than states of some automaton, so the index fits.
        let idx = self.len() as u32;
        self.arena.extend_from_slice(slice);
        self.ends.push(self.arena.len());
        let previous = self.by_hash.insert(hash, idx);
        self.same_hash.push(previous.unwrap_or(NONE));
    }

    /// The bytes held.
    fn bytes(&self) -> usize {
        self.arena.capacity() * size_of::<StateId>()
            + self.ends.capacity() * size_of::<usize>()
            + self.same_hash.capacity() * size_of::<u32>()
            + table_buckets(self.by_hash.capacity()) * BUCKET_BYTES
    }

    /// The bytes held once a slice of `n_states` more is pushed: each Vec grows to double
    /// its capacity (or what is needed), the hash table to double its buckets.
    fn bytes_after_push(&self, n_states: usize) -> usize {
        let entries = if self.by_hash.len() < self.by_hash.capacity() {
            self.by_hash.capacity()
        } else {
            grown_entries(self.by_hash.capacity())
        };
        grown(self.arena.len(), self.arena.capacity(), n_states) * size_of::<StateId>()
            + grown(self.ends.len(), self.ends.capacity(), 1) * size_of::<usize>()
            + grown(self.same_hash.len(), self.same_hash.capacity(), 1) * size_of::<u32>()
            + table_buckets(entries) * BUCKET_BYTES
    }
}

/// The capacity a Vec of `len` elements and `capacity` grows to for `extra` more: double,
/// or what is needed.
fn grown(len: usize, capacity: usize, extra: usize) -> usize {
    if len + extra <= capacity { capacity } else { (capacity * 2).max(len + extra) }
}

/// The entries a full hash table of `capacity` entries grows to.
fn grown_entries(capacity: usize) -> usize {
    (capacity * 2).max(16)
}

/// The buckets of a hash table holding `capacity` entries (7 of 8 buckets used).
fn table_buckets(capacity: usize) -> usize {
    if capacity == 0 { 0 } else { (capacity * 8).div_ceil(7).next_power_of_two() }
}

/// The important states of each NFA state's ε-closure, computed on first use.
struct Closures {
    /// Every list computed, one after another.
    lists: Vec<StateId>,
    /// Per NFA state, where its list lies in `lists`, or `(NONE, 0)` before it is computed.
    spans: Vec<(u32, u32)>,
    scratch: ClosureScratch,
    closure: Vec<StateId>,
}

impl Closures {
    fn new(n_states: usize) -> Closures {
        Closures {
            lists: Vec::new(),
            spans: vec![(NONE, 0); n_states],
            scratch: ClosureScratch::new(n_states),
            closure: Vec::new(),
        }
    }

    /// The important states of `state`'s ε-closure; a new list is charged with `others`
    /// (the bytes held elsewhere) against the memory limit before it is kept.
    fn get(
        &mut self,
        nfa: &Nfa,
        state: StateId,
        others: usize,
        budget: &Budget,
    ) -> Result<&[StateId], BudgetError> {
        let (start, len) = self.spans[state.index()];
        if start != NONE {
            return Ok(&self.lists[start as usize..][..len as usize]);
        }
        nfa.closure(&[state], &mut self.scratch, &mut self.closure);
        self.closure.retain(|&id| nfa.is_important(id));
        let needed = self.lists.len() + self.closure.len();
        if needed > self.lists.capacity() {
            let capacity = (self.lists.capacity() * 2).max(needed);
            let lists = capacity * size_of::<StateId>();
            budget.check_memory(Operation::Determinize, others.saturating_add(lists))?;
            self.lists.reserve_exact(capacity - self.lists.len());
        }
        let (Ok(start), Ok(len)) = (u32::try_from(self.lists.len()), u32::try_from(needed)) else {
            return Err(BudgetError::TooMuchMemory {
                op: Operation::Determinize,
                limit: budget.max_memory(),
            });
        };
        self.lists.extend_from_slice(&self.closure);
        self.spans[state.index()] = (start, len - start);
        Ok(&self.lists[start as usize..needed])
    }

    /// Whether `state`'s list is kept already.
    fn is_known(&self, state: StateId) -> bool {
        self.spans[state.index()].0 != NONE
    }

    /// The bytes the lists and their spans hold.
    fn bytes(&self) -> usize {
        self.lists.capacity() * size_of::<StateId>() + self.spans.len() * size_of::<(u32, u32)>()
    }
}

/// The union of closure lists being gathered: a bit per NFA state and the states set, in
/// the order they were set.
struct Members {
    bits: Vec<u64>,
    dense: Vec<StateId>,
}

impl Members {
    fn new(n_states: usize) -> Members {
        Members { bits: vec![0; n_states.div_ceil(64)], dense: Vec::new() }
    }

    /// Starts a new union (the bits are clear).
    fn clear(&mut self) {
        self.dense.clear();
    }

    /// Adds every state of `states` not in the union yet.
    fn add_all(&mut self, states: &[StateId]) {
        for &state in states {
            let (word, bit) = (state.index() / 64, 1u64 << (state.index() % 64));
            if self.bits[word] & bit == 0 {
                self.bits[word] |= bit;
                self.dense.push(state);
            }
        }
    }

    /// The union, ascending, with every bit cleared: read off the bitset when it is large
    /// against the bitset, else sorted.
    fn finish(&mut self) -> Vec<StateId> {
        let n_members = self.dense.len();
        let sort_cost = n_members * (usize::BITS - n_members.leading_zeros()) as usize;
        if sort_cost < self.bits.len() {
            self.dense.sort_unstable();
            for state in &self.dense {
                self.bits[state.index() / 64] = 0;
            }
        } else {
            self.dense.clear();
            for (word_idx, word) in self.bits.iter_mut().enumerate() {
                while *word != 0 {
                    let bit = word.trailing_zeros() as usize;
                    self.dense.push(StateId::from_index(word_idx * 64 + bit));
                    *word &= *word - 1;
                }
            }
        }
        std::mem::take(&mut self.dense)
    }

    /// Takes back the buffer [`Members::finish`] lent.
    fn recycle(&mut self, buffer: Vec<StateId>) {
        self.dense = buffer;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::Subsets;
    use crate::budget::{Budget, BudgetError};
    use crate::nfa::{ClosureScratch, Nfa};
    use crate::state_id::StateId;

    #[test]
    fn equal_closures_are_one_subset() {
        let budget = Budget::unlimited();
        let nfa = Nfa::from_regex("(a|b)*abb").unwrap();
        let mut subsets = Subsets::new(&nfa, None, 3);
        let start = subsets.intern(&[nfa.start()], &budget).unwrap();
        let again = subsets.intern(&[nfa.start(), nfa.start()], &budget).unwrap();
        assert_eq!((start, again, subsets.len()), (StateId::from_index(0), start, 1));
        let members = subsets.get(start);
        assert!(members.windows(2).all(|pair| pair[0] < pair[1]), "{members:?}");
        let dead = subsets.intern(&[], &budget).unwrap();
        assert_eq!((dead.index(), subsets.get(dead).len()), (1, 0));
    }

    #[test]
    fn large_and_small_unions_read_in_ascending_order() {
        // 300 alternatives: the start's closure is read off the bitset, a single word's
        // states are sorted; both ascending.
        let words: Vec<String> = (0..300).map(|idx| format!("w{idx}x")).collect();
        let nfa = Nfa::from_regex(&words.join("|")).unwrap();
        let budget = Budget::unlimited();
        let mut subsets = Subsets::new(&nfa, None, 1);
        let start = subsets.intern(&[nfa.start()], &budget).unwrap();
        let members = subsets.get(start).to_vec();
        assert!(members.len() >= 300 && members.is_sorted(), "{members:?}");
        let one = subsets.intern(&members[..1], &budget).unwrap();
        assert_eq!(subsets.get(one), &members[..1]);
        let reversed: Vec<StateId> = members.iter().rev().copied().collect();
        assert_eq!(subsets.intern(&reversed, &budget).unwrap(), start);
    }

    /// The important states of the ε-closure of `seeds`, sorted: the oracle, by the plain
    /// closure walk.
    fn closure_oracle(nfa: &Nfa, seeds: &[StateId]) -> Vec<StateId> {
        let mut closure = Vec::new();
        nfa.closure(seeds, &mut ClosureScratch::new(nfa.n_states()), &mut closure);
        closure.retain(|&state| nfa.is_important(state));
        closure.sort_unstable();
        closure
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any seed lists, repeats and order included, give the subset of their closure,
        /// and equal closures the same state, whether the cache answers or not.
        #[test]
        fn subsets_are_the_closures_of_their_seeds(
            pattern in crate::test_patterns::patterns(
                &["a", "b", "[ab]", "()", "c?"],
                &["*", "+", "?", "{0,3}", "{2}"],
                4,
                20,
            ),
            picks in prop::collection::vec(prop::collection::vec(any::<usize>(), 0..6), 1..40),
        ) {
            let nfa = Nfa::from_regex(&pattern).unwrap();
            let budget = Budget::unlimited();
            let mut subsets = Subsets::new(&nfa, None, 3);
            let mut ids = std::collections::HashMap::new();
            for seeds in picks.iter().chain(&picks) {
                let seeds: Vec<StateId> = seeds
                    .iter()
                    .map(|&pick| StateId::from_index(pick % nfa.n_states()))
                    .collect();
                let id = subsets.intern(&seeds, &budget).unwrap();
                let closure = closure_oracle(&nfa, &seeds);
                prop_assert_eq!(subsets.get(id), closure.as_slice(), "{} {:?}", pattern, seeds);
                prop_assert_eq!(*ids.entry(closure).or_insert(id), id);
            }
            prop_assert_eq!(subsets.len(), ids.len());
        }
    }

    #[test]
    fn every_seed_set_gives_its_closure_cached_or_not() {
        let nfa = Nfa::from_regex("(?:[ab]{0,3}c|[bc]d?)*a(?:|b)[abc]{2}").unwrap();
        let budget = Budget::unlimited();
        let mut subsets = Subsets::new(&nfa, None, 4);
        let states: Vec<StateId> = (0..nfa.n_states()).map(StateId::from_index).collect();
        // Every pair, twice: the second round is answered by the cache where it kept them.
        for _round in 0..2 {
            for (idx, &first) in states.iter().enumerate() {
                for &second in &states[idx..] {
                    let id = subsets.intern(&[second, first, second], &budget).unwrap();
                    let closure = closure_oracle(&nfa, &[first, second]);
                    assert_eq!(subsets.get(id), closure.as_slice(), "{first:?} {second:?}");
                }
            }
            assert!(subsets.seed_cache_bytes() <= subsets.sets.bytes());
            // Past `SEED_CACHE_FROM` subsets: the cache answered some of the second round.
            assert!(subsets.len() > super::SEED_CACHE_FROM && subsets.seen_seeds.len() > 0);
        }
    }

    #[test]
    fn growth_is_charged_before_it_happens() {
        let nfa = Nfa::from_regex("[ab]{0,300}").unwrap();
        let budget = Budget::unlimited().with_max_memory(2_000);
        let mut subsets = Subsets::new(&nfa, None, 3);
        let res = subsets.intern(&[nfa.start()], &budget);
        assert!(matches!(res, Err(BudgetError::TooMuchMemory { limit: 2_000, .. })), "{res:?}");
    }
}
