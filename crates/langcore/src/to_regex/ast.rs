//! A small regex AST with interned nodes and the facts the converter needs about each node.
//!
//! # Overview
//! - [`Exprs`] is an arena of interned [`Kind`]s: building a node that exists already returns
//!   its [`NodeId`], so structural equality is id equality and shared sub-expressions (state
//!   elimination reuses every edge many times) cost nothing.
//! - [`Info`] is computed once per node from its children: the length of its rendering, how
//!   that rendering binds ([`Prec`]), its nesting depth as `regex-syntax` counts it, and
//!   language facts (nullable, length range, characters used, smallest first character).
//! - [`Exprs::contains`] decides language containment cheaply and conservatively, from
//!   those facts and the shapes of the nodes.
//!
//! Nodes are only made through the smart constructors of `simplify.rs`, which keep the
//! invariants below and simplify as they build.
//!
//! # Invariants
//! - `Empty` and `Epsilon` are never children: they only stand for whole expressions.
//! - `Concat` and `Alt` have at least two children, none of their own kind.
//! - `Repeat` has an inner node that is neither `Empty` nor `Epsilon`, `max >= min`, and is
//!   neither `{1}` nor `{0}`.
//! - `Info::size` is exactly the length of what `render.rs` writes for the node on its own;
//!   a parent adds 2 for parentheses where the child's [`Prec`] asks for them.

use rustc_hash::FxHashMap as HashMap;

use crate::alphabet::CharSet;
use crate::dialect::Dialect;

use super::class::{self, Spelled};

/// The id of an interned node of an [`Exprs`] arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct NodeId(u32);

impl NodeId {
    fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Kind {
    /// No string at all.
    Empty,
    /// The empty string alone.
    Epsilon,
    /// One character from a non-empty set.
    Class(CharSet),
    /// Two or more items in a row.
    Concat(Box<[NodeId]>),
    /// Two or more branches, in a canonical order.
    Alt(Box<[NodeId]>),
    /// `inner{min,max}`; `max: None` is unbounded.
    Repeat { inner: NodeId, min: u32, max: Option<u32> },
}

/// How the rendering of a node binds, from tightest to loosest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Prec {
    /// A character or a class: usable as the operand of a quantifier.
    Atom,
    /// A quantified atom: needs a group under another quantifier (`a{2}?` would be lazy).
    Quantified,
    /// Several pieces in a row: needs a group under a quantifier.
    Seq,
    /// An alternation: needs a group inside a sequence or under a quantifier.
    Alt,
}

/// How a repetition is written: `copies` literal copies of the inner node, then a tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Spelling {
    pub(super) copies: u32,
    pub(super) tail: Tail,
}

/// The quantified part of a repetition's spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tail {
    /// Nothing: the copies are the whole repetition.
    Nothing,
    /// `x?` written `n` times in a row (`x?x?` is `x{0,2}`).
    Optional(u32),
    /// `x*`
    Star,
    /// `x+`
    Plus,
    /// `x{n}`
    Exact(u32),
    /// `x{n,}`
    AtLeast(u32),
    /// `x{n,m}`
    Between(u32, u32),
}

/// What the converter knows about one node, computed from its children.
#[derive(Clone, Debug)]
pub(super) struct Info {
    /// The length of the rendering, saturating.
    pub(super) size: usize,
    pub(super) prec: Prec,
    /// The nesting depth of the rendering as `regex-syntax` counts it (an upper bound).
    pub(super) depth: u32,
    /// The number of groups in the rendering, a tie-break for readability.
    pub(super) groups: usize,
    pub(super) nullable: bool,
    pub(super) min_len: usize,
    /// `None` when unbounded.
    pub(super) max_len: Option<usize>,
    /// Every character that occurs in the node.
    pub(super) chars: CharSet,
    /// The smallest character a non-empty string of the node can start with.
    pub(super) first_min: Option<char>,
    /// For repetitions, how they are written.
    pub(super) spelling: Option<Spelling>,
}

/// An arena of interned nodes, for one output dialect.
#[derive(Debug, Default)]
pub(super) struct Exprs {
    /// The dialect the nodes are spelled in: it decides the size of classes.
    dialect: Dialect,
    kinds: Vec<Kind>,
    /// The spelling of each class node.
    classes: HashMap<NodeId, Spelled>,
    /// The bytes of those spellings, for the memory limit.
    class_bytes: usize,
    /// The spelling of a class node under `*` and `+` where it is shorter
    /// ([`class::spell_repeated`]).
    repeated: HashMap<NodeId, Box<str>>,
    infos: Vec<Info>,
    ids: HashMap<Kind, NodeId>,
    /// Set while an alternation tries a relaxed factoring, so nested ones do not, and while
    /// the search rebuilds its candidates (`search.rs`), which then factor once.
    pub(super) relaxing: bool,
    /// How many factorings are in progress, each inside the alternation of the one before.
    pub(super) factoring: u32,
    /// Alternations made so far: (branches sorted by id, `ε` among them, `relaxing`).
    pub(super) alt_memo: HashMap<AltKey, NodeId>,
    /// Nodes asked for so far, made or found interned, and alternations asked for: the work
    /// of building expressions, which the search's allowance is measured against.
    pub(super) calls: usize,
}

/// What an alternation is made of, for [`Exprs::alt_memo`].
pub(super) type AltKey = (Box<[NodeId]>, bool, bool);

impl Exprs {
    pub(super) fn new(dialect: Dialect) -> Exprs {
        Exprs { dialect, ..Exprs::default() }
    }

    /// The spelling of a class node.
    pub(super) fn class_text(&self, id: NodeId) -> &str {
        &self.classes[&id].text
    }

    /// The spelling of class node `id` as the operand of `*` or `+`, where it is not its own.
    pub(super) fn repeated_text(&self, id: NodeId) -> Option<&str> {
        self.repeated.get(&id).map(|text| &**text)
    }

    /// The bytes all class spellings take (a Python `\w` alone is 10 KB).
    pub(super) fn class_bytes(&self) -> usize {
        self.class_bytes
    }

    pub(super) fn kind(&self, id: NodeId) -> &Kind {
        &self.kinds[id.index()]
    }

    pub(super) fn info(&self, id: NodeId) -> &Info {
        &self.infos[id.index()]
    }

    pub(super) fn size(&self, id: NodeId) -> usize {
        self.infos[id.index()].size
    }

    /// The number of nodes made so far.
    pub(super) fn n_nodes(&self) -> usize {
        self.kinds.len()
    }

    /// The children of a node, in order.
    pub(super) fn children(&self, id: NodeId) -> &[NodeId] {
        match self.kind(id) {
            Kind::Concat(items) | Kind::Alt(items) => items,
            Kind::Repeat { inner, .. } => std::slice::from_ref(inner),
            Kind::Empty | Kind::Epsilon | Kind::Class(_) => &[],
        }
    }

    /// Whether `L(small) ⊆ L(big)`, conservatively: `false` when unsure.
    ///
    /// Exact for classes, repetitions of one base, and `C{a,b}` for a class `C` (every string
    /// over `C` with a length in range), which is what absorbs `a|[ab]*` and `a[ab]*` in a
    /// star's context.
    pub(super) fn contains(&self, big: NodeId, small: NodeId) -> bool {
        if big == small {
            return true;
        }
        let (big_info, small_info) = (self.info(big), self.info(small));
        let too_long = match (big_info.max_len, small_info.max_len) {
            (Some(big_max), Some(small_max)) => small_max > big_max,
            (Some(_), None) => true,
            (None, _) => false,
        };
        if (small_info.nullable && !big_info.nullable)
            || small_info.min_len < big_info.min_len
            || too_long
            || !small_info.chars.is_subset(&big_info.chars)
        {
            return false;
        }
        match self.kind(small) {
            Kind::Epsilon => return true,
            Kind::Alt(branches) => return branches.iter().all(|&b| self.contains(big, b)),
            _ => {}
        }
        match *self.kind(big) {
            // Every string over the class with a length in range: checked above.
            Kind::Class(_) => true,
            Kind::Repeat { inner, min, max } => {
                if let Kind::Class(_) = self.kind(inner) {
                    return true;
                }
                if small == inner {
                    return min <= 1;
                }
                match *self.kind(small) {
                    Kind::Repeat { inner: small_inner, min: small_min, max: small_max } => {
                        small_inner == inner
                            && small_min >= min
                            && match (max, small_max) {
                                (None, _) => true,
                                (Some(_), None) => false,
                                (Some(max), Some(small_max)) => small_max <= max,
                            }
                    }
                    _ => false,
                }
            }
            Kind::Alt(ref branches) => branches.iter().any(|&b| self.contains(b, small)),
            _ => false,
        }
    }

    /// The node of `kind`, made if new. Only the smart constructors call this, so `kind`
    /// keeps the module invariants.
    pub(super) fn intern(&mut self, kind: Kind) -> NodeId {
        self.calls = self.calls.saturating_add(1);
        if let Some(&id) = self.ids.get(&kind) {
            return id;
        }
        let spelled = match &kind {
            Kind::Class(set) => Some(class::spell(set, self.dialect)),
            _ => None,
        };
        let info = self.compute_info(&kind, spelled.as_ref());
        let id = NodeId(u32::try_from(self.kinds.len()).expect("fewer than 2^32 nodes"));
        if let Kind::Class(set) = &kind
            && let Some(text) = class::spell_repeated(set, self.dialect)
        {
            self.class_bytes = self.class_bytes.saturating_add(text.len());
            self.repeated.insert(id, text);
        }
        if let Some(spelled) = spelled {
            self.class_bytes = self.class_bytes.saturating_add(spelled.text.len());
            self.classes.insert(id, spelled);
        }
        self.kinds.push(kind.clone());
        self.infos.push(info);
        self.ids.insert(kind, id);
        id
    }

    /// The facts of `kind`; `spelled` is the spelling of a class.
    fn compute_info(&self, kind: &Kind, spelled: Option<&Spelled>) -> Info {
        match kind {
            Kind::Empty => Info {
                size: 2,
                prec: Prec::Atom,
                depth: 1,
                groups: 0,
                nullable: false,
                min_len: 0,
                max_len: Some(0),
                chars: CharSet::empty(),
                first_min: None,
                spelling: None,
            },
            Kind::Epsilon => Info {
                size: 0,
                prec: Prec::Atom,
                depth: 0,
                groups: 0,
                nullable: true,
                min_len: 0,
                max_len: Some(0),
                chars: CharSet::empty(),
                first_min: None,
                spelling: None,
            },
            Kind::Class(set) => {
                let spelled = spelled.expect("classes are spelled");
                Info {
                    size: spelled.text.len(),
                    prec: Prec::Atom,
                    depth: spelled.depth,
                    groups: 0,
                    nullable: false,
                    min_len: 1,
                    max_len: Some(1),
                    chars: set.clone(),
                    first_min: set.first(),
                    spelling: None,
                }
            }
            Kind::Concat(items) => {
                let infos: Vec<&Info> = items.iter().map(|&item| self.info(item)).collect();
                let pieces: Vec<Grouped> =
                    infos.iter().map(|info| grouped(info, Prec::Seq)).collect();
                let size = pieces.iter().map(|piece| piece.size).fold(0, usize::saturating_add);
                let depth = 1 + pieces.iter().map(|piece| piece.depth).max().unwrap_or(0);
                let groups = pieces.iter().map(|piece| piece.groups).sum();
                let mut first_min: Option<char> = None;
                for info in &infos {
                    first_min = min_char(first_min, info.first_min);
                    if !info.nullable {
                        break;
                    }
                }
                Info {
                    size,
                    prec: Prec::Seq,
                    depth,
                    groups,
                    nullable: infos.iter().all(|info| info.nullable),
                    min_len: infos.iter().map(|info| info.min_len).fold(0, usize::saturating_add),
                    max_len: infos
                        .iter()
                        .try_fold(0usize, |acc, info| Some(acc.saturating_add(info.max_len?))),
                    chars: union_chars(&infos),
                    first_min,
                    spelling: None,
                }
            }
            Kind::Alt(branches) => {
                let infos: Vec<&Info> = branches.iter().map(|&branch| self.info(branch)).collect();
                let size =
                    infos.iter().map(|info| info.size).fold(infos.len() - 1, usize::saturating_add);
                Info {
                    size,
                    prec: Prec::Alt,
                    depth: 1 + infos.iter().map(|info| info.depth).max().unwrap_or(0),
                    groups: infos.iter().map(|info| info.groups).sum(),
                    nullable: infos.iter().any(|info| info.nullable),
                    min_len: infos.iter().map(|info| info.min_len).min().unwrap_or(0),
                    max_len: infos
                        .iter()
                        .try_fold(0usize, |acc, info| Some(acc.max(info.max_len?))),
                    chars: union_chars(&infos),
                    first_min: infos.iter().fold(None, |acc, info| min_char(acc, info.first_min)),
                    spelling: None,
                }
            }
            &Kind::Repeat { inner, min, max } => {
                let inner_info = self.info(inner);
                // An atom: a bracket or a class escape.
                let looped = self.repeated_text(inner).map(|text| Grouped {
                    size: text.len(),
                    depth: 2,
                    groups: 0,
                });
                let (spelling, prec, rendering) = spell_repeat(inner_info, looped, min, max);
                let max_len = match (max, inner_info.max_len) {
                    (_, Some(0)) => Some(0),
                    (Some(max), Some(len)) => Some(len.saturating_mul(max as usize)),
                    _ => None,
                };
                Info {
                    size: rendering.size,
                    prec,
                    depth: rendering.depth,
                    groups: rendering.groups,
                    nullable: min == 0 || inner_info.nullable,
                    min_len: inner_info.min_len.saturating_mul(min as usize),
                    max_len,
                    chars: inner_info.chars.clone(),
                    first_min: inner_info.first_min,
                    spelling: Some(spelling),
                }
            }
        }
    }
}

/// The size, depth and group count of a rendering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Grouped {
    pub(super) size: usize,
    pub(super) depth: u32,
    pub(super) groups: usize,
}

/// The rendering of `child` inside a parent that binds like `parent`, in a group when the
/// child binds looser.
pub(super) fn grouped(child: &Info, parent: Prec) -> Grouped {
    let group = child.prec > parent;
    Grouped {
        size: child.size.saturating_add(if group { 2 } else { 0 }),
        depth: child.depth + u32::from(group),
        groups: child.groups + usize::from(group),
    }
}

fn min_char(a: Option<char>, b: Option<char>) -> Option<char> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

fn union_chars(infos: &[&Info]) -> CharSet {
    infos.iter().fold(CharSet::empty(), |acc, info| acc.union(&info.chars))
}

/// The number of decimal digits of `n`.
fn digits(n: u32) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// The shortest spelling of `inner{min,max}`, with its precedence and rendering; `looped`
/// is the operand of a `*` or `+` tail where it is not `inner`'s own (`render.rs` writes
/// [`Exprs::repeated_text`] there).
///
/// The spelling is `k` literal copies of `inner` followed by a tail for the remaining
/// `{min - k, max - k}`; `k` runs up to `min` (at most 8: more copies never beat a counted
/// tail). Ties go to fewer pieces, so `a{0,3}` beats `a?a?a?`, then fewer groups.
fn spell_repeat(
    inner: &Info,
    looped: Option<Grouped>,
    min: u32,
    max: Option<u32>,
) -> (Spelling, Prec, Grouped) {
    let counted_operand = grouped(inner, Prec::Atom);
    let looped = looped.unwrap_or(counted_operand);
    let copy = grouped(inner, Prec::Seq);
    let mut best: Option<((usize, u32, usize), Spelling)> = None;
    for copies in 0..=min.min(8) {
        let lo = min - copies;
        let hi = max.map(|max| max - copies);
        let counted = |extra: usize| counted_operand.size + extra;
        let (tail, tail_size, tail_pieces) = match (lo, hi) {
            (0, Some(0)) => (Tail::Nothing, 0, 0),
            (0, Some(1)) => (Tail::Optional(1), counted(1), 1),
            (0, None) => (Tail::Star, looped.size + 1, 1),
            (1, None) => (Tail::Plus, looped.size + 1, 1),
            (1, Some(1)) => continue, // the same as one more copy
            (lo, None) => (Tail::AtLeast(lo), counted(3 + digits(lo)), 1),
            (lo, Some(hi)) if lo == hi => (Tail::Exact(lo), counted(2 + digits(lo)), 1),
            (lo, Some(hi)) => {
                let between = counted(3 + digits(lo) + digits(hi));
                if lo == 0 && hi <= 4 && hi as usize * counted(1) < between {
                    (Tail::Optional(hi), hi as usize * counted(1), hi)
                } else {
                    (Tail::Between(lo, hi), between, 1)
                }
            }
        };
        let size = (copies as usize).saturating_mul(copy.size).saturating_add(tail_size);
        let operand = operand_of(tail, counted_operand, looped);
        let groups = copies as usize * copy.groups + tail_pieces as usize * operand.groups;
        let key = (size, copies + tail_pieces, groups);
        if best.is_none_or(|(best_key, _)| key < best_key) {
            best = Some((key, Spelling { copies, tail }));
        }
    }
    let ((size, pieces, groups), spelling) = best.expect("a counted tail always fits");
    let operand = operand_of(spelling.tail, counted_operand, looped);
    let tail_depth = if spelling.tail == Tail::Nothing { 0 } else { operand.depth + 1 };
    if pieces == 1 && spelling.copies == 0 {
        (spelling, Prec::Quantified, Grouped { size, depth: tail_depth, groups })
    } else {
        let copy_depth = if spelling.copies > 0 { copy.depth } else { 0 };
        (spelling, Prec::Seq, Grouped { size, depth: 1 + tail_depth.max(copy_depth), groups })
    }
}

/// The operand that `tail` quantifies: `looped` under `*` and `+`, `counted` otherwise.
fn operand_of(tail: Tail, counted: Grouped, looped: Grouped) -> Grouped {
    if matches!(tail, Tail::Star | Tail::Plus) { looped } else { counted }
}
