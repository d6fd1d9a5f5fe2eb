//! The canonical minimal DFA: quotient by state equivalence, merged classes, BFS numbering.
//!
//! # Algorithm
//! 1. Hopcroft's algorithm (`minimize.rs`) gives the blocks of equivalent states; the
//!    quotient has one state per block.
//! 2. Classes whose columns are equal in the quotient (every state moves alike on them) are
//!    merged, and the merged classes are ordered by their smallest character.
//! 3. States are renumbered in breadth-first order from the start, visiting classes in order;
//!    unreachable states are dropped.
//!
//! Each step is linear in the table size, after Hopcroft's O(k·n·log n).
//!
//! # Budgets
//! The peak is charged to the memory limit ([`Operation::Minimize`]) before anything is
//! allocated: [`BYTES_PER_TRANSITION`] per transition of the input, for the input table
//! and Hopcroft's predecessor table, live together (Hopcroft reads the input table in
//! place); plus
//! [`BYTES_PER_STATE`] per state for the partition. The later steps (quotient, column keys,
//! renumbered table: at most 12 bytes per transition beside the input's 4) stay under it.
//!
//! # Invariants
//! The result depends only on the language: two DFAs of the same language give equal results.

use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use super::{Dfa, minimize};
use crate::alphabet::{ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation, Ticker};

/// Units of work (a transition copied, compared or renumbered) between two reads of the
/// clock after Hopcroft's pass, which reads it by its own count.
const WORK_PER_TIME_CHECK: usize = 4096;
use crate::state_id::StateId;

/// Bytes per transition live at the peak of minimization: the input table (4) and the
/// predecessor table of `minimize.rs` (an 8-byte offset and a 4-byte source).
const BYTES_PER_TRANSITION: usize = 16;
/// Bytes per state of the refinable partition (seven `u32` arrays) and the block ids.
const BYTES_PER_STATE: usize = 32;

/// The canonical minimal DFA of `dfa`; an owned `dfa` gives its classes to the result
/// when no two of them merge.
pub(super) fn minimize(dfa: Cow<'_, Dfa>, budget: &Budget) -> Result<Dfa, BudgetError> {
    let n_classes = dfa.classes.len();
    let peak = dfa.table.len().saturating_mul(BYTES_PER_TRANSITION);
    let peak = peak.saturating_add(dfa.accepting.len().saturating_mul(BYTES_PER_STATE));
    budget.check_memory(Operation::Minimize, peak)?;
    let block_of = minimize::equivalence_classes(n_classes, &dfa.table, &dfa.accepting, budget)?;
    let quotient = Quotient::new(&dfa, &block_of);
    let mut ticker = Ticker::new(budget, Operation::Minimize, WORK_PER_TIME_CHECK);
    let (classes, old_to_new) = match merge_classes(&dfa, &quotient, &mut ticker)? {
        Some(merged) => merged,
        None => {
            // No two classes merged: class `i` stays class `i`, already in canonical order.
            let identity = (0..dfa.classes.len()).map(ClassId::new).collect();
            let classes = match dfa {
                Cow::Owned(dfa) => dfa.classes,
                Cow::Borrowed(dfa) => dfa.classes.clone(),
            };
            (classes, identity)
        }
    };
    renumber(&quotient, classes, &old_to_new, &mut ticker)
}

/// The DFA with one state per equivalence block, still over the original classes.
struct Quotient {
    n_classes: usize,
    table: Vec<u32>,
    accepting: Vec<bool>,
    start: u32,
}

impl Quotient {
    fn new(dfa: &Dfa, block_of: &[u32]) -> Quotient {
        let n_classes = dfa.classes.len();
        let n_blocks = block_of.iter().map(|&block| block as usize + 1).max().unwrap_or(0);
        let mut table = vec![0; n_blocks * n_classes];
        let mut accepting = vec![false; n_blocks];
        for (state, &block) in block_of.iter().enumerate() {
            let block = block as usize;
            accepting[block] = dfa.accepting[state];
            for class in 0..n_classes {
                let target = dfa.table[state * n_classes + class];
                table[block * n_classes + class] = block_of[target.index()];
            }
        }
        Quotient { n_classes, table, accepting, start: block_of[dfa.start.index()] }
    }

    fn n_states(&self) -> usize {
        self.accepting.len()
    }

    /// The table by columns: class `c`'s targets are `columns[c * n_states..][..n_states]`.
    fn columns(&self) -> Vec<u32> {
        let n_states = self.n_states();
        let mut columns = vec![0; self.table.len()];
        for (state, row) in self.table.chunks_exact(self.n_classes).enumerate() {
            for (class, &target) in row.iter().enumerate() {
                columns[class * n_states + state] = target;
            }
        }
        columns
    }
}

/// Merges classes with equal columns; returns the merged classes in canonical order and, for
/// each old class, its new class, or `None` when no two classes merge.
fn merge_classes(
    dfa: &Dfa,
    quotient: &Quotient,
    ticker: &mut Ticker<'_>,
) -> Result<Option<(Classes, Vec<ClassId>)>, BudgetError> {
    // Columns compared in place in one transposed table, not one allocation per class.
    let columns = quotient.columns();
    ticker.tick(columns.len())?;
    let mut group_of_column: HashMap<&[u32], usize> =
        HashMap::with_capacity_and_hasher(quotient.n_classes, Default::default());
    let mut group_of_class = Vec::with_capacity(quotient.n_classes);
    // A quotient has a state at least, its start, so the columns are not empty.
    for column in columns.chunks_exact(quotient.n_states()) {
        ticker.tick(column.len())?;
        let next_group = group_of_column.len();
        group_of_class.push(*group_of_column.entry(column).or_insert(next_group));
    }
    if group_of_column.len() == dfa.classes.len() {
        return Ok(None);
    }
    // Merged by one pass over the class boundaries; `group_of_class` numbers groups densely.
    let (classes, old_to_new) = dfa.classes.merged(&group_of_class);
    Ok(Some((classes, old_to_new)))
}

/// Renumbers the quotient's reachable states breadth first over the merged classes.
fn renumber(
    quotient: &Quotient,
    classes: Classes,
    old_to_new: &[ClassId],
    ticker: &mut Ticker<'_>,
) -> Result<Dfa, BudgetError> {
    let n_classes = classes.len();
    // A representative old class for each new class, to read the quotient's table.
    let mut representative = vec![0; n_classes];
    for (old, new) in old_to_new.iter().enumerate().rev() {
        representative[new.index()] = old;
    }
    const UNSEEN: u32 = u32::MAX;
    let mut new_id = vec![UNSEEN; quotient.n_states()];
    let mut order = Vec::with_capacity(quotient.n_states());
    order.push(quotient.start);
    new_id[quotient.start as usize] = 0;
    let mut table = Vec::with_capacity(quotient.n_states() * n_classes);
    let mut next = 0;
    while next < order.len() {
        ticker.tick(n_classes)?;
        let state = order[next] as usize;
        for &old_class in &representative {
            let target = quotient.table[state * quotient.n_classes + old_class];
            if new_id[target as usize] == UNSEEN {
                new_id[target as usize] = order.len() as u32;
                order.push(target);
            }
            table.push(StateId::from_index(new_id[target as usize] as usize));
        }
        next += 1;
    }
    let accepting = order.iter().map(|&state| quotient.accepting[state as usize]).collect();
    Ok(Dfa::from_parts(classes, table, accepting).into_canonical())
}

#[cfg(test)]
mod tests {
    use crate::{Budget, BudgetError, Dfa, Nfa, Operation};

    /// A literal of `n` distinct characters: n + 2 states, n + 1 classes, so a table that
    /// grows with the square of the pattern.
    fn distinct_literal(n: u32) -> String {
        (0..n).filter_map(|idx| char::from_u32(0x100 + 2 * idx)).collect()
    }

    /// Issue 17: minimization's copies and predecessor table (16 bytes per transition beside
    /// the input's 4) were not charged, so a DFA whose table fit the limit took five times it.
    #[test]
    fn r17_minimization_charges_its_peak() {
        let nfa = Nfa::from_regex(&distinct_literal(300)).unwrap();
        let budget = Budget::default().with_max_memory(1 << 20);
        let subsets = Dfa::determinize(&nfa, &budget).unwrap();
        assert_eq!(
            subsets.minimize(&budget),
            Err(BudgetError::TooMuchMemory { op: Operation::Minimize, limit: 1 << 20 })
        );
        let roomy = Budget::default().with_max_memory(4 << 20);
        assert_eq!(subsets.minimize(&roomy).unwrap().n_states(), 302);
    }

    /// Issue 17: the subsets of the construction were not charged, only its table.
    #[test]
    fn r17_determinization_charges_its_subsets() {
        let nfa = Nfa::from_regex("(a|b)*a(a|b){12}").unwrap();
        let budget = Budget::default().with_max_memory(512 << 10);
        assert_eq!(
            Dfa::determinize(&nfa, &budget).map(|dfa| dfa.n_states()),
            Err(BudgetError::TooMuchMemory { op: Operation::Determinize, limit: 512 << 10 })
        );
        assert!(Dfa::determinize(&nfa, &Budget::default().with_max_memory(8 << 20)).is_ok());
    }
}
