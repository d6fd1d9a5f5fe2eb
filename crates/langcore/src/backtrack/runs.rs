//! The runs of the position automaton that cost the engine their paths, as automata the
//! ambiguity is measured on: products with the subset automaton of the runs started so far
//! (the determinization the algebra uses). A product with a deterministic automaton keeps
//! the number of paths, so the degrees of ambiguity carry over.
//!
//! # Algorithm
//! A search tries its starts in turn and stops at the first that matches, so the paths of
//! a start are tried only where every earlier start's run failed: a path that has left the
//! states before the pattern (it chose its start) carries the subset of the earlier
//! starts' runs, and a character before which one of them surely succeeds ends it. Two
//! readings of a run:
//! - [`Runs::Failing`]: the subset holds the path's own run too, and a state is kept where
//!   some continuation makes all of them fail (no sure success at the end): the texts on
//!   which the engine tries every path. Its exact moves are a bound the engine reaches,
//!   which an attack shows.
//! - [`Runs::Explored`]: the subset holds the earlier starts' runs only, and a state is
//!   kept where they can fail and the path can still reach a state that may fail by
//!   itself. The engine tries the paths of a run in an order of priority this automaton
//!   does not know, and stops at its first success; every path it tried before that lies
//!   in a part of the run that fails (else the success would have come from there), so
//!   its state can fail: a bound the engine cannot exceed, on every text, matched or not.
//! - [`Positions::failing_parts`]: a second such bound. The paths the engine tries form
//!   its one way to the first success and, hanging off it, parts that fail whole; a state
//!   that surely succeeds on every continuation is in no such part. So the work is at most
//!   n times the paths among the states that may fail, entered anywhere: linear where
//!   they hold no cycle (`^(?: ?-[ \t]+)+`, whose nested loops end in a state that
//!   surely matches), one degree more than their paths' growth otherwise.
//!
//! # Budgets
//! Every subset and product state counts as a state of [`Operation::Backtracking`].

use std::collections::{HashMap, VecDeque};

use super::positions::{Move, Positions, Successes};
use crate::alphabet::{CharSet, Classes};
use crate::budget::{Budget, Operation};
use crate::error::Error;

/// Which runs a product keeps (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Runs {
    /// Paths whose run and every earlier start's can all fail: a lower bound.
    Failing,
    /// Paths the engine may try before a success: an upper bound.
    Explored,
}

/// The subsets of states reached, with their successors per class of characters.
struct SubsetTable {
    list: Vec<Vec<usize>>,
    ids: HashMap<Vec<usize>, usize>,
    /// Per subset and class, the next subset; `None` where a state of the subset surely
    /// succeeds before the class's characters (the search is over).
    next: Vec<Vec<Option<usize>>>,
    /// Per subset, the one without the states before the pattern: the runs whose start is
    /// chosen.
    runs: Vec<usize>,
}

impl SubsetTable {
    /// The number of `subset` (sorted), added if new.
    fn id(&mut self, subset: Vec<usize>, budget: &Budget) -> Result<usize, Error> {
        if let Some(&id) = self.ids.get(&subset) {
            return Ok(id);
        }
        let id = self.list.len();
        budget.check_states(Operation::Backtracking, id + 1)?;
        self.ids.insert(subset.clone(), id);
        self.list.push(subset);
        Ok(id)
    }

    /// Every subset reached from `{0}` in `positions`, and the runs of each, with their
    /// successors on the characters `reps`.
    fn build(
        positions: &Positions,
        reps: &[(char, &CharSet)],
        budget: &Budget,
    ) -> Result<SubsetTable, Error> {
        let mut table = SubsetTable {
            list: Vec::new(),
            ids: HashMap::new(),
            next: Vec::new(),
            runs: Vec::new(),
        };
        table.id(vec![0], budget)?;
        let mut at = 0;
        while at < table.list.len() {
            budget.check_time(Operation::Backtracking)?;
            let subset = table.list[at].clone();
            let runs = subset.iter().copied().filter(|&s| s >= positions.before_pattern).collect();
            let runs = table.id(runs, budget)?;
            table.runs.push(runs);
            let before = positions.sure.before_any(&subset);
            let mut next = Vec::with_capacity(reps.len());
            for &(c, _) in reps {
                if before.contains(c) {
                    next.push(None);
                    continue;
                }
                let mut targets: Vec<usize> = subset
                    .iter()
                    .flat_map(|&s| positions.moves[s].iter())
                    .filter(|mv| mv.label.contains(c))
                    .map(|mv| mv.target)
                    .collect();
                targets.sort_unstable();
                targets.dedup();
                next.push(Some(table.id(targets, budget)?));
            }
            table.next.push(next);
            at += 1;
        }
        Ok(table)
    }

    /// Per subset, whether some continuation ends where no state `accepts`: backwards
    /// from the subsets that fail at the end of the input.
    fn can_fail(&self, accepts: &[bool], budget: &Budget) -> Result<Vec<bool>, Error> {
        let mut res: Vec<bool> =
            self.list.iter().map(|subset| subset.iter().all(|&s| !accepts[s])).collect();
        let mut changed = true;
        while changed {
            budget.check_time(Operation::Backtracking)?;
            changed = false;
            for idx in 0..self.list.len() {
                if !res[idx] && self.next[idx].iter().flatten().any(|&next| res[next]) {
                    res[idx] = true;
                    changed = true;
                }
            }
        }
        Ok(res)
    }
}

/// The states of a product made so far: (state, subset) pairs, numbered.
#[derive(Default)]
struct ProductIndex {
    ids: HashMap<(usize, usize), usize>,
    keys: Vec<(usize, usize)>,
}

impl ProductIndex {
    /// The number of product state `key` of `positions` and `table`, added to `res` if new.
    fn add(
        &mut self,
        positions: &Positions,
        table: &SubsetTable,
        all: [&Successes; 3],
        res: &mut Positions,
        key: (usize, usize),
        budget: &Budget,
    ) -> Result<usize, Error> {
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let (state, subset) = key;
        let id = res.moves.len();
        budget.check_states(Operation::Backtracking, table.list.len() + id + 1)?;
        self.ids.insert(key, id);
        self.keys.push(key);
        res.moves.push(Vec::new());
        for (to, from) in
            [&mut res.sure, &mut res.possible, &mut res.unless_bodies].into_iter().zip(all)
        {
            to.at_end.push(from.at_end[state]);
            to.before.push(from.before_any(&table.list[subset]));
        }
        res.atoms.push(positions.atoms[state]);
        res.side.push(positions.side[state]);
        res.ends_body.push(positions.ends_body[state]);
        Ok(id)
    }
}

impl Positions {
    /// The product of `self` and its subset automaton that keeps the runs `which` says
    /// (module doc). A move is exact only where no success is possible on the way and the
    /// runs can fail whatever the inexact guards decide.
    ///
    /// # Errors
    /// [`Error::Budget`] when the subsets and the product exceed `budget`.
    pub(super) fn runs(&self, which: Runs, budget: &Budget) -> Result<Positions, Error> {
        let classes = self.classes(budget)?;
        let reps = self.reps(&classes);
        let table = SubsetTable::build(self, &reps, budget)?;
        let all = [&self.sure, &self.possible, &self.unless_bodies];
        // The subsets whose runs can fail (no sure success at the end), and those whose
        // runs surely can (no possible one).
        let [can_fail, surely, surely_bodies] = all
            .map(|succ| table.can_fail(&succ.at_end, budget))
            .into_iter()
            .collect::<Result<Vec<_>, Error>>()?
            .try_into()
            .expect("three");
        let useful = match which {
            Runs::Failing => vec![true; self.n_states()],
            Runs::Explored => self.may_fail(&reps, budget)?,
        };
        let mut index = ProductIndex::default();
        let mut res = Positions {
            moves: Vec::new(),
            before_pattern: 0,
            text: self.text.clone(),
            sure: Successes::default(),
            possible: Successes::default(),
            unless_bodies: Successes::default(),
            atoms: Vec::new(),
            side: Vec::new(),
            ends_body: Vec::new(),
            costly_look: self.costly_look,
            empty_body: self.empty_body,
        };
        let alive = |state: usize, subset: usize| useful[state] && can_fail[table.runs[subset]];
        let add = |index: &mut ProductIndex, res: &mut Positions, state, subset| {
            index.add(self, &table, all, res, (state, subset), budget)
        };
        let mut queue = VecDeque::from([add(&mut index, &mut res, 0, 0)?]);
        let mut seen = vec![true];
        while let Some(source) = queue.pop_front() {
            budget.check_time(Operation::Backtracking)?;
            let (state, subset) = index.keys[source];
            if !alive(state, subset) {
                continue;
            }
            let may_before = self.possible.before_any(&table.list[subset]);
            let bodies_before = self.unless_bodies.before_any(&table.list[subset]);
            for (idx, &(c, class)) in reps.iter().enumerate() {
                let next = table.next[subset][idx];
                let (sure, sure_bodies) = (!may_before.contains(c), !bodies_before.contains(c));
                for mv in self.moves[state].iter().filter(|mv| mv.label.contains(c)) {
                    // A path entering the pattern chose its start: later starts are not its
                    // concern, nor (an upper bound) the other paths of its own run, which
                    // the engine may try after it.
                    let chosen = state < self.before_pattern && mv.target >= self.before_pattern;
                    let into = match (chosen, which) {
                        (false, _) => next,
                        (true, Runs::Failing) => next.map(|next| table.runs[next]),
                        (true, Runs::Explored) => table.next[table.runs[subset]][idx],
                    };
                    let Some(into) = into.filter(|&into| alive(mv.target, into)) else {
                        continue;
                    };
                    let target = add(&mut index, &mut res, mv.target, into)?;
                    if seen.len() <= target {
                        seen.resize(target + 1, false);
                    }
                    if !seen[target] {
                        seen[target] = true;
                        queue.push_back(target);
                    }
                    let runs = table.runs[into];
                    let exact = mv.exact && sure && surely[runs];
                    let body_exact = mv.body_exact && sure_bodies && surely_bodies[runs];
                    let out = &mut res.moves[source];
                    let same = |m: &&mut Move| {
                        (m.target, m.id, m.exact, m.body_exact)
                            == (target, mv.id, exact, body_exact)
                    };
                    match out.iter_mut().find(same) {
                        Some(m) => m.label = m.label.union(class),
                        None => out.push(Move {
                            id: mv.id,
                            target,
                            label: class.clone(),
                            exact,
                            body_exact,
                        }),
                    }
                }
            }
        }
        Ok(res)
    }

    /// Per state, whether it surely succeeds on every continuation: surely at the end,
    /// and before each character of `reps` or by an exact move to another such state.
    fn never_fails(&self, reps: &[(char, &CharSet)], budget: &Budget) -> Result<Vec<bool>, Error> {
        let mut never = self.sure.at_end.clone();
        let mut changed = true;
        while changed {
            budget.check_time(Operation::Backtracking)?;
            changed = false;
            for state in 0..self.n_states() {
                let holds = |&(c, _): &(char, &CharSet)| {
                    self.sure.before[state].contains(c)
                        || self.moves[state]
                            .iter()
                            .any(|mv| mv.exact && mv.label.contains(c) && never[mv.target])
                };
                if never[state] && !reps.iter().all(holds) {
                    never[state] = false;
                    changed = true;
                }
            }
        }
        Ok(never)
    }

    /// Per state, whether a path there can reach a state that may fail by itself.
    fn may_fail(&self, reps: &[(char, &CharSet)], budget: &Budget) -> Result<Vec<bool>, Error> {
        let mut useful: Vec<bool> =
            self.never_fails(reps, budget)?.iter().map(|&never| !never).collect();
        let mut changed = true;
        while changed {
            budget.check_time(Operation::Backtracking)?;
            changed = false;
            for state in 0..self.n_states() {
                if !useful[state] && self.moves[state].iter().any(|mv| useful[mv.target]) {
                    useful[state] = true;
                    changed = true;
                }
            }
        }
        Ok(useful)
    }

    /// The parts of the runs that fail, as an automaton: the pattern's states that may
    /// fail by themselves, with the moves between them, each entered from state 0. Every
    /// path an engine tries and that is not on its way to the first success lies in such
    /// a part, entered from a point of that one way (module doc): the time is at most n
    /// times the growth of these paths, linear where they hold no cycle.
    pub(super) fn failing_parts(&self, budget: &Budget) -> Result<Positions, Error> {
        let classes = self.classes(budget)?;
        let never = self.never_fails(&self.reps(&classes), budget)?;
        let kept = |state: usize| state >= self.before_pattern && !never[state];
        let mut moves: Vec<Vec<Move>> = (0..self.n_states())
            .map(|state| match kept(state) {
                true => self.moves[state].iter().filter(|mv| kept(mv.target)).cloned().collect(),
                false => Vec::new(),
            })
            .collect();
        moves[0] = (0..self.n_states())
            .filter(|&state| kept(state))
            .enumerate()
            .map(|(id, target)| Move {
                id,
                target,
                label: self.text.clone(),
                exact: false,
                body_exact: false,
            })
            .collect();
        Ok(Positions {
            moves,
            before_pattern: 0,
            text: self.text.clone(),
            sure: Successes::default(),
            possible: Successes::default(),
            unless_bodies: Successes::default(),
            atoms: self.atoms.clone(),
            side: self.side.clone(),
            ends_body: self.ends_body.clone(),
            costly_look: self.costly_look,
            empty_body: self.empty_body,
        })
    }

    /// The classes of characters the moves and the successes tell apart.
    fn classes(&self, budget: &Budget) -> Result<Classes, Error> {
        let sets: Vec<&CharSet> =
            self.moves.iter().flatten().map(|mv| &mv.label).chain(&self.possible.before).collect();
        Ok(Classes::new(&sets, budget)?.0)
    }

    /// A character of the text from each of `classes`, with its class.
    fn reps<'c>(&self, classes: &'c Classes) -> Vec<(char, &'c CharSet)> {
        classes
            .iter()
            .filter_map(|(_, set)| Some((set.intersection(&self.text).first()?, set)))
            .collect()
    }
}
