//! [`Language`]: a regular language as a value, built lazily and answered exactly.
//!
//! # Overview
//! A [`Language`] is what most programs want: make one from a pattern, combine languages,
//! ask questions. It is a cheap handle (cloning shares it) that remembers how it was built
//! ([`Term`](term::Term)) and builds its canonical minimal [`Dfa`] only when a question
//! needs it, once.
//!
//! - Union, concatenation and repetition stay terms: combining patterns costs nothing, and
//!   the automaton built later comes from one NFA of the whole term, without an automaton
//!   per operand.
//! - Intersection, difference and complement build their DFA at once, by the product of the
//!   operands' DFAs (`ops/product.rs`). An intersection or difference keeps its operands
//!   too, for [`Language::to_pattern`], which can read the result off their patterns.
//! - Questions about a language not built yet are answered from its NFA when no DFA is
//!   needed (`nfa_first.rs`): emptiness, {""}, lengths and infiniteness on the trimmed NFA;
//!   totality and inclusion by an antichain search of the subsets the other language
//!   reaches, equivalence by bisimulation up to congruence of the pairs of subsets, each
//!   stopping at the first difference; before any search, the terms' structure settles or
//!   shrinks the question (`structural.rs`: two patterns that parse to the same expression
//!   are equal, `x ⊆ x ∪ y`, `x ≡ x ∪ y` is `y ⊆ x`); an intersection or difference found
//!   empty that way builds no DFA, and whether two languages share a string is the product
//!   of their NFAs explored up to the first common string ([`Language::is_disjoint`]).
//!   Built languages are compared by the product of their DFAs.
//!
//! - Reversal, prefix and suffix closure and quotients (`derived.rs`) build their DFA at
//!   once, from the operands' DFAs.
//!
//! # Budgets
//! Every method that may build takes a [`Budget`]; a failure leaves the language unbuilt,
//! and a later call with a larger budget can build it.

mod derived;
pub(crate) mod matching;
mod nfa_first;
mod structural;
mod term;

use std::mem;
use std::ops::RangeInclusive;
use std::sync::Arc;

use num_bigint::BigUint;

use self::term::{MAX_DEPTH, Node, Term, TrimFacts};
use crate::analysis::Cardinality;
use crate::budget::{Budget, BudgetError, Operation};
use crate::dfa::Dfa;
use crate::dialect::Dialect;
use crate::enumerate::{self, GenerateOptions, SampleMode};
use crate::error::Error;
use crate::nfa::{Nfa, NfaTrim};
use crate::ops::{self, Overlap};
use crate::pattern::{self, Parsed};
use crate::to_regex;
use crate::witness::BoolOp;

/// The share of the memory limit that building a DFA for generation may take (a sixteenth:
/// 16 MiB of the default 256 MiB) before the window's orders, on the NFA, take over. A DFA
/// of 65,536 states on two classes fits (`.*a.{15}`); the subsets of a 2,000-character
/// street-name validator do not, and their first construction, bounded by 8 states per
/// NFA state, already holds half the share: the window takes over there, without the
/// simulation and the second construction ([`Dfa::from_nfa_unless_full`]).
const GENERATE_FIRST_MEMORY_SHARE: usize = 16;

/// A regular language over Unicode scalar values.
///
/// # Example
/// ```
/// use langcore::{Budget, Language};
///
/// let budget = Budget::default();
/// let user = Language::from_regex("[a-z]+")?;
/// let host = Language::from_regex("@example\\.(com|org)")?;
/// let address = user.concat(&host, &budget)?;
/// assert!(address.matches("ann@example.org", &budget)?);
/// assert!(address.is_subset(&Language::from_regex(".*@.*")?, &budget)?);
/// assert_eq!(address.length(&budget)?, (Some(13), None));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Language(Arc<Node>);

impl Language {
    // Constructors.

    /// The language of `pattern`, parsed now and built when first needed.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, with the span at fault.
    ///
    /// # Example
    /// ```
    /// use langcore::{Error, Language};
    ///
    /// assert!(Language::from_regex("(a|b)*abb").is_ok());
    /// let Err(Error::Parse(err)) = Language::from_regex("a(?|b)") else { panic!() };
    /// assert_eq!(err.span(), 1..3);
    /// ```
    pub fn from_regex(pattern: &str) -> Result<Language, Error> {
        Language::from_regex_with(pattern, &Budget::default())
    }

    /// The language of `pattern`, parsed now under `budget` (the parser's trees are charged
    /// to its memory limit) and built when first needed.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern outside the dialect, [`Error::Budget`] when parsing
    /// it would exceed `budget`'s memory limit.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Error, Language};
    ///
    /// let small = Budget::default().with_max_memory(64 << 10);
    /// assert!(Language::from_regex_with("[a-z]+", &small).is_ok());
    /// let huge = "\\w".repeat(10_000);
    /// let err = Language::from_regex_with(&huge, &small).unwrap_err();
    /// assert!(matches!(err, Error::Budget(BudgetError::TooMuchMemory { .. })));
    /// ```
    pub fn from_regex_with(pattern: &str, budget: &Budget) -> Result<Language, Error> {
        Language::from_regex_in(pattern, Dialect::Rust, budget)
    }

    /// The language of `pattern` as written for `dialect`, parsed now under `budget`.
    /// A pattern without assertions is built when first needed; one whose assertions
    /// (lookaround, `\b`, anchors inside) stay after parsing is built now, since its
    /// automaton comes from a construction of its own (docs/dialects.md says what each
    /// construct means per dialect).
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern that is invalid in `dialect`, or whose construct is
    /// not regular or not supported (the message names it); [`Error::Budget`] when parsing
    /// or building exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dialect, Language};
    ///
    /// let budget = Budget::default();
    /// // `$` also matches before a final newline in Python, not in JavaScript.
    /// let python = Language::from_regex_in("[a-z]+$\\n?", Dialect::Python, &budget)?;
    /// let js = Language::from_regex_in("[a-z]+$\\n?", Dialect::Js, &budget)?;
    /// assert!(python.matches("abc\n", &budget)? && !js.matches("abc\n", &budget)?);
    /// // Password rules by lookahead, read exactly.
    /// let rules = Language::from_regex_in("(?=.*[0-9])(?=.*[a-z]).{6,}", Dialect::Python, &budget)?;
    /// assert!(rules.matches("abc123", &budget)? && !rules.matches("abcdef", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_regex_in(
        pattern: &str,
        dialect: Dialect,
        budget: &Budget,
    ) -> Result<Language, Error> {
        Ok(match pattern::parse_in(pattern, dialect, budget)? {
            Parsed::Hir(hir) => {
                let mut node = Node::new(Term::Pattern(hir));
                // The text is a candidate for pattern output only in our own dialect.
                if dialect == Dialect::Rust {
                    node.source = Some(pattern.into());
                }
                Language(Arc::new(node))
            }
            Parsed::Automaton(dfa) => Language::built(dfa),
            Parsed::Nfa(nfa) => Language::new(Term::Nfa(nfa)),
        })
    }

    /// The language of `dfa`, minimized now when it is not minimal yet.
    ///
    /// # Errors
    /// When minimization exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Language};
    ///
    /// let budget = Budget::default();
    /// let language = Language::from_dfa(&Dfa::from_regex("a+")?, &budget)?;
    /// assert!(language.is_equivalent(&Language::from_regex("aa*")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_dfa(dfa: &Dfa, budget: &Budget) -> Result<Language, Error> {
        Ok(Language::built(dfa.minimize(budget)?))
    }

    /// The empty language: no strings at all.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// assert!(Language::empty().is_empty(&Budget::default())?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn empty() -> Language {
        Language::built(Dfa::empty())
    }

    /// Every string over all Unicode scalar values.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// assert!(Language::total().is_total(&Budget::default())?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn total() -> Language {
        Language::built(Dfa::total())
    }

    /// The language whose only string is "".
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// assert!(Language::empty_string().is_empty_string(&Budget::default())?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn empty_string() -> Language {
        Language::built(Dfa::empty_string())
    }

    fn new(term: Term) -> Language {
        Language(Arc::new(Node::new(term)))
    }

    /// The result `dfa` of `op` on `operands`: the operand whose (built) automaton is `dfa`,
    /// when there is one, so that the result keeps how that operand was written (its
    /// pattern, for [`Language::to_pattern`]); else a language that keeps the operands for
    /// the conversion to a pattern, while the term stays within [`MAX_DEPTH`].
    fn product(dfa: Dfa, op: BoolOp, operands: &[&Language]) -> Language {
        let same = operands.iter().find(|operand| operand.0.built() == Some(&dfa));
        match same {
            Some(same) => (*same).clone(),
            None if operands.len() >= 2
                && operands.iter().all(|operand| operand.0.depth < MAX_DEPTH) =>
            {
                let operands = operands.iter().map(|&operand| operand.clone()).collect();
                Language::new(Term::Product { dfa, op, operands })
            }
            None => Language::built(dfa),
        }
    }

    /// A language from its canonical minimal DFA.
    fn built(dfa: Dfa) -> Language {
        Language::new(Term::Automaton(dfa))
    }

    /// The canonical minimal DFA, built on the first call and shared afterwards: equivalent
    /// languages give equal (`==`) DFAs.
    ///
    /// # Errors
    /// When building exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dfa, Language};
    ///
    /// let budget = Budget::default();
    /// let either = Language::from_regex("a")?.union(&Language::from_regex("b")?, &budget)?;
    /// assert_eq!(either.to_dfa(&budget)?, &Dfa::from_regex("[ab]")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_dfa(&self, budget: &Budget) -> Result<&Dfa, Error> {
        if let Some(dfa) = self.0.built() {
            return Ok(dfa);
        }
        let nfa = term::to_nfa(self, Operation::BuildNfa, budget)?;
        self.to_dfa_from(&nfa, budget)
    }

    /// The canonical minimal DFA from `nfa`, the NFA of this language's term, kept for
    /// later questions.
    fn to_dfa_from(&self, nfa: &Nfa, budget: &Budget) -> Result<&Dfa, Error> {
        let dfa = Dfa::from_nfa(nfa, budget)?;
        Ok(self.0.dfa.get_or_init(|| dfa))
    }

    /// Whether the canonical minimal DFA exists already: built by an earlier question, or
    /// the language was made from an automaton.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let language = Language::from_regex("[a-z]{3}")?;
    /// assert!(!language.is_built());
    /// language.to_dfa(&Budget::default())?;
    /// assert!(language.is_built());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_built(&self) -> bool {
        self.0.built().is_some()
    }

    /// About how many bytes this language holds on the heap: how it was built (a parsed
    /// pattern, an automaton, the operands of a combination) and its automaton once built,
    /// which grows it. Parts shared with other languages count in each. For callers that keep
    /// languages, such as a cache bounded by memory.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let language = Language::from_regex("[a-z]{3}")?;
    /// let parsed = language.heap_bytes();
    /// language.to_dfa(&Budget::default())?;
    /// assert!(language.heap_bytes() > parsed);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn heap_bytes(&self) -> usize {
        term::heap_bytes(self)
    }

    // Operations that combine terms.

    /// The strings of `self` or of `other`. Kept as a term until a question needs it.
    ///
    /// # Errors
    /// When a deeply nested term has to be built first and that exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let either = Language::from_regex("a+")?.union(&Language::from_regex("b+")?, &budget)?;
    /// assert!(either.is_equivalent(&Language::from_regex("a+|b+")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn union(&self, other: &Language, budget: &Budget) -> Result<Language, Error> {
        Language::union_all(&[self, other], budget)
    }

    /// The strings of any of `operands`: the empty language for none. Kept as a term.
    ///
    /// # Errors
    /// When a deeply nested term has to be built first and that exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let words = ["if", "else", "while"].map(Language::from_regex);
    /// let [a, b, c] = words;
    /// let keyword = Language::union_all(&[&a?, &b?, &c?], &budget)?;
    /// assert!(keyword.matches("else", &budget)? && !keyword.matches("for", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn union_all(operands: &[&Language], budget: &Budget) -> Result<Language, Error> {
        match operands {
            [] => Ok(Language::empty()),
            [only] => Ok((*only).clone()),
            _ => Language::combine(operands, Term::Union, budget),
        }
    }

    /// A string of `self` followed by a string of `other`. Kept as a term.
    ///
    /// # Errors
    /// When a deeply nested term has to be built first and that exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let pair = Language::from_regex("[a-z]")?.concat(&Language::from_regex("[0-9]")?, &budget)?;
    /// assert!(pair.matches("a1", &budget)? && !pair.matches("1a", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn concat(&self, other: &Language, budget: &Budget) -> Result<Language, Error> {
        Language::concat_all(&[self, other], budget)
    }

    /// A string of each of `operands`, in order: {""} for none. Kept as a term.
    ///
    /// # Errors
    /// When a deeply nested term has to be built first and that exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let [year, month] = ["[0-9]{4}", "-[01][0-9]"].map(Language::from_regex);
    /// let date = Language::concat_all(&[&year?, &month?], &budget)?;
    /// assert!(date.matches("2024-02", &budget)?);
    /// assert!(Language::concat_all(&[], &budget)?.is_empty_string(&budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn concat_all(operands: &[&Language], budget: &Budget) -> Result<Language, Error> {
        match operands {
            [] => Ok(Language::empty_string()),
            [only] => Ok((*only).clone()),
            _ => Language::combine(operands, Term::Concat, budget),
        }
    }

    /// `self` repeated at least `min` and at most `max` times, like `x{min,max}`; `max:
    /// None` is unbounded, like `x{min,}`. Kept as a term.
    ///
    /// # Errors
    /// [`Error::InvalidRepetition`] when `min` is greater than `max`; [`Error::Budget`] when a
    /// deeply nested term has to be built first and that exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Error, Language};
    ///
    /// let budget = Budget::default();
    /// let group = Language::from_regex("[0-9a-f]{1,4}:")?;
    /// let groups = group.repeat(1, Some(7), &budget)?;
    /// assert!(groups.matches("2001:db8:", &budget)?);
    /// assert_eq!(groups.length(&budget)?, (Some(2), Some(35)));
    /// assert!(matches!(group.repeat(3, Some(2), &budget), Err(Error::InvalidRepetition { .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn repeat(&self, min: u32, max: Option<u32>, budget: &Budget) -> Result<Language, Error> {
        if let Some(max) = max.filter(|&max| max < min) {
            return Err(Error::InvalidRepetition { min, max });
        }
        let operand = self.shallow(budget)?;
        Ok(Language::new(Term::Repeat { operand, min, max }))
    }

    /// The term `make(operands)`, with operands of the same kind spliced in (a union of
    /// unions is one union) and operands too deep built first.
    fn combine(
        operands: &[&Language],
        make: fn(Vec<Language>) -> Term,
        budget: &Budget,
    ) -> Result<Language, Error> {
        let kind = mem::discriminant(&make(Vec::new()));
        let mut flat = Vec::with_capacity(operands.len());
        for &operand in operands {
            let node = &*operand.0;
            match &node.term {
                Term::Union(inner) | Term::Concat(inner)
                    if mem::discriminant(&node.term) == kind && node.dfa.get().is_none() =>
                {
                    flat.extend(inner.iter().cloned());
                }
                _ => flat.push(operand.shallow(budget)?),
            }
        }
        Ok(Language::new(make(flat)))
    }

    /// `self`, or its built automaton when another level of term would be too deep.
    fn shallow(&self, budget: &Budget) -> Result<Language, Error> {
        if self.0.depth < MAX_DEPTH {
            return Ok(self.clone());
        }
        Ok(Language::built(self.to_dfa(budget)?.clone()))
    }

    // Operations that build at once.

    /// The strings of both `self` and `other`.
    ///
    /// # Errors
    /// When building either operand or the product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let both = Language::from_regex("(abc|de){2}")?
    ///     .intersection(&Language::from_regex("de.*")?, &budget)?;
    /// assert!(both.is_equivalent(&Language::from_regex("de(abc|de)")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn intersection(&self, other: &Language, budget: &Budget) -> Result<Language, Error> {
        Language::intersection_all(&[self, other], budget)
    }

    /// The strings of every one of `operands`: all strings for none. Stops early once the
    /// intersection is empty.
    ///
    /// # Errors
    /// When building an operand or a product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Cardinality, Language};
    ///
    /// let budget = Budget::default();
    /// let rules = ["[a-zA-Z0-9]{6,8}", ".*[0-9].*", ".*[A-Z].*"].map(Language::from_regex);
    /// let [length, digit, upper] = rules;
    /// let policy = Language::intersection_all(&[&length?, &digit?, &upper?], &budget)?;
    /// assert_eq!(policy.cardinality(&budget)?.to_string(), "164726466519680");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn intersection_all(operands: &[&Language], budget: &Budget) -> Result<Language, Error> {
        let build = |budget: &Budget| {
            let dfas = operands
                .iter()
                .map(|operand| operand.to_dfa(budget))
                .collect::<Result<Vec<_>, _>>()?;
            let dfa = Dfa::intersection_all(&dfas, budget)?;
            Ok(Language::product(dfa, BoolOp::Intersection, operands))
        };
        nfa_first::build_unless_empty(budget, build, |budget| {
            nfa_first::intersection_is_empty(operands, budget)
        })
    }

    /// The strings of `self` that are not in `other`.
    ///
    /// # Errors
    /// When building either operand or the product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let consonants = Language::from_regex("[a-z]")?
    ///     .difference(&Language::from_regex("[aeiou]")?, &budget)?;
    /// assert!(consonants.matches("b", &budget)? && !consonants.matches("e", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn difference(&self, other: &Language, budget: &Budget) -> Result<Language, Error> {
        let build = |budget: &Budget| {
            let product = self.to_dfa(budget)?.difference(other.to_dfa(budget)?, budget)?;
            Ok(Language::product(product, BoolOp::Difference, &[self, other]))
        };
        nfa_first::build_unless_empty(budget, build, |budget| {
            Ok(self.subset_witness(other, budget)?.is_none())
        })
    }

    /// Every string over all Unicode scalar values that is not in `self`.
    ///
    /// # Errors
    /// When building `self` exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let not_a = Language::from_regex("a")?.complement(&budget)?;
    /// assert!(not_a.matches("", &budget)? && !not_a.matches("a", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn complement(&self, budget: &Budget) -> Result<Language, Error> {
        Ok(Language::built(self.to_dfa(budget)?.complement(budget)?))
    }

    // Relations.

    /// Whether `self` and `other` have the same strings.
    ///
    /// # Errors
    /// When the walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let left = Language::from_regex("(a|b)*abb")?;
    /// assert!(left.is_equivalent(&Language::from_regex("[ab]*abb")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_equivalent(&self, other: &Language, budget: &Budget) -> Result<bool, Error> {
        Ok(self.equivalence_witness(other, budget)?.is_none())
    }

    /// The shortest, then smallest, string in exactly one of `self` and `other`, or `None`
    /// when they are equivalent. Stops at the first difference.
    ///
    /// # Errors
    /// When the walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let [digits, plus] = ["[0-9]{4}", "\\d{4}"].map(Language::from_regex);
    /// // `\d` is every Unicode decimal digit: the first one after 9 is ARABIC-INDIC DIGIT ZERO.
    /// assert_eq!(digits?.equivalence_witness(&plus?, &budget)?.as_deref(), Some("000\u{660}"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn equivalence_witness(
        &self,
        other: &Language,
        budget: &Budget,
    ) -> Result<Option<String>, Error> {
        self.separating_string(other, BoolOp::SymmetricDifference, budget)
    }

    /// Whether no string is in both `self` and `other`: the question "is the intersection
    /// empty" without building it. Decided on the product of the two terms' NFAs, explored
    /// from the start and stopped at the first common string (`ops/lazy_product.rs`): no
    /// alphabet partition, DFA or minimization, which is most of the cost of
    /// [`Language::intersection`] on small languages, and the DFAs of languages such as
    /// `.*a.{100}` are exponential where the product of NFAs stays small.
    ///
    /// # Errors
    /// When building an NFA or the product exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let [a, b, a_or_b] = [".*a.{100}", ".*b.{100}", ".*[ab].{100}"].map(Language::from_regex);
    /// let a = a?;
    /// assert!(a.is_disjoint(&b?, &budget)?);
    /// assert!(!a.is_disjoint(&a_or_b?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_disjoint(&self, other: &Language, budget: &Budget) -> Result<bool, Error> {
        nfa_first::intersection_is_empty(&[self, other], budget)
    }

    /// Which of `languages` share a string: for every pair that does, by index, its
    /// shortest, then smallest, common string (the witness rule of
    /// [`Language::subset_witness`]). One walk of the product of all answers every pair
    /// where that stays within what the pairs' own products would take; past it, each
    /// open pair gets a walk of its own.
    ///
    /// # Errors
    /// When building a language or a walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language, Overlap};
    ///
    /// let budget = Budget::default();
    /// let rules = ["[a-z]+", "if|else", "[0-9]+"].map(Language::from_regex);
    /// let [word, keyword, number] = rules;
    /// let found = Language::overlaps(&[&word?, &keyword?, &number?], &budget)?;
    /// assert_eq!(found, [Overlap { left: 0, right: 1, witness: "if".into() }]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn overlaps(languages: &[&Language], budget: &Budget) -> Result<Vec<Overlap>, Error> {
        let dfas = languages
            .iter()
            .map(|language| language.to_dfa(budget))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ops::overlaps(&dfas, budget)?)
    }

    /// Whether every string of `self` is in `other`.
    ///
    /// # Errors
    /// When the walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let dotted = Language::from_regex("[a-z]+\\.[a-z]+@example\\.com")?;
    /// assert!(dotted.is_subset(&Language::from_regex("[a-z.]+@[a-z.]+")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_subset(&self, other: &Language, budget: &Budget) -> Result<bool, Error> {
        Ok(self.subset_witness(other, budget)?.is_none())
    }

    /// The shortest, then smallest, string in `self` but not in `other`, or `None` when
    /// `self` is a subset of `other`. Stops at the first such string.
    ///
    /// # Errors
    /// When the walk exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let words = Language::from_regex("[a-z]+")?;
    /// let witness = words.subset_witness(&Language::from_regex("[a-y]*")?, &budget)?;
    /// assert_eq!(witness.as_deref(), Some("z"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn subset_witness(
        &self,
        other: &Language,
        budget: &Budget,
    ) -> Result<Option<String>, Error> {
        self.separating_string(other, BoolOp::Difference, budget)
    }

    /// The shortest, then smallest, string after which `found(in self, in other)` holds.
    fn separating_string(
        &self,
        other: &Language,
        found: BoolOp,
        budget: &Budget,
    ) -> Result<Option<String>, Error> {
        let Some((left, right, found)) = structural::reduce(self, other, found, budget)? else {
            return Ok(None);
        };
        nfa_first::separating_string(&left, &right, found, budget)
    }

    // Questions about one language.

    /// Whether `input` is in the language. A language not built yet is not built for this:
    /// its NFA is simulated on `input`, which is cheaper for one string; call
    /// [`Language::to_dfa`] first to test many.
    ///
    /// # Errors
    /// When building the NFA exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let hex = Language::from_regex("0x[0-9a-f]+")?;
    /// assert!(hex.matches("0x1f", &budget)? && !hex.matches("0x", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn matches(&self, input: &str, budget: &Budget) -> Result<bool, Error> {
        match self.0.built() {
            Some(dfa) => Ok(dfa.matches(input)),
            None => Ok(term::to_nfa(self, Operation::BuildNfa, budget)?.matches(input)),
        }
    }

    /// Whether the language has no strings at all.
    ///
    /// # Errors
    /// When building the DFA exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let none = Language::from_regex("a+")?.intersection(&Language::from_regex("b+")?, &budget)?;
    /// assert!(none.is_empty(&budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self, budget: &Budget) -> Result<bool, Error> {
        match nfa_first::trim(self, budget, |facts| facts.is_empty)? {
            Some(answer) => Ok(answer),
            None => Ok(self.to_dfa(budget)?.is_empty()),
        }
    }

    /// Whether the language is exactly {""}.
    ///
    /// # Errors
    /// When building the DFA exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// assert!(Language::from_regex("(a{0})*")?.is_empty_string(&budget)?);
    /// assert!(!Language::from_regex("a?")?.is_empty_string(&budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty_string(&self, budget: &Budget) -> Result<bool, Error> {
        match nfa_first::trim(self, budget, |facts| facts.is_empty_string)? {
            Some(answer) => Ok(answer),
            None => Ok(self.to_dfa(budget)?.is_empty_string()),
        }
    }

    /// Whether the language holds every string.
    ///
    /// # Errors
    /// When building the DFA exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// assert!(Language::from_regex("(a|[^a])*")?.is_total(&budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_total(&self, budget: &Budget) -> Result<bool, Error> {
        match nfa_first::is_total(self, budget)? {
            Some(answer) => Ok(answer),
            None => Ok(self.to_dfa(budget)?.is_total()),
        }
    }

    /// The shortest and longest string lengths: `(None, None)` for the empty language,
    /// `max: None` when strings can be arbitrarily long.
    ///
    /// # Errors
    /// When building the DFA exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// assert_eq!(Language::from_regex("[0-9]{4,6}")?.length(&budget)?, (Some(4), Some(6)));
    /// assert_eq!(Language::from_regex("a+")?.length(&budget)?, (Some(1), None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn length(&self, budget: &Budget) -> Result<(Option<usize>, Option<usize>), Error> {
        match nfa_first::trim(self, budget, |facts| facts.length)? {
            Some(answer) => Ok(answer),
            None => Ok(self.to_dfa(budget)?.length()),
        }
    }

    /// The exact number of strings.
    ///
    /// # Errors
    /// When building the DFA or counting exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Cardinality, Language};
    ///
    /// let budget = Budget::default();
    /// assert_eq!(Language::from_regex(".{3}")?.cardinality(&budget)?.to_string(), "1375274358112518144");
    /// assert_eq!(Language::from_regex("a*")?.cardinality(&budget)?, Cardinality::Infinite);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cardinality(&self, budget: &Budget) -> Result<Cardinality, Error> {
        if let Some(dfa) = self.0.built() {
            return Ok(dfa.cardinality(budget)?);
        }
        // Infinite on the trimmed NFA (its facts kept), or counted on the DFA built from the
        // same NFA.
        if self.0.facts.get().is_some_and(|facts| facts.is_infinite) {
            return Ok(Cardinality::Infinite);
        }
        let nfa = term::to_nfa(self, Operation::BuildNfa, budget)?;
        let facts = self.0.facts.get_or_init(|| TrimFacts::of(&NfaTrim::new(&nfa)));
        if facts.is_infinite {
            return Ok(Cardinality::Infinite);
        }
        Ok(self.to_dfa_from(&nfa, budget)?.cardinality(budget)?)
    }

    /// The exact number of strings of each length in `lengths`, in order (see
    /// [`Dfa::count_by_length`]).
    ///
    /// # Errors
    /// When building the DFA or counting exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let pins = Language::from_regex("[0-9]{4,6}")?.count_by_length(3..=6, &budget)?;
    /// assert_eq!(pins, [0u32, 10_000, 100_000, 1_000_000].map(Into::into));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn count_by_length(
        &self,
        lengths: RangeInclusive<usize>,
        budget: &Budget,
    ) -> Result<Vec<BigUint>, Error> {
        Ok(self.to_dfa(budget)?.count_by_length(lengths, budget)?)
    }

    /// A page of the language's strings, in the order `options` ask for (see
    /// [`Dfa::generate`]). The page depends only on the language and the options.
    ///
    /// A language with no string in the length band gives `[]` without any DFA. When the
    /// DFA does not fit in a sixteenth of the memory limit (or the state limit), or its
    /// first subset construction (at most 8 states per NFA state, plus 4,096) stops
    /// holding half of that, the page comes from the NFA restricted to the length band,
    /// determinized only where the page reaches (`enumerate/window.rs`), in orders that
    /// need no minimal DFA:
    /// - [`PathOrder::Sweep`](crate::PathOrder::Sweep) or
    ///   [`PathOrder::Interleave`](crate::PathOrder::Interleave) with ascending characters:
    ///   shortlex (shortest first, then by code points).
    /// - every other order: *seeded draws*, not the uniform permutation of the DFA's
    ///   orders. Each draw picks a length uniformly among the band's lengths that hold
    ///   strings, then each character uniformly among those that can still complete a
    ///   string of that length; the page lists distinct strings in the order they are first
    ///   drawn, and after 64 draws in a row that find nothing new, the smallest string not
    ///   drawn yet comes next. A band of fewer than 4,096 strings is instead a seeded
    ///   permutation of all of them. Pages still tile without repeats.
    ///
    /// # Errors
    /// When building the DFA or generating exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, GenerateOptions, Language};
    ///
    /// let budget = Budget::default();
    /// let codes = Language::from_regex("[A-Z]{2}-[0-9]{4}")?;
    /// let page = GenerateOptions::default().with_limit(2).with_offset(10_000);
    /// assert_eq!(codes.generate(&page, &budget)?, ["AB-0000", "AB-0001"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn generate(
        &self,
        options: &GenerateOptions,
        budget: &Budget,
    ) -> Result<Vec<String>, Error> {
        if let Some(dfa) = self.0.built() {
            return dfa.generate(options, budget);
        }
        let outside = |(min, max): (Option<usize>, Option<usize>)| {
            min.is_none_or(|min| min > options.max_length())
                || max.is_some_and(|max| max < options.min_length())
        };
        // Nothing in the window on the trimmed NFA's lengths (its facts kept), or the page
        // from the same NFA.
        if self.0.facts.get().is_some_and(|facts| outside(facts.length)) {
            return Ok(Vec::new());
        }
        let nfa = term::to_nfa(self, Operation::BuildNfa, budget)?;
        let facts = self.0.facts.get_or_init(|| TrimFacts::of(&NfaTrim::new(&nfa)));
        if outside(facts.length) {
            return Ok(Vec::new());
        }
        // The DFA's orders where the DFA fits in a share of the memory; otherwise the
        // window's, from the NFA (`enumerate/window.rs`). A first construction that fills
        // half the share before its state limit goes to the window at once.
        let first = budget.with_max_memory(budget.max_memory() / GENERATE_FIRST_MEMORY_SHARE);
        match Dfa::from_nfa_unless_full(&nfa, &first) {
            Ok(dfa) => self.0.dfa.get_or_init(|| dfa).generate(options, budget),
            Err(BudgetError::TooManyStates { .. } | BudgetError::TooMuchMemory { .. }) => {
                Ok(enumerate::generate_in_window(&nfa, options, budget)?)
            }
            Err(other) => Err(other.into()),
        }
    }

    /// `options.limit()` strings drawn independently (with replacement) and uniformly, as
    /// `mode` says, among the strings with a length in `options`' band and only characters
    /// of its charset, from `options.seed()`: the same options give the same strings. None
    /// when the band holds no string. The orders and the offset of `options` are not read.
    ///
    /// # Errors
    /// When building the DFA or its count tables exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, GenerateOptions, Language, SampleMode};
    ///
    /// let budget = Budget::default();
    /// let ids = Language::from_regex("[A-Z]{2}-[0-9]{4}")?;
    /// let options = GenerateOptions::default().with_limit(3).with_seed(7);
    /// let drawn = ids.sample(&options, SampleMode::Strings, &budget)?;
    /// assert_eq!(drawn.len(), 3);
    /// assert!(drawn.iter().all(|id| ids.matches(id, &budget).unwrap()));
    /// assert_eq!(drawn, ids.sample(&options, SampleMode::Strings, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sample(
        &self,
        options: &GenerateOptions,
        mode: SampleMode,
        budget: &Budget,
    ) -> Result<Vec<String>, Error> {
        Ok(enumerate::sample(self.to_dfa(budget)?, options, mode, budget)?)
    }

    /// A short pattern for the language, exact in our dialect (see
    /// [`Language::to_pattern_in`]).
    ///
    /// # Errors
    /// When converting exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let both = Language::from_regex("[bc]*[ab]*")?
    ///     .intersection(&Language::from_regex("[ab]*[bc]*")?, &budget)?;
    /// assert_eq!(both.to_pattern(&budget)?, "[ab]+|[bc]*");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pattern(&self, budget: &Budget) -> Result<String, Error> {
        self.to_pattern_in(Dialect::Rust, budget)
    }

    /// A short pattern for the language, exact and valid in `dialect`. The shortest of: the
    /// pattern of the minimal DFA ([`Dfa::to_pattern_in`]); the language as built, its
    /// pattern normalized and unions, concatenations and repetitions written with their
    /// operands' patterns; intersections and differences read off their operands' patterns
    /// where that is exact (each operand restricted to the characters of the others; the
    /// strings with a character the right operand never uses, and the rest; the product of
    /// the operands' own automata, eliminated); in the
    /// dialects with lookaround, an intersection or difference as a lookahead that reads
    /// the whole string and a pattern (docs/dialects.md); in [`Dialect::Rust`], a
    /// pattern's own text. So a pattern never
    /// comes back longer, and a language whose automaton is too large to convert still gets
    /// its structural pattern.
    ///
    /// # Errors
    /// When building the DFA or converting exceeds `budget` and no structural pattern
    /// exists (for intersections and differences, say).
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Dialect, Language};
    ///
    /// let budget = Budget::default();
    /// let literal = Language::from_regex(&"0123456789".repeat(400))?;
    /// assert_eq!(literal.to_pattern(&budget)?.len(), 4000);
    /// let words = Language::from_regex(r"\w+@\w+")?;
    /// assert_eq!(words.to_pattern_in(Dialect::Rust, &budget)?, r"\w+@\w+");
    /// let either = Language::from_regex("[a-c]+")?.union(&Language::from_regex("x{9}")?, &budget)?;
    /// assert_eq!(either.to_pattern_in(Dialect::Python, &budget)?, "[a-c]+|x{9}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_pattern_in(&self, dialect: Dialect, budget: &Budget) -> Result<String, Error> {
        let source = self.0.source.as_deref();
        to_regex::term_to_pattern(&term::shape(self, budget)?, source, dialect, budget, |budget| {
            self.to_dfa(budget)
        })
    }

    /// The minimal automaton in Graphviz DOT (see [`Dfa::to_dot`]), or, when the minimal
    /// DFA does not fit a share of `budget` (half the time left, a sixteenth of the memory
    /// limit) or its text does not fit the memory limit while the NFA has fewer states, the
    /// trimmed ε-free NFA of the term: states numbered breadth first from the start, the
    /// same labels and shapes, in a graph named `nfa` whose `comment` and `label` say
    /// "non-deterministic: the minimal DFA exceeds the budget". A language built from an
    /// automaton is always drawn from its DFA.
    ///
    /// # Errors
    /// When building the NFA, or drawing either automaton, exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let dot = Language::from_regex("ab*")?.to_dot(&budget)?;
    /// assert!(dot.starts_with("digraph dfa"));
    /// // 2^13 states do not fit in 1,000: the NFA is drawn instead.
    /// let window = Language::from_regex("[ab]*a[ab]{12}")?;
    /// let dot = window.to_dot(&budget.with_max_states(1_000))?;
    /// assert!(dot.starts_with("digraph nfa") && dot.contains("non-deterministic"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_dot(&self, budget: &Budget) -> Result<String, Error> {
        nfa_first::to_dot(self, budget)
    }
}
