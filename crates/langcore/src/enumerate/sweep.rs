//! Sweep order: shortest paths first, lexicographically, each expanded completely.
//!
//! # Algorithm
//! *Finding the string at an offset* (unranking) uses the string counts W of `tables.rs`:
//! 1. Skip whole lengths: subtract W(start, ℓ) for ℓ = min, min + 1, … while the offset is
//!    at least that.
//! 2. Descend from the start. At node `s` with `r` characters to go, the strings starting
//!    with edge `e: s → t` form one block of |e|·W(t, r−1) strings, blocks in edge order.
//!    Inside `e`'s block, each continuation `p'` (a path from `t`, in its own sweep order)
//!    owns a contiguous sub-block of |e|·Π(p') strings, in which the character of `e` is
//!    the most significant odometer digit. So `k div |e|` is the offset of the same string
//!    among `t`'s strings, which locates `p'`, and `k mod |e|` is kept: the offset inside
//!    the whole path is rebuilt from the kept remainders by Horner's rule from the last
//!    position, `L = L·|e_i| + (k_i mod |e_i|)`.
//! 3. Decode `L` in the mixed radix of the label sizes, the first position most
//!    significant, into the odometer digits.
//!
//! That is O(max_length × edges per node) operations on `u128` positions per page (counts
//! above that saturate, see `count.rs`), however deep the offset: `[a-z]{8}` at offset 10^10 costs what offset 0 does.
//!
//! *The next string* turns the odometer (O(1) positions amortised). When it wraps, the next
//! path of the same length is found at the deepest position with a later edge that can still
//! reach acceptance in the characters left, completed with first such edges, O(length ×
//! edges); after the last path of a length comes the first of the next length with strings.
//!
//! # Invariants
//! - The cursor's path always leads from the start to acceptance in exactly its length, and
//!   every digit is below its label's size.
//! - Strings come out in strictly increasing sweep position, so a page never repeats one.
//!
//! # Budgets
//! [`Operation::Generate`]: the deadline once per [`STRINGS_PER_CHECK`] strings.

use std::convert::Infallible;

use super::options::GenerateOptions;
use super::path::{Spelling, Step, Text};
use super::tables::Edge;
use super::{Catalog, STRINGS_PER_CHECK, find_block, page};
use crate::budget::{Budget, BudgetError, Operation};
use crate::state_id::StateId;

/// Up to `options.limit()` strings of `language` in sweep order, from `options.offset()`.
pub(super) fn generate(
    language: &Catalog,
    options: &GenerateOptions,
    budget: &Budget,
) -> Result<Vec<String>, BudgetError> {
    let mut out = page(options);
    let Some(mut cursor) = Cursor::at(language, options, options.offset()) else {
        return Ok(out);
    };
    loop {
        if out.len().is_multiple_of(STRINGS_PER_CHECK) {
            budget.check_time(Operation::Generate)?;
        }
        out.push(cursor.text.copy_out());
        if out.len() >= options.limit() || !cursor.advance() {
            return Ok(out);
        }
    }
}

/// A position in sweep order: a path, its odometer and the string they spell.
struct Cursor<'a> {
    language: &'a Catalog,
    options: &'a GenerateOptions,
    steps: Vec<Step>,
    digits: Vec<u64>,
    spelling: Spelling,
    text: Text,
}

impl<'a> Cursor<'a> {
    /// The cursor at sweep position `offset`, or `None` past the last string.
    fn at(language: &'a Catalog, options: &'a GenerateOptions, offset: u64) -> Option<Self> {
        let routes = &language.routes;
        let mut rest = u128::from(offset);
        let strings_of_length = |&length: &usize| {
            Ok::<_, Infallible>(language.counts.cell(routes.start(), length).strings.saturated())
        };
        let Ok(length) = find_block(language.lengths(), &mut rest, strings_of_length);
        let length = length?;
        let mut steps = Vec::with_capacity(length);
        let mut remainders = Vec::with_capacity(length);
        let mut node = routes.start();
        for remaining in (0..length).rev() {
            let block = |&(_, edge): &(usize, &Edge)| {
                let strings = language.counts.cell(edge.target, remaining).strings.saturated();
                Ok::<_, Infallible>(strings.saturating_mul(u128::from(edge.size)))
            };
            let Ok(found) = find_block(routes.edges(node).iter().enumerate(), &mut rest, block);
            let (edge_idx, edge) = found?;
            // `rest % size < size`, a u64.
            remainders.push(u64::try_from(rest % u128::from(edge.size)).unwrap_or_default());
            rest /= u128::from(edge.size);
            steps.push(Step { node, edge: edge_idx });
            node = edge.target;
        }
        // The offset inside the path is at most the offset: a u128.
        let mut within_path = 0u128;
        for (step, &remainder) in steps.iter().zip(&remainders).rev() {
            within_path = within_path * u128::from(step.edge(routes).size) + u128::from(remainder);
        }
        let spelling = Spelling::new(routes, &steps, options);
        let mut digits = Vec::new();
        spelling.digits(within_path, &mut digits);
        let mut cursor =
            Cursor { language, options, spelling, steps, digits, text: Text::default() };
        cursor.respell();
        Some(cursor)
    }

    /// Moves to the next string in sweep order; `false` after the last one.
    fn advance(&mut self) -> bool {
        let routes = &self.language.routes;
        for position in (0..self.steps.len()).rev() {
            self.digits[position] += 1;
            if self.digits[position] < self.spelling.size(position) {
                let c = self.spelling.char_at(routes, position, self.digits[position]);
                self.text.set(position, c);
                return true;
            }
            self.digits[position] = 0;
            self.text.set(position, self.spelling.char_at(routes, position, 0));
        }
        self.next_path()
    }

    /// Moves to the first string of the next path in sweep order; `false` after the last.
    fn next_path(&mut self) -> bool {
        let length = self.steps.len();
        for position in (0..length).rev() {
            let Step { node, edge } = self.steps[position];
            let remaining = length - position - 1;
            if let Some(next) = self.first_viable_edge(node, edge + 1, remaining) {
                self.steps[position].edge = next;
                self.steps.truncate(position + 1);
                self.complete(length);
                return true;
            }
        }
        let start = self.language.routes.start();
        let next_length = self
            .language
            .lengths()
            .skip_while(|&next| next <= length)
            .find(|&next| self.language.counts.cell(start, next).is_viable());
        let Some(next_length) = next_length else { return false };
        self.steps.clear();
        self.complete(next_length);
        true
    }

    /// Extends the path with first viable edges to `length` steps, and moves to its first
    /// string.
    fn complete(&mut self, length: usize) {
        let routes = &self.language.routes;
        let mut node = self.steps.last().map_or(routes.start(), |step| step.edge(routes).target);
        while self.steps.len() < length {
            let remaining = length - self.steps.len() - 1;
            // The path so far can reach acceptance in `length` steps, so some edge is viable.
            let Some(edge) = self.first_viable_edge(node, 0, remaining) else { break };
            self.steps.push(Step { node, edge });
            node = self.steps[self.steps.len() - 1].edge(routes).target;
        }
        self.digits.clear();
        self.digits.resize(self.steps.len(), 0);
        self.spelling.set_path(&self.language.routes, &self.steps, self.options);
        self.respell();
    }

    /// The first edge of `node` from number `from` on whose target can reach acceptance in
    /// exactly `remaining` characters.
    fn first_viable_edge(&self, node: StateId, from: usize, remaining: usize) -> Option<usize> {
        let edges = self.language.routes.edges(node);
        (from..edges.len())
            .find(|&edge| self.language.counts.cell(edges[edge].target, remaining).is_viable())
    }

    /// Recomputes every character from the digits.
    fn respell(&mut self) {
        let routes = &self.language.routes;
        let (spelling, digits) = (&self.spelling, &self.digits);
        let chars = digits.iter().enumerate();
        self.text
            .set_all(chars.map(|(position, &digit)| spelling.char_at(routes, position, digit)));
    }
}
