//! Smart constructors: every node is built through these, which simplify as they build.
//!
//! # Overview
//! [`Exprs::concat`], [`Exprs::alt`] and [`Exprs::repeat`] (with [`Exprs::star`] and
//! [`Exprs::opt`]) apply the algebraic laws below whenever they apply, so the result of
//! state elimination is already simplified bottom-up, and so is every rewrite of the local
//! search.
//!
//! # Algorithm
//! Each rule is a language identity, so the constructors never change a language:
//! - **Units and zeros.** `ε` vanishes in sequences, `∅` kills a sequence and vanishes in an
//!   alternation; `x{0}` is `ε`, `x{1}` is `x`.
//! - **Runs.** Neighbours with the same base add their counts: `x x` is `x{2}`, `x x*` is
//!   `x+`, `x* x` too, `x? x?` is `x{0,2}`, `x x?` is `x{1,2}`, `x{a,b} x{c,d}` is
//!   `x{a+c,b+d}` (always exact: sums of two intervals of counts form an interval). A
//!   repeated sequence absorbs a copy beside it: `(ab)* a b` is `(ab)+`, and a long sequence
//!   written twice in a row is counted (`[0-9a-f]{4}-[0-9a-f]{4}-` is `([0-9a-f]{4}-){2}`).
//! - **Star absorption.** `X* Y` where `Y` is nullable and within `X*` is `X*`; with
//!   `Y = Z{n,m}` and `Z` within `X*`, it is `X* Z{n}` (`[ab]* a+` is `[ab]*a`). Mirrored for
//!   `Y X*`.
//! - **Alternations.** Flattened; single characters merge into one class (`a|b` is `[ab]`);
//!   duplicates go; a branch contained in another goes (`x|x*` is `x*`, `a|[ab]*` is `[ab]*`:
//!   containment is checked cheaply and conservatively by [`Exprs::contains`]); repetitions
//!   of one base with touching counts merge (`x|x{2,3}` is `x{1,3}`); `ε` makes the rest
//!   optional (`(x|)` is `x?`) unless a branch is nullable already or is `y{1,m}`, which
//!   becomes `y{0,m}`. Branches are sorted by their smallest first character, then size.
//! - **Factoring.** Branches with a common first (or last) piece are factored when that is no
//!   longer: `abc|abd` is `ab[cd]`, `a|ab` is `ab?`, `ab|b` is `a?b`; a repetition lends one
//!   copy as a piece (`aa|ab` is `a[ab]`). Alternations of a few branches also try letting
//!   the first factoring lengthen them slightly and keep that when the result is shorter:
//!   `xZ|Z|x?Y` is `x?(Y|Z)` only through `x?Z`.
//! - **Repetitions.** `(x{a,b}){c,d}` is `x{ac,bd}` when the counts in between are all
//!   reachable (`(x?){3}` is `x{0,3}`, but `(x{2})*` stays); a nullable `x` drops the
//!   minimum (`(x?)+` is `x*`); under a star, nullable branches and items lose their
//!   optionality (`(a|b*)*` is `(a|b)*`, `(a*b*)*` is `(a|b)*`, so `[ab]*`).
//!
//! # Invariants
//! The constructors keep the node invariants of `ast.rs`, and never produce a factored
//! alternation deeper than [`SOFT_DEPTH`]: factoring is optional, and deep nesting would
//! make the pattern unreadable and, past `NEST_LIMIT`, unparsable. Their recursion is
//! bounded: at most [`MAX_NESTED_FACTORING`] factorings run inside one another.

use rustc_hash::FxHashMap as HashMap;

use super::ast::{Exprs, Kind, NodeId};
use crate::alphabet::CharSet;

/// Factoring never builds a node deeper than this.
const SOFT_DEPTH: u32 = 160;
/// At most this many factorings run inside one another: factoring the rests of branches
/// with a common piece is an alternation that factors again, once per common piece, and
/// two long branches with a long common prefix would otherwise recurse once per piece of
/// it, past any stack.
const MAX_NESTED_FACTORING: u32 = 64;
/// Alternations of 3 to this many branches also try a relaxed factoring.
const MAX_RELAXED_BRANCHES: usize = 12;
/// How much longer a relaxed factoring may make its branches.
const RELAXED_SLACK: usize = 3;
/// Alternations with more branches than this skip the quadratic containment pass.
const MAX_CONTAINMENT_BRANCHES: usize = 64;
/// A sequence written twice in a row becomes a counted repetition above this size.
const MIN_COUNTED_SEQUENCE_SIZE: usize = 8;
/// How far back a sequence looks for a repetition of the pieces just added.
const MAX_SEQUENCE_LOOKBACK: usize = 16;

/// The result of trying to merge two neighbours of a sequence.
enum Merged {
    None,
    One(NodeId),
    Two(NodeId, NodeId),
}

impl Exprs {
    pub(super) fn empty(&mut self) -> NodeId {
        self.intern(Kind::Empty)
    }

    pub(super) fn epsilon(&mut self) -> NodeId {
        self.intern(Kind::Epsilon)
    }

    /// One character of `set`; the empty language for the empty set.
    pub(super) fn class(&mut self, set: CharSet) -> NodeId {
        if set.is_empty() { self.empty() } else { self.intern(Kind::Class(set)) }
    }

    pub(super) fn star(&mut self, inner: NodeId) -> NodeId {
        self.repeat(inner, 0, None)
    }

    pub(super) fn opt(&mut self, inner: NodeId) -> NodeId {
        self.repeat(inner, 0, Some(1))
    }

    /// `inner{min,max}`, `max: None` unbounded; `min <= max`.
    pub(super) fn repeat(&mut self, inner: NodeId, min: u32, max: Option<u32>) -> NodeId {
        debug_assert!(max.is_none_or(|max| min <= max));
        match self.kind(inner) {
            Kind::Empty if min == 0 => return self.epsilon(),
            Kind::Empty => return inner,
            Kind::Epsilon => return inner,
            _ => {}
        }
        if max == Some(0) {
            return self.epsilon();
        }
        if (min, max) == (1, Some(1)) {
            return inner;
        }
        let nullable = self.info(inner).nullable;
        let min = if nullable { 0 } else { min };
        if nullable && max == Some(1) {
            return inner;
        }
        match self.kind(inner).clone() {
            Kind::Repeat { inner: base, min: inner_min, max: inner_max } => {
                if let Some((lo, hi)) = nested_counts(inner_min, inner_max, min, max) {
                    return self.repeat(base, lo, hi);
                }
            }
            Kind::Alt(branches) if min == 0 && max.is_none() => {
                let stripped: Vec<NodeId> =
                    branches.iter().map(|&b| self.strip_optional(b)).collect();
                if stripped[..] != branches[..] {
                    let alt = self.alt(&stripped);
                    return self.star(alt);
                }
            }
            Kind::Concat(items) if min == 0 && max.is_none() && nullable => {
                let stripped: Vec<NodeId> = items.iter().map(|&b| self.strip_optional(b)).collect();
                let alt = self.alt(&stripped);
                if alt != inner {
                    return self.star(alt);
                }
            }
            _ => {}
        }
        self.intern(Kind::Repeat { inner, min, max })
    }

    /// A node whose star is the star of `node`: `y` for `y{0,m}` (m >= 1), else `node`.
    fn strip_optional(&mut self, node: NodeId) -> NodeId {
        match *self.kind(node) {
            Kind::Repeat { inner, min: 0, .. } => inner,
            _ => node,
        }
    }

    /// The sequence of `items`.
    pub(super) fn concat(&mut self, items: &[NodeId]) -> NodeId {
        let mut out = Vec::with_capacity(items.len());
        for &item in items {
            match self.kind(item) {
                Kind::Empty => return item,
                _ => self.push_item(&mut out, item),
            }
        }
        match out.as_slice() {
            [] => self.epsilon(),
            &[only] => only,
            _ => self.intern(Kind::Concat(out.into())),
        }
    }

    /// Appends `item` to the sequence `out`, merging it with its neighbours.
    fn push_item(&mut self, out: &mut Vec<NodeId>, item: NodeId) {
        let mut pending = vec![item];
        while let Some(item) = pending.pop() {
            match self.kind(item) {
                Kind::Epsilon => continue,
                Kind::Concat(items) => {
                    pending.extend(items.iter().rev());
                    continue;
                }
                _ => {}
            }
            if let Some(&top) = out.last() {
                match self.merge_pair(top, item) {
                    Merged::One(merged) => {
                        out.pop();
                        pending.push(merged);
                        continue;
                    }
                    Merged::Two(left, right) => {
                        out.pop();
                        out.extend([left, right]);
                        continue;
                    }
                    Merged::None => {}
                }
            }
            if let Some(merged) = self.absorb_preceding_sequence(out, item) {
                pending.push(merged);
                continue;
            }
            out.push(item);
            if let Some(merged) = self.absorb_following_sequence(out) {
                pending.push(merged);
            }
        }
    }

    /// Merges two neighbours `left right` of a sequence, if a rule applies.
    fn merge_pair(&mut self, left: NodeId, right: NodeId) -> Merged {
        let (left_base, left_min, left_max) = self.as_repeat(left);
        let (right_base, right_min, right_max) = self.as_repeat(right);
        if left_base == right_base {
            let max = match (left_max, right_max) {
                (Some(a), Some(b)) => a.checked_add(b).map(Some),
                _ => Some(None),
            };
            if let (Some(min), Some(max)) = (left_min.checked_add(right_min), max) {
                return Merged::One(self.repeat(left_base, min, max));
            }
            return Merged::None;
        }
        if let Some(merged) = self.absorb_beside_star(left, right, true) {
            return merged;
        }
        self.absorb_beside_star(right, left, false).unwrap_or(Merged::None)
    }

    /// `X* Y` (or `Y X*` when `!star_first`) where `Y` lies within `X*`.
    fn absorb_beside_star(
        &mut self,
        star: NodeId,
        other: NodeId,
        star_first: bool,
    ) -> Option<Merged> {
        let Kind::Repeat { min: 0, max: None, .. } = *self.kind(star) else { return None };
        if self.info(other).nullable {
            return self.contains(star, other).then_some(Merged::One(star));
        }
        let Kind::Repeat { inner, min, max } = *self.kind(other) else { return None };
        if max == Some(min) || !self.contains(star, inner) {
            return None;
        }
        let exact = self.repeat(inner, min, Some(min));
        Some(if star_first { Merged::Two(star, exact) } else { Merged::Two(exact, star) })
    }

    /// `(base, min, max)` with `node` = `base{min,max}`; `(node, 1, Some(1))` for a
    /// non-repetition.
    fn as_repeat(&self, node: NodeId) -> (NodeId, u32, Option<u32>) {
        match *self.kind(node) {
            Kind::Repeat { inner, min, max } => (inner, min, max),
            _ => (node, 1, Some(1)),
        }
    }

    /// `S (S){n,m}` → `(S){n+1,m+1}` when `out` ends with the items of the sequence that
    /// `item` repeats: pops them and returns the merged repetition.
    fn absorb_preceding_sequence(&mut self, out: &mut Vec<NodeId>, item: NodeId) -> Option<NodeId> {
        let Kind::Repeat { inner, min, max } = *self.kind(item) else { return None };
        let Kind::Concat(sequence) = self.kind(inner) else { return None };
        if !out.ends_with(sequence) {
            return None;
        }
        out.truncate(out.len() - sequence.len());
        Some(self.repeat(inner, min.checked_add(1)?, max.map(|max| max.saturating_add(1))))
    }

    /// `(S){n,m} S` → `(S){n+1,m+1}` when `out` ends that way: pops and returns the merge.
    fn absorb_following_sequence(&mut self, out: &mut Vec<NodeId>) -> Option<NodeId> {
        for len in 2..=MAX_SEQUENCE_LOOKBACK.min(out.len().saturating_sub(1)) {
            let at = out.len() - 1 - len;
            let Kind::Repeat { inner, min, max } = *self.kind(out[at]) else { continue };
            let Kind::Concat(sequence) = self.kind(inner) else { continue };
            if sequence[..] == out[at + 1..] {
                out.truncate(at);
                return Some(self.repeat(
                    inner,
                    min.checked_add(1)?,
                    max.map(|max| max.saturating_add(1)),
                ));
            }
        }
        // `S S` with a long `S` (a large class, say): `(S){2}` is shorter. Short ones stay
        // flat, where factoring can still see their pieces.
        for len in 2..=(MAX_SEQUENCE_LOOKBACK / 2).min(out.len() / 2) {
            let (first, second) = out[out.len() - 2 * len..].split_at(len);
            if first != second {
                continue;
            }
            let sequence = first.to_vec();
            let size: usize = sequence.iter().map(|&item| self.size(item)).sum();
            if size > MIN_COUNTED_SEQUENCE_SIZE {
                out.truncate(out.len() - 2 * len);
                let inner = self.concat(&sequence);
                return Some(self.repeat(inner, 2, Some(2)));
            }
        }
        None
    }

    /// The alternation of `branches`.
    pub(super) fn alt(&mut self, branches: &[NodeId]) -> NodeId {
        self.calls = self.calls.saturating_add(1);
        let mut nullable = false;
        let mut flat = Vec::with_capacity(branches.len());
        self.flatten_into(branches, &mut flat, &mut nullable);
        // The result depends only on the set of branches, and elimination and factoring ask
        // for the same alternations again and again, so each is made once.
        let mut key = flat.clone();
        key.sort_unstable();
        key.dedup();
        let key = (key.into_boxed_slice(), nullable, self.relaxing);
        if let Some(&done) = self.alt_memo.get(&key) {
            return done;
        }
        let n_branches = flat.len() + usize::from(nullable);
        let mut best = self.alt_of(flat.clone(), nullable, None);
        if (3..=MAX_RELAXED_BRANCHES).contains(&n_branches) && !self.relaxing {
            self.relaxing = true;
            let relaxed =
                [true, false].map(|front| self.alt_of(flat.clone(), nullable, Some(front)));
            self.relaxing = false;
            let cost = |exprs: &Exprs, node: NodeId| (exprs.size(node), exprs.info(node).groups);
            for node in relaxed {
                if cost(self, node) < cost(self, best) {
                    best = node;
                }
            }
        }
        self.alt_memo.insert(key, best);
        best
    }

    /// The alternation of the flattened `flat` (and `ε` when `nullable`). With `relax`, the
    /// first factoring on that side (`true`: prefixes) may lengthen the pattern a little, in
    /// case it lets the other side factor more: `\.[0-9]+Z|Z|(\.[0-9]+)?[+-]` only becomes
    /// `(\.[0-9]+)?(Z|[+-])` through the longer `(\.[0-9]+)?Z`.
    fn alt_of(&mut self, mut flat: Vec<NodeId>, mut nullable: bool, relax: Option<bool>) -> NodeId {
        for round in 0..4 {
            if self.place_nullability(&mut flat, &mut nullable) {
                let placed = std::mem::take(&mut flat);
                self.flatten_into(&placed, &mut flat, &mut nullable);
            }
            self.normalize_branches(&mut flat, &mut nullable);
            if flat.len() < 2 {
                break;
            }
            let slack =
                |front: bool| if round == 0 && relax == Some(front) { RELAXED_SLACK } else { 0 };
            let (factored, by_first) = match relax {
                Some(false) => self.factor(flat, false, slack(false)),
                _ => self.factor(flat, true, slack(true)),
            };
            let (factored, by_second) = match relax {
                Some(false) => self.factor(factored, true, 0),
                _ => self.factor(factored, false, 0),
            };
            let mut refolded = Vec::with_capacity(factored.len());
            self.flatten_into(&factored, &mut refolded, &mut nullable);
            flat = refolded;
            if !by_first && !by_second {
                break;
            }
        }
        self.sort_branches(&mut flat);
        let node = match flat.as_slice() {
            [] => return if nullable { self.epsilon() } else { self.empty() },
            &[only] => only,
            _ => self.intern(Kind::Alt(flat.into())),
        };
        if nullable { self.opt(node) } else { node }
    }

    /// Appends the branches of `branches` to `flat`, flattening alternations, merging single
    /// characters into one class and recording `ε` in `nullable`.
    fn flatten_into(&mut self, branches: &[NodeId], flat: &mut Vec<NodeId>, nullable: &mut bool) {
        let mut class = CharSet::empty();
        let mut stack: Vec<NodeId> = branches.iter().rev().copied().collect();
        while let Some(branch) = stack.pop() {
            match self.kind(branch) {
                Kind::Empty => {}
                Kind::Epsilon => *nullable = true,
                Kind::Alt(items) => stack.extend(items.iter().rev()),
                &Kind::Repeat { inner, min: 0, max: Some(1) }
                    if matches!(self.kind(inner), Kind::Alt(_)) =>
                {
                    *nullable = true;
                    stack.push(inner);
                }
                Kind::Class(set) => class = class.union(set),
                _ => flat.push(branch),
            }
        }
        if !class.is_empty() {
            flat.push(self.class(class));
        }
    }

    /// Sorts, deduplicates, merges and prunes the branches of an alternation.
    fn normalize_branches(&mut self, flat: &mut Vec<NodeId>, nullable: &mut bool) {
        let sets: Vec<CharSet> = flat
            .iter()
            .filter_map(|&b| match self.kind(b) {
                Kind::Class(set) => Some(set.clone()),
                _ => None,
            })
            .collect();
        if sets.len() > 1 {
            flat.retain(|&b| !matches!(self.kind(b), Kind::Class(_)));
            let union = sets.iter().fold(CharSet::empty(), |acc, set| acc.union(set));
            let class = self.class(union);
            flat.push(class);
        }
        self.sort_branches(flat);
        flat.dedup();
        self.merge_repeats(flat);
        if flat.len() <= MAX_CONTAINMENT_BRANCHES {
            let mut idx = 0;
            while idx < flat.len() {
                let branch = flat[idx];
                let absorbed =
                    flat.iter().any(|&other| other != branch && self.contains(other, branch));
                if absorbed {
                    flat.remove(idx);
                } else {
                    idx += 1;
                }
            }
        }
        if *nullable && flat.iter().any(|&b| self.info(b).nullable) {
            *nullable = false;
        }
        self.sort_branches(flat);
    }

    /// Chooses which branch matches the empty string when the alternation does, where it
    /// costs least: a branch that is nullable anyway (`a?|b*` is `a|b*`), else a `y{1,m}`
    /// that becomes `y{0,m}` (`c?|(ab)+` is `c|(ab)*`), else the whole alternation
    /// (`a?|(bc)?` is `(a|bc)?`). Returns whether a branch changed.
    fn place_nullability(&mut self, flat: &mut [NodeId], nullable: &mut bool) -> bool {
        let is_optional = |exprs: &Exprs, b: NodeId| {
            matches!(exprs.kind(b), Kind::Repeat { min: 0, max: Some(1), .. })
        };
        let n_optional = flat.iter().filter(|&&b| is_optional(self, b)).count();
        if !*nullable && n_optional == 0 {
            return false;
        }
        let plain_nullable = flat.iter().any(|&b| self.info(b).nullable && !is_optional(self, b));
        let plus = flat.iter().position(|&b| matches!(self.kind(b), Kind::Repeat { min: 1, .. }));
        let carrier_changed = if plain_nullable {
            *nullable = false;
            false
        } else if let Some(idx) = plus {
            let (base, _, max) = self.as_repeat(flat[idx]);
            flat[idx] = self.repeat(base, 0, max);
            *nullable = false;
            true
        } else if *nullable || n_optional >= 2 {
            *nullable = true;
            false
        } else {
            return false;
        };
        for branch in flat.iter_mut() {
            if let Kind::Repeat { inner, min: 0, max: Some(1) } = *self.kind(*branch) {
                *branch = inner;
            }
        }
        carrier_changed || n_optional > 0
    }

    fn sort_branches(&self, flat: &mut [NodeId]) {
        flat.sort_by_key(|&b| (self.info(b).first_min, self.size(b), b));
    }

    /// Merges branches `x{a,b}` and `x{c,d}` of one base whose counts touch or overlap.
    fn merge_repeats(&mut self, flat: &mut Vec<NodeId>) {
        let mut idx = 0;
        while idx < flat.len() {
            let (base, min, max) = self.as_repeat(flat[idx]);
            let partner = (idx + 1..flat.len()).find_map(|other| {
                let (other_base, other_min, other_max) = self.as_repeat(flat[other]);
                let touches =
                    |lo: u32, hi: Option<u32>| hi.is_none_or(|hi| lo <= hi.saturating_add(1));
                (other_base == base && touches(other_min, max) && touches(min, other_max))
                    .then_some((other, other_min, other_max))
            });
            match partner {
                Some((other, other_min, other_max)) => {
                    let hi = max.zip(other_max).map(|(a, b)| a.max(b));
                    flat[idx] = self.repeat(base, min.min(other_min), hi);
                    flat.remove(other);
                }
                None => idx += 1,
            }
        }
    }

    /// Factors branches with a common first (`front`) or last piece where that makes them at
    /// most `slack` characters longer; returns the branches and whether anything was factored.
    fn factor(&mut self, branches: Vec<NodeId>, front: bool, slack: usize) -> (Vec<NodeId>, bool) {
        if self.factoring >= MAX_NESTED_FACTORING {
            return (branches, false);
        }
        self.factoring += 1;
        let mut groups: Vec<(NodeId, Vec<(NodeId, NodeId)>)> = Vec::new();
        for branch in branches {
            let (piece, rest) = self.split(branch, front);
            match groups.iter_mut().find(|(head, _)| *head == piece) {
                Some((_, members)) => members.push((branch, rest)),
                None => groups.push((piece, vec![(branch, rest)])),
            }
        }
        let mut out = Vec::new();
        let mut changed = false;
        for (piece, members) in groups {
            if members.len() == 1 {
                out.push(members[0].0);
                continue;
            }
            let rests: Vec<NodeId> = members.iter().map(|&(_, rest)| rest).collect();
            let rest = self.alt(&rests);
            let factored =
                if front { self.concat(&[piece, rest]) } else { self.concat(&[rest, piece]) };
            let before = members.iter().map(|&(branch, _)| self.size(branch)).sum::<usize>()
                + members.len()
                - 1;
            let info = self.info(factored);
            if info.size <= before + slack && info.depth <= SOFT_DEPTH {
                out.push(factored);
                changed = true;
            } else {
                out.extend(members.iter().map(|&(branch, _)| branch));
            }
        }
        self.factoring -= 1;
        (out, changed)
    }

    /// The first (`front`) or last piece of `node` and the rest: the ends of a sequence, one
    /// copy of a repetition `x{n,m}` with `n >= 1`, or the node itself and `ε`.
    fn split(&mut self, node: NodeId, front: bool) -> (NodeId, NodeId) {
        match self.kind(node).clone() {
            Kind::Concat(items) => {
                if front {
                    (items[0], self.concat(&items[1..]))
                } else {
                    let (last, rest) = items.split_last().expect("sequences are not empty");
                    (*last, self.concat(rest))
                }
            }
            Kind::Repeat { inner, min, max } if min >= 1 => {
                (inner, self.repeat(inner, min - 1, max.map(|max| max - 1)))
            }
            _ => (node, self.epsilon()),
        }
    }

    /// The node of the reversed language.
    pub(super) fn reverse(&mut self, node: NodeId, memo: &mut HashMap<NodeId, NodeId>) -> NodeId {
        if let Some(&done) = memo.get(&node) {
            return done;
        }
        let reversed = match self.kind(node).clone() {
            Kind::Empty | Kind::Epsilon | Kind::Class(_) => node,
            Kind::Concat(items) => {
                let items: Vec<NodeId> =
                    items.iter().rev().map(|&item| self.reverse(item, memo)).collect();
                self.concat(&items)
            }
            Kind::Alt(branches) => {
                let branches: Vec<NodeId> =
                    branches.iter().map(|&b| self.reverse(b, memo)).collect();
                self.alt(&branches)
            }
            Kind::Repeat { inner, min, max } => {
                let inner = self.reverse(inner, memo);
                self.repeat(inner, min, max)
            }
        };
        memo.insert(node, reversed);
        reversed
    }

    /// `parent` with its child at `idx` replaced by `child`, rebuilt through the constructors.
    pub(super) fn with_child(&mut self, parent: NodeId, idx: usize, child: NodeId) -> NodeId {
        match self.kind(parent).clone() {
            Kind::Concat(mut items) => {
                items[idx] = child;
                self.concat(&items)
            }
            Kind::Alt(mut branches) => {
                branches[idx] = child;
                self.alt(&branches)
            }
            Kind::Repeat { min, max, .. } => self.repeat(child, min, max),
            Kind::Empty | Kind::Epsilon | Kind::Class(_) => parent,
        }
    }
}

/// The counts of `(x{a,b}){min,max}` as one repetition of `x`, when every count in between
/// is reachable: the intervals `[k·a, k·b]` for consecutive `k` must touch. The gap is widest
/// at the smallest `k`, so checking `k = min` suffices.
fn nested_counts(a: u32, b: Option<u32>, min: u32, max: Option<u32>) -> Option<(u32, Option<u32>)> {
    let single_count = max == Some(min);
    let contiguous = single_count
        || match b {
            None => min >= 1 || a <= 1,
            Some(b) => (u64::from(min) + 1) * u64::from(a) <= u64::from(min) * u64::from(b) + 1,
        };
    if !contiguous {
        return None;
    }
    let lo = min.checked_mul(a)?;
    let hi = match (max, b) {
        (Some(max), Some(b)) => Some(max.checked_mul(b)?),
        _ => None,
    };
    Some((lo, hi))
}
