//! The minterm partition of the alphabet: the coarsest classes of which every label is a union.
//!
//! # Overview
//! [`Classes::new`] takes the transition labels of an automaton and returns the [`Classes`]
//! together with, for each label, the sorted ids of the classes it contains. Two characters in
//! the same class belong to exactly the same labels, so determinization and minimization can
//! run over class ids ([`ClassId`]) as a finite alphabet; [`Classes::class_of`] maps input
//! characters to their class.
//!
//! # Algorithm
//! Up to [`SWEEP_LABELS`] labels (a pattern's distinct labels rarely number more), one
//! *sweep*: every label range's start and the scalar value after its end toggle the label's
//! bit, so sorting these bounds and walking them left to right gives each elementary
//! interval (from one bound to the scalar before the next) the set of labels holding it, as
//! a 64-bit signature. Intervals with equal signatures form a class, numbered by first
//! appearance, and a label lists the classes whose signature has its bit: O(R log R) for the
//! sort (the largest label's bounds, already ascending, are merged in linearly, so a `\w`
//! beside a few small labels costs O(R)), then O(R) with at most one hash look-up per
//! interval, and no per-label pass over
//! the intervals it covers (a class like `\w` has hundreds of ranges; the refinement below
//! visits them once per label that covers them).
//!
//! More labels are refined instead, with `R` label ranges in total:
//! 1. *Elementary intervals.* The cut points are U+0000, every label range start, and the scalar
//!    value after every label range end, sorted and deduplicated: O(R log R). The `k`-th
//!    interval runs from cut `k` up to the scalar before cut `k + 1`; no label boundary falls
//!    inside one. Cuts are scalar values and the interval ends are their predecessors, so no
//!    interval consists of surrogates only.
//! 2. *Partition refinement.* All intervals start in one class. Each label visits the intervals
//!    its ranges cover (two binary searches per range) and counts them per current class; a
//!    class covered entirely stays as it is, any other class hands its covered intervals to a
//!    fresh class. Afterwards two intervals share a class exactly when they belong to the same
//!    labels, so the partition is the coarsest one. This costs O(intervals covered) per label,
//!    quadratic at worst (many wide labels), so the budget is checked once per label and every
//!    [`CHECK_INTERVAL`] intervals.
//! 3. *Canonical numbering.* One left-to-right scan over the intervals numbers the classes by
//!    first appearance, that is by smallest member, and records where each class range
//!    starts: O(intervals). A last pass over the covered intervals lists each label's
//!    classes, already ascending.
//!
//! Either way the partition is kept as the start of each class range with its class; the
//! members of each class ([`Classes::class`], [`Classes::iter`]) are read off that list the
//! first time they are asked for (one pass, O(intervals)). Determinization, minimization
//! and every question answered by walking the automaton only map characters to classes, so
//! they never build them (a class of `\w`, or its complement, is hundreds of ranges).
//!
//! # Invariants
//! - Classes are non-empty, pairwise disjoint, cover every scalar value and are numbered in
//!   ascending order of their smallest member.
//! - Each label is the union of its listed classes, and any two classes differ on some label.
//! - The result depends only on the set of labels, not on their order or repetition.
//! - The sweep and the refinement give the same partition and lists (the tests run both).
//! - Classes are disjoint non-empty sets of scalar values, so there are at most 1,112,064 of
//!   them and a [`ClassId`] always fits in a `u32`.

use std::ops::Range;
use std::sync::OnceLock;

use rustc_hash::FxHashMap as HashMap;

use super::charset::{CharSet, pred, succ};
use crate::budget::{Budget, BudgetError, Operation, Ticker};

/// How many intervals the refinement visits between two deadline checks.
const CHECK_INTERVAL: usize = 4096;

/// The most labels partitioned by the sweep: one bit each in a `u64` signature.
const SWEEP_LABELS: usize = 64;

/// The id of one class of a [`Classes`] partition, numbered from 0 by ascending smallest member.
///
/// # Example
/// ```
/// use langcore::Budget;
/// use langcore::alphabet::{CharSet, Classes};
///
/// let (classes, labels) = Classes::new(&[&CharSet::range('a', 'z')], &Budget::default())?;
/// let id = classes.class_of('q');
/// assert_eq!(labels[0], [id]);
/// assert_eq!(classes.class(id), Some(&CharSet::range('a', 'z')));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClassId(u32);

impl ClassId {
    /// The id of the class at position `index`, which must be below the number of classes of
    /// some partition, hence at most 1,112,064 (see the module invariants).
    pub(crate) fn new(index: usize) -> ClassId {
        debug_assert!(u32::try_from(index).is_ok(), "class index {index} out of range");
        ClassId(u32::try_from(index).unwrap_or(u32::MAX))
    }

    /// The position of the class: 0 for the class containing U+0000, counting up by smallest
    /// member.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let (classes, _) = Classes::new(&[&CharSet::range('a', 'z')], &Budget::default())?;
    /// assert_eq!(classes.class_of('\0').index(), 0);
    /// assert_eq!(classes.class_of('q').index(), 1);
    /// assert_eq!(classes.class_of('~').index(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index(self) -> usize {
        // Widening on every 32- and 64-bit target.
        self.0 as usize
    }
}

/// A partition of all scalar values into disjoint non-empty classes (the minterms of a set of
/// labels), numbered by ascending smallest member.
///
/// # Example
/// ```
/// use langcore::Budget;
/// use langcore::alphabet::{CharSet, Classes};
///
/// let digit = CharSet::range('0', '9');
/// let word = CharSet::from_ranges([('0', '9'), ('A', 'Z'), ('_', '_'), ('a', 'z')]);
/// let (classes, labels) = Classes::new(&[&word, &digit, &word], &Budget::default())?;
///
/// // Non-word characters, digits, and word characters that are not digits.
/// assert_eq!(classes.len(), 3);
/// assert_eq!(classes.class_of('%'), classes.class_of('\u{10FFFF}'));
/// assert_eq!(classes.class_of('7').index(), 1);
/// assert_eq!(labels[1], [classes.class_of('7')]);
/// assert_eq!(labels[0], labels[2]);
/// for (id, class) in classes.iter() {
///     assert_eq!(class.is_subset(&word), labels[0].contains(&id));
/// }
/// # Ok::<(), langcore::BudgetError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Classes {
    /// The start of every class range with its class, sorted by start; the first start is
    /// U+0000, each entry covers the scalar values up to the next start, and two neighbours
    /// are of different classes, so the list is the partition (and its numbering).
    starts: Vec<(char, ClassId)>,
    /// The number of classes: one more than the largest id in `starts`.
    n_classes: usize,
    /// The classes' members, indexed by [`ClassId::index`], read off `starts` on first use:
    /// most automata only map characters to classes, and a class of `\w` is hundreds of
    /// ranges.
    sets: OnceLock<Vec<CharSet>>,
}

/// Equal partitions: the same class ranges, numbered alike.
impl PartialEq for Classes {
    fn eq(&self, other: &Classes) -> bool {
        self.starts == other.starts
    }
}

impl Eq for Classes {}

impl Classes {
    /// The partition of `n_classes` classes whose ranges start at `starts` (see the field).
    fn from_starts(starts: Vec<(char, ClassId)>, n_classes: usize) -> Classes {
        debug_assert!(
            starts.windows(2).all(|pair| pair[0].0 < pair[1].0 && pair[0].1 != pair[1].1)
        );
        Classes { starts, n_classes, sets: OnceLock::new() }
    }

    /// The classes' members, built on first use.
    fn sets(&self) -> &[CharSet] {
        self.sets.get_or_init(|| {
            let mut n_ranges = vec![0; self.n_classes];
            for &(_, id) in &self.starts {
                n_ranges[id.index()] += 1;
            }
            let mut ranges: Vec<Vec<(char, char)>> =
                n_ranges.into_iter().map(Vec::with_capacity).collect();
            for (interval, &(lo, id)) in self.starts.iter().enumerate() {
                // The next start is above `lo`, so it has a predecessor.
                let hi = self
                    .starts
                    .get(interval + 1)
                    .and_then(|&(next, _)| pred(next))
                    .unwrap_or(char::MAX);
                ranges[id.index()].push((lo, hi));
            }
            // A class's ranges ascend, and two of them are never adjacent: a range of
            // another class lies between them.
            ranges.into_iter().map(CharSet::from_canonical).collect()
        })
    }

    /// The bytes the partition holds on the heap: its start table and its classes' ranges
    /// (counted whether built yet or not, so the figure does not move on first use).
    pub(crate) fn heap_bytes(&self) -> usize {
        // Each start begins one range of one class.
        self.n_classes * size_of::<CharSet>()
            + self.starts.len() * (size_of::<(char, char)>() + size_of::<(char, ClassId)>())
    }

    /// The partition with a single class, the full set: the alphabet of an automaton without
    /// labels. Equal to the partition [`Classes::new`] computes for no labels.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let single = Classes::single();
    /// assert_eq!(single.class(single.class_of('a')), Some(&CharSet::full()));
    /// assert_eq!(single, Classes::new(&[], &Budget::default())?.0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn single() -> Self {
        Classes::from_starts(vec![('\0', ClassId(0))], 1)
    }

    /// The coarsest partition of all scalar values such that every label is a union of
    /// classes, and for each label (in input order) the ascending ids of its classes.
    ///
    /// The partition depends only on the set of labels: reordering or repeating them changes
    /// nothing but the order and repetition of the returned lists. An empty label has an
    /// empty list. Cost: O(R log R) for `R` label ranges, plus O(1) per elementary interval
    /// that each label covers (see the module docs).
    ///
    /// # Errors
    /// [`BudgetError::Timeout`] with [`Operation::Partition`] once the budget's deadline has
    /// passed; it is checked every few thousand label ranges and intervals, and once per
    /// label when there are more than 64 labels.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let letters = CharSet::range('a', 'z');
    /// let vowels = CharSet::parse("[aeiou]")?;
    /// let (classes, labels) = Classes::new(&[&letters, &vowels], &Budget::default())?;
    /// // Non-letters, vowels and consonants, numbered by smallest member.
    /// assert_eq!(classes.len(), 3);
    /// assert_eq!(labels[0], [classes.class_of('a'), classes.class_of('b')]);
    /// assert_eq!(labels[1], [classes.class_of('e')]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        labels: &[&CharSet],
        budget: &Budget,
    ) -> Result<(Classes, Vec<Vec<ClassId>>), BudgetError> {
        if labels.len() <= SWEEP_LABELS { sweep(labels, budget) } else { refine(labels, budget) }
    }

    /// The coarser partition whose classes are the unions of the classes of each group
    /// (`group_of[c]` for class `c`, groups numbered densely from 0), numbered by smallest
    /// member like every partition, and the new class of each old class. One pass over the
    /// class boundaries, without [`Classes::new`]'s sort and sweep: minimization merges
    /// classes that behave alike (`dfa/canonical.rs`).
    ///
    /// # Panics
    /// When `group_of` does not give one group per class, or a group below its largest
    /// has no class.
    pub(crate) fn merged(&self, group_of: &[usize]) -> (Classes, Vec<ClassId>) {
        assert_eq!(group_of.len(), self.n_classes, "one group per class");
        let n_groups = group_of.iter().max().map_or(0, |&group| group + 1);
        let mut new_of_group: Vec<Option<ClassId>> = vec![None; n_groups];
        let mut n_new = 0;
        let mut starts: Vec<(char, ClassId)> = Vec::with_capacity(self.starts.len());
        for &(lo, old) in &self.starts {
            let new = *new_of_group[group_of[old.index()]].get_or_insert_with(|| {
                n_new += 1;
                ClassId::new(n_new - 1)
            });
            // Neighbouring intervals of one group join into one range.
            if starts.last().is_none_or(|&(_, last)| last != new) {
                starts.push((lo, new));
            }
        }
        let old_to_new = group_of
            .iter()
            .map(|&group| new_of_group[group].expect("every group has a class"))
            .collect();
        (Classes::from_starts(starts, n_new), old_to_new)
    }

    /// The common refinement of `partitions` (at least one): the coarsest partition each of
    /// whose classes lies inside one class of every partition, numbered by smallest member
    /// like every partition, which [`Classes::new`] computes from all their classes; and
    /// for each of its classes, the class of each partition holding it (`partitions.len()`
    /// entries per class, in order). One merge of the partitions' class boundaries, without
    /// [`Classes::new`]'s sort and sweep over every range of every class: the product of two
    /// automata over `\w` read hundreds of ranges per class for a handful of classes.
    ///
    /// # Errors
    /// [`BudgetError::Timeout`] with [`Operation::Partition`] once the budget's deadline has
    /// passed, checked every few thousand boundaries.
    pub(crate) fn refinement(
        partitions: &[&Classes],
        budget: &Budget,
    ) -> Result<(Classes, Vec<ClassId>), BudgetError> {
        assert!(!partitions.is_empty(), "a refinement of at least one partition");
        let mut ticker = Ticker::new(budget, Operation::Partition, CHECK_INTERVAL);
        let mut ids = TupleIds::new(partitions);
        let mut next = vec![0; partitions.len()];
        let mut current = vec![ClassId(0); partitions.len()];
        let (mut rows, mut starts) = (Vec::new(), Vec::new());
        // Every partition starts at U+0000; each boundary after it moves at least one
        // partition to another class, so neighbours differ as `starts` requires.
        let mut at = Some('\0');
        while let Some(lo) = at {
            ticker.tick(partitions.len())?;
            for (side, partition) in partitions.iter().enumerate() {
                if let Some(&(_, id)) = partition.starts.get(next[side]).filter(|s| s.0 == lo) {
                    current[side] = id;
                    next[side] += 1;
                }
            }
            starts.push((lo, ids.id(&current, &mut rows)));
            at = partitions
                .iter()
                .zip(&next)
                .filter_map(|(partition, &at)| partition.starts.get(at).map(|&(start, _)| start))
                .min();
        }
        Ok((Classes::from_starts(starts, ids.len()), rows))
    }

    /// The string of the smallest members of the classes of a path, given last first (as a
    /// walk back along its parents reads them): the spelling of every witness.
    pub(crate) fn spell_backwards(&self, path: impl Iterator<Item = ClassId>) -> String {
        let smallest = self.smallest_members();
        let mut chars: Vec<char> = path.map(|class| smallest[class.index()]).collect();
        chars.reverse();
        chars.into_iter().collect()
    }

    /// The smallest member of each class, indexed by [`ClassId::index`]: read off the class
    /// boundaries, without building the classes' members.
    fn smallest_members(&self) -> Vec<char> {
        let mut smallest = Vec::with_capacity(self.n_classes);
        // Classes are numbered by smallest member: each first appears in id order.
        for &(lo, id) in &self.starts {
            if id.index() == smallest.len() {
                smallest.push(lo);
            }
        }
        smallest
    }

    /// The number of classes, at least 1 and at most 1,112,064.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let labels = [&CharSet::range('0', '9'), &CharSet::range('a', 'f')];
    /// assert_eq!(Classes::new(&labels, &Budget::default())?.0.len(), 3);
    /// assert_eq!(Classes::single().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.n_classes
    }

    /// Always `false`: a partition of the non-empty alphabet has at least one class.
    ///
    /// # Example
    /// ```
    /// use langcore::alphabet::Classes;
    ///
    /// assert!(!Classes::single().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.n_classes == 0
    }

    /// The members of class `id`, or `None` when `id` belongs to a partition with more classes.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let vowels = CharSet::parse("[aeiou]")?;
    /// let (classes, _) = Classes::new(&[&vowels], &Budget::default())?;
    /// assert_eq!(classes.class(classes.class_of('u')), Some(&vowels));
    /// assert_eq!(classes.class(classes.class_of('b')), Some(&vowels.complement()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn class(&self, id: ClassId) -> Option<&CharSet> {
        self.sets().get(id.index())
    }

    /// The classes with their ids, in ascending id order.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let (classes, _) = Classes::new(&[&CharSet::range('0', '9')], &Budget::default())?;
    /// let sizes: Vec<u64> = classes.iter().map(|(_, class)| class.len()).collect();
    /// assert_eq!(sizes, [1_112_054, 10]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (ClassId, &CharSet)> {
        self.sets().iter().enumerate().map(|(index, class)| (ClassId::new(index), class))
    }

    /// The class containing `c`. O(log n) in the number of class ranges.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    /// use langcore::alphabet::{CharSet, Classes};
    ///
    /// let (classes, _) = Classes::new(&[&CharSet::parse("[a-z]")?], &Budget::default())?;
    /// assert_eq!(classes.class_of('a'), classes.class_of('z'));
    /// assert_ne!(classes.class_of('a'), classes.class_of('A'));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn class_of(&self, c: char) -> ClassId {
        let after = self.starts.partition_point(|&(start, _)| start <= c);
        // The first start is U+0000 <= c, so `after >= 1`.
        after.checked_sub(1).and_then(|i| self.starts.get(i)).map_or(ClassId(0), |&(_, id)| id)
    }
}

/// Dense ids for the tuples of classes [`Classes::refinement`] meets, in order of first
/// meeting: a table indexed by the tuple where the partitions' class counts multiply to at
/// most [`DENSE_TUPLES`] (two automata over a few dozen classes), else a hash map.
enum TupleIds {
    Dense { radix: Vec<usize>, table: Vec<Option<ClassId>>, n: usize },
    Hashed(HashMap<Box<[ClassId]>, ClassId>),
}

/// The largest table of tuples [`TupleIds`] allocates.
const DENSE_TUPLES: usize = 1 << 16;

impl TupleIds {
    fn new(partitions: &[&Classes]) -> TupleIds {
        let size = partitions.iter().try_fold(1_usize, |size, p| size.checked_mul(p.len()));
        match size.filter(|&size| size <= DENSE_TUPLES) {
            Some(size) => TupleIds::Dense {
                radix: partitions.iter().map(|partition| partition.len()).collect(),
                table: vec![None; size],
                n: 0,
            },
            None => TupleIds::Hashed(HashMap::default()),
        }
    }

    /// The id of `tuple`, a new one (its row appended to `rows`) when first met.
    fn id(&mut self, tuple: &[ClassId], rows: &mut Vec<ClassId>) -> ClassId {
        let mut new = |n: usize| {
            rows.extend_from_slice(tuple);
            ClassId::new(n)
        };
        match self {
            TupleIds::Dense { radix, table, n } => {
                let at = tuple.iter().zip(radix.iter()).fold(0, |at, (id, &r)| at * r + id.index());
                *table[at].get_or_insert_with(|| {
                    *n += 1;
                    new(*n - 1)
                })
            }
            TupleIds::Hashed(ids) => match ids.get(tuple) {
                Some(&id) => id,
                None => {
                    let id = new(ids.len());
                    ids.insert(tuple.into(), id);
                    id
                }
            },
        }
    }

    fn len(&self) -> usize {
        match self {
            TupleIds::Dense { n, .. } => *n,
            TupleIds::Hashed(ids) => ids.len(),
        }
    }
}

/// The partition by sweeping the sorted bounds of at most [`SWEEP_LABELS`] labels (see the
/// module docs).
fn sweep(
    labels: &[&CharSet],
    budget: &Budget,
) -> Result<(Classes, Vec<Vec<ClassId>>), BudgetError> {
    // A label's ranges are disjoint and not adjacent, so its bounds alternate between entering
    // (a range's start) and leaving (the scalar after a range's end): each toggles its bit.
    // Each label's bounds ascend. The largest label (often a Unicode class of hundreds of
    // ranges beside a few small labels) is merged in one linear pass with the bounds of the
    // others, sorted together by a stable sort, which merges their ascending runs.
    let largest = (0..labels.len()).max_by_key(|&index| labels[index].ranges().len());
    let n_bounds: usize = labels.iter().map(|label| 2 * label.ranges().len()).sum();
    let mut others: Vec<(char, u8)> = Vec::with_capacity(n_bounds);
    let mut own: Vec<(char, u8)> = Vec::new();
    let mut ticker = Ticker::new(budget, Operation::Partition, CHECK_INTERVAL);
    for (bit, label) in (0u8..).zip(labels) {
        ticker.tick(label.ranges().len())?;
        let into = if Some(usize::from(bit)) == largest { &mut own } else { &mut others };
        for &(lo, hi) in label.ranges() {
            into.push((lo, bit));
            into.extend(succ(hi).map(|after| (after, bit)));
        }
    }
    others.sort();
    let bounds = merge_ascending(&own, &others);

    // First the start and class of every elementary interval (consecutive intervals differ
    // in some label, so each start begins a class range), then each class's ranges.
    let mut id_of: HashMap<u64, ClassId> = HashMap::default();
    let mut signatures: Vec<u64> = Vec::new();
    let mut starts: Vec<(char, ClassId)> = Vec::with_capacity(bounds.len() + 1);
    // The last two classes met: a label of many ranges alternates between two of them.
    let mut recent: [Option<(u64, ClassId)>; 2] = [None; 2];
    let mut signature = 0u64;
    let mut at = 0;
    let mut lo = '\0';
    loop {
        ticker.tick(1)?;
        while let Some(&(_, bit)) = bounds.get(at).filter(|&&(bound, _)| bound == lo) {
            signature ^= 1 << bit;
            at += 1;
        }
        let id = match recent.iter().flatten().find(|&&(met, _)| met == signature) {
            Some(&(_, id)) => id,
            None => {
                let id = *id_of.entry(signature).or_insert_with(|| {
                    signatures.push(signature);
                    ClassId::new(signatures.len() - 1)
                });
                recent = [Some((signature, id)), recent[0]];
                id
            }
        };
        starts.push((lo, id));
        match bounds.get(at) {
            Some(&(next, _)) => lo = next,
            None => break,
        }
    }
    // Classes in ascending id order, so the lists need no sort.
    let mut lists = vec![Vec::new(); labels.len()];
    for (index, &signature) in signatures.iter().enumerate() {
        let mut bits = signature;
        while bits != 0 {
            lists[bits.trailing_zeros() as usize].push(ClassId::new(index));
            bits &= bits - 1;
        }
    }
    Ok((Classes::from_starts(starts, signatures.len()), lists))
}

/// The items of two ascending lists in one ascending list.
fn merge_ascending<T: Copy + Ord>(left: &[T], right: &[T]) -> Vec<T> {
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.iter().peekable(), right.iter().peekable());
    while let (Some(&&l), Some(&&r)) = (left.peek(), right.peek()) {
        if l <= r {
            merged.push(l);
            left.next();
        } else {
            merged.push(r);
            right.next();
        }
    }
    merged.extend(left.chain(right));
    merged
}

/// The partition by refining one class per label over the elementary intervals, for any
/// number of labels (see the module docs).
fn refine(
    labels: &[&CharSet],
    budget: &Budget,
) -> Result<(Classes, Vec<Vec<ClassId>>), BudgetError> {
    let n_bounds: usize = labels.iter().map(|label| 2 * label.ranges().len()).sum();
    let mut cuts = Vec::with_capacity(1 + n_bounds);
    cuts.push('\0');
    for label in labels {
        budget.check_time(Operation::Partition)?;
        for &(lo, hi) in label.ranges() {
            cuts.push(lo);
            cuts.extend(succ(hi));
        }
    }
    cuts.sort_unstable();
    cuts.dedup();

    let mut ticker = Ticker::new(budget, Operation::Partition, CHECK_INTERVAL);
    let mut refinement = Refinement::new(cuts.len());
    for label in labels {
        budget.check_time(Operation::Partition)?;
        refinement.split(covered(&cuts, label), &mut ticker)?;
    }

    // Canonical numbering by first appearance: `canonical` maps refinement ids to canonical
    // ids, and each interval's class is rewritten to its canonical id for the lists below.
    let mut canonical = vec![None; refinement.n_classes()];
    let mut n_classes = 0;
    let mut starts: Vec<(char, ClassId)> = Vec::with_capacity(cuts.len());
    for (&lo, class) in cuts.iter().zip(&mut refinement.class) {
        ticker.tick(1)?;
        let id = *canonical[*class].get_or_insert_with(|| {
            n_classes += 1;
            n_classes - 1
        });
        *class = id;
        let id = ClassId::new(id);
        if starts.last().is_none_or(|&(_, last)| last != id) {
            starts.push((lo, id));
        }
    }

    // `listed[c]` is 1 + the index of the last label whose list got class `c`. A class lies
    // wholly inside or outside each label, so its first interval inside a label is its first
    // interval overall: classes come up in ascending id order, and the lists need no sort.
    let mut listed = vec![0; n_classes];
    let mut lists = Vec::with_capacity(labels.len());
    for (position, label) in (1..).zip(labels) {
        budget.check_time(Operation::Partition)?;
        let mut list = Vec::new();
        for interval in covered(&cuts, label) {
            ticker.tick(1)?;
            let class = refinement.class[interval];
            if listed[class] != position {
                listed[class] = position;
                list.push(ClassId::new(class));
            }
        }
        lists.push(list);
    }
    Ok((Classes::from_starts(starts, n_classes), lists))
}

/// The indices of the elementary intervals covered by `label`, one index range per label range.
///
/// The label's bounds ascend, so each is searched from the previous one on, galloping: a label
/// of `r` ranges costs O(r log(cuts / r)), not O(r log cuts) (a Unicode class like `\w` has
/// hundreds of ranges, and as many cuts of its own).
fn covered<'a>(cuts: &'a [char], label: &'a CharSet) -> impl Iterator<Item = usize> + Clone + 'a {
    let mut from = 0;
    let mut position = move |c: char| {
        from = gallop(cuts, from, c);
        from
    };
    let bounds: Vec<Range<usize>> = label
        .ranges()
        .iter()
        .map(|&(lo, hi)| {
            let start = position(lo);
            start..succ(hi).map_or(cuts.len(), &mut position)
        })
        .collect();
    bounds.into_iter().flatten()
}

/// The first index at or after `from` whose cut is not below `c`, given that the cuts before
/// `from` are all below `c`: exponential then binary search, O(log distance).
fn gallop(cuts: &[char], from: usize, c: char) -> usize {
    let rest = &cuts[from..];
    let mut step = 1;
    while step < rest.len() && rest[step - 1] < c {
        step *= 2;
    }
    let end = step.min(rest.len());
    let start = step / 2;
    from + start + rest[start..end].partition_point(|&cut| cut < c)
}

/// The state of the partition refinement over the elementary intervals.
///
/// Every class id in `0..size.len()` is in use: a class is only split when some of its
/// intervals stay behind, so ids never need compacting.
struct Refinement {
    /// The class of each elementary interval.
    class: Vec<usize>,
    /// The number of intervals in each class.
    size: Vec<usize>,
    /// For the label being applied: how many of each class's intervals it covers (0 when
    /// untouched).
    hits: Vec<usize>,
    /// For the label being applied: the class its covered intervals of each class move to.
    target: Vec<usize>,
    /// The classes with non-zero `hits`.
    touched: Vec<usize>,
}

impl Refinement {
    /// All `n_intervals` intervals in one class.
    fn new(n_intervals: usize) -> Self {
        Refinement {
            class: vec![0; n_intervals],
            size: vec![n_intervals],
            hits: vec![0],
            target: vec![0],
            touched: Vec::new(),
        }
    }

    fn n_classes(&self) -> usize {
        self.size.len()
    }

    /// Splits every class into the part inside `covered` (distinct interval indices) and the
    /// part outside, keeping the old id for a class that lies entirely inside.
    fn split(
        &mut self,
        covered: impl Iterator<Item = usize> + Clone,
        ticker: &mut Ticker<'_>,
    ) -> Result<(), BudgetError> {
        for interval in covered.clone() {
            ticker.tick(1)?;
            let class = self.class[interval];
            if self.hits[class] == 0 {
                self.touched.push(class);
            }
            self.hits[class] += 1;
        }
        for &class in &self.touched {
            let hits = std::mem::take(&mut self.hits[class]);
            self.target[class] = if hits == self.size[class] {
                class
            } else {
                self.size[class] -= hits;
                self.size.push(hits);
                self.hits.push(0);
                self.target.push(self.size.len() - 1);
                self.size.len() - 1
            };
        }
        self.touched.clear();
        for interval in covered {
            ticker.tick(1)?;
            self.class[interval] = self.target[self.class[interval]];
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;
    use std::collections::HashMap;
    use std::time::{Duration, Instant};

    #[test]
    fn gallop_finds_what_a_binary_search_finds() {
        let cuts: Vec<char> = "\0#%+09AZ_az\u{e9}\u{3b1}\u{10ffff}".chars().collect();
        for from in 0..=cuts.len() {
            for c in ['\0', '$', '+', '5', 'Z', 'b', '\u{3b1}', '\u{10ffff}'] {
                if cuts[..from].iter().all(|&cut| cut < c) {
                    let expected = cuts.partition_point(|&cut| cut < c);
                    assert_eq!(gallop(&cuts, from, c), expected, "from {from}, {c:?}");
                }
            }
        }
    }

    fn partition(labels: &[CharSet]) -> (Classes, Vec<Vec<ClassId>>) {
        let refs: Vec<&CharSet> = labels.iter().collect();
        Classes::new(&refs, &Budget::unlimited()).expect("no deadline")
    }

    /// Asserts every invariant of the module docs except order independence.
    fn assert_partition(labels: &[CharSet], classes: &Classes, lists: &[Vec<ClassId>]) {
        let all: Vec<(ClassId, &CharSet)> = classes.iter().collect();
        assert_eq!(all.len(), classes.len());
        let mut union = CharSet::empty();
        for (i, &(id, class)) in all.iter().enumerate() {
            assert_eq!(id.index(), i);
            assert!(!class.is_empty());
            assert!(union.is_disjoint(class), "class {i} overlaps an earlier one");
            union = union.union(class);
            for &(lo, hi) in class.ranges() {
                assert_eq!((classes.class_of(lo), classes.class_of(hi)), (id, id));
            }
        }
        assert!(union.is_full());
        assert!(all.windows(2).all(|pair| pair[0].1.first() < pair[1].1.first()), "not canonical");
        assert_eq!(lists.len(), labels.len());
        for (label, list) in labels.iter().zip(lists) {
            assert!(list.windows(2).all(|pair| pair[0] < pair[1]), "list not ascending");
            let joined = list
                .iter()
                .filter_map(|&id| classes.class(id))
                .fold(CharSet::empty(), |acc, class| acc.union(class));
            assert_eq!(&joined, label);
        }
        let signatures: Vec<Vec<bool>> = all
            .iter()
            .map(|&(id, _)| lists.iter().map(|list| list.contains(&id)).collect())
            .collect();
        for (i, a) in signatures.iter().enumerate() {
            assert!(!signatures[..i].contains(a), "class {i} is not distinguished by any label");
        }
    }

    /// Asserts that the refinement of `partitions` is the partition of all their classes,
    /// each of its classes inside the class its row names, with the smallest members read
    /// off the boundaries.
    fn assert_refinement(partitions: &[Classes]) {
        let refs: Vec<&Classes> = partitions.iter().collect();
        let (refined, rows) = Classes::refinement(&refs, &Budget::unlimited()).unwrap();
        let all: Vec<CharSet> = partitions
            .iter()
            .flat_map(|classes| classes.iter().map(|(_, class)| class.clone()))
            .collect();
        assert_eq!(refined, partition(&all).0);
        assert_eq!(rows.len(), refined.len() * refs.len());
        for (id, class) in refined.iter() {
            for (side, classes) in refs.iter().enumerate() {
                let holder = rows[id.index() * refs.len() + side];
                assert!(class.is_subset(classes.class(holder).unwrap()));
            }
        }
        // Read backwards, the classes in descending order spell their smallest members up.
        let smallest: String = refined.iter().filter_map(|(_, class)| class.first()).collect();
        let backwards = (0..refined.len()).rev().map(ClassId::new);
        assert_eq!(refined.spell_backwards(backwards), smallest);
    }

    #[test]
    fn refinements_of_many_classes_are_hashed_alike() {
        // 3 partitions of 41 classes: 68,921 tuples, past the dense table.
        let windows = |from: u32, step: u32| -> Classes {
            let labels: Vec<CharSet> = (0..40)
                .filter_map(|i| char::from_u32(from + i * step))
                .map(|lo| CharSet::range(lo, char::from_u32(lo as u32 + step / 2).unwrap()))
                .collect();
            partition(&labels).0
        };
        let partitions = [windows(0x30, 2), windows(0x41, 3), windows(0x3a0, 1)];
        assert!(partitions.iter().map(Classes::len).product::<usize>() > DENSE_TUPLES);
        assert_refinement(&partitions);
    }

    #[test]
    fn no_labels_is_single() {
        assert_eq!(partition(&[]), (Classes::single(), vec![]));
        assert_eq!(partition(&[CharSet::empty()]), (Classes::single(), vec![vec![]]));
        assert_eq!(partition(&[CharSet::full()]), (Classes::single(), vec![vec![ClassId(0)]]));
        assert_eq!(Classes::single().len(), 1);
        assert!(!Classes::single().is_empty());
        assert_eq!(Classes::single().class_of(char::MAX), ClassId(0));
        assert_eq!(Classes::single().class(ClassId(1)), None);
    }

    #[test]
    fn surrogate_gap_and_extremes() {
        let labels = [
            CharSet::singleton('\u{D7FF}'),
            CharSet::range('\u{E000}', char::MAX),
            CharSet::singleton('\0'),
        ];
        let (classes, lists) = partition(&labels);
        assert_partition(&labels, &classes, &lists);
        let expected = [
            CharSet::singleton('\0'),
            CharSet::range('\u{1}', '\u{D7FE}'),
            CharSet::singleton('\u{D7FF}'),
            CharSet::range('\u{E000}', char::MAX),
        ];
        let got: Vec<CharSet> = classes.iter().map(|(_, class)| class.clone()).collect();
        assert_eq!(got, expected);
        assert_eq!(lists, [vec![ClassId(2)], vec![ClassId(3)], vec![ClassId(0)]]);
    }

    #[test]
    fn split_classes_keep_separate_pieces() {
        // 'b' and 'y' are in the same labels, so they share a class of two ranges.
        let labels = [
            CharSet::range('a', 'z'),
            std::iter::once('a').chain('c'..='x').chain(['z']).collect(),
        ];
        let (classes, lists) = partition(&labels);
        assert_partition(&labels, &classes, &lists);
        assert_eq!(classes.len(), 3);
        assert_eq!(classes.class(classes.class_of('y')), Some(&CharSet::from_iter(['b', 'y'])));
    }

    #[test]
    fn the_most_labels_swept_are_partitioned_as_refined() {
        // Overlapping windows of four letters and a few Unicode classes, 64 labels in all.
        let mut labels: Vec<CharSet> = (0..60u32)
            .filter_map(|offset| char::from_u32(0x61 + offset * 3))
            .map(|lo| CharSet::range(lo, char::from_u32(lo as u32 + 3).unwrap_or(char::MAX)))
            .collect();
        for class in ["\\w", "\\s", "\\d", "[^a]"] {
            labels.push(CharSet::parse(&format!("[{class}]")).unwrap());
        }
        assert_eq!(labels.len(), SWEEP_LABELS);
        let refs: Vec<&CharSet> = labels.iter().collect();
        let swept = sweep(&refs, &Budget::unlimited()).unwrap();
        assert_partition(&labels, &swept.0, &swept.1);
        assert_eq!(swept, refine(&refs, &Budget::unlimited()).unwrap());
    }

    #[test]
    fn expired_deadline_times_out() {
        let labels = [CharSet::range('a', 'z'), CharSet::singleton('q')];
        let refs: Vec<&CharSet> = labels.iter().collect();
        let budget = Budget::unlimited().with_deadline(Instant::now());
        assert_eq!(
            Classes::new(&refs, &budget),
            Err(BudgetError::Timeout { op: Operation::Partition })
        );
    }

    #[test]
    fn quadratic_input_stops_at_the_deadline() {
        // Nested labels [c, U+10FFFF]: label i covers all intervals from i on, O(n²) in all.
        let labels: Vec<CharSet> =
            (0..50_000).filter_map(char::from_u32).map(|c| CharSet::range(c, char::MAX)).collect();
        let refs: Vec<&CharSet> = labels.iter().collect();
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + Duration::from_millis(50));
        assert_eq!(
            Classes::new(&refs, &budget),
            Err(BudgetError::Timeout { op: Operation::Partition })
        );
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    /// Interesting code points; every generated range has its endpoints here.
    fn pool() -> Vec<char> {
        let mut pool = vec!['\0', '\u{D7FE}', '\u{D7FF}', '\u{E000}', '\u{E001}', '\u{10FFFE}'];
        pool.push(char::MAX);
        pool.extend('a'..='z');
        pool
    }

    fn label() -> impl Strategy<Value = CharSet> {
        prop::collection::vec((select(pool()), select(pool())), 0..4).prop_map(CharSet::from_ranges)
    }

    /// Labels together with a shuffled copy that repeats some of them.
    fn labels_and_variant() -> impl Strategy<Value = (Vec<CharSet>, Vec<CharSet>)> {
        prop::collection::vec(label(), 0..7).prop_flat_map(|labels| {
            let original = labels.clone();
            let repeated =
                prop::collection::vec(0..labels.len().max(1), 0..3).prop_map(move |picks| {
                    picks.iter().filter_map(|&i| labels.get(i)).chain(&labels).cloned().collect()
                });
            (Just(original), repeated.prop_shuffle())
        })
    }

    proptest! {
        /// Merging classes by groups gives the partition of the groups' unions.
        #[test]
        fn merged_classes_are_the_partition_of_the_unions(
            labels in prop::collection::vec(label(), 0..7),
            picks in prop::collection::vec(0..4usize, 1..64),
        ) {
            let (classes, _) = partition(&labels);
            // Groups numbered densely by first pick, as minimization numbers them.
            let mut dense = HashMap::new();
            let group_of: Vec<usize> = (0..classes.len())
                .map(|class| picks[class % picks.len()])
                .map(|pick| { let next = dense.len(); *dense.entry(pick).or_insert(next) })
                .collect();
            let mut unions = vec![CharSet::empty(); dense.len()];
            for ((_, class), &group) in classes.iter().zip(&group_of) {
                unions[group] = unions[group].union(class);
            }
            let (expected, lists) = partition(&unions);
            let (merged, old_to_new) = classes.merged(&group_of);
            prop_assert_eq!(&merged, &expected);
            for (old, &group) in group_of.iter().enumerate() {
                prop_assert_eq!(&lists[group], &vec![old_to_new[old]]);
            }
        }

        /// The refinement of partitions is the partition of all their classes.
        #[test]
        fn refinements_are_the_partitions_of_all_classes(
            sides in prop::collection::vec(prop::collection::vec(label(), 0..5), 1..4),
        ) {
            assert_refinement(&sides.iter().map(|labels| partition(labels).0).collect::<Vec<_>>());
        }

        #[test]
        fn partition_invariants((labels, variant) in labels_and_variant()) {
            let (classes, lists) = partition(&labels);
            assert_partition(&labels, &classes, &lists);
            let refs: Vec<&CharSet> = labels.iter().collect();
            let refined = refine(&refs, &Budget::unlimited()).expect("no deadline");
            let swept = (classes.clone(), lists.clone());
            prop_assert_eq!(&refined, &swept, "sweep and refinement differ");
            let (same, variant_lists) = partition(&variant);
            prop_assert_eq!(&same, &classes);
            let by_label: HashMap<&CharSet, &Vec<ClassId>> = labels.iter().zip(&lists).collect();
            for (label, list) in variant.iter().zip(&variant_lists) {
                prop_assert_eq!(by_label.get(label), Some(&list));
            }
        }
    }
}
