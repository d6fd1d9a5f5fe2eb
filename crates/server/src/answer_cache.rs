//! The cache of answers: the success body of a question about terms the server has
//! answered, so that a request repeating it (the same question about the same terms under
//! the same limits, in the same output dialect) is answered with no engine work, not even
//! the product of two cached languages that an inclusion asks for.
//!
//! # Overview
//! - [`AnswerKey`]: the question, the output dialect and the [`TermKey`] of each term, in
//!   order (the limits are part of each).
//! - [`AnswerCache`]: the bounded cache of `term_cache.rs` from keys to the answers' JSON
//!   bodies. `--answer-cache` sets its number of entries (0: off); it holds at most a
//!   sixteenth of `--max-memory-mb` ([`answer_cache_bytes`]).
//!
//! # Invariants
//! A cached body is, byte for byte, the body a new run would write: the runner remembers
//! only questions whose answer is a function of their terms and the output dialect
//! (`runner::run_remembered`), only successes, and the key holds the limits, so a caller
//! with smaller limits never gets an answer it could not have computed. The deadline is
//! not in the key: an answer found within one deadline is the answer within any other.

use actix_web::web::Bytes;
use langcore::Dialect;

use crate::term_cache::{Cache, Key, TermKey, Value};

/// The share of `--max-memory-mb` the answer cache may hold: answers are small (a boolean,
/// a count), so a sixteenth holds many.
const MEMORY_SHARE: usize = 16;

/// What a remembered answer depends on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct AnswerKey {
    /// The question: the address of the handler's function, one per question (two functions
    /// of the same code, which the compiler may merge, answer alike).
    pub(crate) question: usize,
    /// The dialect of pattern output.
    pub(crate) dialect: Dialect,
    pub(crate) terms: Box<[TermKey]>,
}

impl Key for AnswerKey {
    fn entry_bytes(&self) -> usize {
        size_of::<AnswerKey>() + self.terms.iter().map(TermKey::bytes).sum::<usize>()
    }

    fn count_lookup(hit: bool) {
        crate::metrics::answer_cache_lookup(hit);
    }
}

/// An answer's body, final when it is kept.
impl Value for Bytes {
    fn heap_bytes(&self) -> usize {
        self.len()
    }

    fn is_built(&self) -> bool {
        true
    }
}

/// The cache of answers' bodies.
pub(crate) type AnswerCache = Cache<AnswerKey, Bytes>;

/// The bytes the answer cache may hold, out of the server's `max_memory` bytes.
pub(crate) fn answer_cache_bytes(max_memory: usize) -> usize {
    max_memory / MEMORY_SHARE
}

#[cfg(test)]
mod tests {
    use langcore::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES};

    use super::*;
    use crate::term_cache::TermSource;

    fn term(pattern: &str) -> TermKey {
        TermKey {
            source: TermSource::Pattern(Dialect::Rust),
            text: pattern.to_owned(),
            max_states: DEFAULT_MAX_STATES,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }

    fn key(question: usize, terms: &[&str]) -> AnswerKey {
        AnswerKey {
            question,
            dialect: Dialect::Rust,
            terms: terms.iter().map(|t| term(t)).collect(),
        }
    }

    #[test]
    fn an_answer_is_found_again_under_its_whole_key_only() {
        let cache = AnswerCache::new(64, 1 << 20);
        let body =
            Bytes::from_static(br#"{"success":true,"data":{"type":"boolean","value":true}}"#);
        cache.keep(&key(1, &["a+", "[ab]+"]), &body);
        assert_eq!(cache.get(&key(1, &["a+", "[ab]+"])), Some(body));
        // Another question, the terms in another order, another dialect, other limits.
        let others = [
            key(2, &["a+", "[ab]+"]),
            key(1, &["[ab]+", "a+"]),
            key(1, &["a+"]),
            AnswerKey { dialect: Dialect::Python, ..key(1, &["a+", "[ab]+"]) },
            AnswerKey {
                terms: [term("a+"), TermKey { max_states: 10, ..term("[ab]+") }].into(),
                ..key(1, &["a+", "[ab]+"])
            },
        ];
        for other in others {
            assert!(cache.get(&other).is_none(), "{other:?}");
        }
    }

    #[test]
    fn the_answer_cache_holds_a_share_of_the_memory_limit() {
        assert_eq!(answer_cache_bytes(128 << 20), 8 << 20);
        // A body over a shard's share of the bytes is not kept.
        let cache = AnswerCache::new(1, 100);
        cache.keep(&key(1, &["a"]), &Bytes::from(vec![b'x'; 200]));
        assert!(cache.get(&key(1, &["a"])).is_none());
    }
}
