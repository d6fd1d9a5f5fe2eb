//! Overlaps of several languages agree with one intersection per pair, and each witness is
//! a common string (by the `regex` crate) no longer than any common string up to length 4.

use langcore::{Budget, Language};
use proptest::prelude::*;

use crate::patterns::{all_strings, oracle, pattern};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn overlaps_are_the_intersecting_pairs(patterns in prop::collection::vec(pattern(), 2..5)) {
        let budget = Budget::unlimited();
        let languages: Vec<Language> =
            patterns.iter().map(|p| Language::from_regex(p).unwrap()).collect();
        let refs: Vec<&Language> = languages.iter().collect();
        let found = Language::overlaps(&refs, &budget).unwrap();
        let short = all_strings(4);
        let mut at = found.iter().peekable();
        for left in 0..patterns.len() {
            for right in left + 1..patterns.len() {
                let both = languages[left].intersection(&languages[right], &budget).unwrap();
                let overlap = at.next_if(|o| (o.left, o.right) == (left, right));
                prop_assert_eq!(overlap.is_some(), !both.is_empty(&budget).unwrap());
                let Some(overlap) = overlap else { continue };
                let (a, b) = (oracle(&patterns[left]), oracle(&patterns[right]));
                prop_assert!(a.is_match(&overlap.witness) && b.is_match(&overlap.witness));
                if let Some(common) = short.iter().find(|s| a.is_match(s) && b.is_match(s)) {
                    prop_assert!(overlap.witness.chars().count() <= common.len(), "{:?}", overlap);
                }
            }
        }
        prop_assert!(at.next().is_none());
    }
}
