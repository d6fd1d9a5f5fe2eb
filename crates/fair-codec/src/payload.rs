//! The payload of a FAIR value: a [`Graph`] mirrored as flat integer sequences for `postcard`.
//!
//! # Overview
//! [`Payload`] is the wire form of version 1, field by field in this order (postcard: every
//! integer a LEB128 varint, every sequence a varint length then its items):
//! - `start`: the start state.
//! - `states`: one word per state, `2 × (number of moves) + (1 if accepting)`.
//! - `moves`: `(label, target)` pairs, state by state in order. Labels are indices into a
//!   table, numbered by first use, so a label shared by many moves (`\w` in `\w{20}`) is
//!   stored once.
//! - `labels`: the number of ranges of each label of the table.
//! - `ranges`: `(skip, extra)` pairs, label by label: in *rank* space (scalar values counted
//!   without the surrogates), a range starts `skip` ranks after the earliest start the
//!   previous range allows (rank 0 for the first, two past the previous end after that) and
//!   spans `extra` more ranks. Small numbers, so mostly one byte each.
//!
//! # Invariants
//! - Decoding never trusts a length prefix: sequences grow with the items actually read
//!   (each takes at least one byte), so memory is a small multiple of the input. Counts are
//!   checked against [`GraphLimits`] before any label is built, including the label ranges
//!   summed over all moves: sharing labels cannot amplify a small value into a huge graph.
//! - Ranges decode to canonical character sets by construction (sorted, disjoint,
//!   non-adjacent, the surrogate gap included); only a range past U+10FFFF is an error.
//! - The encoding is canonical: labels are numbered by first use and never repeated, and
//!   decoding rejects anything else, so a decoded graph re-encodes to the same bytes.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::marker::PhantomData;

use langcore::StateId;
use langcore::alphabet::CharSet;
use langcore::graph::{Graph, GraphLimits, GraphState};
use serde::de::{Deserializer, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};

use crate::error::DecodeError;

/// The first surrogate code point.
const SURROGATE_START: u32 = 0xD800;
/// The number of surrogate code points.
const SURROGATE_LEN: u32 = 0x800;
/// How many items a sequence reserves room for before reading them.
const PREALLOC_ITEMS: usize = 1024;

/// The wire form of a [`Graph`] (format version 1). Field order is wire order: never change
/// it, add a format version instead.
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Payload {
    start: u32,
    #[serde(deserialize_with = "read_seq")]
    states: Vec<u32>,
    #[serde(deserialize_with = "read_seq")]
    moves: Vec<(u32, u32)>,
    #[serde(deserialize_with = "read_seq")]
    labels: Vec<u32>,
    #[serde(deserialize_with = "read_seq")]
    ranges: Vec<(u32, u32)>,
}

impl Payload {
    /// The payload of `graph`.
    ///
    /// # Panics
    /// When a state has 2^31 moves or more, or the graph 2^32 distinct labels or more: such a
    /// graph would take well over 64 GiB of memory.
    pub(crate) fn from_graph(graph: &Graph) -> Payload {
        const TOO_BIG: &str = "graphs this large do not fit in memory";
        let mut payload = Payload {
            start: index_u32(graph.start()),
            states: Vec::with_capacity(graph.n_states()),
            moves: Vec::with_capacity(graph.n_moves()),
            labels: Vec::new(),
            ranges: Vec::new(),
        };
        let mut label_ids: HashMap<&CharSet, u32> = HashMap::new();
        for state in graph.states() {
            let n_moves = u32::try_from(state.moves.len()).ok().filter(|&n| n < 1 << 31);
            payload.states.push(2 * n_moves.expect(TOO_BIG) + u32::from(state.accepting));
            for (label, target) in &state.moves {
                let next_id = u32::try_from(label_ids.len()).expect(TOO_BIG);
                let label_id = *label_ids.entry(label).or_insert_with(|| {
                    payload.labels.push(push_ranges(&mut payload.ranges, label));
                    next_id
                });
                payload.moves.push((label_id, index_u32(*target)));
            }
        }
        payload
    }

    /// The graph of this payload, checked against `limits` before anything is built.
    ///
    /// # Errors
    /// The first check that fails: inconsistent counts, a limit, a label out of order or
    /// repeated, a range past U+10FFFF, then [`Graph::new`]'s checks.
    pub(crate) fn to_graph(&self, limits: &GraphLimits) -> Result<Graph, DecodeError> {
        let n_moves_claimed: u64 = self.states.iter().map(|&word| u64::from(word >> 1)).sum();
        if n_moves_claimed != self.moves.len() as u64 {
            return Err(DecodeError::malformed("the states' move counts do not add up"));
        }
        let n_ranges_claimed: u64 = self.labels.iter().map(|&len| u64::from(len)).sum();
        if n_ranges_claimed != self.ranges.len() as u64 {
            return Err(DecodeError::malformed("the labels' range counts do not add up"));
        }
        // Labels must be numbered by first use; this also puts every index in range.
        let mut n_used: u32 = 0;
        let mut n_ranges: usize = 0;
        for &(label, _) in &self.moves {
            let Some(&len) = self.labels.get(label as usize) else {
                return Err(DecodeError::malformed("a move's label is not in the table"));
            };
            if label == n_used {
                n_used += 1;
            } else if label > n_used {
                return Err(DecodeError::malformed("labels are not numbered by first use"));
            }
            n_ranges = n_ranges.saturating_add(len as usize);
        }
        if n_used as usize != self.labels.len() {
            return Err(DecodeError::malformed("a label is never used"));
        }
        limits.check(self.states.len(), self.moves.len(), n_ranges)?;

        let table = self.label_table()?;
        let mut moves = self.moves.iter();
        let mut states = Vec::with_capacity(self.states.len());
        for &word in &self.states {
            let moves = moves.by_ref().take((word >> 1) as usize).map(|&(label, target)| {
                let target = state_id(target)?;
                Ok((table[label as usize].clone(), target))
            });
            let moves = moves.collect::<Result<_, DecodeError>>()?;
            states.push(GraphState { accepting: word & 1 == 1, moves });
        }
        Ok(Graph::new(state_id(self.start)?, states, limits)?)
    }

    /// The label table as character sets, each checked to be new.
    fn label_table(&self) -> Result<Vec<CharSet>, DecodeError> {
        let mut table = Vec::with_capacity(self.labels.len());
        let mut ranges = self.ranges.iter();
        for &len in &self.labels {
            table.push(read_ranges(ranges.by_ref().take(len as usize))?);
        }
        let mut seen = HashSet::with_capacity(table.len());
        if !table.iter().all(|label| seen.insert(label)) {
            return Err(DecodeError::malformed("a label is repeated"));
        }
        Ok(table)
    }
}

/// A state index as the payload stores it; state ids are below `u32::MAX`.
fn index_u32(id: StateId) -> u32 {
    id.index() as u32
}

/// The state id of a payload index; only `u32::MAX` is not one.
fn state_id(index: u32) -> Result<StateId, DecodeError> {
    StateId::try_from_index(index as usize)
        .ok_or_else(|| DecodeError::malformed("a state index is out of range"))
}

/// The rank of `c`: its index among all scalar values.
fn rank(c: char) -> u32 {
    let value = u32::from(c);
    if value < SURROGATE_START { value } else { value - SURROGATE_LEN }
}

/// The scalar value of rank `rank`, or `None` past U+10FFFF.
fn unrank(rank: u64) -> Option<char> {
    let rank = u32::try_from(rank).ok()?;
    let value = if rank < SURROGATE_START { rank } else { rank.checked_add(SURROGATE_LEN)? };
    char::from_u32(value)
}

/// Appends the `(skip, extra)` pairs of `label` and returns how many there are.
fn push_ranges(out: &mut Vec<(u32, u32)>, label: &CharSet) -> u32 {
    let mut earliest = 0;
    for &(lo, hi) in label.ranges() {
        let (lo, hi) = (rank(lo), rank(hi));
        out.push((lo - earliest, hi - lo));
        earliest = hi + 2;
    }
    // At most 556,032 ranges: they are disjoint and non-adjacent.
    label.ranges().len() as u32
}

/// The character set of `(skip, extra)` pairs.
fn read_ranges<'a>(pairs: impl Iterator<Item = &'a (u32, u32)>) -> Result<CharSet, DecodeError> {
    let mut earliest: u64 = 0;
    let mut ranges = Vec::new();
    for &(skip, extra) in pairs {
        let lo = earliest + u64::from(skip);
        let hi = lo + u64::from(extra);
        let range = unrank(lo).zip(unrank(hi));
        ranges.push(range.ok_or_else(|| DecodeError::malformed("a label goes past U+10FFFF"))?);
        earliest = hi + 2;
    }
    Ok(CharSet::from_ranges(ranges))
}

/// Deserializes a sequence without trusting its length prefix: room for at most
/// [`PREALLOC_ITEMS`] items is reserved up front, the rest grows with the items read.
fn read_seq<'de, D, T>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct SeqVisitor<T>(PhantomData<T>);

    impl<'de, T: Deserialize<'de>> Visitor<'de> for SeqVisitor<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a sequence")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(PREALLOC_ITEMS));
            while let Some(item) = seq.next_element()? {
                items.push(item);
            }
            Ok(items)
        }
    }

    deserializer.deserialize_seq(SeqVisitor(PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::DecodeErrorKind;
    use langcore::Dfa;

    fn payload_of(pattern: &str) -> Payload {
        Payload::from_graph(&Dfa::from_regex(pattern).unwrap().to_graph())
    }

    fn rejection(payload: &Payload) -> DecodeErrorKind {
        payload.to_graph(&GraphLimits::default()).unwrap_err().kind().clone()
    }

    #[test]
    fn labels_are_shared_and_ranges_are_deltas() {
        let payload = payload_of("[a-c][a-cx]z");
        assert_eq!(payload.states, [2, 2, 2, 1], "three states with one move, then accept");
        assert_eq!(payload.moves, [(0, 1), (1, 2), (2, 3)]);
        // [a-c] from rank 0; [a-cx]: a-c, then x 19 ranks after `e`, the earliest start; z.
        assert_eq!(payload.labels, [1, 2, 1]);
        assert_eq!(payload.ranges, [(97, 2), (97, 2), (19, 0), (122, 0)]);
        let shared = payload_of("\\w{20}");
        assert_eq!((shared.labels.len(), shared.moves.len()), (1, 20));
    }

    #[test]
    fn ranges_cross_the_surrogate_gap_in_rank_space() {
        let label = CharSet::from_ranges([('\u{D7FE}', '\u{E001}'), ('\u{10FFFF}', '\u{10FFFF}')]);
        let mut pairs = Vec::new();
        assert_eq!(push_ranges(&mut pairs, &label), 2);
        assert_eq!(pairs, [(0xD7FE, 3), (rank(char::MAX) - (0xD7FE + 3 + 2), 0)]);
        assert_eq!(read_ranges(pairs.iter()).unwrap(), label);
        let full = CharSet::full();
        pairs.clear();
        push_ranges(&mut pairs, &full);
        assert_eq!(pairs, [(0, 1_112_063)]);
        assert!(read_ranges([(0, 1_112_064)].iter()).is_err());
        assert!(read_ranges([(0, 0), (1_112_062, 0)].iter()).is_err(), "past U+10FFFF");
        assert!(read_ranges([(u32::MAX, u32::MAX)].iter()).is_err());
    }

    #[test]
    fn inconsistent_payloads_are_malformed() {
        let good = payload_of("ab|cd");
        assert_eq!(
            good.to_graph(&GraphLimits::default()).unwrap(),
            Dfa::from_regex("ab|cd").unwrap().to_graph()
        );
        let malformed = |what| DecodeErrorKind::Malformed { what };
        let mut bad = payload_of("ab|cd");
        bad.states[0] += 2;
        assert_eq!(rejection(&bad), malformed("the states' move counts do not add up"));
        let mut bad = payload_of("ab|cd");
        bad.labels[0] += 1;
        assert_eq!(rejection(&bad), malformed("the labels' range counts do not add up"));
        let mut bad = payload_of("ab|cd");
        bad.moves[0].0 = 1;
        assert_eq!(rejection(&bad), malformed("labels are not numbered by first use"));
        let mut bad = payload_of("ab");
        bad.moves[1].0 = 2;
        assert_eq!(rejection(&bad), malformed("a move's label is not in the table"));
        let mut bad = payload_of("ab");
        bad.labels.push(1);
        bad.ranges.push((0, 0));
        assert_eq!(rejection(&bad), malformed("a label is never used"));
        let mut bad = payload_of("ab");
        bad.ranges[1] = bad.ranges[0];
        assert_eq!(rejection(&bad), malformed("a label is repeated"));
        let mut bad = payload_of("ab");
        bad.moves[0].1 = u32::MAX;
        assert_eq!(rejection(&bad), malformed("a state index is out of range"));
    }

    #[test]
    fn shared_labels_count_once_per_move_against_the_limits() {
        let payload = payload_of("\\w{20}");
        let n_ranges = payload.ranges.len() * 20;
        let limits = GraphLimits::default().with_max_ranges(n_ranges - 1);
        let expected =
            langcore::graph::GraphError::TooManyRanges { given: n_ranges, limit: n_ranges - 1 };
        assert_eq!(
            payload.to_graph(&limits).unwrap_err().kind(),
            &DecodeErrorKind::Automaton(expected)
        );
        assert!(payload.to_graph(&limits.with_max_ranges(n_ranges)).is_ok());
    }
}
