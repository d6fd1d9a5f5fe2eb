//! DFA state minimization: finds which states of a complete DFA accept the same language.
//!
//! # Algorithm
//! Hopcroft's partition refinement (J. Hopcroft, "An n log n algorithm for minimizing states
//! in a finite automaton", 1971), as re-described by T. Knuutila ("Re-describing an algorithm
//! by Hopcroft", TCS 250, 2001), on the refinable partition of A. Valmari and P. Lehtinen
//! ("Efficient minimization of DFAs with partial transition functions", STACS 2008).
//!
//! The partition starts as {rejecting, accepting}. A splitter `(B, c)` cuts every block into
//! the states whose `c`-successor lies in `B` and the rest. When a block splits, the smaller
//! half becomes a new block and is queued with every class: if the old block was queued, its
//! remainder stays queued; if not, the smaller half suffices, because the split by the larger
//! half is the difference of two splits already accounted for. For a fixed class, a state is
//! scanned again only as part of a splitter at most half the size of the previous one, so the
//! run takes O(k·n·log n) time and O(k·n) memory for n states and k classes.
//!
//! Weak spots:
//! - The inverse transition table costs 12 bytes per transition, and the factor k is paid in
//!   full even when most transitions lead to a dead state. Valmari and Lehtinen's variant,
//!   which also refines the transitions, runs in O(m·log n) for m defined transitions; it
//!   pays off only for partial DFAs, and ours are complete.
//! - A splitter `(B, c)` costs O(|B|) even when few states of `B` have `c`-predecessors.
//! - The log n factor is real, not an artefact of the analysis: unary cycles built from de
//!   Bruijn and Sturmian words reach it (Berstel and Carton, 2004; Castiglione, Restivo and
//!   Sciortino, 2008).
//! - The clock is read at the start and once per [`WORK_PER_TIME_CHECK`] units of scanning
//!   (building the inverse table counts one unit per transition), so a single target with n
//!   predecessors can stretch the gap between reads to O(n); building the inverse table
//!   (O(k·n)) runs between two reads.
//!
//! # Invariants
//! - `elements` is a permutation of the states; block `b` occupies
//!   `elements[start[b]..end[b]]`, `position` inverts `elements`, and `block_of[s]` is the
//!   block whose range holds `position[s]`.
//! - The marked states of block `b` are `elements[start[b]..marked_end[b]]`. Between splitter
//!   steps no state is marked and `touched` is empty.
//! - Block ids are handed out in creation order, so they are always exactly `0..n_blocks` and
//!   `block_of` is the result as it stands.
//! - Hopcroft's invariant, for each class `c`: every block lies inside or outside the
//!   `c`-predecessors of the whole state set and of every splitter already processed with `c`
//!   (it is *stable* against them), and every block is built from those sets and the blocks
//!   queued with `c` by unions and differences. Stability against `A` and `B` implies
//!   stability against `A \ B`, because each state has exactly one `c`-successor, so once the
//!   worklist is empty every block is stable against every block, which makes the partition
//!   the Myhill-Nerode equivalence.
//! - Every state id, position and block id is below `n_states`, which is checked to fit in a
//!   `u32`, so the `u32` storage never truncates.

use crate::budget::{Budget, BudgetError, Operation, Ticker};
use crate::state_id::StateId;

/// Units of work (splitter states scanned plus predecessors collected) between two reads of
/// the clock: often enough to stop within microseconds of the deadline, rarely enough that the
/// clock costs well under 1% of the run.
const WORK_PER_TIME_CHECK: usize = 4096;

/// Computes the Myhill-Nerode equivalence of a complete DFA's states.
///
/// `table[s * n_classes + c]` is the target of state `s` on class `c` (the DFA's own table,
/// not a copy), and `accepting[s]`
/// says whether `s` accepts; the number of states is `accepting.len()`. Returns a block id
/// per state: two states share an id iff they accept the same language, and the ids are
/// exactly `0..n_blocks`, in no particular order.
///
/// # Errors
/// [`BudgetError::Timeout`] once the deadline of `budget` has passed.
///
/// # Panics
/// When the input is not a complete DFA: `n_classes` is 0 (with states present),
/// `table.len()` is not `accepting.len() * n_classes`, a target is out of range, or there
/// are more than `u32::MAX` states.
pub(crate) fn equivalence_classes(
    n_classes: usize,
    table: &[StateId],
    accepting: &[bool],
    budget: &Budget,
) -> Result<Vec<u32>, BudgetError> {
    let n_states = accepting.len();
    if n_states == 0 {
        return Ok(Vec::new());
    }
    assert!(n_classes >= 1, "a DFA with states needs at least one character class");
    assert_eq!(
        Some(table.len()),
        n_states.checked_mul(n_classes),
        "the transition table must have one row of n_classes targets per state"
    );
    let state_count = u32::try_from(n_states).expect("state ids must fit in u32");
    let mut ticker = Ticker::new(budget, Operation::Minimize, WORK_PER_TIME_CHECK);
    ticker.tick(0)?;

    let predecessors = Predecessors::new(n_classes, table, state_count);
    let mut partition = Partition::by_acceptance(accepting, state_count);
    ticker.tick(table.len())?;

    // With both blocks present, the smaller one is the only splitter needed: splitting by the
    // whole state set refines nothing, and the larger block's split is the difference.
    // Sized for the first splitters and their first splits: a small DFA never regrows them.
    let mut worklist: Vec<(u32, usize)> = Vec::with_capacity(2 * n_classes);
    if let Some(smaller_block) = partition.smaller_of_two_blocks() {
        worklist.extend((0..n_classes).map(|class| (smaller_block, class)));
    }

    // Collected first and marked afterwards: marking permutes states inside their blocks,
    // which would disturb a scan of the splitter block if it were marked during the scan.
    let mut splitter_predecessors: Vec<u32> = Vec::with_capacity(n_states);
    while let Some((splitter_block, class)) = worklist.pop() {
        splitter_predecessors.clear();
        for &target in partition.states_of(splitter_block) {
            let sources = predecessors.of(class, target);
            splitter_predecessors.extend_from_slice(sources);
            ticker.tick(1 + sources.len())?;
        }
        for &state in &splitter_predecessors {
            partition.mark(state);
        }
        partition.split_marked(|new_block| {
            worklist.extend((0..n_classes).map(|class| (new_block, class)));
        });
    }
    Ok(partition.block_of)
}

/// The inverse transition relation in CSR form, built once so that a splitter visits only
/// the transitions that enter it.
struct Predecessors {
    n_states: usize,
    /// For `slot = class * n_states + target`, the predecessors are
    /// `sources[offsets[slot]..offsets[slot + 1]]`.
    offsets: Vec<usize>,
    /// Every state appears exactly once per class, since each state has one target per class.
    sources: Vec<u32>,
}

impl Predecessors {
    /// Inverts `table` by a counting sort on `(class, target)`.
    fn new(n_classes: usize, table: &[StateId], state_count: u32) -> Self {
        let n_states = state_count as usize;
        let n_transitions = table.len();
        let mut offsets = vec![0; n_transitions + 1];
        for row in table.chunks_exact(n_classes) {
            for (class, &target) in row.iter().enumerate() {
                assert!(target.index() < n_states, "transition target {target:?} is not a state");
                offsets[class * n_states + target.index()] += 1;
            }
        }
        // Running sums turn each count into the end of its slot's range; the fill below
        // moves each entry back to the start of its range.
        let mut running_total = 0;
        for offset in &mut offsets {
            running_total += *offset;
            *offset = running_total;
        }
        let mut sources = vec![0; n_transitions];
        for (state, row) in (0..state_count).zip(table.chunks_exact(n_classes)) {
            for (class, &target) in row.iter().enumerate() {
                let slot = class * n_states + target.index();
                offsets[slot] -= 1;
                sources[offsets[slot]] = state;
            }
        }
        Predecessors { n_states, offsets, sources }
    }

    /// The states that move to `target` on `class`.
    fn of(&self, class: usize, target: u32) -> &[u32] {
        let slot = class * self.n_states + target as usize;
        &self.sources[self.offsets[slot]..self.offsets[slot + 1]]
    }
}

/// A partition of the states into contiguous blocks of one array, so that marking a state and
/// splitting a block cost O(1) per marked state.
struct Partition {
    /// The states, grouped so that every block is one contiguous range.
    elements: Vec<u32>,
    /// Per state, its index in `elements`, so that it can be swapped in O(1).
    position: Vec<u32>,
    /// Per state, its block id: the result once refinement stops.
    block_of: Vec<u32>,
    /// Per block, the first index of its range in `elements`.
    start: Vec<u32>,
    /// Per block, one past the last index of its range in `elements`.
    end: Vec<u32>,
    /// Per block, one past its marked prefix, which starts at `start`.
    marked_end: Vec<u32>,
    /// Blocks with at least one marked state, each listed once.
    touched: Vec<u32>,
}

impl Partition {
    /// The initial partition: rejecting states, then accepting states, leaving out an empty
    /// block.
    fn by_acceptance(accepting: &[bool], state_count: u32) -> Self {
        let n_states = accepting.len();
        let states_where = |wanted: bool| {
            (0..state_count)
                .zip(accepting)
                .filter(move |&(_, &is_accepting)| is_accepting == wanted)
        };
        let mut elements = Vec::with_capacity(n_states);
        elements.extend(states_where(false).map(|(state, _)| state));
        let n_rejecting = elements.len() as u32;
        elements.extend(states_where(true).map(|(state, _)| state));

        let mut position = vec![0; n_states];
        for (pos, &state) in (0..state_count).zip(&elements) {
            position[state as usize] = pos;
        }
        let mut partition = Partition {
            elements,
            position,
            block_of: vec![0; n_states],
            // At most one block per state: sized once, never regrown.
            start: Vec::with_capacity(n_states),
            end: Vec::with_capacity(n_states),
            marked_end: Vec::with_capacity(n_states),
            touched: Vec::with_capacity(n_states),
        };
        for (block_start, block_end) in [(0, n_rejecting), (n_rejecting, state_count)] {
            if block_start < block_end {
                partition.push_block(block_start, block_end);
            }
        }
        partition
    }

    /// The smaller block (either on a tie) when there are exactly two, as at the start with
    /// both accepting and rejecting states.
    fn smaller_of_two_blocks(&self) -> Option<u32> {
        if self.start.len() != 2 {
            return None;
        }
        let size = |block: usize| self.end[block] - self.start[block];
        Some(if size(0) <= size(1) { 0 } else { 1 })
    }

    /// The states of `block`, in no particular order.
    fn states_of(&self, block: u32) -> &[u32] {
        let block = block as usize;
        &self.elements[self.start[block] as usize..self.end[block] as usize]
    }

    /// Makes `elements[block_start..block_end]` a new block, relabelling its states, and
    /// returns its id.
    fn push_block(&mut self, block_start: u32, block_end: u32) -> u32 {
        let new_block = self.start.len() as u32;
        self.start.push(block_start);
        self.end.push(block_end);
        self.marked_end.push(block_start);
        for &state in &self.elements[block_start as usize..block_end as usize] {
            self.block_of[state as usize] = new_block;
        }
        new_block
    }

    /// Marks `state` by swapping it into the marked prefix of its block; marking a marked
    /// state does nothing.
    fn mark(&mut self, state: u32) {
        let block_id = self.block_of[state as usize];
        let block = block_id as usize;
        let state_pos = self.position[state as usize];
        let boundary = self.marked_end[block];
        if state_pos < boundary {
            return;
        }
        if boundary == self.start[block] {
            self.touched.push(block_id);
        }
        let displaced = self.elements[boundary as usize];
        self.elements.swap(state_pos as usize, boundary as usize);
        self.position[state as usize] = boundary;
        self.position[displaced as usize] = state_pos;
        self.marked_end[block] = boundary + 1;
    }

    /// Splits every touched block into its marked and unmarked states, unmarks everything, and
    /// reports each new block, which is always the smaller half. Costs O(marked states): the
    /// relabelled half is never larger than the marked one.
    fn split_marked(&mut self, mut on_new_block: impl FnMut(u32)) {
        while let Some(block) = self.touched.pop() {
            let block = block as usize;
            let (block_start, boundary, block_end) =
                (self.start[block], self.marked_end[block], self.end[block]);
            self.marked_end[block] = block_start;
            if boundary == block_end {
                continue;
            }
            let new_block = if boundary - block_start <= block_end - boundary {
                self.start[block] = boundary;
                self.marked_end[block] = boundary;
                self.push_block(block_start, boundary)
            } else {
                self.end[block] = boundary;
                self.push_block(boundary, block_end)
            };
            on_new_block(new_block);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;
    use proptest::prelude::*;
    use std::collections::{HashMap, HashSet};
    use std::time::Instant;

    /// A complete DFA as the function takes it: class count, transition table, accepting flags.
    type Dfa = (usize, Vec<u32>, Vec<bool>);

    /// The table of targets as the function takes it.
    fn targets(table: &[u32]) -> Vec<StateId> {
        table.iter().map(|&target| StateId::from_index(target as usize)).collect()
    }

    fn minimize(n_classes: usize, table: &[u32], accepting: &[bool]) -> Vec<u32> {
        let table = targets(table);
        let block_ids = equivalence_classes(n_classes, &table, accepting, &Budget::unlimited())
            .expect("an unlimited budget never runs out");
        assert_eq!(block_ids.len(), accepting.len());
        let distinct: HashSet<u32> = block_ids.iter().copied().collect();
        assert!(block_ids.iter().all(|&id| (id as usize) < distinct.len()), "ids are not dense");
        block_ids
    }

    fn block_count(block_ids: &[u32]) -> usize {
        block_ids.iter().copied().collect::<HashSet<u32>>().len()
    }

    /// `same[i][j]`: whether states `i` and `j` share a block.
    fn same_block(block_ids: &[u32]) -> Vec<Vec<bool>> {
        block_ids.iter().map(|&i| block_ids.iter().map(|&j| i == j).collect()).collect()
    }

    /// Moore's refinement: split by (own block, block of each target) until nothing changes.
    fn moore(n_classes: usize, table: &[u32], accepting: &[bool]) -> Vec<u32> {
        let mut block_ids: Vec<u32> =
            accepting.iter().map(|&is_accepting| u32::from(is_accepting)).collect();
        loop {
            let mut ids_by_signature: HashMap<Vec<u32>, u32> = HashMap::new();
            let refined: Vec<u32> = table
                .chunks_exact(n_classes)
                .zip(&block_ids)
                .map(|(row, &own_block)| {
                    let mut signature = vec![own_block];
                    signature.extend(row.iter().map(|&target| block_ids[target as usize]));
                    let next_id = ids_by_signature.len() as u32;
                    *ids_by_signature.entry(signature).or_insert(next_id)
                })
                .collect();
            let stable = ids_by_signature.len() == block_count(&block_ids);
            block_ids = refined;
            if stable {
                return block_ids;
            }
        }
    }

    /// States are equivalent iff they accept the same strings of length at most `n_states`.
    /// `accepted[s]` holds the verdicts of `s` on all strings of one length, in lexicographic
    /// order, so the strings of length `len + 1` starting with class `c` reuse the verdicts of
    /// the `c`-target on length `len`.
    fn brute_force_same(n_classes: usize, table: &[u32], accepting: &[bool]) -> Vec<Vec<bool>> {
        let n_states = accepting.len();
        let mut accepted: Vec<Vec<bool>> = accepting.iter().map(|&a| vec![a]).collect();
        let mut same = vec![vec![true; n_states]; n_states];
        for len in 0..=n_states {
            for (i, row) in same.iter_mut().enumerate() {
                for (j, cell) in row.iter_mut().enumerate() {
                    *cell &= accepted[i] == accepted[j];
                }
            }
            if len == n_states {
                break;
            }
            accepted = table
                .chunks_exact(n_classes)
                .map(|row| {
                    let mut longer = Vec::with_capacity(accepted[0].len() * n_classes);
                    for &target in row {
                        longer.extend_from_slice(&accepted[target as usize]);
                    }
                    longer
                })
                .collect();
        }
        same
    }

    fn assert_matches_oracles(n_classes: usize, table: &[u32], accepting: &[bool]) {
        let block_ids = minimize(n_classes, table, accepting);
        let same = same_block(&block_ids);
        assert_eq!(same, same_block(&moore(n_classes, table, accepting)), "differs from Moore");
        assert_eq!(same, brute_force_same(n_classes, table, accepting), "differs from brute force");
    }

    /// Random complete DFAs: mostly minimal already, with scattered equivalences.
    fn random_dfa() -> impl Strategy<Value = Dfa> {
        (1..=12usize, 1..=3usize).prop_flat_map(|(n_states, n_classes)| {
            (
                Just(n_classes),
                vec(0..n_states as u32, n_states * n_classes),
                vec(any::<bool>(), n_states),
            )
        })
    }

    /// DFAs with many equivalent states: each state copies a state of a small base DFA (every
    /// base state at least once) and moves to any copy of the base target, so at most
    /// `n_base` blocks remain.
    fn redundant_dfa() -> impl Strategy<Value = Dfa> {
        (1..=4usize, 0..=8usize, 1..=3usize).prop_flat_map(|(n_base, n_extra, n_classes)| {
            let n_states = n_base + n_extra;
            let base_of = vec(0..n_base, n_extra)
                .prop_map(move |extra| (0..n_base).chain(extra).collect::<Vec<_>>())
                .prop_shuffle();
            (
                vec(0..n_base, n_base * n_classes),
                vec(any::<bool>(), n_base),
                base_of,
                vec(any::<prop::sample::Index>(), n_states * n_classes),
            )
                .prop_map(move |(base_table, base_accepting, base_of, picks)| {
                    let mut copies = vec![Vec::new(); n_base];
                    for (state, &base) in (0u32..).zip(&base_of) {
                        copies[base].push(state);
                    }
                    let table = (0..n_states * n_classes)
                        .map(|slot| {
                            let (state, class) = (slot / n_classes, slot % n_classes);
                            let base_target = base_table[base_of[state] * n_classes + class];
                            *picks[slot].get(&copies[base_target])
                        })
                        .collect();
                    let accepting = base_of.iter().map(|&base| base_accepting[base]).collect();
                    (n_classes, table, accepting)
                })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4096))]

        #[test]
        fn random_dfas_match_oracles((n_classes, table, accepting) in random_dfa()) {
            assert_matches_oracles(n_classes, &table, &accepting);
        }

        #[test]
        fn redundant_dfas_match_oracles((n_classes, table, accepting) in redundant_dfa()) {
            assert_matches_oracles(n_classes, &table, &accepting);
        }
    }

    /// Dragon book (Aho, Sethi, Ullman), the subset-construction DFA of `(a|b)*abb`:
    /// A..E = 0..4, classes a, b; only A and C are equivalent.
    #[test]
    fn dragon_book_abb() {
        let table = [1, 2, 1, 3, 1, 2, 1, 4, 1, 2];
        let accepting = [false, false, false, false, true];
        let block_ids = minimize(2, &table, &accepting);
        assert_eq!(block_count(&block_ids), 4);
        assert_eq!(block_ids[0], block_ids[2]);
    }

    /// Hopcroft, Motwani, Ullman, Figure 4.8: A..H = 0..7, classes 0, 1, accepting C.
    /// The minimal DFA has the five blocks {A, E}, {B, H}, {C}, {D, F}, {G}.
    #[test]
    fn hopcroft_motwani_ullman_example() {
        let table = [1, 5, 6, 2, 0, 2, 2, 6, 7, 5, 2, 6, 6, 4, 6, 2];
        let accepting = [false, false, true, false, false, false, false, false];
        let block_ids = minimize(2, &table, &accepting);
        assert_eq!(block_count(&block_ids), 5);
        assert_eq!(block_ids[0], block_ids[4]);
        assert_eq!(block_ids[1], block_ids[7]);
        assert_eq!(block_ids[3], block_ids[5]);
    }

    #[test]
    fn uniform_acceptance_gives_one_block() {
        let table = [1, 2, 2, 0, 0, 1];
        assert_eq!(minimize(2, &table, &[true; 3]), [0, 0, 0]);
        assert_eq!(minimize(2, &table, &[false; 3]), [0, 0, 0]);
    }

    #[test]
    fn no_states() {
        assert_eq!(minimize(3, &[], &[]), Vec::<u32>::new());
    }

    #[test]
    fn single_state() {
        assert_eq!(minimize(1, &[0], &[true]), [0]);
    }

    /// The language `a` over {a, b}: 0 -a-> 1 (accepting), everything else falls into the
    /// dead states 2 and 3, which merge with each other but not with the rejecting start 0.
    #[test]
    fn dead_state_stays_separate() {
        let table = [1, 2, 2, 2, 3, 2, 2, 3];
        let accepting = [false, true, false, false];
        let block_ids = minimize(2, &table, &accepting);
        assert_eq!(block_count(&block_ids), 3);
        assert_eq!(block_ids[2], block_ids[3]);
        assert_ne!(block_ids[0], block_ids[2]);
    }

    /// A cycle of `n_states` states, accepting every `period`-th: one block per residue.
    fn cycle(n_states: u32, period: u32) -> (Vec<u32>, Vec<bool>) {
        let table = (0..n_states).map(|state| (state + 1) % n_states).collect();
        let accepting = (0..n_states).map(|state| state % period == 0).collect();
        (table, accepting)
    }

    #[test]
    fn long_cycle_folds_to_its_period() {
        let (table, accepting) = cycle(1000, 10);
        let block_ids = minimize(1, &table, &accepting);
        assert_eq!(block_count(&block_ids), 10);
        assert!((0..1000).all(|state| block_ids[state] == block_ids[state % 10]));
    }

    #[test]
    fn passed_deadline_times_out() {
        let (table, accepting) = cycle(1000, 7);
        let budget = Budget::unlimited().with_deadline(Instant::now());
        assert_eq!(
            equivalence_classes(1, &targets(&table), &accepting, &budget),
            Err(BudgetError::Timeout { op: Operation::Minimize })
        );
    }
}
