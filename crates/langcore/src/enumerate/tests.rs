//! Unit tests of string generation: a slow reference model of every order, and edge cases.
//!
//! The model lists every path of every length by depth-first search, then lays the strings
//! out by the definitions of the orders, with no counting at all; the engine must return
//! exactly the model's slice at every offset.

use super::path::{Spelling, Step};
use super::rounds::PATH_ORDER_TAG;
use super::shuffle::Shuffle;
use super::*;
use crate::budget::Operation;

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).unwrap()
}

fn run(pattern: &str, options: &GenerateOptions) -> Vec<String> {
    generate(&dfa(pattern), options, &Budget::unlimited()).unwrap()
}

/// Every path of `length` characters from the start, in lexicographic order.
fn paths_of_length(routes: &Routes, length: usize) -> Vec<Vec<Step>> {
    let mut done = Vec::new();
    let mut stack = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        let node = prefix.last().map_or(routes.start(), |step: &Step| step.edge(routes).target);
        if prefix.len() == length {
            if routes.is_accepting(node) {
                done.push(prefix);
            }
            continue;
        }
        // Pushed in reverse so that the first edge is expanded first.
        for edge in (0..routes.edges(node).len()).rev() {
            let mut longer = prefix.clone();
            longer.push(Step { node, edge });
            stack.push(longer);
        }
    }
    done
}

/// The number of strings of a path.
fn product(routes: &Routes, steps: &[Step]) -> u128 {
    steps.iter().map(|step| u128::from(step.edge(routes).size)).product()
}

/// The whole sequence of `pattern` under `options` (offset and limit ignored), by the
/// definitions of the orders.
fn model(pattern: &str, options: &GenerateOptions) -> Vec<String> {
    // Every length: the tables of a page stop where the page ends.
    let everything = options.clone().with_offset(0).with_limit(usize::MAX);
    let Some(language) = Catalog::new(&dfa(pattern), &everything, &Budget::unlimited()).unwrap()
    else {
        return Vec::new();
    };
    let routes = &language.routes;
    let spell = |steps: &[Step], index: u128| {
        let spelling = Spelling::new(routes, steps, options);
        let mut digits = Vec::new();
        spelling.digits(index, &mut digits);
        spelling.spell(routes, &digits)
    };
    let by_length: Vec<(usize, Vec<Vec<Step>>)> =
        language.lengths().map(|length| (length, paths_of_length(routes, length))).collect();
    let mut out = Vec::new();
    if options.path_order() == PathOrder::Sweep {
        for (_, paths) in &by_length {
            for steps in paths {
                out.extend((0..product(routes, steps)).map(|index| spell(steps, index)));
            }
        }
        return out;
    }
    for round in 0.. {
        let before = out.len();
        for (length, paths) in &by_length {
            let still: Vec<&Vec<Step>> =
                paths.iter().filter(|steps| product(routes, steps) > round).collect();
            let n = u64::try_from(still.len()).unwrap();
            for index in 0..n {
                let rank = match options.path_order() {
                    PathOrder::Shuffled => {
                        let length = u64::try_from(*length).unwrap();
                        Shuffle::new(&[PATH_ORDER_TAG, options.seed(), length]).index(index, n)
                    }
                    _ => index,
                };
                out.push(spell(still[usize::try_from(rank).unwrap()], round));
            }
        }
        if out.len() == before {
            return out;
        }
    }
    out
}

/// Every (path order, character order) pair.
fn all_orders() -> impl Iterator<Item = (PathOrder, CharOrder)> {
    PathOrder::ALL.into_iter().flat_map(|path| CharOrder::ALL.map(move |chars| (path, chars)))
}

/// Every offset and a few page sizes give the model's slice, in every order.
#[track_caller]
fn check_against_model(pattern: &str, base: GenerateOptions) {
    for (path_order, char_order) in all_orders() {
        let options = base.clone().with_path_order(path_order).with_char_order(char_order);
        let expected = model(pattern, &options);
        let total = expected.len();
        let mut sorted = expected.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), total, "{pattern} {options:?}: the model repeats itself");
        for limit in [1, 3, total + 1] {
            for offset in 0..=total {
                let page = options.clone().with_offset(offset as u64).with_limit(limit);
                let end = (offset + limit).min(total);
                assert_eq!(run(pattern, &page), expected[offset..end], "{pattern} {page:?}");
            }
        }
    }
}

#[test]
fn every_order_matches_the_model() {
    let band = |min, max| GenerateOptions::default().with_min_length(min).with_max_length(max);
    check_against_model("[ab]{2}", band(0, 10));
    check_against_model("a|b[cd]|[ef]gh?", band(0, 10));
    check_against_model("(ab|c[de])*", band(0, 6));
    check_against_model("(a|[bc]d)*e?", band(1, 4));
    check_against_model("x[0-9]{2}|y[0-9]|z", band(0, 3));
    check_against_model("[a-c]+", band(2, 3));
    check_against_model("", band(0, 3));
    let charset = Some(CharSet::range('a', 'c'));
    check_against_model(".{0,3}", band(0, 3).with_charset(charset));
}

#[test]
fn sweep_counts_like_an_odometer() {
    let options = GenerateOptions::default().with_limit(5);
    assert_eq!(run("[a-z]{2}", &options), ["aa", "ab", "ac", "ad", "ae"]);
    assert_eq!(run("[a-z]{2}", &options.clone().with_offset(25)), ["az", "ba", "bb", "bc", "bd"]);
    // Shorter first, then paths by smallest character: `b` leads to `c|d`, `a` to `e`.
    let paths = GenerateOptions::default().with_limit(10);
    assert_eq!(run("a|ae|b[cd]|bcf", &paths), ["a", "ae", "bc", "bd", "bcf"]);
}

#[test]
fn deep_offsets_are_odometer_positions() {
    // 10^10 = (1, 6, 9, 16, 25, 17, 10, 16) in base 26; 10^7 = (0, 21, 22, 24, 23, 10).
    for path_order in [PathOrder::Sweep, PathOrder::Interleave, PathOrder::Shuffled] {
        let deep = GenerateOptions::default().with_limit(2).with_path_order(path_order);
        let eight = deep.clone().with_offset(10_000_000_000);
        assert_eq!(run("[a-z]{8}", &eight), ["bgjqzrkq", "bgjqzrkr"], "{path_order:?}");
        let six = deep.with_offset(10_000_000);
        assert_eq!(run("[a-z]{6}", &six), ["avwyxk", "avwyxl"], "{path_order:?}");
    }
}

#[test]
fn interleave_takes_one_string_per_path_and_round() {
    let options = GenerateOptions::default().with_limit(8).with_path_order(PathOrder::Interleave);
    // Paths: `z` (1 string), `y[0-9]` (10), `x[0-9][0-9]` (100).
    assert_eq!(
        run("x[0-9]{2}|y[0-9]|z", &options),
        ["z", "y0", "x00", "y1", "x01", "y2", "x02", "y3"]
    );
    // Round 10 and later: only the `x` path is left.
    let later = options.with_offset(3 + 2 * 9).with_limit(3);
    assert_eq!(run("x[0-9]{2}|y[0-9]|z", &later), ["x10", "x11", "x12"]);
}

#[test]
fn later_rounds_skip_by_counting() {
    // Round 0: `c[a-z]{5}` and `d[a-y]{5}` (different paths, as `z` leads apart), then the
    // 256 single-string paths of `(ab|ba){8}`. Every later round has the two long paths.
    let pattern = "(ab|ba){8}|c[a-z]{5}|d[a-y]{5}";
    let options = GenerateOptions::default().with_path_order(PathOrder::Interleave).with_limit(3);
    let page = options.with_offset(258 + 2 * 1000 + 1);
    // Round 1001 of `d…`: 1001 = (0, 0, 1, 15, 1) in base 25; then round 1002.
    assert_eq!(run(pattern, &page), ["daabpb", "caabmo", "daabpc"]);
}

#[test]
fn shuffled_orders_depend_on_the_seed() {
    let language = "[a-d]{2}|x[ab]|y[ab]|z[ab]";
    let sequence = |path_order, char_order, seed| {
        let options = GenerateOptions::default()
            .with_limit(100)
            .with_path_order(path_order)
            .with_char_order(char_order)
            .with_seed(seed);
        run(language, &options)
    };
    for (path_order, char_order) in all_orders() {
        let first = sequence(path_order, char_order, 0);
        assert_eq!(first, sequence(path_order, char_order, 0), "{path_order:?} {char_order:?}");
        let differ = (1..8).any(|seed| sequence(path_order, char_order, seed) != first);
        let shuffled = path_order == PathOrder::Shuffled || char_order == CharOrder::Shuffled;
        assert_eq!(differ, shuffled, "{path_order:?} {char_order:?}");
    }
}

#[test]
fn empty_answers() {
    let some = GenerateOptions::default();
    assert_eq!(run("[]", &some), Vec::<String>::new());
    assert_eq!(run("a[^\\s\\S]", &some), Vec::<String>::new());
    assert_eq!(run("abc", &some.clone().with_limit(0)), Vec::<String>::new());
    assert_eq!(
        run("abc", &some.clone().with_min_length(3).with_max_length(2)),
        Vec::<String>::new()
    );
    assert_eq!(run("abc", &some.clone().with_min_length(4)), Vec::<String>::new());
    assert_eq!(run("abc", &some.clone().with_max_length(2)), Vec::<String>::new());
    assert_eq!(run("a{3}|b{7}", &some.clone().with_offset(2)), Vec::<String>::new());
    assert_eq!(run("[a-z]{2}", &some.clone().with_offset(676)), Vec::<String>::new());
    assert_eq!(run("[a-z]{2}", &some.clone().with_offset(u64::MAX)), Vec::<String>::new());
    for (path_order, char_order) in all_orders() {
        let options = some.clone().with_path_order(path_order).with_char_order(char_order);
        assert_eq!(run("[a-z]{2}", &options.clone().with_offset(675)).len(), 1);
        assert_eq!(run("[a-z]{2}", &options.with_offset(676)), Vec::<String>::new());
    }
}

#[test]
fn the_empty_string() {
    let options = GenerateOptions::default();
    assert_eq!(run("", &options), [""]);
    assert_eq!(run("a*", &options.clone().with_limit(3)), ["", "a", "aa"]);
    assert_eq!(run("a*", &options.clone().with_min_length(1).with_limit(2)), ["a", "aa"]);
    // A charset excluding everything leaves the empty string, when the language has it.
    let nothing = options.clone().with_charset(Some(CharSet::empty()));
    assert_eq!(run("a*", &nothing), [""]);
    assert_eq!(run("a+", &nothing), Vec::<String>::new());
    let not_a = options.with_charset(Some(CharSet::singleton('a').complement()));
    assert_eq!(run("a*", &not_a), [""]);
}

#[test]
fn infinite_languages_stop_at_the_maximum_length() {
    let options = GenerateOptions::default().with_limit(1000).with_max_length(3);
    assert_eq!(run("(ab)*|c+", &options), ["", "c", "ab", "cc", "ccc"]);
    let long = GenerateOptions::default().with_offset(100).with_limit(5);
    assert_eq!(run("a*", &long), ["a".repeat(100)]);
}

#[test]
fn charset_restricts_and_does_not_count() {
    let options =
        GenerateOptions::default().with_limit(6).with_charset(Some(CharSet::range('x', 'z')));
    assert_eq!(run(".", &options), ["x", "y", "z"]);
    assert_eq!(run("[a-y]{2}", &options), ["xx", "xy", "yx", "yy"]);
    assert_eq!(run(".*", &options.clone().with_offset(4)), ["xx", "xy", "xz", "yx", "yy", "yz"]);
}

#[test]
fn equivalent_dfas_give_identical_pages() {
    let budget = Budget::unlimited();
    let nfa = crate::nfa::Nfa::from_regex_with("(a|b)*abb|ab", &budget).unwrap();
    let unminimized = Dfa::determinize(&nfa, &budget).unwrap();
    for (path_order, char_order) in all_orders() {
        let options = GenerateOptions::default()
            .with_limit(50)
            .with_max_length(7)
            .with_path_order(path_order)
            .with_char_order(char_order)
            .with_seed(3);
        let from_pattern = run("ab|[ab]*abb", &options);
        assert_eq!(generate(&unminimized, &options, &budget).unwrap(), from_pattern);
    }
}

#[test]
fn budgets_stop_generation() {
    let options = GenerateOptions::default();
    // Strings of exactly 100 characters: the tables hold 101 lengths of 101 nodes each.
    let wide = dfa(".{0,100}");
    let small = Budget::unlimited().with_max_memory(100_000);
    assert_eq!(
        generate(&wide, &options.clone().with_min_length(100), &small),
        Err(Error::Budget(BudgetError::TooMuchMemory { op: Operation::Generate, limit: 100_000 }))
    );
    assert_eq!(generate(&wide, &options.clone().with_limit(1), &small), Ok(vec![String::new()]));
    let passed = Budget::unlimited().with_deadline(std::time::Instant::now());
    let err = generate(&dfa("[a-z]{3}"), &options, &passed).unwrap_err();
    assert!(matches!(err, Error::Budget(BudgetError::Timeout { .. })), "{err:?}");
}

/// The string and path counts past 128 bits against the exact cardinality of the language cut
/// to one length (`(a|bc)*` has one path per string, so both counts are the cardinality).
#[test]
fn counts_are_exact_beyond_128_bits() {
    let budget = Budget::unlimited();
    for (pattern, length, one_path_per_string) in
        [("[a-z]{40}", 40, false), ("(a|bc)*", 200, true), ("(a|bc)*", 199, true)]
    {
        // The band is that one length, so the tables reach it.
        let options = GenerateOptions::default()
            .with_min_length(length)
            .with_max_length(length)
            .with_limit(usize::MAX);
        let language = Catalog::new(&dfa(pattern), &options, &budget).unwrap().unwrap();
        let cell = language.counts.cell(language.routes.start(), length);
        let cut = dfa(pattern).intersection(&dfa(&format!(".{{{length}}}")), &budget).unwrap();
        let crate::Cardinality::Finite(exact) = cut.cardinality(&budget).unwrap() else {
            panic!("{pattern} cut to {length} is finite");
        };
        assert!(exact > num_bigint::BigUint::from(u128::MAX), "{pattern}: past 128 bits");
        assert_eq!(cell.strings.to_big(), exact, "{pattern} {length}");
        if one_path_per_string {
            assert_eq!(cell.paths, cell.strings, "{pattern} {length}");
        }
    }
}
