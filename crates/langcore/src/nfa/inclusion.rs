//! Inclusion of NFA languages by an on-the-fly subset construction pruned by antichains,
//! with the shortest, then smallest, witness.
//!
//! # Overview
//! [`inclusion_witness`] finds the shortest, then smallest, string of one NFA's language
//! that another's lacks, or proves there is none, without building either DFA. Only the
//! pairs that strings of the left language reach are explored, and only while the left
//! side can still accept: `a-a ⊆ (?:(?:a-?){0,17}a)+` visits a handful of pairs where the
//! right side's DFA is beyond any budget.
//!
//! # Algorithm
//! The antichain algorithm for language inclusion (De Wulf, Doyen, Henzinger, Raskin,
//! CAV 2006), forward, breadth first. A node is a pair `(p, S)`: one state of the left NFA
//! and the subset of the right NFA reached by the same string. The alphabet is split into
//! the classes of both NFAs' labels; from a node, each class (ascending) leads to the
//! left successors on it, each paired with the right subset's successor on it. A node is
//! a witness when `p` accepts and `S` does not. Pruning:
//! - left states are kept only when useful ([`NfaTrim`]), right states only when they can
//!   reach acceptance, and only states with moves or acceptance (ε-closures are taken at
//!   once);
//! - antichain: `(p, S)` is dropped when a node `(p, T)` with `T ⊆ S` was found before.
//!   Every witness suffix from `(p, S)` is one from `(p, T)` as well, and `(p, T)` was
//!   reached by a string no greater in shortlex order.
//!
//! Nodes are found in the shortlex order of the strings that reach them (breadth first,
//! classes numbered by smallest member, expanded in order), so the first witness found is
//! the shortest, then smallest (the argument of `ops/product.rs`). The loop is its own, not
//! `witness.rs`'s [`shortest_witness`](crate::witness::shortest_witness): there a step
//! leads to one state, found or known by its identity; here it leads to a group of nodes
//! of which the antichain drops any number, by inclusion rather than identity.
//!
//! Cost: at worst the product of the left NFA with the right one's subset construction;
//! typically the part the left language can reach, cut by the antichain.
//!
//! # Budgets
//! Every node and every right subset found counts as a state of [`Operation::Product`],
//! their stored states against the memory limit; each expanded node checks the deadline.

use rustc_hash::FxHashMap as HashMap;

use super::{ClosureScratch, Nfa, NfaTrim};
use crate::alphabet::{CharSet, ClassId, Classes};
use crate::budget::{Budget, BudgetError, Operation};
use crate::state_id::StateId;

/// The shortest, then smallest, string in the language of `left` but not in that of
/// `right`, or `None` when the first is a subset of the second. With `max_len`, only
/// strings of at most that many characters are looked for.
pub(crate) fn inclusion_witness(
    left: &Nfa,
    right: &Nfa,
    max_len: Option<usize>,
    budget: &Budget,
) -> Result<Option<String>, BudgetError> {
    Search::new(left, right, budget)?.run(max_len)
}

/// One node of the search: a left state and a right subset.
#[derive(Clone, Copy)]
struct Node {
    left: StateId,
    right: u32,
}

/// The nodes first reached by one string, and how that string was first reached.
#[derive(Clone)]
struct Group {
    /// The group it was found from and the class taken; `None` for the start group.
    parent: Option<(u32, ClassId)>,
    nodes: std::ops::Range<u32>,
    /// The length of the string.
    depth: usize,
}

/// A search in progress.
struct Search<'n, 'b> {
    left: &'n Nfa,
    right: &'n Nfa,
    left_trim: NfaTrim<'n>,
    /// The right states that can reach an accepting state.
    right_live: Vec<bool>,
    classes: Classes,
    /// For each label of the left NFA, then of the right one, its classes in order.
    label_classes: Vec<Vec<ClassId>>,
    subsets: Vec<Box<[StateId]>>,
    subset_ids: HashMap<Box<[StateId]>, u32>,
    /// The successor of each right subset on each class, once computed.
    steps: HashMap<(u32, ClassId), u32>,
    nodes: Vec<Node>,
    groups: Vec<Group>,
    /// For each left state, the right subsets it was found with (the antichain).
    found: HashMap<StateId, Vec<u32>>,
    scratch_left: ClosureScratch,
    scratch_right: ClosureScratch,
    closure: Vec<StateId>,
    n_stored: usize,
    budget: &'b Budget,
}

impl<'n, 'b> Search<'n, 'b> {
    fn new(left: &'n Nfa, right: &'n Nfa, budget: &'b Budget) -> Result<Self, BudgetError> {
        let labels: Vec<&CharSet> = left.labels().iter().chain(right.labels()).collect();
        let (classes, label_classes) = Classes::new(&labels, budget)?;
        let right_live = NfaTrim::co_reachable(right);
        Ok(Search {
            left,
            right,
            left_trim: NfaTrim::new(left),
            right_live,
            classes,
            label_classes,
            subsets: Vec::new(),
            subset_ids: HashMap::default(),
            steps: HashMap::default(),
            nodes: Vec::new(),
            groups: Vec::new(),
            found: HashMap::default(),
            scratch_left: ClosureScratch::new(left.n_states()),
            scratch_right: ClosureScratch::new(right.n_states()),
            closure: Vec::new(),
            n_stored: 0,
            budget,
        })
    }

    fn run(mut self, max_len: Option<usize>) -> Result<Option<String>, BudgetError> {
        let start_subset = self.right_subset(&[self.right.start()])?;
        let start_nodes = self.left_closure(&[self.left.start()]);
        if let Some(hit) =
            self.add_group(None, 0, start_nodes.into_iter().map(|l| (l, start_subset)))?
        {
            return Ok(Some(self.spell(hit)));
        }
        let mut next = 0;
        let mut seeds = Vec::new();
        while next < self.groups.len() {
            self.budget.check_time(Operation::Product)?;
            let Group { nodes, depth, .. } = self.groups[next].clone();
            if max_len.is_some_and(|max_len| depth >= max_len) {
                break;
            }
            // The classes the group's left states move on, ascending, with their targets.
            let mut moves: Vec<(ClassId, u32, StateId)> = Vec::new();
            for node in nodes {
                let left = self.nodes[node as usize].left;
                for &(label, target) in &self.left.state(left).transitions {
                    if self.left_trim.is_useful(target) {
                        let classes = &self.label_classes[label.index()];
                        moves.extend(classes.iter().map(|&class| (class, node, target)));
                    }
                }
            }
            moves.sort_unstable();
            for by_class in moves.chunk_by(|a, b| a.0 == b.0) {
                let class = by_class[0].0;
                let mut successors = Vec::new();
                for by_node in by_class.chunk_by(|a, b| a.1 == b.1) {
                    seeds.clear();
                    seeds.extend(by_node.iter().map(|&(_, _, target)| target));
                    let right_next = self.step(self.nodes[by_node[0].1 as usize].right, class)?;
                    successors.extend(
                        self.left_closure(&seeds).into_iter().map(|left| (left, right_next)),
                    );
                }
                let parent = Some((next as u32, class));
                if let Some(hit) = self.add_group(parent, depth + 1, successors.into_iter())? {
                    return Ok(Some(self.spell(hit)));
                }
            }
            next += 1;
        }
        Ok(None)
    }

    /// Adds the nodes of one string, those the antichain does not cover, as a group;
    /// returns the group when one of them is a witness.
    fn add_group(
        &mut self,
        parent: Option<(u32, ClassId)>,
        depth: usize,
        nodes: impl Iterator<Item = (StateId, u32)>,
    ) -> Result<Option<usize>, BudgetError> {
        let first = self.nodes.len() as u32;
        let mut witness = false;
        for (left, right) in nodes {
            witness |= self.add(left, right)?;
        }
        let last = self.nodes.len() as u32;
        if first == last {
            return Ok(None);
        }
        self.groups.push(Group { parent, nodes: first..last, depth });
        Ok(witness.then_some(self.groups.len() - 1))
    }

    /// The useful states with moves or acceptance in the ε-closure of `seeds`, sorted.
    fn left_closure(&mut self, seeds: &[StateId]) -> Vec<StateId> {
        let mut closure = Vec::new();
        self.left.closure(seeds, &mut self.scratch_left, &mut closure);
        let (left, trim) = (self.left, &self.left_trim);
        closure.retain(|&state| trim.is_useful(state) && left.is_important(state));
        closure.sort_unstable();
        closure
    }

    /// The id of the right subset of the ε-closure of `seeds`, kept to its live states with
    /// moves or acceptance.
    fn right_subset(&mut self, seeds: &[StateId]) -> Result<u32, BudgetError> {
        self.right.closure(seeds, &mut self.scratch_right, &mut self.closure);
        let (right, live) = (self.right, &self.right_live);
        self.closure.retain(|&state| live[state.index()] && right.is_important(state));
        self.closure.sort_unstable();
        if let Some(&id) = self.subset_ids.get(self.closure.as_slice()) {
            return Ok(id);
        }
        self.charge(self.closure.len())?;
        let id = self.subsets.len() as u32;
        let set: Box<[StateId]> = self.closure.as_slice().into();
        self.subsets.push(set.clone());
        self.subset_ids.insert(set, id);
        Ok(id)
    }

    /// The right subset that `subset` moves to on `class`.
    fn step(&mut self, subset: u32, class: ClassId) -> Result<u32, BudgetError> {
        if let Some(&next) = self.steps.get(&(subset, class)) {
            return Ok(next);
        }
        let n_left_labels = self.left.labels().len();
        let mut seeds = Vec::new();
        for &state in &self.subsets[subset as usize] {
            for &(label, target) in &self.right.state(state).transitions {
                let classes = &self.label_classes[n_left_labels + label.index()];
                if classes.binary_search(&class).is_ok() {
                    seeds.push(target);
                }
            }
        }
        let next = self.right_subset(&seeds)?;
        self.steps.insert((subset, class), next);
        Ok(next)
    }

    /// Records node `(left, right)` unless the antichain already covers it; returns whether
    /// it is a witness. A pair met again (most are, on a large alternation) is found by its
    /// id before any inclusion test, and only subsets no larger than `right` are tested.
    fn add(&mut self, left: StateId, right: u32) -> Result<bool, BudgetError> {
        let subsets = &self.subsets;
        let known = self.found.entry(left).or_default();
        let candidate = &subsets[right as usize];
        if known.contains(&right)
            || known.iter().any(|&other| {
                subsets[other as usize].len() <= candidate.len()
                    && is_sorted_subset(&subsets[other as usize], candidate)
            })
        {
            return Ok(false);
        }
        known.push(right);
        let right_accepts = candidate.iter().any(|&state| self.right.state(state).accepting);
        let witness = self.left.state(left).accepting && !right_accepts;
        self.charge(1)?;
        self.nodes.push(Node { left, right });
        Ok(witness)
    }

    /// Counts one more node or subset of `n_states` states against the budget.
    fn charge(&mut self, n_states: usize) -> Result<(), BudgetError> {
        self.n_stored += n_states + 1;
        let n_found = self.nodes.len() + self.subsets.len() + self.groups.len() + 1;
        self.budget.check_states(Operation::Product, n_found)?;
        self.budget.check_memory(
            Operation::Product,
            self.n_stored.saturating_mul(2 * size_of::<StateId>()),
        )
    }

    /// The string of smallest class members along the path that found group `idx`.
    fn spell(&self, idx: usize) -> String {
        let path = std::iter::successors(self.groups[idx].parent, |&(parent, _)| {
            self.groups[parent as usize].parent
        });
        self.classes.spell_backwards(path.map(|(_, class)| class))
    }
}

/// Whether sorted `small` is a subset of sorted `large`.
fn is_sorted_subset(small: &[StateId], large: &[StateId]) -> bool {
    let mut rest = large.iter();
    small.iter().all(|item| rest.by_ref().any(|other| other == item))
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::inclusion_witness;
    use crate::budget::Budget;
    use crate::dfa::Dfa;
    use crate::nfa::Nfa;

    fn witness(left: &str, right: &str) -> Option<String> {
        let budget = Budget::default();
        let [left, right] = [left, right].map(|p| Nfa::from_regex_with(p, &budget).unwrap());
        inclusion_witness(&left, &right, None, &budget).unwrap()
    }

    #[test]
    fn witnesses_are_shortest_then_smallest() {
        assert_eq!(witness("[a-z]+", "[a-y]*"), Some("z".to_owned()));
        assert_eq!(witness("(a|b)*", "a*"), Some("b".to_owned()));
        assert_eq!(witness("a+", "a*"), None);
        assert_eq!(witness("", "a"), Some(String::new()));
        assert_eq!(witness("[^\\s\\S]", "a"), None);
        assert_eq!(witness("(ab|ba)*c", "(ab)*c"), Some("bac".to_owned()));
    }

    #[test]
    fn only_what_the_left_side_reaches_is_explored() {
        // Neither DFA of the right side fits the default budget.
        let blowup = "(?:(?:a-?){0,17}a)+";
        assert_eq!(witness("a-a", blowup), None);
        assert_eq!(witness("a--a", blowup), Some("a--a".to_owned()));
        assert_eq!(witness(blowup, "a(-?a)*"), None);
        assert_eq!(witness(blowup, "a(-a)*"), Some("aa".to_owned()));
        assert_eq!(witness(".*a.{100}", ".*[ab].{100}"), None);
    }

    #[test]
    fn length_bound_stops_the_search() {
        let budget = Budget::default();
        let [left, right] = ["a{5}", "a{0,4}"].map(|p| Nfa::from_regex(p).unwrap());
        assert_eq!(inclusion_witness(&left, &right, Some(4), &budget).unwrap(), None);
        let found = inclusion_witness(&left, &right, Some(5), &budget).unwrap();
        assert_eq!(found.as_deref(), Some("aaaaa"));
    }

    fn pattern() -> impl Strategy<Value = String> {
        crate::test_patterns::patterns(
            &["a", "b", "c", "[ab]", "[^a]", "()", "."],
            &["*", "+", "?", "{2}", "{0,2}"],
            3,
            16,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The witness is the one the product of the minimal DFAs finds (the oracle of
        /// `ops/product.rs`, shortest then smallest), and it is in left and not in right.
        #[test]
        fn agrees_with_dfa_product(left in pattern(), right in pattern()) {
            let budget = Budget::unlimited();
            let found = witness(&left, &right);
            let [left_dfa, right_dfa] =
                [&left, &right].map(|p| Dfa::from_regex_with(p, &budget).unwrap());
            let expected = left_dfa.subset_witness(&right_dfa, &budget).unwrap();
            prop_assert_eq!(&found, &expected, "{} ⊆ {}", left, right);
            if let Some(found) = found {
                let oracle = crate::test_patterns::oracle;
                prop_assert!(oracle(&left).is_match(&found) && !oracle(&right).is_match(&found));
            }
        }
    }
}
