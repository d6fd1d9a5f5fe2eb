//! The cache of compiled terms: the language of a pattern or FAIR value the server has
//! seen, so that a request repeating it skips parsing (and, once a question built it, the
//! automaton); and the bounded cache it is made of, which the answer cache shares
//! (`answer_cache.rs`).
//!
//! # Overview
//! - [`TermKey`]: what a term's language depends on: its kind (a pattern and its dialect, or
//!   a FAIR value), its text, and the limits it is built under (states, memory).
//! - [`Cache`]: [`Cache::get`] a value by key, [`Cache::keep`] one after a request used it;
//!   [`TermCache`] is the cache of [`Language`]s by [`TermKey`]. `--term-cache` sets its
//!   number of entries (0: off).
//!
//! # Algorithm
//! Sharded by the key's hash, each shard a `RwLock`ed table: a hit takes a read lock only, so
//! workers asking for the same term never wait for each other. A key is hashed once per
//! lookup (foldhash, seeded per process): the same hash picks the shard and the slot. Eviction is CLOCK (second
//! chance): a hit sets the entry's `referenced` bit (written only when unset, so a hot entry
//! costs no shared write), and a shard over its bounds evicts the first entry whose bit is
//! clear, clearing bits as it passes. Each shard holds at most its share of the entries
//! and of the bytes; an entry is charged [`Language::heap_bytes`] plus its key, again when a
//! question has built its automaton since, and one larger than a shard's share is not kept.
//!
//! # Invariants
//! A cached language answers exactly as one built anew: languages are values, a key holds
//! everything the build depends on, and the limits are part of the key, so a caller with
//! smaller limits never gets an automaton it could not have built. The cache holds at most
//! its entries and the server's `--max-memory-mb`, the memory one engine step of a request
//! may take. Only successes are cached; a failed parse is parsed again.

use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{PoisonError, RwLock};

use foldhash::fast::RandomState;
use hashbrown::HashTable;
use langcore::{Dialect, Language};

/// Shards of a cache of at least this many entries; fewer entries, one shard per entry.
const SHARDS: usize = 16;

/// What a cached language was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TermSource {
    /// A pattern in its dialect.
    Pattern(Dialect),
    /// A FAIR value (the text, signature included).
    Fair,
}

/// Everything a term's language depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct TermKey {
    pub(crate) source: TermSource,
    pub(crate) text: String,
    /// The budget's limits: a language built under larger ones may hold an automaton that
    /// smaller ones refuse.
    pub(crate) max_states: usize,
    pub(crate) max_memory: usize,
}

impl TermKey {
    /// The bytes an entry under this key is charged beside its language.
    pub(crate) fn bytes(&self) -> usize {
        size_of::<Entry<TermKey, Language>>() + self.text.len()
    }
}

/// A key of a [`Cache`].
pub(crate) trait Key: Clone + Eq + Hash {
    /// The bytes an entry under this key is charged beside its value.
    fn entry_bytes(&self) -> usize;

    /// Counts a lookup under this kind of key, a hit or a miss (`metrics.rs`).
    fn count_lookup(hit: bool);
}

impl Key for TermKey {
    fn entry_bytes(&self) -> usize {
        self.bytes()
    }

    fn count_lookup(hit: bool) {
        crate::metrics::term_cache_lookup(hit);
    }
}

/// A value of a [`Cache`]: a cheap handle (cloning shares it) whose size it can tell.
pub(crate) trait Value: Clone {
    /// About how many bytes the value holds on the heap.
    fn heap_bytes(&self) -> usize;

    /// Whether the value has grown to its final size: a value kept before that is charged
    /// again once it has (a language whose automaton a question built since).
    fn is_built(&self) -> bool;
}

impl Value for Language {
    fn heap_bytes(&self) -> usize {
        Language::heap_bytes(self)
    }

    fn is_built(&self) -> bool {
        Language::is_built(self)
    }
}

/// The cache of compiled terms.
pub(crate) type TermCache = Cache<TermKey, Language>;

/// A cached value, its key and what it is charged.
#[derive(Debug)]
struct Entry<K, V> {
    key: K,
    /// The key's hash, kept for the table to grow without hashing again.
    hash: u64,
    value: V,
    bytes: usize,
    /// Whether it was built when it was charged ([`Value::is_built`]): building grows it.
    built: bool,
    /// Used since the eviction hand last passed.
    referenced: AtomicBool,
}

#[derive(Debug)]
struct Shard<K, V> {
    entries: HashTable<Entry<K, V>>,
    bytes: usize,
}

impl<K, V> Default for Shard<K, V> {
    fn default() -> Self {
        Shard { entries: HashTable::new(), bytes: 0 }
    }
}

impl<K: Key, V> Shard<K, V> {
    /// The entry under `key`, whose hash is `hash`.
    fn get(&self, hash: u64, key: &K) -> Option<&Entry<K, V>> {
        self.entries.find(hash, |entry| entry.key == *key)
    }

    /// Removes the entry under `key`, whose hash is `hash`, if any.
    fn remove(&mut self, hash: u64, key: &K) {
        if let Ok(found) = self.entries.find_entry(hash, |entry| entry.key == *key) {
            self.bytes -= found.remove().0.bytes;
        }
    }

    /// Evicts entries other than `keep` until the shard is within `max_entries` and
    /// `max_bytes`, by CLOCK (see the module docs).
    fn evict(&mut self, keep: &K, max_entries: usize, max_bytes: usize) {
        while self.entries.len() > max_entries || self.bytes > max_bytes {
            let mut candidates = self.entries.iter().filter(|entry| entry.key != *keep);
            let victim = candidates
                .find(|entry| !entry.referenced.swap(false, Ordering::Relaxed))
                .or_else(|| self.entries.iter().find(|entry| entry.key != *keep))
                .map(|entry| (entry.hash, entry.key.clone()));
            let Some((hash, victim)) = victim else { return };
            self.remove(hash, &victim);
        }
    }
}

/// A bounded, sharded cache of values by key; see the module docs.
#[derive(Debug)]
pub(crate) struct Cache<K, V> {
    shards: Box<[RwLock<Shard<K, V>>]>,
    /// Each shard's share of the entries and of the bytes.
    max_entries: usize,
    max_bytes: usize,
    hasher: RandomState,
}

impl<K: Key, V: Value> Cache<K, V> {
    /// A cache of at most `max_entries` values taking at most `max_bytes` (0 entries:
    /// off, every lookup misses).
    pub(crate) fn new(max_entries: usize, max_bytes: usize) -> Cache<K, V> {
        let n_shards = max_entries.min(SHARDS);
        Cache {
            shards: (0..n_shards).map(|_| RwLock::default()).collect(),
            max_entries: max_entries.div_ceil(n_shards.max(1)),
            max_bytes: max_bytes / n_shards.max(1),
            hasher: RandomState::default(),
        }
    }

    /// The shard of `key`, and the key's hash.
    fn shard(&self, key: &K) -> Option<(&RwLock<Shard<K, V>>, u64)> {
        let n_shards = self.shards.len();
        if n_shards == 0 {
            return None;
        }
        let hash = self.hasher.hash_one(key);
        // The table picks a slot by the low bits of the hash: the shard by higher ones. The
        // shard count is at most 16: the conversion is exact.
        Some((&self.shards[((hash >> 32) % n_shards as u64) as usize], hash))
    }

    /// The value cached under `key`, if any.
    pub(crate) fn get(&self, key: &K) -> Option<V> {
        let (shard, hash) = self.shard(key)?;
        let shard = shard.read().unwrap_or_else(PoisonError::into_inner);
        let entry = shard.get(hash, key);
        K::count_lookup(entry.is_some());
        let entry = entry?;
        if !entry.referenced.load(Ordering::Relaxed) {
            entry.referenced.store(true, Ordering::Relaxed);
        }
        Some(entry.value.clone())
    }

    /// Keeps `value` under `key` after a request used it: caches it, or charges an entry
    /// again once it is built ([`Value::is_built`]); evicts to stay within the bounds. A
    /// value larger than a shard's share of the bytes is not kept (and replaces none).
    pub(crate) fn keep(&self, key: &K, value: &V) {
        let Some((shard, hash)) = self.shard(key) else { return };
        {
            let shard = shard.read().unwrap_or_else(PoisonError::into_inner);
            if shard.get(hash, key).is_some_and(|entry| entry.built || !value.is_built()) {
                return;
            }
        }
        let built = value.is_built();
        let bytes = key.entry_bytes().saturating_add(value.heap_bytes());
        let mut shard = shard.write().unwrap_or_else(PoisonError::into_inner);
        shard.remove(hash, key);
        if bytes > self.max_bytes {
            return;
        }
        let entry = Entry {
            key: key.clone(),
            hash,
            value: value.clone(),
            bytes,
            built,
            referenced: AtomicBool::new(false),
        };
        shard.entries.insert_unique(hash, entry, |entry| entry.hash);
        shard.bytes += bytes;
        shard.evict(key, self.max_entries, self.max_bytes);
    }

    /// How many values the cache holds, and the bytes they are charged.
    #[cfg(test)]
    fn usage(&self) -> (usize, usize) {
        self.shards.iter().fold((0, 0), |(entries, bytes), shard| {
            let shard = shard.read().unwrap_or_else(PoisonError::into_inner);
            (entries + shard.entries.len(), bytes + shard.bytes)
        })
    }
}

#[cfg(test)]
mod tests {
    use langcore::{Budget, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES};

    use super::*;

    fn key(pattern: &str) -> TermKey {
        TermKey {
            source: TermSource::Pattern(Dialect::Rust),
            text: pattern.to_owned(),
            max_states: DEFAULT_MAX_STATES,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }

    fn language(pattern: &str) -> Language {
        Language::from_regex(pattern).unwrap()
    }

    #[test]
    fn a_kept_language_is_found_again_under_its_whole_key_only() {
        let cache = TermCache::new(64, 1 << 20);
        let abc = language("(abc|de){2}");
        assert!(cache.get(&key("(abc|de){2}")).is_none());
        cache.keep(&key("(abc|de){2}"), &abc);
        let hit = cache.get(&key("(abc|de){2}")).unwrap();
        assert!(hit.is_equivalent(&abc, &Budget::default()).unwrap());
        // Another dialect, another kind, other limits: other keys.
        let others = [
            TermKey { source: TermSource::Pattern(Dialect::Python), ..key("(abc|de){2}") },
            TermKey { source: TermSource::Fair, ..key("(abc|de){2}") },
            TermKey { max_states: 10, ..key("(abc|de){2}") },
            TermKey { max_memory: 1 << 10, ..key("(abc|de){2}") },
        ];
        for other in others {
            assert!(cache.get(&other).is_none(), "{other:?}");
        }
    }

    #[test]
    fn an_entry_is_charged_again_once_its_automaton_is_built() {
        let cache = TermCache::new(64, 1 << 20);
        let words = language("[a-z]{2,8}@[a-z]+");
        cache.keep(&key("w"), &words);
        let (_, parsed) = cache.usage();
        words.to_dfa(&Budget::default()).unwrap();
        cache.keep(&key("w"), &words);
        let (entries, built) = cache.usage();
        assert_eq!(entries, 1);
        assert_eq!(built, key("w").bytes() + words.heap_bytes());
        assert!(built > parsed, "{built} <= {parsed}");
    }

    #[test]
    fn the_cache_stays_within_its_entries_and_bytes() {
        let cache = TermCache::new(32, 1 << 20);
        for idx in 0..200 {
            cache.keep(&key(&format!("a{{{idx}}}")), &language(&format!("a{{{idx}}}")));
            let (entries, bytes) = cache.usage();
            assert!(entries <= 32 && bytes <= 1 << 20, "{entries} entries, {bytes} bytes");
        }
        // A language over a shard's share of the bytes is not kept.
        let small = TermCache::new(1, 2_000);
        let huge = language("\\w{3}");
        assert!(huge.heap_bytes() > 2_000);
        small.keep(&key("\\w{3}"), &huge);
        assert_eq!(small.usage(), (0, 0));
    }

    #[test]
    fn eviction_spares_entries_in_use() {
        // One shard of two entries.
        let one_shard = TermCache {
            shards: vec![RwLock::default()].into(),
            max_entries: 2,
            max_bytes: 1 << 20,
            hasher: RandomState::default(),
        };
        one_shard.keep(&key("a"), &language("a"));
        one_shard.keep(&key("b"), &language("b"));
        // `a` is used; `c` evicts `b`, the entry no one asked for since.
        assert!(one_shard.get(&key("a")).is_some());
        one_shard.keep(&key("c"), &language("c"));
        assert!(one_shard.get(&key("a")).is_some());
        assert!(one_shard.get(&key("b")).is_none());
        assert!(one_shard.get(&key("c")).is_some());
    }

    #[test]
    fn a_cache_of_no_entries_is_off() {
        let cache = TermCache::new(0, 1 << 20);
        cache.keep(&key("a"), &language("a"));
        assert!(cache.get(&key("a")).is_none());
        assert_eq!(cache.usage(), (0, 0));
    }
}
