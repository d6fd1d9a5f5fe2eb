//! The alphabet of `langcore` automata: sets of Unicode scalar values and their class partition.
//!
//! # Overview
//! Automata read Unicode scalar values: every `char`, that is U+0000..=U+10FFFF without the
//! 2,048 surrogates, 1,112,064 symbols in all. Enumerating them per transition is out of the
//! question, so transitions are labelled with a [`CharSet`], a canonical list of ranges.
//!
//! Determinization and minimization need a small finite alphabet instead. [`Classes::new`]
//! splits all scalar values into the coarsest partition such that every label is a union of
//! classes; two characters in the same class are then indistinguishable by every transition,
//! and an automaton over class ids ([`ClassId`]) has one symbol per class. The classes cover
//! the whole alphabet, including what no label mentions, so a DFA over them can be complete.
//!
//! # Example
//! ```
//! use langcore::Budget;
//! use langcore::alphabet::{CharSet, Classes};
//!
//! let letters = CharSet::range('a', 'z');
//! let vowels: CharSet = "aeiou".chars().collect();
//! let (classes, labels) = Classes::new(&[&letters, &vowels], &Budget::default())?;
//!
//! // Classes are numbered by their smallest member: non-letters (from U+0000), vowels (from
//! // 'a'), consonants (from 'b').
//! assert_eq!(classes.len(), 3);
//! let [rest, vowel, consonant] = ['\0', 'a', 'b'].map(|c| classes.class_of(c));
//! assert_eq!((rest.index(), vowel.index(), consonant.index()), (0, 1, 2));
//! assert_eq!(labels, [vec![vowel, consonant], vec![vowel]]);
//! assert_eq!(classes.class(consonant), Some(&letters.difference(&vowels)));
//! # Ok::<(), langcore::BudgetError>(())
//! ```

mod charset;
mod classes;

pub use charset::CharSet;
pub(crate) use charset::{nth_after, span_len};
pub use classes::{ClassId, Classes};
