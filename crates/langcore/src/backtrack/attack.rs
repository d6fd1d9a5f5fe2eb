//! The attack string: a prefix reaching the ambiguous loop, the loop's word, and a suffix
//! that makes every path fail, so that the engine tries them all.
//!
//! # Algorithm
//! The prefix is a shortest word to the loop's entry (breadth first). The suffix is a
//! shortest word that, from every state the prefix and any number of pumps reach, leads
//! only to states that do not succeed at the end of the text, and (search) never lets the
//! engine succeed on the way: a breadth-first walk of subsets of states, the same subset
//! construction the language algebra determinizes with, over one character of each class
//! of characters the labels tell apart. Characters are spelled readable where the labels
//! allow.
//!
//! # Budgets
//! Every subset visited counts as a state of [`Operation::Backtracking`].

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::ambiguity::View;
use super::positions::{Positions, Successes};
use crate::alphabet::{CharSet, Classes};
use crate::budget::{Budget, Operation};
use crate::error::Error;
use crate::pattern;

/// How many pumps the suffix is checked after, at most (the subsets reached repeat
/// sooner in every automaton but the largest).
const MAX_PUMPS: usize = 64;

/// How long a suffix may be.
const MAX_SUFFIX: usize = 8;

/// A readable character of `set`: a letter, digit or printable ASCII character when it
/// has one, else its first character.
pub(super) fn pick(set: &CharSet) -> Option<char> {
    const PREFERRED: [(char, char); 4] = [('a', 'z'), ('A', 'Z'), ('0', '9'), (' ', '~')];
    PREFERRED
        .iter()
        .find_map(|&(lo, hi)| set.intersection(&CharSet::range(lo, hi)).first())
        .or_else(|| set.difference(&pattern::tags()).first())
}

/// One readable character per label.
pub(super) fn spell(labels: &[CharSet]) -> String {
    labels.iter().filter_map(pick).collect()
}

/// A shortest word from state 0 to `target`.
pub(super) fn word_to(view: &View<'_>, target: usize) -> Option<Vec<CharSet>> {
    let mut parent: HashMap<usize, (usize, CharSet)> = HashMap::new();
    let mut queue = VecDeque::from([0]);
    let mut seen = vec![false; view.positions.n_states()];
    seen[0] = true;
    while let Some(state) = queue.pop_front() {
        if state == target {
            let mut res = Vec::new();
            let mut at = state;
            while let Some((from, label)) = parent.get(&at) {
                res.push(label.clone());
                at = *from;
            }
            res.reverse();
            return Some(res);
        }
        for mv in view.moves(state) {
            if !seen[mv.target] {
                seen[mv.target] = true;
                parent.insert(mv.target, (state, mv.label.clone()));
                queue.push_back(mv.target);
            }
        }
    }
    None
}

/// The states after reading `c` from `states`, or `None` when the engine may succeed
/// before reading it (search).
fn step(
    positions: &Positions,
    avoid: &Successes,
    states: &BTreeSet<usize>,
    c: char,
) -> Option<BTreeSet<usize>> {
    if states.iter().any(|&s| avoid.before[s].contains(c)) {
        return None;
    }
    Some(positions.moves_on(states, c).collect())
}

/// The states after `word` from `states`, `None` if the engine succeeds on the way.
fn run(
    positions: &Positions,
    avoid: &Successes,
    states: &BTreeSet<usize>,
    word: &str,
) -> Option<BTreeSet<usize>> {
    word.chars().try_fold(states.clone(), |states, c| step(positions, avoid, &states, c))
}

/// A shortest suffix after which no path of `prefix` `pump`^k (k ≥ 1) can succeed (nor
/// on the way, the successes being those of `avoid`), or `None` when there is none short
/// enough (or the engine may succeed within the pumps). In a search only the runs started
/// before the suffix must fail: the engine has tried them all by the time a later start
/// matches.
///
/// # Errors
/// [`Error::Budget`] when the subsets exceed `budget`.
pub(super) fn suffix(
    positions: &Positions,
    avoid: &Successes,
    prefix: &str,
    pump: &str,
    budget: &Budget,
) -> Result<Option<String>, Error> {
    let Some(mut states) = run(positions, avoid, &BTreeSet::from([0]), prefix) else {
        return Ok(None);
    };
    let mut reached: BTreeSet<usize> = BTreeSet::new();
    let mut seen: Vec<BTreeSet<usize>> = Vec::new();
    for _ in 0..MAX_PUMPS {
        budget.check_time(Operation::Backtracking)?;
        let Some(next) = run(positions, avoid, &states, pump) else { return Ok(None) };
        if seen.contains(&next) {
            break;
        }
        reached.extend(next.iter().copied());
        seen.push(next.clone());
        states = next;
    }
    reached.retain(|&state| state >= positions.before_pattern);
    let chars = candidates(positions, budget)?;
    let fails = |states: &BTreeSet<usize>| states.iter().all(|&s| !avoid.at_end[s]);
    let mut queue = VecDeque::from([(reached.clone(), String::new())]);
    let mut visited = BTreeSet::from([reached]);
    while let Some((states, word)) = queue.pop_front() {
        if fails(&states) {
            return Ok(Some(word));
        }
        if word.chars().count() == MAX_SUFFIX {
            continue;
        }
        for &c in &chars {
            let Some(next) = step(positions, avoid, &states, c) else { continue };
            if visited.insert(next.clone()) {
                budget.check_states(Operation::Backtracking, visited.len())?;
                queue.push_back((next, format!("{word}{c}")));
            }
        }
    }
    Ok(None)
}

/// Whether no lookahead body's run can succeed anywhere on `attack` with any number of
/// pumps (every state set `plain` reaches, checked until the sets after a pump repeat):
/// then the engine runs every body to its end, and the side moves are its work.
///
/// # Errors
/// [`Error::Budget`] past the deadline.
pub(super) fn bodies_fail(
    plain: &Positions,
    attack: &super::Attack,
    budget: &Budget,
) -> Result<bool, Error> {
    let clear = |states: &BTreeSet<usize>| states.iter().all(|&s| !plain.ends_body[s]);
    // The sets after each character of `word` from `states`, all clear of body ends.
    let clear_along = |states: &BTreeSet<usize>, word: &str| -> Option<BTreeSet<usize>> {
        word.chars().try_fold(states.clone(), |states, c| {
            let next: BTreeSet<usize> = plain.moves_on(&states, c).collect();
            clear(&next).then_some(next)
        })
    };
    let start = BTreeSet::from([0]);
    let Some(mut states) = clear_along(&start, attack.prefix()).filter(|_| clear(&start)) else {
        return Ok(false);
    };
    let mut seen: Vec<BTreeSet<usize>> = Vec::new();
    for _ in 0..MAX_PUMPS {
        budget.check_time(Operation::Backtracking)?;
        let Some(next) = clear_along(&states, attack.pump()) else { return Ok(false) };
        if clear_along(&next, attack.suffix()).is_none() {
            return Ok(false);
        }
        if seen.contains(&next) {
            return Ok(true);
        }
        seen.push(next.clone());
        states = next;
    }
    Ok(false)
}

/// The characters the suffix is made of: one of each class of characters that the labels
/// and the successes tell apart (a character of the text outside every label among them:
/// it ends every path).
///
/// # Errors
/// [`Error::Budget`] when the classes exceed `budget`.
fn candidates(positions: &Positions, budget: &Budget) -> Result<Vec<char>, Error> {
    let sets: Vec<&CharSet> = positions
        .moves
        .iter()
        .flatten()
        .map(|mv| &mv.label)
        .chain(&positions.possible.before)
        .collect();
    let (classes, _) = Classes::new(&sets, budget)?;
    Ok(classes.iter().filter_map(|(_, class)| pick(&class.intersection(&positions.text))).collect())
}
