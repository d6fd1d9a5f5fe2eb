//! Languages derived from one language's automaton: reversal, prefix and suffix closure,
//! left and right quotients (`ops/rewire.rs`, `ops/quotient.rs`).
//!
//! Each builds the operands' canonical minimal DFAs (a language from a pattern with
//! lookaround already has one) and returns a built language.

use super::Language;
use crate::budget::Budget;
use crate::error::Error;
use crate::ops;

impl Language {
    /// The strings of `self` read backwards: `w` is in `self` exactly when its reverse is in
    /// the result.
    ///
    /// # Errors
    /// When building `self` or the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let reversed = Language::from_regex("ab*c")?.reverse(&budget)?;
    /// assert!(reversed.is_equivalent(&Language::from_regex("cb*a")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reverse(&self, budget: &Budget) -> Result<Language, Error> {
        Ok(Language::built(ops::reverse(self.to_dfa(budget)?, budget)?))
    }

    /// Every prefix of every string of `self` (the strings themselves and "" included, when
    /// `self` is not empty).
    ///
    /// # Errors
    /// When building `self` or the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let typed = Language::from_regex("let|loop")?.prefix_closure(&budget)?;
    /// assert!(typed.matches("lo", &budget)? && typed.matches("", &budget)?);
    /// assert!(!typed.matches("lt", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prefix_closure(&self, budget: &Budget) -> Result<Language, Error> {
        Ok(Language::built(ops::prefix_closure(self.to_dfa(budget)?, budget)?))
    }

    /// Every suffix of every string of `self` (the strings themselves and "" included, when
    /// `self` is not empty).
    ///
    /// # Errors
    /// When building `self` or the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let tails = Language::from_regex("[a-z]+\\.rs")?.suffix_closure(&budget)?;
    /// assert!(tails.matches("in.rs", &budget)? && tails.matches("rs", &budget)?);
    /// assert!(!tails.matches("rs.", &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn suffix_closure(&self, budget: &Budget) -> Result<Language, Error> {
        Ok(Language::built(ops::suffix_closure(self.to_dfa(budget)?, budget)?))
    }

    /// The left quotient of `self` by `prefixes`: the strings `v` such that `u·v` is in
    /// `self` for some `u` in `prefixes`, that is what can follow a prefix from `prefixes`.
    ///
    /// # Errors
    /// When building either language or the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let commands = Language::from_regex("git (add|commit|push)")?;
    /// let rest = commands.left_quotient(&Language::from_regex("git c")?, &budget)?;
    /// assert!(rest.is_equivalent(&Language::from_regex("ommit")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn left_quotient(&self, prefixes: &Language, budget: &Budget) -> Result<Language, Error> {
        let dfa = ops::left_quotient(self.to_dfa(budget)?, prefixes.to_dfa(budget)?, budget)?;
        Ok(Language::built(dfa))
    }

    /// The right quotient of `self` by `suffixes`: the strings `u` such that `u·v` is in
    /// `self` for some `v` in `suffixes`, that is what can precede a suffix from `suffixes`.
    ///
    /// # Errors
    /// When building either language or the result exceeds `budget`.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, Language};
    ///
    /// let budget = Budget::default();
    /// let files = Language::from_regex("[a-z]+\\.(rs|toml)")?;
    /// let stems = files.right_quotient(&Language::from_regex("\\.toml")?, &budget)?;
    /// assert!(stems.is_equivalent(&Language::from_regex("[a-z]+")?, &budget)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn right_quotient(&self, suffixes: &Language, budget: &Budget) -> Result<Language, Error> {
        let dfa = ops::right_quotient(self.to_dfa(budget)?, suffixes.to_dfa(budget)?, budget)?;
        Ok(Language::built(dfa))
    }
}
