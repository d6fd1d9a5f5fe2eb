//! Backtracking risk (ReDoS): how the time a backtracking engine takes to match a pattern
//! grows with the input, with an attack string that shows it.
//!
//! # Overview
//! [`Backtracking::analyze`] reads a pattern exactly as its [`Dialect`]'s engine does
//! (`pattern/`) and answers, for a full match (a validator) or a search ([`MatchMode`]):
//! - the [`Complexity`]: linear, polynomial of a degree, exponential, superlinear (at
//!   least a degree, shown, at most a bound), or unknown with the construct that defeats
//!   the analysis;
//! - when not linear, an [`Attack`]: `prefix + pump×k + suffix` takes that time, the
//!   suffix making the match fail so that the engine tries every path;
//! - the hotspot: the byte spans of the pattern's atoms on the ambiguous paths.
//!
//! # Algorithm
//! 1. `positions.rs`: the pattern's position automaton (Glushkov), whose paths are the
//!    engine's ways of reading a string; atomic groups and possessive quantifiers come in
//!    as the front end's exact translation (at most one path per start), one-character
//!    assertions as guards on moves, longer lookarounds as weaker guards on moves marked
//!    inexact. In search mode a loop on every character before the pattern stands for
//!    the engine's retry at each start.
//! 2. `runs.rs`: the runs that cost the engine their paths, as products with the subset
//!    automaton: those on texts where every path fails (a lower bound), and those the
//!    engine may try before a success, whatever the order it tries them in (an upper
//!    bound); a search's earlier starts must have failed in both.
//! 3. `ambiguity.rs`: the exponential and polynomial degrees of ambiguity (Weber and
//!    Seidl), on the exact moves of the failing runs (a bound the engine reaches) and on
//!    every move of the runs it may try (one it cannot exceed); they must agree, else the
//!    answer is superlinear where the lower bound is and its attack is found, unknown
//!    otherwise. Backreferences come as the front end reads them for this analysis
//!    (`pattern::parse_tagged`): readings per string, and tests of captured values, which
//!    are read as holding, inexact (a copy of an infinite group behind one).
//! 4. `attack.rs`: a shortest prefix to the loop, the loop's word, and a shortest suffix
//!    failing from every state the pumps reach (a subset construction).
//!
//! What the engines add on top (Perl's cache of visited loop positions, PCRE2's match
//! limit, V8's and Perl's pre-checks of required characters) is not modelled: the answer
//! is the time of the plain backtracking the dialect's syntax means. Java's cache of the
//! positions where a group loop's iteration failed (Java 9 and later) only cuts paths: a
//! java pattern with a loop it caches keeps a linear answer, and any other is unknown, plain
//! backtracking's growth given as the bound (`Backtracking::under_loop_cache`).
//!
//! # Budgets
//! Every position, pair, triple and subset counts as a state of
//! [`Operation::Backtracking`] against the caller's [`Budget`], with its deadline.
//!
//! # Example
//! ```
//! use langcore::{Backtracking, Budget, Complexity, Dialect, MatchMode};
//!
//! let budget = Budget::default();
//! let risk = Backtracking::analyze("^(a+)+$", Dialect::Js, MatchMode::FullMatch, &budget)?;
//! assert_eq!(risk.complexity(), &Complexity::Exponential);
//! let attack = risk.attack().expect("an attack");
//! assert_eq!(attack.string(3), "aaaab");
//!
//! let risk = Backtracking::analyze(r"^\d+\d+$", Dialect::Python, MatchMode::FullMatch, &budget)?;
//! assert_eq!(risk.complexity(), &Complexity::Polynomial { degree: 2 });
//!
//! let risk = Backtracking::analyze("^(?>a+)+$", Dialect::Pcre, MatchMode::FullMatch, &budget)?;
//! assert_eq!(risk.complexity(), &Complexity::Linear);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod ambiguity;
mod attack;
mod positions;
mod runs;
#[cfg(test)]
mod tests;

use std::ops::Range;

use ambiguity::{Growth, Reading, View};
use positions::Positions;
use runs::Runs;

use crate::budget::{Budget, BudgetError};
use crate::dialect::Dialect;
use crate::error::Error;
use crate::pattern;

/// The most states of each automaton of runs (`runs.rs`); past it the answer is unknown
/// (the analysis of every path, made first, proves linearity only).
const MAX_PRODUCT_STATES: usize = 2_000;

/// How the engine is asked to match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MatchMode {
    /// The whole input must match (`re.fullmatch`, `Matcher.matches`, `^…$` in a
    /// validator): the pattern's own anchors and the ends of the input.
    #[default]
    FullMatch,
    /// A match anywhere (`re.search`, `RegExp.test`, `Matcher.find`): the engine tries
    /// each start in turn, which adds a degree to a pattern not anchored at the start.
    Search,
}

/// How the worst-case time of matching grows with the length n of the input.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Complexity {
    /// Θ(n) at worst.
    Linear,
    /// Θ(n^degree) on the attack, degree ≥ 2.
    Polynomial {
        /// The exponent.
        degree: u32,
    },
    /// Θ(c^n) on the attack, c > 1.
    Exponential,
    /// At least Θ(n^at_least) on the attack, at most n^at_most (`None`: exponential): the
    /// growth is superlinear (an attack shows it), its exact rate between the two is not
    /// decided.
    Superlinear {
        /// The exponent the attack shows, at least 2.
        at_least: u32,
        /// The exponent the engine cannot exceed; `None` for exponential.
        at_most: Option<u32>,
    },
    /// The pattern's constructs defeat the analysis: `reason` says which.
    Unknown {
        /// What was not analysed, in words.
        reason: String,
    },
}

/// An input on which the engine takes the time [`Complexity`] says: `prefix`, then `pump`
/// repeated, then `suffix`, which makes the match fail.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Attack {
    prefix: String,
    pump: String,
    suffix: String,
}

impl Attack {
    /// What leads to the ambiguous loop.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// The word the loop reads in several ways: each repetition multiplies (exponential)
    /// or adds to (polynomial) the paths the engine tries.
    pub fn pump(&self) -> &str {
        &self.pump
    }

    /// What makes every path fail, so that the engine tries them all.
    pub fn suffix(&self) -> &str {
        &self.suffix
    }

    /// The attack string with `pumps` repetitions of the pump.
    pub fn string(&self, pumps: usize) -> String {
        format!("{}{}{}", self.prefix, self.pump.repeat(pumps), self.suffix)
    }
}

/// The backtracking risk of a pattern in its engine: how the time of plain backtracking
/// grows with the input, an attack string when it grows faster than linearly, and the
/// pattern's spans responsible (the method: docs/dialects.md, "Backtracking risk").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backtracking {
    complexity: Complexity,
    attack: Option<Attack>,
    hotspot: Vec<Range<usize>>,
}

impl Backtracking {
    /// Analyses `pattern` as `dialect`'s engine runs it in `mode`.
    ///
    /// The default dialect, [`Dialect::Rust`], is read by the `regex` crate, which does not
    /// backtrack: its matching is linear in the input, and that is the answer.
    ///
    /// # Errors
    /// [`Error::Parse`] for a pattern invalid in its dialect or that the front end does not
    /// read (as for every other question); [`Error::Budget`] when the analysis exceeds
    /// `budget`.
    pub fn analyze(
        pattern: &str,
        dialect: Dialect,
        mode: MatchMode,
        budget: &Budget,
    ) -> Result<Backtracking, Error> {
        let found = Backtracking::analyze_read(pattern, dialect, mode, budget)?;
        Ok(if dialect == Dialect::Js { found.in_characters() } else { found })
    }

    /// JavaScript's attack, read over UTF-16 code units (`pattern/utf16.rs`), as a string of
    /// characters: its units paired up, the pump turned by one unit where a pair straddles
    /// its ends (`p·(u·r)^k·s` is `(p·u)·(r·u)^(k-1)·(r·s)`); unknown where it needs a lone
    /// surrogate, which a string of characters cannot hold.
    fn in_characters(self) -> Backtracking {
        let Some(attack) = &self.attack else { return self };
        let text = |attack: &Attack| {
            Some(Attack {
                prefix: pattern::text_of_units(&attack.prefix)?,
                pump: pattern::text_of_units(&attack.pump)?,
                suffix: pattern::text_of_units(&attack.suffix)?,
            })
        };
        let mut rest = attack.pump.chars();
        let turned = rest.next().map(|first| Attack {
            prefix: format!("{}{first}", attack.prefix),
            pump: format!("{}{first}", rest.as_str()),
            suffix: format!("{}{}", rest.as_str(), attack.suffix),
        });
        match text(attack).or_else(|| turned.as_ref().and_then(text)) {
            Some(attack) => Backtracking { attack: Some(attack), ..self },
            None => {
                let growth = match self.complexity {
                    Complexity::Polynomial { degree } => format!("n^{degree}"),
                    Complexity::Superlinear { at_least, .. } => format!("at least n^{at_least}"),
                    _ => "exponential".to_owned(),
                };
                Backtracking::unknown(format!(
                    "the attack the analysis finds ({growth}) needs a lone UTF-16 surrogate, \
                     which a string of characters cannot hold"
                ))
            }
        }
    }

    /// [`Backtracking::analyze`] over the units the front end reads.
    fn analyze_read(
        pattern: &str,
        dialect: Dialect,
        mode: MatchMode,
        budget: &Budget,
    ) -> Result<Backtracking, Error> {
        if dialect == Dialect::Rust {
            return Ok(Backtracking::verdict(Complexity::Linear));
        }
        let full_match = mode == MatchMode::FullMatch;
        let read = |copies| pattern::parse_tagged(pattern, dialect, full_match, copies, budget);
        let Some(tagged) = read(false)? else {
            return Ok(Backtracking::unknown(
                "the pattern holds characters of plane 15 (private use), which the analysis \
                 reserves",
            ));
        };
        let risk = Backtracking::analyze_tagged(&tagged, dialect, full_match, budget)?
            .under_loop_cache(pattern, &tagged.java_loops);
        if !matches!(risk.complexity, Complexity::Unknown { .. }) {
            return Ok(risk);
        }
        // The readings per choice of a group's string may make the automata too large, or
        // the copies of the groups the readings left may keep the bounds apart: references
        // read as copies give other bounds, as sure (`parse_tagged`).
        match read(true)? {
            Some(copied) if copied.expr != tagged.expr => {
                let other = Backtracking::analyze_tagged(&copied, dialect, full_match, budget)?;
                Ok(if matches!(other.complexity, Complexity::Unknown { .. }) {
                    risk
                } else {
                    other
                })
            }
            _ => Ok(risk),
        }
    }

    /// The answer for Java, whose loops at `loops` (byte spans in `pattern`) skip an
    /// iteration at a position where one failed before (`Pattern.Loop`'s cache, Java 9 and
    /// later): a cache only cuts paths, so linear stays linear, but a faster growth is
    /// plain backtracking's, an upper bound, and not a verdict (the paths the cache leaves
    /// are not counted): unknown, with that bound.
    fn under_loop_cache(self, pattern: &str, loops: &[Range<usize>]) -> Backtracking {
        let Some(first) = loops.first() else { return self };
        let bound = match &self.complexity {
            Complexity::Linear | Complexity::Unknown { .. } => return self,
            Complexity::Polynomial { degree } => describe(Some(*degree)),
            Complexity::Exponential => describe(None),
            Complexity::Superlinear { at_most, .. } => describe(*at_most),
        };
        let more = match loops.len() {
            1 => String::new(),
            n => format!(" (and {} more such loops)", n - 1),
        };
        Backtracking::unknown(format!(
            "Java remembers the positions where an iteration of the loop {:?} (bytes {}..{}){more} \
             failed and does not try one there again (`Pattern.Loop`'s cache, Java 9 and \
             later), which cuts paths this analysis counts: the time is at most {bound} \
             (plain backtracking's), its growth under the cache is not modelled",
            &pattern[first.clone()],
            first.start,
            first.end
        ))
    }

    /// [`Backtracking::analyze_read`] of the pattern `tagged`.
    fn analyze_tagged(
        tagged: &pattern::Tagged,
        dialect: Dialect,
        full_match: bool,
        budget: &Budget,
    ) -> Result<Backtracking, Error> {
        let text = pattern::text_characters(dialect);
        let plain = Positions::build(&tagged.expr, !full_match, text, budget)?;
        // Every run, failing or not, has at least the paths of the failing ones: linear
        // there is linear, and most patterns stop here, before the product.
        let all = View { positions: &plain, reading: Reading::All };
        let plain_growth = ambiguity::growth(&all, budget)?;
        if matches!(plain_growth, Growth::Linear) && !plain.costly_look {
            return Ok(Backtracking::verdict(Complexity::Linear));
        }
        let product_budget = budget.with_max_states(budget.max_states().min(MAX_PRODUCT_STATES));
        let products = plain
            .runs(Runs::Failing, &product_budget)
            .and_then(|failing| Ok((failing, plain.runs(Runs::Explored, &product_budget)?)));
        let (positions, explored) = match products {
            Ok(products) => products,
            Err(Error::Budget(BudgetError::TooManyStates { .. })) => {
                return Ok(Backtracking::unknown(format!(
                    "the runs that can still fail take more than {MAX_PRODUCT_STATES} states to \
                     tell apart from those that match (every path together: {})",
                    describe(plain_growth.rank())
                )));
            }
            Err(err) => return Err(err),
        };
        let growth = |reading| ambiguity::growth(&View { positions: &positions, reading }, budget);
        let too_many = || {
            Backtracking::unknown(format!(
                "the pairs and triples of states that tell the degree are more than the \
                 analysis makes (at most {}, and within the budget's state limit; every run \
                 together: {})",
                ambiguity::MAX_TUPLES,
                describe(plain_growth.rank())
            ))
        };
        let exact = match growth(Reading::Exact) {
            Err(Error::Budget(BudgetError::TooManyStates { .. })) => return Ok(too_many()),
            other => other?,
        };
        let Some(upper) = upper_rank(&explored, &plain, budget)? else {
            return Ok(too_many());
        };
        if positions.costly_look && exact.rank().is_some() {
            return Ok(Backtracking::unknown(
                "a lookbehind whose body repeats costs up to the input read so far each time \
                 it is tested, which is not counted",
            ));
        }
        if exact.rank() == upper {
            let (spans, reading) = (&tagged.spans, Reading::Exact);
            return Backtracking::attack_for(&positions, &plain, spans, exact, reading, budget);
        }
        // The lookahead bodies' runs may make up the difference: paths taken where none
        // of them succeeds, which the attack must then show.
        let mut lower = vec![(Reading::Exact, exact.clone())];
        if !positions.empty_body {
            let with_bodies = match growth(Reading::WithBodies) {
                Err(Error::Budget(BudgetError::TooManyStates { .. })) => return Ok(too_many()),
                other => other?,
            };
            let (rank, done) = (with_bodies.rank(), with_bodies.rank() == upper);
            if done || rank.is_some_and(|rank| exact.rank().is_some_and(|exact| rank > exact)) {
                lower.insert(0, (Reading::WithBodies, with_bodies));
            }
            if done {
                let (spans, reading) = (&tagged.spans, Reading::WithBodies);
                let found = lower[0].1.clone();
                let risk =
                    Backtracking::attack_for(&positions, &plain, spans, found, reading, budget)?;
                match risk.attack() {
                    Some(found) if attack::bodies_fail(&plain, found, budget)? => return Ok(risk),
                    Some(_) => {
                        lower.remove(0);
                    }
                    None => return Ok(risk),
                }
            }
        }
        // Superlinear all the same where the paths the engine surely takes are (on texts
        // where no lookahead body's run succeeds, for those read so): the attack shows that
        // much (its suffix fails every possible success), the rest is a bound.
        for (reading, found) in lower {
            let Some(at_least @ 2..) = found.rank() else { continue };
            let spans = &tagged.spans;
            let risk = Backtracking::attack_for(&positions, &plain, spans, found, reading, budget)?;
            let shown = match (risk.attack(), reading) {
                (None, _) => false,
                (Some(found), Reading::WithBodies) => attack::bodies_fail(&plain, found, budget)?,
                (Some(_), _) => true,
            };
            if shown {
                let complexity = Complexity::Superlinear { at_least, at_most: upper };
                return Ok(Backtracking { complexity, ..risk });
            }
        }
        Ok(Backtracking::unknown(format!(
            "a lookaround longer than one character (or an atomic group that becomes one), a \
             lookahead body's run that may stop, a success the characters read do not decide, \
             or a match found after paths the engine tries first (the order it tries them in \
             is not modelled) may cut the paths found: the time is between {} and {}",
            describe(exact.rank()),
            describe(upper)
        )))
    }

    /// The answer for `growth` (found in `positions`, the failing runs of `plain`, on the
    /// moves `reading` reads: a prefix along them), with its attack and hotspot. The
    /// suffix is checked on `plain`, every run: the failing runs have lost the moves by
    /// which the match succeeds.
    fn attack_for(
        positions: &Positions,
        plain: &Positions,
        spans: &[Range<usize>],
        growth: Growth,
        reading: Reading,
        budget: &Budget,
    ) -> Result<Backtracking, Error> {
        let (complexity, entry, pump, states) = match growth {
            Growth::Linear => return Ok(Backtracking::verdict(Complexity::Linear)),
            Growth::Exponential { entry, pump, hotspot } => {
                (Complexity::Exponential, entry, pump, hotspot)
            }
            Growth::Polynomial { links, entry, pump, hotspot } => {
                (Complexity::Polynomial { degree: links + 1 }, entry, pump, hotspot)
            }
        };
        let view = View { positions, reading };
        let Some(prefix) = attack::word_to(&view, entry) else {
            return Ok(Backtracking::unknown("the ambiguous loop found cannot be reached"));
        };
        let (prefix, pump) = (attack::spell(&prefix), attack::spell(&pump));
        // The successes the attack must avoid: every possible one, but those that need a
        // lookahead body's run to succeed where the paths counted need them all to fail.
        let avoid = match reading {
            Reading::WithBodies => &plain.unless_bodies,
            Reading::Exact | Reading::All => &plain.possible,
        };
        let Some(suffix) = attack::suffix(plain, avoid, &prefix, &pump, budget)? else {
            return Ok(Backtracking::unknown(format!(
                "the pattern reads {pump:?} in several ways after {prefix:?}, but no short suffix \
                 makes the match fail there (the engine may stop at its first path)"
            )));
        };
        let mut hotspot: Vec<Range<usize>> = states
            .iter()
            .filter_map(|&state| positions.atoms[state])
            .filter_map(|atom| spans.get(atom).cloned())
            .collect();
        hotspot.sort_by_key(|span| (span.start, span.end));
        hotspot.dedup();
        Ok(Backtracking { complexity, attack: Some(Attack { prefix, pump, suffix }), hotspot })
    }

    fn verdict(complexity: Complexity) -> Backtracking {
        Backtracking { complexity, attack: None, hotspot: Vec::new() }
    }

    fn unknown(reason: impl Into<String>) -> Backtracking {
        Backtracking::verdict(Complexity::Unknown { reason: reason.into() })
    }

    /// How the time grows.
    pub fn complexity(&self) -> &Complexity {
        &self.complexity
    }

    /// An input showing the growth, when it is not linear (nor unknown).
    pub fn attack(&self) -> Option<&Attack> {
        self.attack.as_ref()
    }

    /// The byte spans of the pattern's atoms on the ambiguous paths, in order (atoms inside
    /// atomic groups and parts written other than as one character or class have none).
    pub fn hotspot(&self) -> &[Range<usize>] {
        &self.hotspot
    }
}

/// How the time grows, as [`Growth::rank`] says it: the exponent, `None` for exponential.
type Rank = Option<u32>;

/// The lesser of two bounds on the time.
fn least(one: Rank, other: Rank) -> Rank {
    match (one, other) {
        (Some(one), Some(other)) => Some(one.min(other)),
        (one, None) => one,
        (None, other) => other,
    }
}

/// The least of the two bounds the engine cannot exceed (`runs.rs`): the paths it may try
/// before a success (`explored`), and n times the paths in the parts of its runs that fail
/// (from `plain`); `None` when neither fits in the pairs and triples the analysis makes.
///
/// # Errors
/// [`Error::Budget`] past the deadline or the memory limit.
fn upper_rank(
    explored: &Positions,
    plain: &Positions,
    budget: &Budget,
) -> Result<Option<Rank>, Error> {
    let within = |growth: Result<Growth, Error>| match growth {
        Err(Error::Budget(BudgetError::TooManyStates { .. })) => Ok(None),
        other => other.map(|growth| Some(growth.rank())),
    };
    let explored =
        within(ambiguity::growth(&View { positions: explored, reading: Reading::All }, budget))?;
    let parts = plain.failing_parts(budget)?;
    let view = View { positions: &parts, reading: Reading::All };
    let parts = within(ambiguity::growth(&view, budget))?.map(|rank| match rank {
        None => None,
        Some(1) if !ambiguity::has_cycle(&view) => Some(1),
        Some(degree) => Some(degree + 1),
    });
    Ok(match (explored, parts) {
        (Some(one), Some(other)) => Some(least(one, other)),
        (one, other) => one.or(other),
    })
}

/// A growth in words, for reasons.
fn describe(rank: Rank) -> String {
    match rank {
        Some(1) => "linear".to_owned(),
        Some(degree) => format!("n^{degree}"),
        None => "exponential".to_owned(),
    }
}
