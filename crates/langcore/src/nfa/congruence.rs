//! Equivalence of NFA languages by bisimulation up to congruence (HKC), with the shortest,
//! then smallest, witness.
//!
//! # Overview
//! [`equivalence_witness`] finds the shortest, then smallest, string in exactly one of two
//! NFAs' languages, or proves there is none, without building either DFA. Where the subsets
//! that strings reach are unions of subsets met before (a validator and its respelling: one
//! alternation of words under a star, read as several words at once), most pairs of subsets
//! are known equal without being explored, so the walk stays far below the DFA's size.
//!
//! # Algorithm
//! HKC: Bonchi and Pous, "Checking NFA equivalence with bisimulations up to congruence",
//! POPL 2013. The NFAs' states are taken together (the left's, then the right's); a node is
//! a pair `(X, Y)` of sets of states, the left's and the right's subsets reached by one
//! string, from their starts. From a pair, each class of both NFAs' labels (ascending)
//! leads to the pair of the sets' successors on it. A pair is skipped when it lies in the
//! congruence closure of the pairs found so far, the smallest equivalence that holds them
//! and is closed under union (`X R Y` and `X' R Y'` give `X ∪ X'` with `Y ∪ Y'`); the first
//! pair found that disagrees on acceptance gives the witness. Membership in the closure is
//! decided by rewriting (the paper's section 3.3): each found pair `(A, B)` gives the rules
//! `A → A ∪ B` and `B → A ∪ B`, and `(X, Y)` is in the closure when `Y` is within the
//! saturation of `X` and `X` within that of `Y`. A saturation fires a rule once every state
//! of its left side is in the set: a count of missing states per rule side, lowered as
//! states come in (as unit propagation does for Horn clauses), so it costs the occurrences
//! of its states in the rules, not a pass over every rule per state added.
//!
//! Why the first disagreeing pair found is the shortest, then smallest, witness: pairs are
//! found in the shortlex order of their strings (breadth first, classes numbered by
//! smallest member, expanded in order), and the successor of a pair in the closure of some
//! pairs is in the closure of their successors, since taking successors distributes over
//! union. So the pair of the least witness `w` is, if skipped, in the closure of pairs of
//! strings before `w` in shortlex order; those agree on acceptance (`w` is the least
//! witness), the closure keeps agreement, and `w`'s pair would agree: it is never skipped.
//!
//! Cost: at worst the pairs of the product of the two subset constructions, with a
//! saturation per pair that can visit every rule; typically far fewer pairs.
//!
//! # Budgets
//! Every pair and every set found counts as a state of [`Operation::Product`]; the sets,
//! the rules' index and the successor cache count against the memory limit; each expanded
//! pair checks the deadline.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{ClosureScratch, Nfa, NfaTrim};
use crate::alphabet::{CharSet, ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::state_id::StateId;

/// The shortest, then smallest, string in the language of exactly one of `left` and
/// `right`, or `None` when they are equivalent.
pub(crate) fn equivalence_witness(
    left: &Nfa,
    right: &Nfa,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    Hkc::new(left, right, budget)?.run()
}

/// The bytes charged per stored state of a set: in the table and in its index.
const SET_STATE_BYTES: usize = 2 * size_of::<u32>();
/// The bytes charged per set, pair or cached step, besides their states.
const ENTRY_BYTES: usize = 32;

/// One of the two NFAs, and where its states sit among both.
struct Side<'n> {
    nfa: &'n Nfa,
    /// The states that can reach an accepting state.
    live: Vec<bool>,
    /// The index of its state 0 among both NFAs' states.
    offset: usize,
    /// The index of its first label among both NFAs' labels.
    label_offset: usize,
    scratch: ClosureScratch,
}

/// A pair found: the two sets, and the pair and class it was found from (`None` for the
/// start pair).
struct Pair {
    sets: [u32; 2],
    parent: Option<(u32, ClassId)>,
}

/// A search in progress.
struct Hkc<'n, 'b> {
    sides: [Side<'n>; 2],
    classes: Classes,
    /// For each label of the left NFA, then of the right one, its classes in order.
    label_classes: Vec<Vec<ClassId>>,
    /// Sets of states (indices among both NFAs), sorted, by id.
    sets: Vec<Box<[u32]>>,
    set_ids: HashMap<Box<[u32]>, u32>,
    /// Whether each set holds an accepting state.
    accepting: Vec<bool>,
    /// The successor of each set on each class, once computed.
    steps: HashMap<(u32, ClassId), u32>,
    pairs: Vec<Pair>,
    /// The pairs found, by their sets.
    found: HashSet<[u32; 2]>,
    rules: Rules,
    n_bytes: usize,
    budget: &'b Budget,
}

impl<'n, 'b> Hkc<'n, 'b> {
    fn new(left: &'n Nfa, right: &'n Nfa, budget: &'b Budget) -> Result<Self, BudgetError> {
        let labels: Vec<&CharSet> = left.labels().iter().chain(right.labels()).collect();
        let (classes, label_classes) = Classes::new(&labels, budget)?;
        let side = |nfa: &'n Nfa, offset: usize, label_offset: usize| Side {
            nfa,
            live: NfaTrim::co_reachable(nfa),
            offset,
            label_offset,
            scratch: ClosureScratch::new(nfa.n_states()),
        };
        let n_states = left.n_states() + right.n_states();
        Ok(Hkc {
            sides: [side(left, 0, 0), side(right, left.n_states(), left.labels().len())],
            classes,
            label_classes,
            sets: Vec::new(),
            set_ids: HashMap::default(),
            accepting: Vec::new(),
            steps: HashMap::default(),
            pairs: Vec::new(),
            found: HashSet::default(),
            rules: Rules::new(n_states),
            n_bytes: 0,
            budget,
        })
    }

    fn run(mut self) -> Result<Option<String>, BudgetError> {
        let starts = [0, 1].map(|side| {
            let start = self.sides[side].nfa.start();
            self.set_of(side, &[start])
        });
        let [left, right] = [starts[0]?, starts[1]?];
        if self.add(None, left, right)? {
            return Ok(Some(String::new()));
        }
        let mut next = 0;
        while next < self.pairs.len() {
            self.budget.check_time(Operation::Product)?;
            let sets = self.pairs[next].sets;
            for class in self.classes_from(sets) {
                let successors = [self.step(0, sets[0], class)?, self.step(1, sets[1], class)?];
                if successors[0] == successors[1]
                    || self.found.contains(&successors)
                    || self.found.contains(&[successors[1], successors[0]])
                    || self.rules.relate(&self.sets, successors)
                {
                    continue;
                }
                if self.add(Some((next as u32, class)), successors[0], successors[1])? {
                    return Ok(Some(self.spell(self.pairs.len() - 1)));
                }
            }
            next += 1;
        }
        Ok(None)
    }

    /// The classes that a state of either set moves on, ascending.
    fn classes_from(&self, sets: [u32; 2]) -> Vec<ClassId> {
        let mut classes = Vec::new();
        for (side_idx, set) in sets.into_iter().enumerate() {
            let side = &self.sides[side_idx];
            for &state in &self.sets[set as usize] {
                let state = StateId::from_index(state as usize - side.offset);
                for &(label, target) in &side.nfa.state(state).transitions {
                    if side.live[target.index()] {
                        classes.extend(&self.label_classes[side.label_offset + label.index()]);
                    }
                }
            }
        }
        classes.sort_unstable();
        classes.dedup();
        classes
    }

    /// Records pair `(left, right)`; returns whether its sets disagree on acceptance.
    fn add(
        &mut self,
        parent: Option<(u32, ClassId)>,
        left: u32,
        right: u32,
    ) -> Result<bool, BudgetError> {
        let sets = [left, right];
        let n_states = sets.map(|set| self.sets[set as usize].len()).iter().sum::<usize>();
        self.charge(ENTRY_BYTES + n_states * size_of::<u32>())?;
        self.rules.add(&self.sets, sets);
        self.found.insert(sets);
        self.pairs.push(Pair { sets, parent });
        Ok(self.accepting[left as usize] != self.accepting[right as usize])
    }

    /// The id of the set of side `side_idx`'s ε-closure of `seeds`, kept to its live states
    /// with moves or acceptance.
    fn set_of(&mut self, side_idx: usize, seeds: &[StateId]) -> Result<u32, BudgetError> {
        let side = &mut self.sides[side_idx];
        let mut closure = Vec::new();
        side.nfa.closure(seeds, &mut side.scratch, &mut closure);
        let mut set: Vec<u32> = closure
            .into_iter()
            .filter(|&state| side.live[state.index()] && side.nfa.is_important(state))
            .map(|state| (state.index() + side.offset) as u32)
            .collect();
        set.sort_unstable();
        if let Some(&id) = self.set_ids.get(set.as_slice()) {
            return Ok(id);
        }
        let accepting = set.iter().any(|&state| {
            side.nfa.state(StateId::from_index(state as usize - side.offset)).accepting
        });
        self.charge(ENTRY_BYTES + set.len() * SET_STATE_BYTES)?;
        let id = self.sets.len() as u32;
        let set: Box<[u32]> = set.into();
        self.sets.push(set.clone());
        self.set_ids.insert(set, id);
        self.accepting.push(accepting);
        Ok(id)
    }

    /// The set that set `set` of side `side_idx` moves to on `class`.
    fn step(&mut self, side_idx: usize, set: u32, class: ClassId) -> Result<u32, BudgetError> {
        if let Some(&next) = self.steps.get(&(set, class)) {
            return Ok(next);
        }
        let side = &self.sides[side_idx];
        let mut seeds = Vec::new();
        for &state in &self.sets[set as usize] {
            let state = StateId::from_index(state as usize - side.offset);
            for &(label, target) in &side.nfa.state(state).transitions {
                let classes = &self.label_classes[side.label_offset + label.index()];
                if classes.binary_search(&class).is_ok() {
                    seeds.push(target);
                }
            }
        }
        let next = self.set_of(side_idx, &seeds)?;
        self.charge(ENTRY_BYTES)?;
        self.steps.insert((set, class), next);
        Ok(next)
    }

    /// Counts `n_bytes` more, and one more set or pair, against the budget.
    fn charge(&mut self, n_bytes: usize) -> Result<(), BudgetError> {
        self.n_bytes = self.n_bytes.saturating_add(n_bytes);
        let n_found = self.pairs.len() + self.sets.len() + 1;
        self.budget.check_states(Operation::Product, n_found)?;
        self.budget.check_memory(Operation::Product, self.n_bytes)
    }

    /// The string of smallest class members along the path that found pair `idx`.
    fn spell(&self, idx: usize) -> String {
        let path = std::iter::successors(self.pairs[idx].parent, |&(parent, _)| {
            self.pairs[parent as usize].parent
        });
        self.classes.spell_backwards(path.map(|(_, class)| class))
    }
}

/// The rewriting rules of the pairs found, each side watched by one of its states.
struct Rules {
    /// The sets of the rules' sides: side `2r` is the left set of rule `r`, `2r + 1` its
    /// right set.
    sides: Vec<u32>,
    /// For each side, the position in its set of the state that watches it.
    watch: Vec<u32>,
    /// For each state, the sides it watches.
    watchers: Vec<Vec<u32>>,
    /// The sides whose set is empty: they always fire.
    always: Vec<u32>,
    /// For each state, the generation in which it was added to the saturated set, and that
    /// in which it was marked as one to cover.
    member: Vec<u32>,
    wanted: Vec<u32>,
    generation: u32,
    queue: Vec<u32>,
}

impl Rules {
    fn new(n_states: usize) -> Rules {
        Rules {
            sides: Vec::new(),
            watch: Vec::new(),
            watchers: vec![Vec::new(); n_states],
            always: Vec::new(),
            member: vec![0; n_states],
            wanted: vec![0; n_states],
            generation: 0,
            queue: Vec::new(),
        }
    }

    /// Adds the rules of pair `pair` of sets of `sets`.
    fn add(&mut self, sets: &[Box<[u32]>], pair: [u32; 2]) {
        for set in pair {
            let side = self.sides.len() as u32;
            self.sides.push(set);
            self.watch.push(0);
            match sets[set as usize].first() {
                Some(&state) => self.watchers[state as usize].push(side),
                None => self.always.push(side),
            }
        }
    }

    /// Whether the pair `pair` of sets of `sets` is in the congruence closure of the rules'
    /// pairs: each set within the saturation of the other.
    fn relate(&mut self, sets: &[Box<[u32]>], pair: [u32; 2]) -> bool {
        let [left, right] = pair.map(|set| &*sets[set as usize]);
        self.covers(sets, left, right) && self.covers(sets, right, left)
    }

    /// Whether the saturation of `start` by the rules holds every state of `target`; stops
    /// as soon as it does.
    ///
    /// A side fires once all its states are in: each side is watched by one of its states
    /// (two-watched-literal style, with one), and when that state comes in the side looks
    /// for another that is not in yet, or fires. Watches carry over from one saturation to
    /// the next, so a state in many sets rarely watches many.
    fn covers(&mut self, sets: &[Box<[u32]>], start: &[u32], target: &[u32]) -> bool {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.member.fill(0);
            self.wanted.fill(0);
            self.generation = 1;
        }
        let generation = self.generation;
        for &state in target {
            self.wanted[state as usize] = generation;
        }
        let mut n_wanted = target.len();
        self.queue.clear();
        for side_idx in 0..self.always.len() {
            let other = self.always[side_idx] ^ 1;
            for &state in &sets[self.sides[other as usize] as usize] {
                n_wanted -= self.enter(state);
            }
        }
        for &state in start {
            n_wanted -= self.enter(state);
        }
        while n_wanted > 0
            && let Some(state) = self.queue.pop()
        {
            let mut watched = std::mem::take(&mut self.watchers[state as usize]);
            let mut idx = 0;
            while idx < watched.len() {
                let side = watched[idx] as usize;
                let set = &sets[self.sides[side] as usize];
                let from = self.watch[side] as usize;
                let outside = (1..set.len())
                    .map(|step| (from + step) % set.len())
                    .find(|&pos| self.member[set[pos] as usize] != generation);
                match outside {
                    Some(pos) => {
                        self.watch[side] = pos as u32;
                        self.watchers[set[pos] as usize].push(side as u32);
                        watched.swap_remove(idx);
                    }
                    None => {
                        // Every state of this side is in: the other side's come in too.
                        for &other in &sets[self.sides[side ^ 1] as usize] {
                            n_wanted -= self.enter(other);
                        }
                        idx += 1;
                    }
                }
            }
            self.watchers[state as usize] = watched;
        }
        n_wanted == 0
    }

    /// Adds `state` to the saturated set unless it is in; returns 1 when it was one to cover.
    fn enter(&mut self, state: u32) -> usize {
        let idx = state as usize;
        if self.member[idx] == self.generation {
            return 0;
        }
        self.member[idx] = self.generation;
        self.queue.push(state);
        usize::from(self.wanted[idx] == self.generation)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::equivalence_witness;
    use crate::budget::{Budget, BudgetError};
    use crate::dfa::Dfa;
    use crate::nfa::Nfa;

    fn witness(left: &str, right: &str) -> Option<String> {
        let budget = Budget::default();
        let [left, right] = [left, right].map(|p| Nfa::from_regex_with(p, &budget).unwrap());
        equivalence_witness(&left, &right, &budget).unwrap()
    }

    #[test]
    fn witnesses_are_shortest_then_smallest() {
        assert_eq!(witness("(a|b)*abb", "[ab]*abb"), None);
        assert_eq!(witness("(a|b)*", "a*"), Some("b".to_owned()));
        assert_eq!(witness("a*", "(a|b)*"), Some("b".to_owned()));
        assert_eq!(witness("", "a?"), Some("a".to_owned()));
        assert_eq!(witness("a+", ""), Some(String::new()));
        assert_eq!(witness("[^\\s\\S]", "a[^\\s\\S]"), None);
        assert_eq!(witness("(ab|ba)*c", "(ab)*c"), Some("bac".to_owned()));
        assert_eq!(witness("[0-9]{4}", "\\d{4}"), Some("000\u{660}".to_owned()));
    }

    /// Names, then words under a star with short tokens after them, the shape of the
    /// street-name validators of issue 22: the subsets track a name's length, a word's
    /// prefix and a token's count at once (2,263 minimal states). Against a respelling (the
    /// words factored by first letters) the pairs and sets found stay below the minimal
    /// DFA's size, which any subset construction or product of DFAs reaches; against a
    /// variant without one word, the witness is the shortest.
    #[test]
    fn validators_against_their_respelling() {
        let head = "(?:[a-z][a-z]{1,12} ){0,3}";
        let tail =
            "\\.?[ ,-]{0,2}(?:[a-z0-9]{1,3}[ -]?)?)*(?:,? (?:apt|unit|#)\\.? ?[a-z0-9]{1,5})?";
        let words = "abbey|acre|alley|annex|arcade|avenue|bank|bay|bayou|beach|bend|bluff";
        let factored = "a(?:bbey|cre|lley|nnex|rcade|venue)|b(?:ank|ay(?:ou)?|e(?:ach|nd)|luff)";
        let [left, right, variant] =
            [words, factored, &words[6..]].map(|words| format!("{head}(?:(?:{words}){tail}"));
        let n_dfa = Dfa::from_regex(&left).unwrap().n_states();
        assert!(n_dfa > 2_000, "{n_dfa}");
        let budget = Budget::default().with_max_states(n_dfa);
        let nfas = [&left, &right, &variant].map(|p| Nfa::from_regex(p).unwrap());
        assert_eq!(equivalence_witness(&nfas[0], &nfas[1], &budget).unwrap(), None);
        assert_eq!(equivalence_witness(&nfas[1], &nfas[0], &budget).unwrap(), None);
        let found = equivalence_witness(&nfas[2], &nfas[0], &budget).unwrap();
        assert_eq!(found.as_deref(), Some("abbey"));
    }

    #[test]
    fn stops_at_the_budget() {
        let budget = Budget::default().with_max_states(50);
        let [left, right] =
            ["(a|b)*a(a|b){8}", "(a|b)*a(a|b){8}b?"].map(|p| Nfa::from_regex(p).unwrap());
        let err = equivalence_witness(&left, &right, &budget).unwrap_err();
        assert!(matches!(err, BudgetError::TooManyStates { limit: 50, .. }), "{err}");
    }

    fn pattern() -> impl Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "b", "c", "[ab]", "[^a]", "()", ".", "[^\\s\\S]"],
            &["*", "+", "?", "{2}", "{0,2}"],
            3,
            16,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The verdict and the witness are those of the product of the minimal DFAs (the
        /// oracle of `ops/product.rs`, shortest then smallest), and the witness is in
        /// exactly one language as the `regex` crate reads the patterns.
        #[test]
        fn agrees_with_dfa_product(left in pattern(), right in pattern()) {
            let budget = Budget::unlimited();
            let found = witness(&left, &right);
            let [left_dfa, right_dfa] =
                [&left, &right].map(|p| Dfa::from_regex_with(p, &budget).unwrap());
            let expected = left_dfa.equivalence_witness(&right_dfa, &budget).unwrap();
            prop_assert_eq!(&found, &expected, "{} = {}", left, right);
            if let Some(found) = found {
                let oracle = crate::test_patterns::oracle;
                prop_assert_ne!(oracle(&left).is_match(&found), oracle(&right).is_match(&found));
            }
        }

        /// A pattern and a structural respelling of it (a union with itself, each
        /// alternative wrapped again) are equivalent, and so is the other way round.
        #[test]
        fn respellings_are_equivalent(pattern in pattern()) {
            let respelled = format!("(?:(?:{pattern})|(?:{pattern}))");
            prop_assert_eq!(witness(&pattern, &respelled), None);
            prop_assert_eq!(witness(&respelled, &pattern), None);
        }
    }
}
