//! The backtracking analysis against the engines themselves: each attack string is run by
//! the pattern's home engine (`tests/backtracking/`'s timing drivers, one batch process per
//! engine) at growing pump counts, and the growth of its time must be the one predicted:
//! exponential (two more pumps multiply it), n^d (three times the pumps multiply it by about
//! 3^d), or linear (the same inputs as the attack of a vulnerable sibling pattern stay in
//! proportion to their length). Ratios of CPU times, never absolute times, with generous
//! margins; a case whose timing misses is timed afresh (twice at most), since a wrong
//! prediction misses every time and a noisy timing seldom twice.
//!
//! Perl's super-linear cache keeps nested quantifiers off the exponential path, so Perl
//! times no exponential shape; Java's cache of loop positions (Java 9 and later) does too
//! for the loops it caches, whose answer is unknown (`Backtracking::under_loop_cache`), so
//! Java times the group loops it does not cache; and Perl's optimizer skips `\s+$`'s hopeless starts (docs/dialects.md): the
//! PCRE dialect's verdicts are PCRE2's, which has neither. No cubic shape is timed:
//! CPython's single-character repeats (`a*a*a*`) grew like n^2.4 on a busy machine, between
//! the margins of degrees 2 and 3. A missing engine prints `SKIPPED` and fails under
//! `CI=true` or `RELANG_REQUIRE_ENGINES=1`.

use std::path::Path;
use std::process::Command;

use langcore::{Backtracking, Budget, Complexity, Dialect, MatchMode};

use crate::home_engines::{base64, engines_required, run_lines};

/// A case: the pattern, how it is matched, the growth expected, and (for a linear one) the
/// vulnerable sibling whose attack is its input.
struct Case {
    pattern: &'static str,
    mode: MatchMode,
    expected: Complexity,
    input_from: Option<&'static str>,
}

const fn case(pattern: &'static str, mode: MatchMode, expected: Complexity) -> Case {
    Case { pattern, mode, expected, input_from: None }
}

const fn linear(pattern: &'static str, mode: MatchMode, input_from: &'static str) -> Case {
    Case { pattern, mode, expected: Complexity::Linear, input_from: Some(input_from) }
}

const EXP: Complexity = Complexity::Exponential;
const QUADRATIC: Complexity = Complexity::Polynomial { degree: 2 };
const FULL: MatchMode = MatchMode::FullMatch;
const SEARCH: MatchMode = MatchMode::Search;

fn cases(dialect: Dialect) -> Vec<Case> {
    match dialect {
        Dialect::Python => vec![
            case("(a+)+", FULL, EXP),
            case(r"(\w+\s?)+", FULL, EXP),
            case(r"\d+\d+", FULL, QUADRATIC),
            case(r"\s+$", SEARCH, QUADRATIC),
            // A lookahead's body run to the end at every start.
            case(r"(?=\s*=)", SEARCH, QUADRATIC),
            // Every text matches at its end, after each earlier start failed.
            case("(a|a)*$", SEARCH, EXP),
            linear("(?>a+)+", FULL, "(a+)+"),
            // One path per start in an atomic group, though `a|a` has two to its one end.
            linear("(?>(a|a))+", FULL, "(a+)+"),
            linear(r"\d+-\d+", FULL, r"\d+\d+"),
            // A reference to a group of two strings, one reading each.
            case(r#"(["'])(?:\\.|(?!\1)[^\\\r\n])*\1"#, SEARCH, QUADRATIC),
            // A reference to a group of infinitely many strings: a copy behind a test.
            linear(r"(\w+)=\1", FULL, r"\d+\d+"),
        ],
        Dialect::Js => vec![
            case("(a+)+", FULL, EXP),
            case("(a|a)*", FULL, EXP),
            case(r"\d+\d+", FULL, QUADRATIC),
            case(r"\s+$", SEARCH, QUADRATIC),
            case(r"(?=\s*=)", SEARCH, QUADRATIC),
            case("(a|a)*$", SEARCH, EXP),
            case(".*$", SEARCH, QUADRATIC),
            // An unclosed comment is read to the end from each `/*`; where the end closes
            // it too, the first `/*` matches.
            case(r"\/\*[\s\S]*?\*\/", SEARCH, QUADRATIC),
            linear(r"\/\*[\s\S]*?(?:\*\/|$)", SEARCH, r"\/\*[\s\S]*?\*\/"),
            // (V8 runs out of stack on `(a|b)*` over a few million characters.)
            linear("[ab]*", FULL, "(a|a)*"),
            case(r#"(["'])(?:\\.|(?!\1)[^\\\r\n])*\1"#, SEARCH, QUADRATIC),
            case(r"(`+)[^`]+\1(?!`)", SEARCH, QUADRATIC),
        ],
        Dialect::Java => vec![
            case(r"\s+$", SEARCH, QUADRATIC),
            case(r"\d+\d+", FULL, QUADRATIC),
            // The group loops Java does not cache (`Pattern.Loop` without a `posIndex`): a
            // lazy one, one inside a quantified group, any in a pattern with a reference.
            case("(a+)+?", FULL, EXP),
            case("(?:(a+)+)?", FULL, EXP),
            case(r"(a+)+\1", FULL, EXP),
            linear("(?>a+)+", FULL, "(a+)+?"),
            linear("(?>(a|a))+", FULL, "(a+)+?"),
        ],
        // Perl's optimizer tries `\s+$` only where the end can follow (PCRE2 does not).
        // (Not `(?>(a|a))+`: Perl stops a group's repetition at 65,534 iterations.)
        Dialect::Pcre => vec![case(r"\d+\d+", FULL, QUADRATIC), linear("(?>a+)+", FULL, "(a+)+")],
        _ => Vec::new(),
    }
}

/// The timing driver of a dialect's engine.
fn driver(dialect: Dialect) -> Command {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/backtracking");
    let (program, script) = match dialect {
        Dialect::Python => ("python3", "time.py"),
        Dialect::Js => ("node", "time.js"),
        Dialect::Java => ("java", "Time.java"),
        _ => ("perl", "time.pl"),
    };
    let mut command = Command::new(program);
    command.arg(dir.join(script));
    command
}

fn analyze(pattern: &str, dialect: Dialect, mode: MatchMode) -> Backtracking {
    Backtracking::analyze(pattern, dialect, mode, &Budget::default())
        .unwrap_or_else(|err| panic!("{pattern}: {err}"))
}

/// The growth a timing shows is the one expected: (k1, t1, k2, t2) from the driver.
fn check_growth(case: &Case, dialect: Dialect, timing: &str) -> Result<(), String> {
    let fields: Vec<f64> = timing.split(' ').filter_map(|field| field.parse().ok()).collect();
    let [k1, t1, k2, t2] = fields[..] else {
        return Err(format!("{}: the {dialect} driver answered {timing:?}", case.pattern));
    };
    let ratio = t2 / t1.max(1e-9);
    let ok = match case.expected {
        // Two more pumps (a doubling per pump is 4x, leaving room for noise past 2x): well
        // past what a cubic would add.
        Complexity::Exponential => t1 >= 0.015 && ratio >= 2.0 && ratio > 1.2 * (k2 / k1).powi(3),
        Complexity::Polynomial { degree } => {
            let degree_seen = ratio.ln() / (k2 / k1).ln();
            t1 >= 0.015 && (degree_seen - f64::from(degree)).abs() <= 0.6
        }
        // Under the timing floor even at millions of pumps (where a quadratic is seconds),
        // or in proportion to the length.
        _ => t1 < 0.015 || ratio.ln() / (k2 / k1).ln() <= 1.6,
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{} ({dialect}, {:?}): expected {:?}, timed {k1} pumps {t1:.4} s, {k2} pumps {t2:.4} s",
            case.pattern, case.mode, case.expected
        ))
    }
}

/// The driver's line for a case: the attack the analysis gives (its sibling's, for a
/// linear case), after checking that the analysis predicts the growth expected.
fn driver_line(case: &Case, dialect: Dialect) -> String {
    let risk = analyze(case.pattern, dialect, case.mode);
    assert_eq!(risk.complexity(), &case.expected, "{} ({dialect}): {risk:?}", case.pattern);
    let attacked = match case.input_from {
        Some(sibling) => analyze(sibling, dialect, case.mode),
        None => risk,
    };
    let attack = attacked
        .attack()
        .cloned()
        .unwrap_or_else(|| panic!("{} ({dialect}): no attack in {attacked:?}", case.pattern));
    let mode = if case.mode == MatchMode::Search { "search" } else { "full" };
    let kind = if case.expected == EXP { "exp" } else { "poly" };
    format!(
        "C {mode} {kind} {} {} {} {}\n",
        base64(case.pattern),
        base64(attack.prefix()),
        base64(attack.pump()),
        base64(attack.suffix())
    )
}

/// How many times a case is timed before its miss counts.
const ATTEMPTS: usize = 3;

#[test]
fn attack_strings_grow_the_engines_time_as_predicted() {
    let required =
        engines_required() || std::env::var("CI").is_ok_and(|ci| ci == "true" || ci == "1");
    let mut failures = Vec::new();
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre] {
        let cases = cases(dialect);
        let mut pending: Vec<(&Case, String)> =
            cases.iter().map(|case| (case, driver_line(case, dialect))).collect();
        let mut misses = Vec::new();
        for _ in 0..ATTEMPTS {
            let input: String = pending.iter().map(|(_, line)| line.as_str()).collect();
            let Some(output) = run_lines(driver(dialect), input) else {
                assert!(!required, "the {dialect} engine is not installed");
                eprintln!("SKIPPED {dialect}: its engine is not installed, no attack was timed");
                break;
            };
            let timings: Vec<&str> = output.lines().collect();
            assert_eq!(timings.len(), pending.len(), "{dialect}: {output}");
            misses.clear();
            let mut missed = Vec::new();
            for ((case, line), timing) in pending.into_iter().zip(timings) {
                if let Err(why) = check_growth(case, dialect, timing) {
                    misses.push(why);
                    missed.push((case, line));
                }
            }
            pending = missed;
            if pending.is_empty() {
                break;
            }
        }
        failures.extend(misses);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
