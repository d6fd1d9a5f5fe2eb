//! The classic shapes of backtracking blow-up, what cuts it, and attacks checked against
//! the pattern's own language.

use super::{Backtracking, Complexity, MatchMode};
use crate::budget::{Budget, BudgetError};
use crate::dialect::Dialect;
use crate::error::Error;
use crate::language::Language;

use Complexity::{Exponential, Linear};
use MatchMode::{FullMatch, Search};

fn poly(degree: u32) -> Complexity {
    Complexity::Polynomial { degree }
}

/// The analysis of `pattern`, after checking that its attack (if any) makes the match fail
/// at several pump counts, as the engine must for every path to be tried (a search: from
/// every start before the suffix; a later one may match, the paths are tried by then).
#[track_caller]
fn analyze(pattern: &str, dialect: Dialect, mode: MatchMode) -> Backtracking {
    let budget = Budget::default();
    let risk = Backtracking::analyze(pattern, dialect, mode, &budget).unwrap();
    let Some(attack) = risk.attack() else { return risk };
    assert!(!matches!(risk.complexity(), Linear | Complexity::Unknown { .. }));
    for pumps in [1, 2, 5] {
        // A search matches where the pattern matches a part of the text, its assertions
        // looking at the whole text: relang's reading of `[\s\S]{0,n}(?:P)[\s\S]*`, the
        // match starting within the first n + 1 characters.
        let text = attack.string(pumps);
        let before_suffix = text.chars().count() - attack.suffix().chars().count();
        let whole = match mode {
            FullMatch => pattern.to_owned(),
            Search => format!(r"[\s\S]{{0,{}}}(?:{pattern})[\s\S]*", before_suffix - 1),
        };
        let language = Language::from_regex_in(&whole, dialect, &budget).unwrap();
        let matched = language.matches(&text, &budget).unwrap();
        assert!(!matched, "{pattern}: the attack {text:?} matches");
    }
    risk
}

#[track_caller]
fn check(pattern: &str, dialect: Dialect, mode: MatchMode, expected: Complexity) {
    let risk = analyze(pattern, dialect, mode);
    assert_eq!(risk.complexity(), &expected, "{pattern} ({dialect}, {mode:?}): {risk:?}");
    let vulnerable = matches!(
        expected,
        Exponential | Complexity::Polynomial { .. } | Complexity::Superlinear { .. }
    );
    assert_eq!(risk.attack().is_some(), vulnerable, "{pattern}: {risk:?}");
    assert_eq!(!risk.hotspot().is_empty(), vulnerable, "{pattern}: {risk:?}");
}

#[track_caller]
fn full(pattern: &str, expected: Complexity) {
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre] {
        check(pattern, dialect, FullMatch, expected.clone());
    }
}

/// [`full`] in the dialects without a cache of loop positions: Java's cache meets the
/// pattern's group loop ([`javas_cached_loops_leave_only_a_bound`]).
#[track_caller]
fn full_uncached(pattern: &str, expected: Complexity) {
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Pcre] {
        check(pattern, dialect, FullMatch, expected.clone());
    }
}

#[track_caller]
fn search(pattern: &str, expected: Complexity) {
    check(pattern, Dialect::Js, Search, expected);
}

#[test]
fn nested_and_overlapping_loops_are_exponential() {
    for pattern in [
        "(a+)+",
        "^(a+)+$",
        "(a*)*b",
        "(a|a)*",
        "(a|aa)+",
        r"(\w|\d)+",
        r"(\w+\s?)+",
        r"^([a-z0-9]+\.?)+@x$",
    ] {
        full_uncached(pattern, Exponential);
        java_cached(pattern, "at most exponential");
    }
}

/// The answer for Java where a loop it caches (`Pattern.Loop` with a `posIndex`) stands:
/// plain backtracking's growth as a bound in the reason, no verdict, no attack.
#[track_caller]
fn java_cached(pattern: &str, bound: &str) {
    let risk = analyze(pattern, Dialect::Java, FullMatch);
    let Complexity::Unknown { reason } = risk.complexity() else { panic!("{pattern}: {risk:?}") };
    assert!(reason.contains("`Pattern.Loop`'s cache") && reason.contains(bound), "{reason}");
    assert!(risk.hotspot().is_empty(), "{pattern}: {risk:?}");
}

/// Java 9 and later skip an iteration of a greedy group loop without bound where one
/// failed before (java 17: `(a+)+b` on `a`×4,000 and `!` takes 0.19 s, n^2, where plain
/// backtracking doubles per `a`): only the loops it caches leave a bound, the others keep
/// their verdict (java 17: `(a+)+?b`, `(?:(a+)+)?b` and `(a+)+\1` double per `a` or two,
/// `(a+){1,3}b` grows like n^3, `(?:a)*a*b` like n^2).
#[test]
fn javas_cached_loops_leave_only_a_bound() {
    java_cached("(a+)+b", "at most exponential");
    java_cached("(a+){2,}b", "at most exponential");
    java_cached("x(a|a)*(b|b)*c", "(and 1 more such loops)");
    // A linear pattern stays linear: the cache only skips paths.
    check("(ab|a)*c", Dialect::Java, FullMatch, Linear);
    // Not cached: a lazy loop, a bounded one, a loop inside a quantified group, any loop
    // of a pattern with a backreference, a deterministic body (`GroupCurly`).
    check("(a+)+?b", Dialect::Java, FullMatch, Exponential);
    check("(a+){1,3}b", Dialect::Java, FullMatch, poly(3));
    check("(?:(a+)+)?b", Dialect::Java, FullMatch, Exponential);
    not_regular(r"(a+)+\1", Dialect::Java, FullMatch, Exponential);
    check("(?:a)*a*b", Dialect::Java, FullMatch, poly(2));
    // `(?:a*)` is not deterministic (a `Curly` of two lengths): its loop is cached.
    java_cached("(?:a*)*b", "at most exponential");
}

#[test]
fn loops_in_sequence_are_polynomial() {
    full(r"\d+\d+", poly(2));
    full("a*a*a*", poly(3));
    full(r"\s*x?\s*", poly(2));
    full(r"a+b?a+b?a+", poly(3));
    full(r"\d+\.?\d+", poly(2));
}

#[test]
fn unambiguous_patterns_are_linear() {
    full("(a|b)*", Linear);
    full("(ab|a)*c", Linear);
    full(r"[a-z]+@[a-z]+\.[a-z]{2,3}", Linear);
    full(r"\d+-\d+", Linear);
    full("a*b*c*", Linear);
    full("(a+b)+", Linear);
    full("", Linear);
}

#[test]
fn lazy_quantifiers_backtrack_the_same() {
    full("(a+?)+?", Exponential);
    full(r"\d+?\d+?", poly(2));
    full("(a|b)*?", Linear);
}

#[test]
fn atomic_groups_and_possessive_quantifiers_cut_backtracking() {
    for dialect in [Dialect::Java, Dialect::Pcre, Dialect::Python] {
        check("(?>a+)+", dialect, FullMatch, Linear);
        check("(a++)+", dialect, FullMatch, Linear);
        check("a++a*", dialect, FullMatch, Linear);
        check(r"\d*+\d*", dialect, FullMatch, Linear);
        // Only the inside of the group is cut.
        check("(?>a)*a*", dialect, FullMatch, poly(2));
        // A body of one end but two paths (`a|a`) takes one: the engines time these flat
        // (Python 3.11, Perl, Java 17 on `a`×22), where the paths of the body by its ends
        // alone doubled per `a`.
        check("(?>(a|a))+b", dialect, FullMatch, Linear);
        check("(?>(a|a)+)b", dialect, FullMatch, Linear);
        check(r"(?>\w|\d)+b", dialect, FullMatch, Linear);
    }
}

#[test]
fn one_character_lookarounds_are_read_exactly() {
    full_uncached("(?:a|(?=a)a)+", Exponential);
    full("(?:a|(?!a)a)+", Linear);
    full(r"(?:\w|(?<=-)y)+", Linear);
    // A word boundary cannot split a word: only `\s*` is optional, and it is not ambiguous.
    // (Java's and PCRE's `\b` look past combining marks: more than one character.)
    for dialect in [Dialect::Python, Dialect::Js] {
        check(r"(?:\b\w+\b\s*)+", dialect, FullMatch, Linear);
    }
    full_uncached(r"(?:\w+\s*)+", Exponential);
}

#[test]
fn a_lookahead_body_runs_each_time_it_is_tested() {
    // Tested once, at the start: its run is linear, like the rest.
    full(r"^(?=.*[A-Z])(?=.*\d).{8,}$", Linear);
    // Tested at every start, each run reading to the end where no digit is.
    search(r"(?=.*\d)", poly(2));
    search(r"(?=\s*=)", poly(2));
    search(r"(?!\s*\])y", poly(2));
    // Tested once per `x`: the lookahead's run and the loop after it read the same spaces.
    search(r"x(?!\s*\])\s*y", Linear);
    // After a word's first character only, and `\s*` stops at the next word.
    search(r"\b\w+(?=\s*\()", Linear);
    // The body's own loops count: `(?:a|a)*` tried at each `x`.
    search(r"x(?=(?:a|a)*b)", Exponential);
    // A body that matches "" succeeds at once: its paths are not surely tried.
    let risk = analyze(r"(?=\s*)\s*x", Dialect::Js, Search);
    assert!(matches!(risk.complexity(), Complexity::Unknown { .. }), "{risk:?}");
}

#[test]
fn what_is_not_analysed_is_unknown_with_its_reason() {
    let unknown = |pattern: &str, dialect: Dialect, part: &str| {
        let risk = Backtracking::analyze(pattern, dialect, FullMatch, &Budget::default()).unwrap();
        match risk.complexity() {
            Complexity::Unknown { reason } => assert!(reason.contains(part), "{pattern}: {reason}"),
            other => panic!("{pattern}: {other:?}"),
        }
        assert!(risk.attack().is_none());
    };
    unknown("(?:(?=ab)a|a)+", Dialect::Js, "lookaround longer than one character");
    unknown("(?:(?=a+b)a)+b", Dialect::Python, "lookaround");
    // A lookbehind is read exactly where the character before is known from the atom
    // read: here `\w` or `y` may be read after `x`, which the position does not tell.
    unknown(r"(?:\w|(?<=x)y)+", Dialect::Python, "lookaround");
}

#[test]
fn a_search_retries_at_every_start() {
    search(r"\s+$", poly(2));
    search("a*b", poly(2));
    search("a*a*b", poly(3));
    search("(a|a)*b", Exponential);
    search("(a+)+b", Exponential);
    // The failing suffix is found among the characters the skip loop reads too.
    search("^(a+)+$", Exponential);
    // A trailing `\b` after `.` or `-` may hold at once: not a success to count on, nor
    // one to prune by.
    let risk = analyze(r"\b[a-z][a-z0-9._-]+\b", Dialect::Js, Search);
    assert!(matches!(risk.complexity(), Complexity::Unknown { .. }), "{risk:?}");
    // Anchored at the start: one try.
    search(r"^\s+$", Linear);
    search(r"^\d+\d+x", poly(2));
    // The first match ends the search before any backtracking.
    search(r"\d+\d+", Linear);
    search("(a|a)*", Linear);
    search("^(a+)+", Linear);
    search("abc", Linear);
}

/// Every text matches at its end, but the search stops at the first start that matches:
/// the runs of every earlier start fail first, with all their paths.
#[test]
fn a_search_that_always_matches_first_fails_at_earlier_starts() {
    // `(a|a)*` matches "" at the end only after every `a` run failed before the `b`.
    search("(a|a)*$", Exponential);
    let attack = analyze("(a|a)*$", Dialect::Js, Search).attack().cloned().unwrap();
    assert_eq!((attack.prefix(), attack.pump(), attack.suffix()), ("a", "aa", "b"));
    // `.` stops at a line end, where `$` fails: each start reads to it and back.
    search(".*$", poly(2));
    search(r"\s*$", poly(2));
    // A run from `/*` always matches (at the end if not before): the first one ends the
    // search, and the runs before fail at once.
    search(r"\/\*[\s\S]*?(?:\*\/|$)", Linear);
    search(r"x[\s\S]*$", Linear);
    search(r"x[^y]*?(?:y|$)", Linear);
}

/// A run may match after the engine tried, and failed, paths it ranks first: the order is
/// not modelled, so where a success could cut the paths found, the answer says how far
/// apart the bounds are. node: `/(a|a)*c|x?/.test("a".repeat(24))` doubles per `a`, and
/// path-parse's `splitPathRe` (CVE-2021-23343, adv05 of the corpus) is n^2 on
/// `/`×n, though both always match.
#[test]
fn a_match_after_failed_paths_is_not_a_linear_run() {
    for pattern in [
        "(a|a)*c|x?",
        "(?:(a|a)*c)?",
        r"^(\/?|)([\s\S]*?)((?:\.{1,2}|[^\/]+?|)(\.[^.\/]*|))(?:[\/]*)$",
    ] {
        let risk = analyze(pattern, Dialect::Js, Search);
        let Complexity::Unknown { reason } = risk.complexity() else { panic!("{risk:?}") };
        assert!(reason.contains("tries first"), "{pattern}: {reason}");
    }
    // Where the first path tried matches, the paths after it cost nothing.
    search(r"\w+\s*", Linear);
    // The loops nest, but every state of `[ \t]+` surely matches (an iteration may end
    // the pattern there): a path the engine tries off its way to that success lies in a
    // part that fails, ` ?-`, which has no loop. Linear (the markdown list item of marked).
    search(r"^(?: ?-[ \t]+)+", Linear);
}

#[test]
fn a_reference_to_a_group_of_few_strings_is_read_per_string() {
    // One reading per quote: `(?!")` and `(?!')` are one-character tests, read exactly.
    search(r#"(["'])(?:\\.|(?!\1)[^\\\r\n])*\1"#, poly(2));
    full(r#"(["'])[^"']*\1"#, Linear);
    full(r"(a)\1+", Linear);
    // Inside a loop, the group's value is carried and tested: a test the analysis reads
    // as holding, so only the paths before it are sure (the prism.js CSS selector).
    let pattern = r#"(?:\[(?:[^\]\\"']|(["'])(?:(?!\1)[^\\]|\\.)*\1|\\.)*\])"#;
    search(pattern, Complexity::Superlinear { at_least: 2, at_most: None });
}

/// The analysis of `pattern` where its language is not regular (the attack is timed in
/// node by the corpus check instead, docs/benchmarks.md).
#[track_caller]
fn not_regular(pattern: &str, dialect: Dialect, mode: MatchMode, expected: Complexity) {
    let risk = Backtracking::analyze(pattern, dialect, mode, &Budget::default()).unwrap();
    assert_eq!(risk.complexity(), &expected, "{pattern}: {risk:?}");
    assert_eq!(risk.attack().is_some(), expected != Linear, "{pattern}: {risk:?}");
}

#[test]
fn a_reference_to_a_group_of_infinitely_many_strings_is_a_copy_behind_a_test() {
    // The copy's paths bound the reference's one from above, the paths before it from
    // below: both linear, both quadratic here.
    not_regular(r"(\w+)=\1", Dialect::Python, FullMatch, Linear);
    not_regular(r"(`+)[^`]+\1(?!`)", Dialect::Js, Search, poly(2));
    // `"*` after `"""` may read the closing quotes again: n^2 shown, n^3 the bound.
    let between = Complexity::Superlinear { at_least: 2, at_most: Some(3) };
    not_regular(r#""""("*)(?!")[\s\S]*?"""\1"#, Dialect::Js, Search, between);
    // Not where the copy would not match what the group captured.
    for (pattern, dialect) in [(r"(a+)(?<=\1)", Dialect::Pcre), (r"(?i)(a+)\1", Dialect::Python)] {
        assert!(Backtracking::analyze(pattern, dialect, FullMatch, &Budget::default()).is_err());
    }
}

#[test]
fn a_lower_bound_alone_says_superlinear() {
    // n^2 shown (the search's starts times the lazy loop), n^3 the bound.
    let between = Complexity::Superlinear { at_least: 2, at_most: Some(3) };
    search(r"^-+([^=]+?\d+)$", between);
}

#[test]
fn attacks_and_hotspots_point_at_the_loop() {
    let risk = analyze("^(a+)+$", Dialect::Js, FullMatch);
    let attack = risk.attack().unwrap();
    assert_eq!((attack.prefix(), attack.pump(), attack.suffix()), ("a", "a", "b"));
    assert_eq!((risk.hotspot().len(), risk.hotspot().first()), (1, Some(&(2..3))));
    let risk = analyze(r"^x\d+\d+y$", Dialect::Python, FullMatch);
    let attack = risk.attack().unwrap();
    assert_eq!(attack.string(3), format!("{}000{}", attack.prefix(), attack.suffix()));
    assert!(attack.prefix().starts_with('x'));
    assert_eq!(risk.hotspot(), [2..4, 5..7]);
}

#[test]
fn the_default_dialect_does_not_backtrack() {
    let risk = Backtracking::analyze("(a+)+$", Dialect::Rust, FullMatch, &Budget::default());
    assert_eq!(risk.unwrap().complexity(), &Linear);
}

#[test]
fn the_budget_bounds_the_analysis() {
    let budget = Budget::default().with_max_states(20);
    let err =
        Backtracking::analyze("(a|a|a|a|a)+(b|b|b|b|b)+c{30}", Dialect::Js, FullMatch, &budget);
    assert!(matches!(err, Err(Error::Budget(BudgetError::TooManyStates { .. }))), "{err:?}");
    let err = Backtracking::analyze("(a", Dialect::Js, FullMatch, &Budget::default());
    assert!(matches!(err, Err(Error::Parse(_))), "{err:?}");
}

/// JavaScript reads UTF-16 code units: an attack comes back as characters, its units paired
/// up (the pump turned where a pair straddles it), or the answer is unknown where it needs a
/// lone surrogate. node: `^(a😀|a😀)*$` on `a` + `😀a😀a`×k doubles per pump.
#[test]
fn javascript_attacks_are_strings_of_characters() {
    let found = analyze("^(a😀|a😀)*$", Dialect::Js, FullMatch);
    assert_eq!(found.complexity(), &Exponential);
    let attack = found.attack().unwrap();
    assert_eq!((attack.prefix(), attack.pump(), attack.suffix()), ("a", "😀a😀a", ""));
    let lone = analyze(r"^([\uD800-\uDBFF]+)+$", Dialect::Js, FullMatch);
    let Complexity::Unknown { reason } = lone.complexity() else { panic!("{lone:?}") };
    assert!(reason.contains("lone UTF-16 surrogate"), "{reason}");
    check("^(😀+)+$", Dialect::Js, FullMatch, Linear);
}
