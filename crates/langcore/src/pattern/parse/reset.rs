//! PCRE's branch reset `(?|A|B)`: each branch numbers its groups from the same number, so
//! groups of different branches share a number, and a reference reads whichever of them
//! took part last.
//!
//! A shared number is one [`Group`] with several occurrences. In one match of the branch
//! reset only one branch matches, so the group's strings are the union of its
//! occurrences', and every occurrence sets the same value, read by the references and
//! conditionals as any group's (`reference.rs`). Occurrences after the first are merged
//! into the group the first one made; what the first pass could not then mark on it is
//! refused, naming the construct: such an occurrence nested or quantified inside its
//! branch, inside other lookarounds than the first, or holding a reference.

use super::{Group, Parser};
use crate::error::ParseError;
use crate::pattern::Expr;
use std::sync::Arc;

/// An open branch reset: where its branches stand and the numbers they start from.
#[derive(Clone, Debug)]
pub(super) struct Reset {
    /// The level of its alternation.
    level: usize,
    /// The number of its first group.
    first: u32,
    /// The groups made before it: the groups made inside it come after.
    n_groups: usize,
    /// The next group's number after its branches read so far.
    most: u32,
}

/// Why an occurrence of a shared number is refused.
const NOT_DIRECT: &str = "a group of a branch reset whose number an earlier branch took is only \
     supported directly in its branch and unquantified (not inside another group of the branch), \
     where the group of that number opened inside the same branch reset and the same lookarounds";

impl Parser<'_> {
    /// Opens a branch reset whose alternation is at `level`.
    pub(super) fn open_reset(&mut self, level: usize) {
        let first = self.next_group;
        let n_groups = self.groups.len();
        self.resets.push(Reset { level, first, n_groups, most: first });
    }

    /// At a `|` of the innermost branch reset: the next branch numbers from its first.
    pub(super) fn next_reset_branch(&mut self) {
        if let Some(reset) = self.resets.last_mut() {
            reset.most = reset.most.max(self.next_group);
            self.next_group = reset.first;
        }
    }

    /// Closes the innermost branch reset: groups after it number from its widest branch.
    pub(super) fn close_reset(&mut self) {
        if let Some(reset) = self.resets.pop() {
            self.next_group = self.next_group.max(reset.most);
        }
    }

    /// Opens group `number` again, for an occurrence named `name` in a later branch of a
    /// branch reset, after checking that the merge can be exact.
    pub(super) fn reopen_group(
        &mut self,
        number: u32,
        name: Option<String>,
        start: usize,
    ) -> Result<(), ParseError> {
        let span = start..self.pos;
        let idx = number as usize - 1;
        let direct = self.resets.last().is_some_and(|reset| {
            self.levels.last().map(|&(level, _)| level) == Some(reset.level)
                && idx >= reset.n_groups
        });
        let group = &self.groups[idx];
        if !direct || group.looks != self.looks {
            return Err(self.unsupported(NOT_DIRECT, span));
        }
        if group.holds_reference {
            return Err(self.unsupported(HOLDS_REFERENCE, span));
        }
        match (&group.name, name) {
            (Some(named), Some(name)) if *named != name => {
                return Err(self.error(
                    "different names for subpatterns of the same number are not allowed",
                    span,
                ));
            }
            (None, Some(name)) => {
                if self.duplicate_name(&name, Some(idx)) {
                    return Err(self.error(format!("duplicate group name `{name}`"), span));
                }
                self.groups[idx].name = Some(name);
            }
            _ => {}
        }
        self.groups[idx].closed = false;
        Ok(())
    }

    /// Closes group `number` again after an occurrence matching `body` ([`reopen_group`]):
    /// its strings are both occurrences', its width theirs if they share one.
    ///
    /// [`reopen_group`]: Parser::reopen_group
    pub(super) fn merge_occurrence(
        &mut self,
        number: u32,
        start: usize,
        body: &Expr,
    ) -> Result<(), ParseError> {
        let span = start..self.pos;
        let saved = self.pos;
        self.skip_verbose();
        let quantified = self.quantifier().is_some();
        self.pos = saved;
        let idx = number as usize - 1;
        if quantified {
            return Err(self.unsupported(NOT_DIRECT, span));
        }
        let read_open = self.open_refs.iter().any(|open| open.number == number);
        if self.groups[idx].holds_reference || read_open {
            return Err(self.unsupported(HOLDS_REFERENCE, span));
        }
        let found = self.group_strings(number, body);
        let width = super::fixed_width(body);
        let keep_body = self.tags.is_some();
        if !self.shared.contains(&number) {
            self.shared.push(number);
        }
        let group: &mut Group = &mut self.groups[idx];
        group.closed = true;
        group.span = group.span.start..self.pos.max(group.span.end);
        match found {
            Ok(found) if group.error.is_none() => {
                let mut strings = group.strings.to_vec();
                super::reference::append_new(&mut strings, found.iter().cloned());
                if strings.len() > super::reference::MAX_BACKREF_CHOICES {
                    group.error = Some(super::reference::TOO_MANY.into());
                } else {
                    group.strings = Arc::from(strings);
                }
            }
            Ok(_) => {}
            Err(why) => group.error = Some(why),
        }
        // No reading by the values of a body with assertions, as for one occurrence.
        if group.value_error.is_none() {
            group.value_error.clone_from(&group.error);
        }
        if group.width != width {
            group.width = None;
        }
        if keep_body {
            group.body = match group.body.take() {
                Some(first) => Some(Expr::alt(vec![first, body.clone()])),
                None => Some(body.clone()),
            };
        }
        Ok(())
    }
}

impl Parser<'_> {
    /// Gives the values of each tracked group that branches share one index for all its
    /// occurrences, from the strings of all of them (first pass): each occurrence sets
    /// the index of its string among them, where alone it would index its own strings.
    pub(super) fn index_shared_values(&mut self, tracked: &[u32]) {
        for &number in self.shared.iter().filter(|number| tracked.contains(number)) {
            let strings = self.groups[number as usize - 1].strings.to_vec();
            self.open_values.entry(number).or_insert(strings);
        }
    }
}

/// Why an occurrence of a shared number that holds a reference is refused.
const HOLDS_REFERENCE: &str = "a group of a branch reset whose number several branches take is \
     not supported when one of them holds a reference or conditional, or a reference or \
     conditional to it stands inside one";
