//! The attack string: a prefix reaching the ambiguous loop, the loop's word, and a suffix
//! that makes every path fail, so that the engine tries them all.
//!
//! # Algorithm
//! The prefix is a shortest word to the loop's entry (breadth first). The suffix is a
//! shortest word that, from every state the prefix and any number of pumps reach, leads
//! only to states that do not succeed at the end of the text, and (search) never lets the
//! engine succeed on the way: a breadth-first walk of subsets of states, the same subset
//! construction the language algebra determinizes with, over one character per distinct
//! label and one outside them all. Characters are spelled readable where the labels allow.
//!
//! # Budgets
//! Every subset visited counts as a state of [`Operation::Backtracking`].

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::ambiguity::View;
use super::positions::Positions;
use crate::alphabet::CharSet;
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

/// The states after reading `c` from `states`, or `None` when the engine would succeed
/// before reading it (search).
fn step(positions: &Positions, states: &BTreeSet<usize>, c: char) -> Option<BTreeSet<usize>> {
    if states.iter().any(|&s| positions.succeeds_before[s].contains(c)) {
        return None;
    }
    Some(
        states
            .iter()
            .flat_map(|&s| positions.moves[s].iter())
            .filter(|mv| mv.label.contains(c))
            .map(|mv| mv.target)
            .collect(),
    )
}

/// The states after `word` from `states`, `None` if the engine succeeds on the way.
fn run(positions: &Positions, states: &BTreeSet<usize>, word: &str) -> Option<BTreeSet<usize>> {
    word.chars().try_fold(states.clone(), |states, c| step(positions, &states, c))
}

/// A shortest suffix after which no path of `prefix` `pump`^k (k ≥ 1) succeeds, or `None`
/// when there is none short enough (or the engine succeeds within the pumps).
///
/// # Errors
/// [`Error::Budget`] when the subsets exceed `budget`.
pub(super) fn suffix(
    positions: &Positions,
    prefix: &str,
    pump: &str,
    budget: &Budget,
) -> Result<Option<String>, Error> {
    let Some(mut states) = run(positions, &BTreeSet::from([0]), prefix) else {
        return Ok(None);
    };
    let mut reached: BTreeSet<usize> = BTreeSet::new();
    let mut seen: Vec<BTreeSet<usize>> = Vec::new();
    for _ in 0..MAX_PUMPS {
        budget.check_time(Operation::Backtracking)?;
        let Some(next) = run(positions, &states, pump) else { return Ok(None) };
        if seen.contains(&next) {
            break;
        }
        reached.extend(next.iter().copied());
        seen.push(next.clone());
        states = next;
    }
    let chars = candidates(positions);
    let fails = |states: &BTreeSet<usize>| states.iter().all(|&s| !positions.accepting[s]);
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
            let Some(next) = step(positions, &states, c) else { continue };
            if visited.insert(next.clone()) {
                budget.check_states(Operation::Backtracking, visited.len())?;
                queue.push_back((next, format!("{word}{c}")));
            }
        }
    }
    Ok(None)
}

/// The characters the suffix is made of: one outside every label (it ends every path),
/// then one of each distinct label.
fn candidates(positions: &Positions) -> Vec<char> {
    let labels: BTreeSet<&CharSet> = positions.moves.iter().flatten().map(|mv| &mv.label).collect();
    let all = labels.iter().fold(CharSet::empty(), |acc, label| acc.union(label));
    let outside = CharSet::full().difference(&all).difference(&pattern::tags());
    let mut res: Vec<char> = pick(&outside).into_iter().collect();
    for label in labels {
        if let Some(c) = pick(label)
            && !res.contains(&c)
        {
            res.push(c);
        }
    }
    res
}
