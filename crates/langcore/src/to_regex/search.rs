//! Verified local search: shorter rewrites of an expression, kept only when the language is
//! provably unchanged.
//!
//! # Algorithm
//! Hill climbing on the rendered length. From the current expression, every node is offered
//! a few replacements that are usually *not* identities but often are in context: drop it
//! (`ε`), drop an alternation branch, widen it to the star or plus of its characters
//! (`a[ab]*` → `[ab]*`), relax a repetition's counts, or drop a quantifier. The rewritten
//! expression is rebuilt through the smart constructors up to the root (without the relaxed
//! factoring of alternations), and the candidates strictly shorter than the current one are
//! checked in order of length, shortest first; the first whose language equals the target's
//! becomes current, and the search starts over. It stops when no candidate passes, or at the
//! check limit. A rewrite is only rebuilt once its estimated length (the root's with the
//! node's text replaced) comes near the shortest rebuilt so far, so a round that finds a
//! shorter candidate early rebuilds few: rebuilding was most of a search's time.
//!
//! [`Verifier`] decides equality exactly, cheapest test first: the length range (from the
//! node's facts), then known *witnesses* (strings that told an earlier candidate apart, plus
//! the shortest strings to every state of the target and their one-character extensions) run
//! on the candidate's NFA, the last one that told a candidate apart first, and finally the candidate's subset construction against the target
//! by a product walk, whose separating string, if any, becomes a new witness.
//!
//! This is what finds `[ab]*|[bc]*` for `[bc]*[ab]* ∩ [ab]*[bc]*`, where elimination gives
//! `b*(a[ab]*|c[bc]*)?`: each widening is checked, none is trusted.
//!
//! # Budgets
//! [`Operation::ToRegex`] for the candidates' automata, capped at a few times the target's
//! size (a candidate that needs more is not equivalent in any useful way); the deadline
//! before each check and at every node while collecting rewrites. Beside the caller's cap
//! on checks, the DFA states all checks of a search build together are bounded by a
//! multiple of the target's states ([`SEARCH_WORK_PER_STATE`]): work, not time, so the
//! search gives the same answer on every machine, and a conversion whose first candidate
//! came fast is not held for seconds by checks of large candidates; the nodes its rewriting
//! makes count too, [`CALLS_PER_STATE`] constructor calls to a state, and so do the NFAs its
//! checks build ([`NFA_STATES_PER_STATE`]). The searches of one conversion share one
//! [`Searches`]: the witnesses, the result of each starting expression, and an allowance
//! proportional to the conversion's own work ([`shared_allowance`]: its constructor calls
//! outside the searches, plus a floor), so that the search never makes a fast conversion
//! many times slower. Running out of any of these ends the search with the best expression
//! so far.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::ast::{Exprs, Kind, NodeId};
use crate::alphabet::CharSet;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dfa::fragment::Fragment;
use crate::nfa::{Nfa, NfaBuilder, State, compile_repetition};
use crate::ops::product::separating_string;
use crate::state_id::StateId;
use crate::syntax::NEST_LIMIT;
use crate::witness::BoolOp;

/// How many witnesses the target's own strings contribute at most.
const MAX_INITIAL_WITNESSES: usize = 64;
/// The DFA states that the checks of one search may build in all, per state of the target,
/// plus [`MIN_SEARCH_WORK`]. A check that gets past the witnesses determinizes its
/// candidate, which takes about as many states as the target has, or several times that
/// (`aspsessionid − api_version_path` of the combined corpus: 1,700 a check on a target of
/// 178, 0.6 s to find nothing shorter in 400 checks); the searches of the combined corpus
/// take at most 257 per state otherwise. Counted in work done, not in time, so that the
/// answer is the same on every machine.
const SEARCH_WORK_PER_STATE: usize = 256;
/// See [`SEARCH_WORK_PER_STATE`]: what small targets may spend.
const MIN_SEARCH_WORK: usize = 1 << 14;

/// The constructor calls (`Exprs::calls`) that count as the work of one DFA state: rewriting
/// rebuilds candidates up to the root through the constructors, where the alternations
/// factor anew (`invalid_entity − registrering_impl` of the combined corpus: 64,777 calls
/// in the first round of a 447-character expression when every candidate was rebuilt); a
/// check's state takes about as long as 8 calls (timed on the combined corpus).
const CALLS_PER_STATE: usize = 8;
/// The NFA states that count as the work of one DFA state: every check builds its
/// candidate's NFA and runs witnesses on it, which is most of the time of a search whose
/// checks rarely determinize (`oom − log4j_timestamp`: 400 checks).
const NFA_STATES_PER_STATE: usize = 8;
/// What the searches of one conversion may spend in all, in DFA states, beside what the
/// conversion did without them ([`shared_allowance`]).
const SHARED_SEARCH_FLOOR: usize = 1 << 12;

/// What the searches of one conversion may spend in all, in DFA states, when the conversion
/// made `calls` constructor calls without them (its candidates: structure, products,
/// eliminations): as much again, plus [`SHARED_SEARCH_FLOOR`]. So the search at most about
/// doubles a conversion's own work, counted in work, not time, so that the answer is the
/// same on every machine (before, `oom − log4j_timestamp` took 25 ms without its searches
/// and 200 ms with them).
fn shared_allowance(calls: usize) -> usize {
    SHARED_SEARCH_FLOOR.saturating_add(calls / CALLS_PER_STATE)
}

/// Decides whether expressions denote the target language.
struct Verifier<'t> {
    target: &'t Dfa,
    lengths: (Option<usize>, Option<usize>),
    /// Every character some string of the target holds; `None` when not known.
    chars: Option<CharSet>,
    /// Strings with the target's verdict on them.
    witnesses: Vec<(String, bool)>,
    /// The caller's deadline, with a state limit scaled to the target.
    budget: Budget,
    n_checks: usize,
    /// The DFA states the checks may still build ([`SEARCH_WORK_PER_STATE`]).
    work_left: usize,
    /// Constructor calls of rewriting not yet counted as a state's work.
    unbilled_calls: usize,
}

impl<'t> Verifier<'t> {
    /// A verifier for the language of the minimal DFA `target`.
    fn new(target: &'t Dfa, budget: &Budget) -> Verifier<'t> {
        let max_states = (8 * target.n_states() + 64).min(budget.max_states());
        let witnesses = characteristic_strings(target)
            .into_iter()
            .map(|s| (s.clone(), target.matches(&s)))
            .collect();
        // The trimmed automaton's labels: a deadline passing here only costs the filter.
        let chars = Fragment::within(target, budget, Operation::ToRegex).ok().map(|fragment| {
            let moves = fragment.iter().flat_map(|f| (0..f.n_states()).map(|idx| f.moves(idx)));
            moves.flatten().fold(CharSet::empty(), |acc, (set, _)| acc.union(set))
        });
        Verifier {
            target,
            lengths: target.length(),
            chars,
            witnesses,
            budget: budget.with_max_states(max_states),
            n_checks: 0,
            work_left: search_work(target),
            unbilled_calls: 0,
        }
    }

    /// How many candidates got past the length test so far.
    fn n_checks(&self) -> usize {
        self.n_checks
    }

    /// Readies the verifier for another search that may spend at most `allowance` DFA states
    /// (and at most [`SEARCH_WORK_PER_STATE`]): its checks counted from zero, the witnesses
    /// found so far kept.
    fn restart(&mut self, allowance: usize) {
        self.n_checks = 0;
        self.work_left = search_work(self.target).min(allowance);
    }

    /// Whether `node` denotes exactly the target language.
    ///
    /// # Errors
    /// When the deadline passes, or with [`BudgetError::TooManyStates`] once the checks have
    /// built the DFA states they may ([`SEARCH_WORK_PER_STATE`]). A candidate too large for the
    /// scaled state limit is answered `false`.
    fn accepts(&mut self, exprs: &Exprs, node: NodeId) -> Result<bool, BudgetError> {
        let info = exprs.info(node);
        if (Some(info.min_len), info.max_len) != self.lengths || info.depth > NEST_LIMIT {
            return Ok(false);
        }
        self.work_left_or_stop()?;
        self.n_checks += 1;
        // An expression other than `[]` holds no empty part, so every character it names
        // is in one of its strings: the characters must be the target's.
        if self.chars.as_ref().is_some_and(|chars| *chars != info.chars) {
            return Ok(false);
        }
        self.budget.check_time(Operation::ToRegex)?;
        let nfa = match build_nfa(exprs, node, &self.budget) {
            Ok(nfa) => nfa,
            Err(BudgetError::TooManyStates { .. }) => return Ok(false),
            Err(err) => return Err(err),
        };
        self.spend(nfa.n_states() / NFA_STATES_PER_STATE);
        let told =
            self.witnesses.iter().position(|(input, accepted)| nfa.matches(input) != *accepted);
        if let Some(at) = told {
            // Candidates of one round differ little: what told one apart likely tells the
            // next apart too, so it is tried first from now on.
            self.witnesses[..=at].rotate_right(1);
            return Ok(false);
        }
        let dfa = Dfa::determinize(&nfa, &self.budget);
        let cap = self.budget.max_states();
        self.spend(dfa.as_ref().map_or(cap, Dfa::n_states));
        let separating = dfa.and_then(|dfa| {
            separating_string(&dfa, self.target, BoolOp::SymmetricDifference, &self.budget)
        });
        match separating {
            Ok(None) => Ok(true),
            Ok(Some(input)) => {
                let accepted = self.target.matches(&input);
                self.witnesses.push((input, accepted));
                Ok(false)
            }
            Err(BudgetError::TooManyStates { .. }) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// Takes `work` DFA states off what the checks may still build.
    fn spend(&mut self, work: usize) {
        self.work_left = self.work_left.saturating_sub(work);
    }

    /// Counts `calls` constructor calls of rewriting against the work allowance
    /// ([`CALLS_PER_STATE`] to a DFA state).
    ///
    /// # Errors
    /// As [`Verifier::work_left_or_stop`].
    fn built(&mut self, calls: usize) -> Result<(), BudgetError> {
        let calls = self.unbilled_calls.saturating_add(calls);
        self.spend(calls / CALLS_PER_STATE);
        self.unbilled_calls = calls % CALLS_PER_STATE;
        self.work_left_or_stop()
    }

    /// # Errors
    /// [`BudgetError::TooManyStates`] once the work allowance is spent.
    fn work_left_or_stop(&self) -> Result<(), BudgetError> {
        if self.work_left == 0 {
            let limit = self.budget.max_states();
            return Err(BudgetError::TooManyStates { op: Operation::ToRegex, limit });
        }
        Ok(())
    }
}

/// The DFA states the checks of one search on `target` may build ([`SEARCH_WORK_PER_STATE`]),
/// and the nodes its rewriting may make.
fn search_work(target: &Dfa) -> usize {
    SEARCH_WORK_PER_STATE.saturating_mul(target.n_states()).saturating_add(MIN_SEARCH_WORK)
}

/// The shortest string to every state of `dfa` (smallest characters), and each extended by
/// the smallest character of every class: together they visit every transition.
fn characteristic_strings(dfa: &Dfa) -> Vec<String> {
    let mut paths: Vec<Option<String>> = vec![None; dfa.n_states()];
    paths[dfa.start().index()] = Some(String::new());
    let mut queue = VecDeque::from([dfa.start()]);
    let mut strings = Vec::new();
    while let Some(state) = queue.pop_front() {
        let path = paths[state.index()].clone().unwrap_or_default();
        for (class, set) in dfa.classes().iter() {
            let Some(ch) = set.first() else { continue };
            let mut extended = path.clone();
            extended.push(ch);
            let target = dfa.next_state(state, class);
            if paths[target.index()].is_none() {
                paths[target.index()] = Some(extended.clone());
                queue.push_back(target);
            }
            if strings.len() < MAX_INITIAL_WITNESSES {
                strings.push(extended);
            }
        }
        if strings.len() < MAX_INITIAL_WITNESSES {
            strings.push(path);
        }
    }
    strings
}

/// The NFA of `node`, built back to front like the pattern front end's.
pub(super) fn build_nfa(exprs: &Exprs, node: NodeId, budget: &Budget) -> Result<Nfa, BudgetError> {
    let mut builder = NfaBuilder::new(budget, Operation::ToRegex);
    let accept = builder.add(State { accepting: true, ..State::default() })?;
    let start = compile(&mut builder, exprs, node, accept)?;
    Ok(builder.finish(start))
}

/// Recursion follows the node's depth, which [`Verifier::accepts`] bounds by `NEST_LIMIT`.
fn compile(
    builder: &mut NfaBuilder<'_>,
    exprs: &Exprs,
    node: NodeId,
    next: StateId,
) -> Result<StateId, BudgetError> {
    match exprs.kind(node) {
        Kind::Empty => builder.add(State::default()),
        Kind::Epsilon => Ok(next),
        Kind::Class(set) => builder.add_move(set.clone(), next),
        Kind::Concat(items) => {
            let mut entry = next;
            for &item in items.iter().rev() {
                entry = compile(builder, exprs, item, entry)?;
            }
            Ok(entry)
        }
        Kind::Alt(branches) => {
            let mut entries = Vec::with_capacity(branches.len());
            for &branch in branches {
                entries.push(compile(builder, exprs, branch, next)?);
            }
            builder.add(State { epsilons: entries, ..State::default() })
        }
        &Kind::Repeat { inner, min, max } => {
            let mut emit_copy =
                |builder: &mut NfaBuilder<'_>, next| compile(builder, exprs, inner, next);
            compile_repetition(builder, min, max, next, &mut emit_copy)
        }
    }
}

/// The searches of one conversion against one target: they share the witnesses their
/// checks found, and a search from an expression searched before ends where it did.
pub(super) struct Searches<'t> {
    verifier: Verifier<'t>,
    /// The result of each search, by the expression it started from.
    done: HashMap<NodeId, NodeId>,
    /// The constructor calls that the searches made, which are not the conversion's own.
    calls: usize,
    /// The work the searches spent, in DFA states.
    spent: usize,
}

impl<'t> Searches<'t> {
    /// The searches for the language of the minimal DFA `target`.
    pub(super) fn new(target: &'t Dfa, budget: &Budget) -> Searches<'t> {
        let verifier = Verifier::new(target, budget);
        Searches { verifier, done: HashMap::default(), calls: 0, spent: 0 }
    }

    /// [`improve`] with [`SEARCH_WORK_PER_STATE`] and `max_checks` of its own, unless a
    /// search started from `*best` before: the candidates of a product and their
    /// eliminations are often the same expression.
    ///
    /// # Errors
    /// As [`improve`].
    pub(super) fn improve(
        &mut self,
        exprs: &mut Exprs,
        best: &mut NodeId,
        max_checks: usize,
    ) -> Result<(), BudgetError> {
        if let Some(&done) = self.done.get(best) {
            *best = done;
            return Ok(());
        }
        let start = *best;
        let own = exprs.calls.saturating_sub(self.calls);
        let allowance = shared_allowance(own).saturating_sub(self.spent);
        self.verifier.restart(allowance);
        let (calls, left) = (exprs.calls, self.verifier.work_left);
        let searched = improve(exprs, best, &mut self.verifier, max_checks);
        self.calls = self.calls.saturating_add(exprs.calls - calls);
        self.spent = self.spent.saturating_add(left - self.verifier.work_left);
        // A search cut short by the deadline is not the search's answer.
        if !matches!(searched, Err(BudgetError::Timeout { .. })) {
            self.done.insert(start, *best);
        }
        searched
    }
}

/// Improves `*best` by verified rewrites until none is shorter and equivalent, `max_checks`
/// candidates have been checked, or the budget runs out.
///
/// # Errors
/// When the deadline passes, or with [`BudgetError::TooManyStates`] once the work allowance
/// is spent; `*best` is then the best expression found so far.
fn improve(
    exprs: &mut Exprs,
    best: &mut NodeId,
    verifier: &mut Verifier<'_>,
    max_checks: usize,
) -> Result<(), BudgetError> {
    loop {
        // With nothing left to spend, not even the rewrites are collected.
        verifier.work_left_or_stop()?;
        let mut pending = Vec::new();
        let made = exprs.calls;
        // Candidates are rebuilt without the relaxed factoring of alternations, which
        // triples the cost of every new one, and found the same outputs on the corpora.
        let relaxing = std::mem::replace(&mut exprs.relaxing, true);
        let root_size = exprs.size(*best);
        let collected =
            rewrites(exprs, root_size, *best, &mut Vec::new(), &mut pending, &verifier.budget);
        let found = collected
            .and_then(|()| verifier.built(exprs.calls - made))
            .and_then(|()| first_accepted(exprs, *best, pending, verifier, max_checks));
        exprs.relaxing = relaxing;
        match found? {
            Some(found) => *best = found,
            None => return Ok(()),
        }
    }
}

/// How much shorter than its estimate a rewritten root may come out: the constructors
/// merge and factor around the rewrite, and groups come and go.
const ESTIMATE_SLACK: usize = 8;

/// A rewrite not rebuilt yet: `replacement` for the node reached through `path` (a list of
/// (parent, child index) from the root), and `estimate`, the root's length with the node's
/// text replaced and nothing around it changed.
struct Rewrite {
    estimate: usize,
    path: Vec<(NodeId, usize)>,
    replacement: NodeId,
}

/// The first of the rewrites `pending` of `root` that is shorter and passes the verifier,
/// trying them shortest first as rebuilt (then by fewer groups, then by node); `None` when
/// none does or after `max_checks` checks. A rewrite is only rebuilt up to the root once it
/// may be the shortest left: its estimate is within [`ESTIMATE_SLACK`] of the shortest
/// rebuilt so far, so a round that finds one rebuilds few.
///
/// # Errors
/// As [`improve`].
fn first_accepted(
    exprs: &mut Exprs,
    root: NodeId,
    mut pending: Vec<Rewrite>,
    verifier: &mut Verifier<'_>,
    max_checks: usize,
) -> Result<Option<NodeId>, BudgetError> {
    let cost = |exprs: &Exprs, node: NodeId| (exprs.size(node), exprs.info(node).groups);
    let current = cost(exprs, root);
    pending.sort_by_key(|rewrite| rewrite.estimate);
    let mut pending = pending.into_iter().peekable();
    let mut ready: BinaryHeap<Reverse<((usize, usize), NodeId)>> = BinaryHeap::new();
    let mut seen = HashSet::default();
    loop {
        while let Some(rewrite) = pending.next_if(|rewrite| {
            ready.peek().is_none_or(|Reverse(((size, _), _))| {
                rewrite.estimate <= size.saturating_add(ESTIMATE_SLACK)
            })
        }) {
            verifier.budget.check_time(Operation::ToRegex)?;
            let made = exprs.calls;
            let mut rebuilt = rewrite.replacement;
            for &(parent, idx) in rewrite.path.iter().rev() {
                rebuilt = exprs.with_child(parent, idx, rebuilt);
            }
            verifier.built(exprs.calls - made)?;
            if rebuilt != root && cost(exprs, rebuilt) < current && seen.insert(rebuilt) {
                ready.push(Reverse((cost(exprs, rebuilt), rebuilt)));
            }
        }
        let Some(Reverse((_, candidate))) = ready.pop() else { return Ok(None) };
        if verifier.n_checks() >= max_checks {
            return Ok(None);
        }
        if verifier.accepts(exprs, candidate)? {
            return Ok(Some(candidate));
        }
    }
}

/// Collects, for every node under the root (of length `root_size`, `node` reached through
/// `path`), its rewrites, not rebuilt.
fn rewrites(
    exprs: &mut Exprs,
    root_size: usize,
    node: NodeId,
    path: &mut Vec<(NodeId, usize)>,
    out: &mut Vec<Rewrite>,
    budget: &Budget,
) -> Result<(), BudgetError> {
    budget.check_time(Operation::ToRegex)?;
    let in_alt = path.last().is_some_and(|&(parent, _)| matches!(exprs.kind(parent), Kind::Alt(_)));
    let rest = root_size.saturating_sub(exprs.size(node));
    for replacement in replacements(exprs, node, in_alt) {
        let estimate = rest.saturating_add(exprs.size(replacement));
        out.push(Rewrite { estimate, path: path.clone(), replacement });
    }
    let children = exprs.children(node).to_vec();
    for (idx, child) in children.into_iter().enumerate() {
        path.push((node, idx));
        rewrites(exprs, root_size, child, path, out, budget)?;
        path.pop();
    }
    Ok(())
}

/// The nodes that may stand for `node` in context: rarely identities, always checked.
fn replacements(exprs: &mut Exprs, node: NodeId, in_alt: bool) -> Vec<NodeId> {
    let mut out = Vec::new();
    if !exprs.info(node).nullable {
        out.push(exprs.epsilon());
    }
    if in_alt {
        out.push(exprs.empty());
    }
    let chars: CharSet = exprs.info(node).chars.clone();
    let class = exprs.class(chars);
    out.push(exprs.star(class));
    if !exprs.info(node).nullable {
        let plus = exprs.repeat(class, 1, None);
        out.push(plus);
    }
    if let Kind::Repeat { inner, min, max } = *exprs.kind(node) {
        out.push(inner);
        out.push(exprs.star(inner));
        if min > 0 {
            out.push(exprs.repeat(inner, 0, max));
        }
        if max.is_some() {
            out.push(exprs.repeat(inner, min, None));
        }
    }
    out.retain(|&replacement| replacement != node);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::Dialect;
    use crate::to_regex::render::render;
    use crate::to_regex::structure::build_hir;

    /// The expression of `pattern`, as the structural candidate builds it.
    fn expr(exprs: &mut Exprs, pattern: &str, budget: &Budget) -> NodeId {
        let hir = crate::syntax::parse(pattern, budget).unwrap();
        build_hir(exprs, &hir, budget).unwrap()
    }

    /// Checks spend the search's work allowance, and once it is spent the search stops
    /// with the expression it has, whatever the time left.
    #[test]
    fn the_search_stops_when_its_work_is_spent() {
        let budget = Budget::unlimited();
        let target = Dfa::from_regex("[ab]*|[bc]*").unwrap().minimize(&budget).unwrap();
        let mut exprs = Exprs::new(Dialect::Rust);
        let start = expr(&mut exprs, "b*(a[ab]*|c[bc]*)?", &budget);
        let mut verifier = Verifier::new(&target, &budget);
        let allowance = verifier.work_left;
        let mut best = start;
        improve(&mut exprs, &mut best, &mut verifier, 400).unwrap();
        assert_eq!(render(&exprs, best), "[ab]*|[bc]*");
        assert!(verifier.work_left < allowance);
        let mut spent = Verifier::new(&target, &budget);
        spent.work_left = 0;
        let mut kept = start;
        let err = improve(&mut exprs, &mut kept, &mut spent, 400).unwrap_err();
        assert!(matches!(err, BudgetError::TooManyStates { op: Operation::ToRegex, .. }), "{err}");
        assert_eq!(kept, start);
    }

    /// The searches of one conversion together spend at most the floor plus the work the
    /// conversion did without them: once that is spent, a search stops before it rewrites,
    /// and more work of the conversion's own lets the search run.
    #[test]
    fn the_searches_of_a_conversion_spend_about_its_own_work() {
        let budget = Budget::unlimited();
        let target = Dfa::from_regex("[ab]*|[bc]*").unwrap().minimize(&budget).unwrap();
        let mut exprs = Exprs::new(Dialect::Rust);
        let start = expr(&mut exprs, "b*(a[ab]*|c[bc]*)?", &budget);
        let mut spent = Searches::new(&target, &budget);
        spent.spent = shared_allowance(exprs.calls);
        let (mut kept, calls) = (start, exprs.calls);
        let err = spent.improve(&mut exprs, &mut kept, 400).unwrap_err();
        assert!(matches!(err, BudgetError::TooManyStates { op: Operation::ToRegex, .. }), "{err}");
        assert_eq!((kept, exprs.calls), (start, calls));
        let mut searches = Searches::new(&target, &budget);
        searches.spent = shared_allowance(exprs.calls);
        exprs.calls += 1_000 * CALLS_PER_STATE;
        let mut found = start;
        searches.improve(&mut exprs, &mut found, 400).unwrap();
        assert_eq!(render(&exprs, found), "[ab]*|[bc]*");
        assert!(searches.spent <= shared_allowance(exprs.calls - searches.calls));
    }

    /// A search from an expression searched before ends where it did, whatever its checks
    /// left: the candidates of a product and their eliminations are often one expression.
    #[test]
    fn a_search_is_not_run_twice_from_one_expression() {
        let budget = Budget::unlimited();
        let target = Dfa::from_regex("[ab]*|[bc]*").unwrap().minimize(&budget).unwrap();
        let mut exprs = Exprs::new(Dialect::Rust);
        let start = expr(&mut exprs, "b*(a[ab]*|c[bc]*)?", &budget);
        let mut searches = Searches::new(&target, &budget);
        let mut first = start;
        searches.improve(&mut exprs, &mut first, 400).unwrap();
        assert_eq!(render(&exprs, first), "[ab]*|[bc]*");
        let mut again = start;
        searches.improve(&mut exprs, &mut again, 0).unwrap();
        assert_eq!(again, first);
    }

    /// A candidate whose characters are not the target's is refused before any automaton
    /// is built, even with no witness to tell it apart.
    #[test]
    fn candidates_with_other_characters_cost_no_automaton() {
        let budget = Budget::unlimited();
        let target = Dfa::from_regex("[ab]*|[bc]*").unwrap().minimize(&budget).unwrap();
        let mut exprs = Exprs::new(Dialect::Rust);
        let mut verifier = Verifier::new(&target, &budget);
        verifier.witnesses.clear();
        let allowance = verifier.work_left;
        let narrower = expr(&mut exprs, "[ab]*", &budget);
        assert!(!verifier.accepts(&exprs, narrower).unwrap());
        assert_eq!((verifier.work_left, verifier.witnesses.len()), (allowance, 0));
        let wider = expr(&mut exprs, "[abc]*", &budget);
        assert!(!verifier.accepts(&exprs, wider).unwrap());
        assert!(verifier.work_left < allowance);
        assert_eq!(verifier.witnesses.len(), 1);
    }
}
