//! Products of patterns with gaps (`.*` contexts), written by how their segments interleave.
//!
//! # Overview
//! "Contains X … and contains Y": the minimal DFA of such an intersection remembers the
//! progress in both operands, so its elimination multiplies them out (15,640,606
//! characters for `.*Kein.*Kunde.*` and a session-id extractor, issue 35), where a person
//! writes X before Y, or Y before X, or the two overlapping. [`intersection`] writes that
//! structure. An operand expression `a₀ G a₁ G … G aₙ`, where `G` is the star of every
//! character the product uses (a *gap*) and the *segments* `aᵢ` hold no gap, is cut at its
//! gaps; an operand whose top is an alternation or an optional part (`/run(/.*)?`) is the
//! union of such sequences, over which the product distributes. A difference `A − B` is
//! `A ∩ ¬B`, and [`difference`] writes `¬B` as such sequences first (see below).
//!
//! # Algorithm
//! For two sequences `a₀ G … G aₙ` and `b₀ G … G bₘ` (n, m ≥ 1): the nodes are the start
//! `S`, the end `E`, and the *hubs* `(i, j)`, 1 ≤ i ≤ n, 1 ≤ j ≤ m, where the first operand
//! is in the gap after `aᵢ₋₁` and the second in the gap after `bⱼ₋₁`. For nodes `u < v`,
//! `T(u→v)` is the set of *tight* pieces from `u` to `v`: strings of both operands' parts
//! between `u` and `v` that start where a segment starts (when `u` is a hub) and end where
//! one ends (when `v` is a hub). A string of the product passes hubs, which cut it into such
//! pieces with gaps between, so with the *edges*
//! `E(u→v) = T(u→v) − ⋃_{u<w<v} T(u→w)·G·T(w→v)·G_v` (`G_v` the gap when `v` is a hub,
//! else nothing) the product is the union over the paths `S → w₁ → … → E` of
//! `E(S→w₁)·G·E(w₁→w₂)·G·…·E(wₖ→E)`: by induction on the span, the paths from `u` to `v`
//! followed by `G_v` are `T(u→v)·G_v`, since `T(u→w)·G·T(w→v)` is in `T(u→v)`. An edge where one operand reads one segment and the
//! other stays in its gap is that segment, written as in its operand ("X before Y"); the
//! others (overlaps of X's suffix with Y's prefix, X inside Y, the heads and tails) are
//! computed on automata, which stay small since every position of a connected piece is in a
//! segment, and written by elimination.
//!
//! `¬B`, over the characters `S` of `A`, is `Esc·G ∪ Stay` with `P` the prefixes of `B`'s
//! strings, `R = S* − P` (no continuation enters `B`), the first escapes
//! `Esc = R − R·S⁺` and `Stay = P − B`: "not starting with `U-`" is `([^U]|U[^-]).* | U?`.
//! The same read backwards (suffixes) serves "not ending with `.js`"; both are tried.
//!
//! # Budgets
//! [`Operation::ToRegex`]: every automaton is built under the caller's budget; at most
//! [`MAX_HUBS`] hubs per pair of sequences, [`MAX_FORMS`] sequences per operand, and pieces
//! of at most [`MAX_PIECE_STATES`] states are eliminated: past these there is no candidate.
//!
//! # Invariants
//! A candidate denotes the product exactly when its automata were exact; the caller
//! (`product.rs`) still checks it against the result's minimal DFA.

use super::ast::{Exprs, Kind, NodeId};
use super::{eliminate, search};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError};
use crate::dfa::Dfa;
use crate::enumerate::strings_over;
use crate::ops::rewire::{prefix_closure, suffix_closure};

/// Pairs of sequences with more hubs (gaps of one times gaps of the other) are not split:
/// the edges are computed for every pair of nodes and every hub between.
const MAX_HUBS: usize = 24;
/// An operand spread into more sequences than this (alternations, optional parts) is
/// not split.
const MAX_FORMS: usize = 8;
/// Pieces (edges, products without gaps) whose minimal DFA has more states are not
/// eliminated: they would be the multiplied-out automaton this module avoids.
const MAX_PIECE_STATES: usize = 2048;
/// Pieces and candidates whose expression grows past this size (in rendered characters)
/// are dropped: the candidate is meant to be read.
const MAX_SIZE: usize = 1 << 15;

/// A sequence `a₀ G a₁ G … G aₙ`: its segments, `n + 1` of them.
type Form = Vec<NodeId>;

/// The expression and automaton builders shared by one candidate.
struct Gaps<'b> {
    /// The characters of the product: the gap is `[gap]*`.
    gap: CharSet,
    /// The node of `[gap]*`.
    gap_node: NodeId,
    budget: &'b Budget,
}

/// The intersection of the (restricted) operand expressions `left` and `right`, whose
/// strings use only characters of `chars`, written by the interleavings of their segments;
/// `None` when an operand has no gap or the product is too large to split.
pub(super) fn intersection(
    exprs: &mut Exprs,
    left: NodeId,
    right: NodeId,
    chars: &CharSet,
    budget: &Budget,
) -> Result<Option<NodeId>, BudgetError> {
    let gaps = Gaps::new(exprs, chars, budget);
    let (Some(lefts), Some(rights)) = (gaps.forms(exprs, left), gaps.forms(exprs, right)) else {
        return Ok(None);
    };
    if lefts.iter().chain(&rights).all(|form| form.len() < 2) {
        return Ok(None);
    }
    gaps.product(exprs, &lefts, &rights)
}

/// `left − right`, with `left` the expression of the first operand, whose strings use
/// only characters of `chars`, and `right` the minimal DFA of the second: `left ∩ ¬right`
/// with `¬right` written as sequences (see the module's documentation), prefixes first,
/// then suffixes; the shorter. `None` when neither gives a candidate.
pub(super) fn difference(
    exprs: &mut Exprs,
    left: NodeId,
    right: &Dfa,
    chars: &CharSet,
    budget: &Budget,
) -> Result<Option<NodeId>, BudgetError> {
    let gaps = Gaps::new(exprs, chars, budget);
    let Some(lefts) = gaps.forms(exprs, left) else { return Ok(None) };
    if lefts.iter().all(|form| form.len() < 2) {
        return Ok(None);
    }
    let over = strings_over(chars, budget)?;
    let inside = right.intersection(&over, budget)?;
    let mut best: Option<NodeId> = None;
    for backwards in [false, true] {
        let Some(negated) = gaps.negation(exprs, &inside, &over, backwards)? else { continue };
        if let Some(node) = gaps.product(exprs, &lefts, &negated)?
            && best.is_none_or(|best| super::is_better(exprs, node, best))
        {
            best = Some(node);
        }
    }
    Ok(best)
}

impl<'b> Gaps<'b> {
    fn new(exprs: &mut Exprs, chars: &CharSet, budget: &'b Budget) -> Gaps<'b> {
        let class = exprs.class(chars.clone());
        let gap_node = exprs.star(class);
        Gaps { gap: chars.clone(), gap_node, budget }
    }

    /// Whether `node` is a gap: the star (or `{k,}`) of a class holding every character.
    /// Returns the characters it reads before the gap (`k` copies).
    fn gap_prefix(&self, exprs: &Exprs, node: NodeId) -> Option<u32> {
        let Kind::Repeat { inner, min, max: None } = *exprs.kind(node) else { return None };
        let Kind::Class(set) = exprs.kind(inner) else { return None };
        (set.intersection(&self.gap) == self.gap).then_some(min)
    }

    /// The sequences whose union `node` is: its alternatives and optional parts spread out,
    /// each cut at its gaps. `None` when there would be more than [`MAX_FORMS`].
    fn forms(&self, exprs: &mut Exprs, node: NodeId) -> Option<Vec<Form>> {
        let mut spread: Vec<Vec<NodeId>> = match exprs.kind(node) {
            Kind::Alt(branches) => branches.iter().map(|&branch| vec![branch]).collect(),
            _ => vec![vec![node]],
        };
        // Optional parts and alternatives inside the top sequence, when they hold a gap.
        let mut done = Vec::new();
        while let Some(items) = spread.pop() {
            let flat = flatten(exprs, &items);
            // The first optional part or alternative that holds a gap or a star.
            let split = flat.iter().position(|&item| {
                exprs.info(item).max_len.is_none()
                    && matches!(
                        exprs.kind(item),
                        Kind::Repeat { min: 0, max: Some(1), .. } | Kind::Alt(_)
                    )
            });
            let alternatives = split.and_then(|at| match exprs.kind(flat[at]).clone() {
                Kind::Repeat { inner, min: 0, max: Some(1) } => {
                    Some((at, vec![exprs.epsilon(), inner]))
                }
                Kind::Alt(branches) => Some((at, branches.to_vec())),
                _ => None,
            });
            match alternatives {
                Some((at, branches)) => {
                    for branch in branches {
                        let mut items = flat[..at].to_vec();
                        items.push(branch);
                        items.extend_from_slice(&flat[at + 1..]);
                        spread.push(items);
                    }
                }
                None => done.push(self.cut(exprs, &flat)),
            }
            if spread.len() + done.len() > MAX_FORMS {
                return None;
            }
        }
        Some(done)
    }

    /// `items` cut at its gaps into segments; consecutive gaps are one.
    fn cut(&self, exprs: &mut Exprs, items: &[NodeId]) -> Form {
        let mut segments = Vec::new();
        let mut current: Vec<NodeId> = Vec::new();
        let mut after_gap = false;
        for &item in items {
            match self.gap_prefix(exprs, item) {
                Some(copies) => {
                    let class = exprs.class(self.gap.clone());
                    current.extend((0..copies).map(|_| class));
                    if !(after_gap && current.is_empty()) {
                        segments.push(exprs.concat(&current));
                    }
                    current.clear();
                    after_gap = true;
                }
                None => {
                    current.push(item);
                    after_gap = false;
                }
            }
        }
        segments.push(exprs.concat(&current));
        segments
    }

    /// `¬inside` over `over` (`[gap]*`), as sequences: `Esc·G` and `Stay` read forwards, or
    /// `G·Esc` and `Stay` read backwards (see the module's documentation). `None` when a part
    /// is too large to eliminate, or there is nothing to escape to.
    fn negation(
        &self,
        exprs: &mut Exprs,
        inside: &Dfa,
        over: &Dfa,
        backwards: bool,
    ) -> Result<Option<Vec<Form>>, BudgetError> {
        let budget = self.budget;
        let closure = if backwards {
            suffix_closure(inside, budget)?
        } else {
            prefix_closure(inside, budget)?
        };
        let escaped = over.difference(&closure, budget)?;
        if escaped.is_empty() {
            return Ok(None);
        }
        let class = exprs.class(self.gap.clone());
        let plus = exprs.repeat(class, 1, None);
        let more = self.dfa(exprs, plus)?;
        let longer = if backwards {
            more.concat(&escaped, budget)?
        } else {
            escaped.concat(&more, budget)?
        };
        let first = escaped.difference(&longer, budget)?;
        let stay = closure.difference(inside, budget)?;
        let Some(first) = self.piece(exprs, &first)? else { return Ok(None) };
        let epsilon = exprs.epsilon();
        let mut forms = vec![if backwards { vec![epsilon, first] } else { vec![first, epsilon] }];
        if !stay.is_empty() {
            let Some(stay) = self.piece(exprs, &stay)? else { return Ok(None) };
            let Some(stays) = self.forms(exprs, stay) else { return Ok(None) };
            forms.extend(stays);
        }
        Ok(Some(forms))
    }

    /// The union of the products of every sequence of `lefts` with every one of `rights`.
    fn product(
        &self,
        exprs: &mut Exprs,
        lefts: &[Form],
        rights: &[Form],
    ) -> Result<Option<NodeId>, BudgetError> {
        let mut parts = Vec::with_capacity(lefts.len() * rights.len());
        for left in lefts {
            for right in rights {
                match self.pair(exprs, left, right)? {
                    Some(part) => parts.push(part),
                    None => return Ok(None),
                }
            }
        }
        let node = exprs.alt(&parts);
        Ok((exprs.size(node) <= MAX_SIZE).then_some(node))
    }

    /// The product of two sequences: by hubs when both have a gap, else by elimination.
    fn pair(
        &self,
        exprs: &mut Exprs,
        left: &Form,
        right: &Form,
    ) -> Result<Option<NodeId>, BudgetError> {
        let (n, m) = (left.len() - 1, right.len() - 1);
        if n == 0 || m == 0 {
            let (first, second) = (self.sequence(exprs, left), self.sequence(exprs, right));
            let both =
                self.dfa(exprs, first)?.intersection(&self.dfa(exprs, second)?, self.budget)?;
            return self.piece(exprs, &both);
        }
        if n * m > MAX_HUBS {
            return Ok(None);
        }
        Hubs { gaps: self, sides: [left, right], n, m }.expression(exprs)
    }

    /// The expression of a sequence: its segments joined by gaps.
    fn sequence(&self, exprs: &mut Exprs, form: &[NodeId]) -> NodeId {
        let mut items = Vec::with_capacity(2 * form.len());
        for (idx, &segment) in form.iter().enumerate() {
            if idx > 0 {
                items.push(self.gap_node);
            }
            items.push(segment);
        }
        exprs.concat(&items)
    }

    /// The minimal DFA of `node`.
    fn dfa(&self, exprs: &Exprs, node: NodeId) -> Result<Dfa, BudgetError> {
        let nfa = search::build_nfa(exprs, node, self.budget)?;
        Dfa::from_nfa(&nfa, self.budget)
    }

    /// The expression of a piece by elimination; `None` past [`MAX_PIECE_STATES`] or
    /// [`MAX_SIZE`].
    fn piece(&self, exprs: &mut Exprs, dfa: &Dfa) -> Result<Option<NodeId>, BudgetError> {
        if dfa.n_states() > MAX_PIECE_STATES {
            return Ok(None);
        }
        let eliminated = eliminate(dfa, exprs, self.budget, Some(MAX_SIZE))?;
        Ok(eliminated.map(|eliminated| eliminated.node))
    }
}

/// The items of the sequence `items`, nested sequences spread out.
fn flatten(exprs: &Exprs, items: &[NodeId]) -> Vec<NodeId> {
    let mut flat = Vec::with_capacity(items.len());
    for &item in items {
        match exprs.kind(item) {
            Kind::Concat(inner) => flat.extend(flatten(exprs, inner)),
            Kind::Epsilon => {}
            _ => flat.push(item),
        }
    }
    flat
}

/// A node of the interleaving: the start, a hub `(i, j)` (1-based gaps), or the end.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Node {
    Start,
    Hub(usize, usize),
    End,
}

/// The interleavings of two sequences with `n` and `m` gaps.
struct Hubs<'g, 'b> {
    gaps: &'g Gaps<'b>,
    sides: [&'g Form; 2],
    n: usize,
    m: usize,
}

impl Hubs<'_, '_> {
    /// The nodes in an order where every edge goes forwards.
    fn nodes(&self) -> Vec<Node> {
        let mut nodes = vec![Node::Start];
        for i in 1..=self.n {
            nodes.extend((1..=self.m).map(|j| Node::Hub(i, j)));
        }
        nodes.push(Node::End);
        nodes
    }

    /// Whether a piece can lead from `u` to `v`.
    fn precedes(u: Node, v: Node) -> bool {
        match (u, v) {
            (Node::Start, Node::Start) | (Node::End, _) | (_, Node::Start) => false,
            (Node::Start, _) | (_, Node::End) => true,
            (Node::Hub(i, j), Node::Hub(k, l)) => i <= k && j <= l && (i, j) != (k, l),
        }
    }

    /// On `side` (0 or 1), the range of segments read from `u` to `v`, empty when none.
    fn segments(&self, side: usize, u: Node, v: Node) -> std::ops::Range<usize> {
        let last = self.sides[side].len() - 1;
        let pick = |i: usize, j: usize| if side == 0 { i } else { j };
        let from = match u {
            Node::Start => 0,
            Node::Hub(i, j) => pick(i, j),
            Node::End => last + 1,
        };
        let to = match v {
            Node::End => last + 1,
            Node::Hub(i, j) => pick(i, j),
            Node::Start => 0,
        };
        from..to.max(from)
    }

    /// On `side`, the part from `u` to `v`: its segments joined by gaps, with a gap before
    /// when `lead` and `u` is a hub, and after when `trail` and `v` is a hub; a lone gap when
    /// it reads no segment.
    fn part(
        &self,
        exprs: &mut Exprs,
        side: usize,
        (u, v): (Node, Node),
        lead: bool,
        trail: bool,
    ) -> NodeId {
        let range = self.segments(side, u, v);
        let gap = self.gaps.gap_node;
        if range.is_empty() {
            return gap;
        }
        let mut items = Vec::new();
        if lead && matches!(u, Node::Hub(..)) {
            items.push(gap);
        }
        for (idx, segment) in range.enumerate() {
            if idx > 0 {
                items.push(gap);
            }
            items.push(self.sides[side][segment]);
        }
        if trail && matches!(v, Node::Hub(..)) {
            items.push(gap);
        }
        exprs.concat(&items)
    }

    /// `T(u→v)`: the tight pieces from `u` to `v`.
    fn tight(&self, exprs: &mut Exprs, u: Node, v: Node) -> Result<Dfa, BudgetError> {
        let budget = self.gaps.budget;
        let first = self.part(exprs, 0, (u, v), true, true);
        let second = self.part(exprs, 1, (u, v), true, true);
        let mut both =
            self.gaps.dfa(exprs, first)?.intersection(&self.gaps.dfa(exprs, second)?, budget)?;
        // At a hub, a segment starts (ends) at the piece's edge, on a side that reads one.
        for (at_hub, lead) in
            [(matches!(u, Node::Hub(..)), false), (matches!(v, Node::Hub(..)), true)]
        {
            if !at_hub {
                continue;
            }
            let mut edge = Dfa::empty();
            for side in 0..2 {
                if !self.segments(side, u, v).is_empty() {
                    let part = self.part(exprs, side, (u, v), lead, !lead);
                    edge = edge.union(&self.gaps.dfa(exprs, part)?, budget)?;
                }
            }
            both = both.intersection(&edge, budget)?;
        }
        Ok(both)
    }

    /// The union over the paths from the start to the end of their edges joined by gaps,
    /// or `None` when an edge is too large to eliminate.
    fn expression(&self, exprs: &mut Exprs) -> Result<Option<NodeId>, BudgetError> {
        let nodes = self.nodes();
        let count = nodes.len();
        let budget = self.gaps.budget;
        let mut tight: Vec<Vec<Option<Dfa>>> = vec![vec![None; count]; count];
        let gap = self.gaps.dfa(exprs, self.gaps.gap_node)?;
        // Edges, by the end node's order, so the hubs between are done.
        let mut edges: Vec<Vec<Option<NodeId>>> = vec![vec![None; count]; count];
        for (b, &v) in nodes.iter().enumerate() {
            for a in (0..b).rev() {
                let u = nodes[a];
                if !Self::precedes(u, v) {
                    continue;
                }
                if let Some(segment) = self.single_segment(u, v) {
                    edges[a][b] = Some(segment);
                    tight[a][b] = Some(self.gaps.dfa(exprs, segment)?);
                    continue;
                }
                let piece = self.tight(exprs, u, v)?;
                let mut edge = piece.clone();
                for w in a + 1..b {
                    if !(Self::precedes(u, nodes[w]) && Self::precedes(nodes[w], v)) {
                        continue;
                    }
                    let (Some(first), Some(second)) = (&tight[a][w], &tight[w][b]) else {
                        continue;
                    };
                    if edge.is_empty() {
                        break;
                    }
                    // The gap after a hub `v` absorbs what `second` leaves of the piece.
                    let through = if matches!(v, Node::Hub(..)) {
                        Dfa::concat_all(&[first, &gap, second, &gap], budget)?
                    } else {
                        Dfa::concat_all(&[first, &gap, second], budget)?
                    };
                    edge = edge.difference(&through, budget)?;
                }
                tight[a][b] = Some(piece);
                if !edge.is_empty() {
                    let Some(node) = self.gaps.piece(exprs, &edge)? else { return Ok(None) };
                    edges[a][b] = Some(node);
                }
            }
        }
        // The paths, from the end backwards.
        let mut rest: Vec<Option<NodeId>> = vec![None; count];
        rest[count - 1] = Some(exprs.epsilon());
        for a in (0..count - 1).rev() {
            let mut branches = Vec::new();
            for b in a + 1..count {
                let (Some(edge), Some(after)) = (edges[a][b], rest[b]) else { continue };
                let mut items = vec![edge];
                if matches!(nodes[b], Node::Hub(..)) {
                    items.push(self.gaps.gap_node);
                }
                items.push(after);
                branches.push(exprs.concat(&items));
            }
            if !branches.is_empty() {
                let node = exprs.alt(&branches);
                if exprs.size(node) > MAX_SIZE {
                    return Ok(None);
                }
                rest[a] = Some(node);
            }
        }
        Ok(Some(rest[0].unwrap_or_else(|| exprs.empty())))
    }

    /// The segment read between hubs `u` and `v` when one side reads exactly one and the
    /// other none: that edge is the segment itself.
    fn single_segment(&self, u: Node, v: Node) -> Option<NodeId> {
        let (Node::Hub(..), Node::Hub(..)) = (u, v) else { return None };
        let ranges = [self.segments(0, u, v), self.segments(1, u, v)];
        match ranges.each_ref().map(|range| range.len()) {
            [1, 0] => Some(self.sides[0][ranges[0].start]),
            [0, 1] => Some(self.sides[1][ranges[1].start]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;
    use proptest::prelude::*;

    use super::*;
    use crate::dialect::Dialect;
    use crate::language::Language;
    use crate::to_regex::render::render;
    use crate::to_regex::structure::build_hir;

    /// The expression of `pattern`, as the structural candidate builds it.
    fn expr(exprs: &mut Exprs, pattern: &str, budget: &Budget) -> NodeId {
        let hir = crate::syntax::parse(pattern, budget).unwrap();
        build_hir(exprs, &hir, budget).unwrap()
    }

    /// Segments over `a`, `b`, `x`, joined by gaps `[abx]*`, some at the ends.
    fn gapped() -> impl Strategy<Value = String> {
        let segment = prop::sample::select(vec!["a", "ab", "ba", "aab", "b{2}", "[ab]x", "x?a"]);
        (prop::collection::vec(segment, 1..4), any::<bool>(), any::<bool>()).prop_map(
            |(segments, lead, trail)| {
                let inner = segments.join("[abx]*");
                format!(
                    "{}{inner}{}",
                    if lead { "[abx]*" } else { "" },
                    if trail { "[abx]*" } else { "" }
                )
            },
        )
    }

    proptest! {
        /// The interleavings are the product itself, before any check: the intersection
        /// of two sequences with gaps always has them, and a difference when it has one.
        #[test]
        fn interleavings_are_the_product(left in gapped(), right in gapped(), difference: bool) {
            let budget = Budget::default();
            let chars = CharSet::from_ranges([('a', 'b'), ('x', 'x')]);
            let mut exprs = Exprs::new(Dialect::Rust);
            let node = expr(&mut exprs, &left, &budget);
            let (left_dfa, right_dfa) = (Dfa::from_regex(&left).unwrap(), Dfa::from_regex(&right).unwrap());
            let (candidate, expected) = if difference {
                let candidate = super::difference(&mut exprs, node, &right_dfa, &chars, &budget).unwrap();
                (candidate, left_dfa.difference(&right_dfa, &budget).unwrap())
            } else {
                let other = expr(&mut exprs, &right, &budget);
                let candidate = intersection(&mut exprs, node, other, &chars, &budget).unwrap();
                let has_gaps = left.contains('*') && right.contains('*');
                prop_assert!(candidate.is_some() || !has_gaps, "no candidate");
                (candidate, left_dfa.intersection(&right_dfa, &budget).unwrap())
            };
            if let Some(candidate) = candidate {
                let output = render(&exprs, candidate);
                prop_assert_eq!(Dfa::from_regex(&output).unwrap(), expected, "{}", output);
            }
        }
    }

    /// "Contains X and contains Y" is written as X before Y, Y before X, or overlapping;
    /// "not starting with Y" as its first escapes.
    #[test]
    fn contexts_are_written_by_their_segments() {
        let budget = Budget::default();
        let language = |pattern: &str| Language::from_regex(pattern).unwrap();
        let both = language(".*Kein.*Kunde.*").intersection(&language(".*ende.*"), &budget);
        // `Kund(e|e.*e)nde`: "Kundende" holds "ende" in "Kunde"'s last letter.
        expect![".*(Kein.*Kund(e|e.*e)nde|(Kein.*ende|ende.*Kein).*Kunde).*"]
            .assert_eq(&both.unwrap().to_pattern(&budget).unwrap());
        let rest = language(".*Kunde.*").difference(&language("U-.*"), &budget);
        expect![[r#"(([^U]|U[^\-]).*K|U?K)unde.*"#]]
            .assert_eq(&rest.unwrap().to_pattern(&budget).unwrap());
    }
}
