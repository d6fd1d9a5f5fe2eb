//! Differential fuzzing of the dialect front end against the home engines, and of the
//! algebra on the same languages.
//!
//! # Overview
//! `grammar.rs` writes random patterns in each dialect's syntax over the whole grammar
//! relang reads (docs/dialects.md). Each pattern is read by `Language::from_regex_in` and
//! compiled by its home engine (`tests/dialects/check.py`, `check.js`, `Check.java`,
//! `check.pl` for PCRE; the `regex` crate in process for the default dialect, where it
//! compiles):
//! - the engine refuses it: relang must refuse it too;
//! - relang refuses it as not supported, not regular or over its budget: counted per
//!   construct, not a disagreement;
//! - relang refuses it as invalid: the engine must refuse it too;
//! - both read it: every string of a fixed universe (every string over `a`, `b`, `-` up to
//!   length 5, over seven characters up to length 3, and random longer ones) must get the
//!   same answer from both, full match.
//!
//! Every accepted language also goes through the algebra, which must stay consistent: its
//! intersection with the finite universe has as many strings as the universe strings it
//! matches; cardinality agrees with emptiness and lengths; generated strings match; the
//! complement is disjoint from it and covers the rest.
//!
//! Disagreements are shrunk (parts of the pattern removed while the same kind of
//! disagreement stays) and grouped. `tests/dialects/fuzz_known.toml` lists the minimized
//! patterns known to disagree, each with its reason: the test fails on any other, and on a
//! listed one that no longer disagrees (remove it).
//!
//! CI runs [`CI_PATTERNS`] patterns per dialect from [`CI_SEED`]; a long run sets
//! `RELANG_FUZZ_PATTERNS`, `RELANG_FUZZ_SEED` and optionally `RELANG_FUZZ_DIALECTS`
//! (docs/fuzzing.md). A missing engine is skipped with a `SKIPPED` line, unless
//! `RELANG_REQUIRE_ENGINES=1`.

mod grammar;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;
use std::time::Instant;

use langcore::alphabet::CharSet;
use langcore::{Budget, Cardinality, Dialect, Error, GenerateOptions, Language, PathOrder};
use serde::Deserialize;

use self::grammar::{Generator, Rng};
use crate::home_engines::{Answer, engine, engines_required, run_engine, run_engine_answers};

/// Patterns per dialect in the CI batch.
const CI_PATTERNS: usize = 120;
/// The CI batch's seed.
const CI_SEED: u64 = 30;
/// Patterns per engine process.
const CHUNK: usize = 2_000;
/// The most disagreements per dialect shrunk in one run; the rest are counted.
const DEFAULT_SHRINK_LIMIT: usize = 60;
/// The most shrinking rounds per disagreement.
const MAX_ROUNDS: usize = 12;

/// Every string over `a`, `b`, `-` up to this length is in the universe.
const CORE_LENGTH: usize = 5;
const CORE: [char; 3] = ['a', 'b', '-'];
/// Every string over these up to length [`WIDE_LENGTH`] is in the universe too.
const WIDE: [char; 8] = ['a', 'b', '-', 'A', 'é', '\u{301}', '\n', '\u{1F600}'];
const WIDE_LENGTH: usize = 3;
/// Random longer strings draw from these.
const LONG: [char; 11] = ['a', 'b', '-', 'A', 'é', '\u{301}', '\n', ' ', '1', '_', '\u{1F600}'];

/// The strings every accepted pattern is asked about; the first ones are all the strings
/// over [`CORE`] up to [`CORE_LENGTH`], in order of length.
fn universe() -> (Vec<String>, usize) {
    let all_up_to = |alphabet: &[char], max: usize| {
        let mut res = vec![String::new()];
        let mut level = vec![String::new()];
        for _ in 0..max {
            level = level
                .iter()
                .flat_map(|head| alphabet.iter().map(move |c| format!("{head}{c}")))
                .collect();
            res.extend(level.iter().cloned());
        }
        res
    };
    let mut res = all_up_to(&CORE, CORE_LENGTH);
    let n_core = res.len();
    let mut seen: BTreeSet<String> = res.iter().cloned().collect();
    for text in all_up_to(&WIDE, WIDE_LENGTH) {
        if seen.insert(text.clone()) {
            res.push(text);
        }
    }
    let mut rng = Rng::new(7);
    let n_wide = res.len();
    while res.len() < n_wide + 24 {
        let len = 6 + rng.below(6);
        let text: String = (0..len).map(|_| *rng.pick(&LONG)).collect();
        if seen.insert(text.clone()) {
            res.push(text);
        }
    }
    (res, n_core)
}

/// How relang read a pattern.
enum Reading {
    Accepted(Language),
    /// Not supported or not regular: not a disagreement.
    Refused(String),
    /// Over the budget (which a busy machine reaches sooner): nothing to compare.
    OverBudget(String),
    /// Invalid in the dialect.
    Invalid(String),
    /// relang panicked, with this message.
    Panicked(String),
}

fn read(pattern: &str, dialect: Dialect) -> Reading {
    let read =
        std::panic::catch_unwind(|| Language::from_regex_in(pattern, dialect, &Budget::default()));
    let read = match read {
        Ok(read) => read,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(ToString::to_string)
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            return Reading::Panicked(message);
        }
    };
    match read {
        Ok(language) => Reading::Accepted(language),
        Err(Error::Parse(err)) if err.is_unsupported() => Reading::Refused(err.to_string()),
        Err(err @ Error::Budget(_)) => Reading::OverBudget(err.to_string()),
        Err(err) => Reading::Invalid(err.to_string()),
    }
}

/// A disagreement between relang and the home engine, or within the algebra.
#[derive(Clone, Debug)]
enum Finding {
    /// relang reads a pattern the engine refuses.
    AcceptsInvalid,
    /// relang calls invalid a pattern the engine compiles.
    RejectsValid(String),
    /// They classify `text` differently; `relang` is relang's answer.
    Membership { text: String, relang: bool },
    /// The algebra contradicts itself on the language.
    Algebra(String),
    /// relang panics on the pattern.
    Panic(String),
}

impl Finding {
    fn kind(&self) -> &'static str {
        match self {
            Finding::AcceptsInvalid => "relang accepts, the engine refuses",
            Finding::RejectsValid(_) => "relang calls it invalid, the engine compiles it",
            Finding::Membership { .. } => "different answers on a string",
            Finding::Algebra(_) => "the algebra is inconsistent",
            Finding::Panic(_) => "relang panics",
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finding::AcceptsInvalid => f.write_str("relang reads it, the engine refuses it"),
            Finding::RejectsValid(err) => write!(f, "relang: {err}"),
            Finding::Membership { text, relang } => {
                write!(f, "on {text:?}: relang {relang}, engine {}", !relang)
            }
            Finding::Algebra(what) => f.write_str(what),
            Finding::Panic(message) => write!(f, "relang panics: {message}"),
        }
    }
}

/// The engine's verdicts on `batch`, chunked; `None` when the engine is not installed.
fn ask_engine(dialect: Dialect, batch: &[(String, Vec<String>)]) -> Option<Vec<Answer>> {
    if dialect == Dialect::Rust {
        return Some(
            batch
                .iter()
                .map(|(pattern, strings)| {
                    // The `regex` crate reads `a{2}+` as a repetition of `a{2}`; relang's
                    // dialect as possessive (docs/dialects.md): no oracle.
                    if ["*+", "++", "?+", "}+"].iter().any(|twin| pattern.contains(twin)) {
                        return Answer::Invalid;
                    }
                    match regex::Regex::new(&format!("^(?s:{pattern})$")) {
                        Ok(oracle) => Answer::Matches(
                            strings.iter().map(|text| oracle.is_match(text)).collect(),
                        ),
                        Err(_) => Answer::Invalid,
                    }
                })
                .collect(),
        );
    }
    let mut res = Vec::with_capacity(batch.len());
    for chunk in batch.chunks(CHUNK) {
        let mut command = engine(dialect)?;
        command.env("PYTHONWARNINGS", "ignore");
        res.extend(run_engine_answers(command, chunk)?);
    }
    Some(res)
}

/// Whether the JavaScript engine reads ECMAScript 2025 modifiers, `(?i:...)`.
fn js_has_modifiers() -> bool {
    let Some(command) = engine(Dialect::Js) else { return false };
    run_engine(command, &[("(?i:a)".to_owned(), Vec::new())])
        .is_some_and(|answers| answers[0].is_some())
}

/// What one pattern gave: a finding, or how it was counted.
enum Outcome {
    Agreed,
    /// relang refused a pattern the engine reads, with this message: not compared.
    Refused(String),
    /// relang ran out of its budget reading the pattern or answering the strings: not
    /// compared, and not a sign that a known disagreement is gone.
    OverBudget(String),
    /// Both refused it, relang with `err`; `unsupported` when relang called it not
    /// supported.
    BothInvalid {
        err: String,
        unsupported: bool,
    },
    /// The engine does not compile it, in the default dialect (the `regex` crate reads
    /// less than relang's dialect).
    NoOracle,
    /// PCRE: Perl and relang disagree on whether it compiles, and PCRE2 sides with relang.
    PerlOnly,
    /// PCRE: relang reads a variable-length lookbehind that PCRE2 10.43 reads (up to 255
    /// characters) and PCRE2 10.42 refuses ("not fixed length"), and Perl refuses
    /// it or answers a string differently (its variable-length lookbehinds are
    /// experimental): no engine here settles it.
    OlderPcre2,
    /// The engine took past its checker's time limit (V8 backtracks exponentially on some
    /// nested quantifiers): no answer.
    EngineTimedOut,
    Disagrees(Finding),
}

/// Reads `patterns` with relang and the engine, and compares; `None` when the engine is
/// not installed.
fn evaluate(dialect: Dialect, patterns: &[String], universe: &Universe) -> Option<Vec<Outcome>> {
    // `RELANG_FUZZ_TRACE=1` names each pattern before relang reads it: where a run stalls
    // or runs out of memory, the last one named is the culprit.
    let trace = std::env::var_os("RELANG_FUZZ_TRACE").is_some();
    let read_traced = |pattern: &String| {
        if trace {
            eprintln!("reading {pattern:?}");
        }
        read(pattern, dialect)
    };
    let readings: Vec<Reading> = patterns.iter().map(read_traced).collect();
    let batch: Vec<(String, Vec<String>)> = patterns
        .iter()
        .zip(&readings)
        .map(|(pattern, reading)| {
            let strings = match reading {
                Reading::Accepted(_) => universe.strings.clone(),
                _ => Vec::new(),
            };
            (pattern.clone(), strings)
        })
        .collect();
    let answers = ask_engine(dialect, &batch)?;
    Some(
        patterns
            .iter()
            .zip(readings)
            .zip(answers)
            .map(|((pattern, reading), answer)| {
                let answer = match answer {
                    Answer::TimedOut => return Outcome::EngineTimedOut,
                    Answer::Invalid => None,
                    Answer::Matches(matches) => Some(matches),
                };
                if dialect != Dialect::Pcre {
                    return compare(dialect, pattern, reading, answer, universe);
                }
                // Where Perl refuses a pattern relang reads, PCRE2 answers if it reads it.
                let by_pcre2 = match (&reading, &answer) {
                    (Reading::Accepted(_), None) => pcre2_answers(pattern, &universe.strings),
                    _ => None,
                };
                if let Some(matches) = by_pcre2 {
                    return match compare(dialect, pattern, reading, Some(matches), universe) {
                        Outcome::Agreed => Outcome::PerlOnly,
                        other => other,
                    };
                }
                settle_with_pcre2(pattern, compare(dialect, pattern, reading, answer, universe))
            })
            .collect(),
    )
}

/// Perl stands in for PCRE, but they differ on what compiles (Perl reads `{1}` with
/// nothing before it as text, compiles `x{2,1}` and `(?(1))` without a group 1, refuses
/// `(?)*` where PCRE2 does too, ...). Where Perl and relang disagree on whether a pattern
/// compiles, or relang reads a pattern Perl answers differently on, PCRE2 itself decides
/// whether it compiles, and where Perl answers a string differently from relang, whether
/// it matches: `pcre2test` (PCRE2 10.42, Debian's pcre2-utils) when installed. (Where
/// Perl refuses a pattern that relang and PCRE2 read, `evaluate` compares PCRE2's answers
/// on every string.)
fn settle_with_pcre2(pattern: &str, outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Disagrees(Finding::AcceptsInvalid) if pcre2_compiles(pattern) == Some(true) => {
            Outcome::PerlOnly
        }
        Outcome::Disagrees(Finding::AcceptsInvalid)
            if pcre2_refuses_variable_lookbehind(pattern) =>
        {
            Outcome::OlderPcre2
        }
        Outcome::Disagrees(Finding::RejectsValid(_)) if pcre2_compiles(pattern) == Some(false) => {
            Outcome::PerlOnly
        }
        // Perl and relang read it, PCRE2 10.42 not, for a variable-length lookbehind (which
        // 10.43 reads): Perl's is experimental, and each such answer of Perl examined by hand
        // was wrong (docs/fuzzing.md), so it settles nothing.
        Outcome::Disagrees(Finding::Membership { .. })
            if pcre2_compiles(pattern) == Some(false)
                && pcre2_refuses_variable_lookbehind(pattern) =>
        {
            Outcome::OlderPcre2
        }
        Outcome::Disagrees(Finding::Membership { .. })
            if pcre2_compiles(pattern) == Some(false) =>
        {
            Outcome::Disagrees(Finding::AcceptsInvalid)
        }
        // Perl's bugs (`x{0}` matching an `x` in a UTF-8 string, Perl/perl5#20690): where
        // PCRE2 answers as relang does on the string, Perl alone differs.
        Outcome::Disagrees(Finding::Membership { text, relang })
            if pcre2_matches(pattern, &text) == Some(relang) =>
        {
            Outcome::PerlOnly
        }
        other => other,
    }
}

/// `pattern` for PCRE2 10.42 (Debian 12's), which reads `{,n}` as text where 10.43 (and
/// relang) read `{0,n}`.
fn for_pcre2_10_42(pattern: &str) -> String {
    let (mut out, mut rest) = (String::new(), pattern);
    while let Some(at) = rest.find("{,") {
        let digits = rest[at + 2..].bytes().take_while(u8::is_ascii_digit).count();
        let quantifier =
            digits > 0 && rest[at + 2 + digits..].starts_with('}') && !rest[..at].ends_with('\\');
        out.push_str(&rest[..at]);
        out.push_str(if quantifier { "{0," } else { "{," });
        rest = &rest[at + 2..];
    }
    out + rest
}

/// What PCRE2 itself says of `pattern` (UTF mode, full match), through `pcre2test`
/// (Debian's pcre2-utils, 10.42): `Err(message)` when it does not compile, else whether
/// it matches each of `texts` (`None` for a text it could not decide); `None` without
/// `pcre2test`, or for a pattern that holds every delimiter it takes.
pub(crate) fn pcre2(pattern: &str, texts: &[&str]) -> Option<Result<Vec<Option<bool>>, String>> {
    use std::io::Write as _;
    let pattern = for_pcre2_10_42(pattern);
    if pattern.contains(['\n', '\r']) {
        return None;
    }
    let delimiter = "/!\"#%&,;=@~`".chars().find(|&d| !pattern.contains(d))?;
    // Start options (`(*UCP)`) stay first; `\E` ends a `\Q` the pattern leaves open.
    let (options, pattern) = pattern.split_at(pcre2_options_len(&pattern));
    let end_quote = if pattern.contains("\\Q") { "\\E" } else { "" };
    let mut input = format!("{delimiter}{options}\\A(?:{pattern}{end_quote})\\z{delimiter}utf\n");
    for text in texts {
        // Every character escaped; a lone `\` is the empty subject.
        let escaped: String = text.chars().map(|c| format!("\\x{{{:x}}}", u32::from(c))).collect();
        input.push_str(if text.is_empty() { "\\" } else { &escaped });
        input.push('\n');
    }
    let mut child = std::process::Command::new("pcre2test")
        .arg("-q")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(input.as_bytes()).ok()?;
    let output = child.wait_with_output().ok()?;
    let output = String::from_utf8_lossy(&output.stdout);
    let mut lines = output.lines().skip(1);
    if let Some(failed) = output.lines().nth(1).filter(|line| line.starts_with("Failed:")) {
        return Some(Err(failed.to_owned()));
    }
    // Each subject line is echoed, then its result.
    let mut answers = Vec::with_capacity(texts.len());
    for _ in texts {
        lines.next()?;
        let result = lines.next()?;
        answers.push(match result {
            "No match" => Some(false),
            _ if result.starts_with(" 0:") => Some(true),
            _ => None,
        });
        // Captured groups, one line each, until the next subject's echo.
        while lines.clone().next().is_some_and(|line| line.starts_with(' ')) {
            lines.next();
        }
    }
    Some(Ok(answers))
}

/// The length of the start-of-pattern options (`(*UTF)`, `(*LIMIT_MATCH=9)`) that begin
/// `pattern`: verbs such as `(*FAIL)` are part of the pattern.
fn pcre2_options_len(pattern: &str) -> usize {
    let mut len = 0;
    while let Some(name) = pattern[len..].strip_prefix("(*").and_then(|rest| rest.split(')').next())
    {
        let verb = matches!(name, "F" | "FAIL" | "ACCEPT" | "COMMIT" | "PRUNE" | "SKIP" | "THEN");
        let option = name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b"_=".contains(&b));
        if verb || !option || !pattern[len + 2 + name.len()..].starts_with(')') {
            break;
        }
        len += name.len() + 3;
    }
    len
}

/// Whether PCRE2 matches all of each of `texts` with `pattern`; `None` where it does not
/// compile it or cannot decide a text.
fn pcre2_answers(pattern: &str, texts: &[String]) -> Option<Vec<bool>> {
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    pcre2(pattern, &texts)?.ok()?.into_iter().collect()
}

/// Whether PCRE2 matches all of `text` with `pattern`.
fn pcre2_matches(pattern: &str, text: &str) -> Option<bool> {
    pcre2(pattern, &[text])?.ok()?.first().copied().flatten()
}

/// Whether PCRE2 compiles `pattern`.
fn pcre2_compiles(pattern: &str) -> Option<bool> {
    Some(pcre2(pattern, &[])?.is_ok())
}

/// Whether PCRE2 refuses `pattern` for a lookbehind that is not of one length.
fn pcre2_refuses_variable_lookbehind(pattern: &str) -> bool {
    matches!(pcre2(pattern, &[]), Some(Err(why)) if why.contains("lookbehind assertion is not fixed length"))
}

/// The outcome of one pattern, from relang's reading and the engine's answers (`None`:
/// it does not compile). The `regex` crate reads less than relang's default dialect: where
/// it does not compile a pattern, there is nothing to compare.
fn compare(
    dialect: Dialect,
    pattern: &str,
    reading: Reading,
    answer: Option<Vec<bool>>,
    universe: &Universe,
) -> Outcome {
    match (reading, answer) {
        (Reading::Panicked(message), _) => Outcome::Disagrees(Finding::Panic(message)),
        (Reading::Accepted(_), None) if dialect == Dialect::Rust => Outcome::NoOracle,
        (Reading::Refused(err), None) if dialect == Dialect::Rust => Outcome::Refused(err),
        (Reading::OverBudget(err), None) if dialect == Dialect::Rust => Outcome::OverBudget(err),
        (Reading::Accepted(_), None) => Outcome::Disagrees(Finding::AcceptsInvalid),
        (Reading::Refused(err) | Reading::OverBudget(err), None) => {
            Outcome::BothInvalid { err, unsupported: true }
        }
        (Reading::Invalid(err), None) => Outcome::BothInvalid { err, unsupported: false },
        (Reading::Refused(err), Some(_)) => Outcome::Refused(err),
        (Reading::OverBudget(err), Some(_)) => Outcome::OverBudget(err),
        (Reading::Invalid(err), Some(_)) => Outcome::Disagrees(Finding::RejectsValid(err)),
        (Reading::Accepted(language), Some(answer)) => {
            match check_language(dialect, pattern, &language, &answer, universe) {
                Ok(true) => Outcome::Agreed,
                Ok(false) => Outcome::OverBudget("over the budget answering the strings".into()),
                Err(finding) => Outcome::Disagrees(finding),
            }
        }
    }
}

/// The universe and the languages the algebra checks need, built once.
struct Universe {
    strings: Vec<String>,
    /// How many of `strings` are the core strings (all over `a`, `b`, `-` up to length 5).
    n_core: usize,
    /// Those core strings as a language.
    core: Language,
    /// The characters of every string of the universe.
    charset: CharSet,
}

impl Universe {
    fn new() -> Universe {
        let (strings, n_core) = universe();
        let core = Language::from_regex(&format!("(?:a|b|-){{0,{CORE_LENGTH}}}"))
            .expect("the core universe is a pattern");
        let charset = CharSet::from_ranges(LONG.iter().map(|&c| (c, c)));
        Universe { strings, n_core, core, charset }
    }
}

/// relang's answers on the universe against the engine's, then the algebra's consistency:
/// `Ok(false)` where the answers ran out of budget, so that nothing was compared.
fn check_language(
    dialect: Dialect,
    pattern: &str,
    language: &Language,
    answer: &[bool],
    universe: &Universe,
) -> Result<bool, Finding> {
    let budget = Budget::default();
    // A fresh reading answers a few strings before its DFA is built (the NFA's simulation
    // for a pattern without assertions), the DFA all of them.
    if let Ok(fresh) = Language::from_regex_in(pattern, dialect, &budget) {
        for (idx, text) in universe.strings.iter().enumerate().step_by(37) {
            if let Ok(got) = fresh.matches(text, &budget)
                && got != answer[idx]
            {
                return Err(Finding::Membership { text: text.clone(), relang: got });
            }
        }
    }
    let Ok(memberships) =
        language.match_strings(universe.strings.iter().map(String::as_str), &budget)
    else {
        return Ok(false);
    };
    for ((text, membership), want) in universe.strings.iter().zip(&memberships).zip(answer) {
        if membership.is_match != *want {
            return Err(Finding::Membership { text: text.clone(), relang: membership.is_match });
        }
    }
    let matched: Vec<bool> = memberships.iter().map(|membership| membership.is_match).collect();
    match check_algebra(language, &matched, universe, &Budget::default()) {
        Ok(Ok(())) | Err(Error::Budget(_)) => Ok(true),
        Ok(Err(what)) => Err(Finding::Algebra(what)),
        Err(err) => Err(Finding::Algebra(format!("error: {err}"))),
    }
}

/// The algebra on `language`, whose answers on the universe are `matched`: `Ok(Err(what))`
/// names an inconsistency; `Err` is an error of an operation (over the budget: skipped).
fn check_algebra(
    language: &Language,
    matched: &[bool],
    universe: &Universe,
    budget: &Budget,
) -> Result<Result<(), String>, Error> {
    // Intersection with the finite core universe: as many strings as it matches there.
    let n_core_matched = matched[..universe.n_core].iter().filter(|is| **is).count();
    let within = language.intersection(&universe.core, budget)?;
    let counted = within.cardinality(budget)?;
    if counted.to_string() != n_core_matched.to_string() {
        return Ok(Err(format!(
            "|L ∩ [-ab]{{0,{CORE_LENGTH}}}| is {counted}, but it matches {n_core_matched} of them"
        )));
    }
    // Cardinality, emptiness and lengths.
    let cardinality = language.cardinality(budget)?;
    let is_empty = language.is_empty(budget)?;
    let (min, max) = language.length(budget)?;
    let n_matched = matched.iter().filter(|is| **is).count();
    let shape = format!("empty {is_empty}, lengths {min:?}..{max:?}, {n_matched} matched");
    match &cardinality {
        Cardinality::Infinite => {
            if is_empty || min.is_none() || max.is_some() {
                return Ok(Err(format!("infinite, but {shape}")));
            }
        }
        Cardinality::Finite(count) if count.to_string() == "0" => {
            if !is_empty || min.is_some() || n_matched > 0 {
                return Ok(Err(format!("no strings, but {shape}")));
            }
        }
        Cardinality::Finite(count) => {
            let (Some(_), Some(max)) = (min, max) else {
                return Ok(Err(format!("{count} strings, but {shape}")));
            };
            if is_empty || count.to_string().parse::<usize>().is_ok_and(|n| n < n_matched) {
                return Ok(Err(format!("{count} strings, but {shape}")));
            }
            // A small finite language is listed whole.
            if let Ok(small) = count.to_string().parse::<usize>()
                && small <= 500
            {
                let options = GenerateOptions::default().with_limit(small + 1).with_max_length(max);
                let all = language.generate(&options, budget)?;
                if all.len() != small {
                    return Ok(Err(format!("{count} strings, but generate lists {}", all.len())));
                }
            }
        }
    }
    // Generated strings match, are distinct and within the options.
    let options = GenerateOptions::default()
        .with_limit(16)
        .with_max_length(8)
        .with_path_order(PathOrder::Shuffled)
        .with_seed(1)
        .with_charset(Some(universe.charset.clone()));
    let generated = language.generate(&options, budget)?;
    let distinct: BTreeSet<&String> = generated.iter().collect();
    if distinct.len() != generated.len() {
        return Ok(Err(format!("generate repeats a string: {generated:?}")));
    }
    for text in &generated {
        if !language.matches(text, budget)? || text.chars().count() > 8 {
            return Ok(Err(format!("generated {text:?}, which it does not match")));
        }
    }
    // The complement: disjoint, and together they cover the universe and everything.
    let complement = language.complement(budget)?;
    let answers = complement.match_strings(universe.strings.iter().map(String::as_str), budget)?;
    for ((text, membership), is_match) in universe.strings.iter().zip(&answers).zip(matched) {
        if membership.is_match == *is_match {
            return Ok(Err(format!("{text:?} is in both or neither of L and its complement")));
        }
    }
    if !language.intersection(&complement, budget)?.is_empty(budget)? {
        return Ok(Err("L and its complement intersect".to_owned()));
    }
    if !language.union(&complement, budget)?.is_total(budget)? {
        return Ok(Err("L and its complement do not cover every string".to_owned()));
    }
    Ok(Ok(()))
}

/// Patterns with parts of `pattern` removed: each span of up to four characters, each
/// group and class (whole, or its body alone), each quantifier.
fn candidates(pattern: &str) -> Vec<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let text = |range: &[char]| range.iter().collect::<String>();
    let mut res = BTreeSet::new();
    for start in 0..chars.len() {
        for len in 1..=4.min(chars.len() - start) {
            res.insert(format!("{}{}", text(&chars[..start]), text(&chars[start + len..])));
        }
    }
    // Balanced groups and classes, found roughly (escapes skipped).
    let mut opens = Vec::new();
    let mut idx = 0;
    while idx < chars.len() {
        match chars[idx] {
            '\\' => idx += 1,
            '(' | '[' => opens.push(idx),
            ')' | ']' => {
                if let Some(open) = opens.pop() {
                    let (head, tail) = (text(&chars[..open]), text(&chars[idx + 1..]));
                    res.insert(format!("{head}{tail}"));
                    for body_start in open + 1..(open + 8).min(idx) {
                        res.insert(format!("{head}{}{tail}", text(&chars[body_start..idx])));
                    }
                }
            }
            _ => {}
        }
        idx += 1;
    }
    res.remove(pattern);
    res.into_iter().collect()
}

/// Minimized forms of `found`: each pattern shrunk, round by round (one engine process per
/// round for all of them), to the shortest candidate with the same kind of disagreement.
fn shrink(
    dialect: Dialect,
    found: &[(String, Finding)],
    universe: &Universe,
) -> Vec<(String, Finding)> {
    let mut current: Vec<(String, Finding)> = found.to_vec();
    let mut active: Vec<bool> = vec![true; current.len()];
    for _ in 0..MAX_ROUNDS {
        let mut batch = Vec::new();
        let mut owners = Vec::new();
        for (idx, (pattern, _)) in current.iter().enumerate() {
            if active[idx] {
                for candidate in candidates(pattern) {
                    batch.push(candidate);
                    owners.push(idx);
                }
            }
        }
        if batch.is_empty() {
            break;
        }
        let Some(outcomes) = evaluate(dialect, &batch, universe) else { break };
        let mut best: BTreeMap<usize, (String, Finding)> = BTreeMap::new();
        for ((candidate, owner), outcome) in batch.into_iter().zip(owners).zip(outcomes) {
            let Outcome::Disagrees(finding) = outcome else { continue };
            if finding.kind() != current[owner].1.kind() {
                continue;
            }
            let better = best.get(&owner).is_none_or(|(pattern, _)| {
                (candidate.chars().count(), &candidate) < (pattern.chars().count(), pattern)
            });
            if better {
                best.insert(owner, (candidate, finding));
            }
        }
        for (idx, flag) in active.iter_mut().enumerate() {
            match best.remove(&idx) {
                Some(smaller) => current[idx] = smaller,
                None => *flag = false,
            }
        }
        if !active.contains(&true) {
            break;
        }
    }
    current
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Known {
    dialect: String,
    /// The minimized pattern, as the shrinker writes it.
    pattern: String,
    /// Why it disagrees, and what will fix it.
    reason: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KnownList {
    #[serde(default)]
    disagreement: Vec<Known>,
}

fn known() -> Vec<Known> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/dialects/fuzz_known.toml");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let list: KnownList =
        toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    for entry in &list.disagreement {
        assert!(!entry.reason.trim().is_empty(), "{}: a known entry says why", entry.pattern);
    }
    list.disagreement
}

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(value.trim().parse().unwrap_or_else(|err| panic!("{name}={value}: {err}")))
}

/// Counts per construct: patterns, accepted and compared, refused, both invalid.
#[derive(Default)]
struct Tally {
    n_patterns: usize,
    n_agreed: usize,
    n_refused: usize,
    n_invalid: usize,
    n_perl_only: usize,
    n_older_pcre2: usize,
    n_timed_out: usize,
    n_disagreed: usize,
}

impl Tally {
    fn add(&mut self, outcome: &Outcome) {
        self.n_patterns += 1;
        match outcome {
            Outcome::Agreed => self.n_agreed += 1,
            Outcome::Refused(_) | Outcome::OverBudget(_) => self.n_refused += 1,
            Outcome::BothInvalid { .. } | Outcome::NoOracle => self.n_invalid += 1,
            Outcome::PerlOnly => self.n_perl_only += 1,
            Outcome::OlderPcre2 => self.n_older_pcre2 += 1,
            Outcome::EngineTimedOut => self.n_timed_out += 1,
            Outcome::Disagrees(_) => self.n_disagreed += 1,
        }
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let refused_percent = self.n_refused as f64 * 100.0
            / (self.n_agreed + self.n_refused + self.n_disagreed).max(1) as f64;
        write!(
            f,
            "{:>7} patterns, {:>7} agree, {:>6} refused ({refused_percent:>5.1}% of the valid), {:>6} invalid in both, {:>5} disagree",
            self.n_patterns, self.n_agreed, self.n_refused, self.n_invalid, self.n_disagreed
        )?;
        if self.n_perl_only > 0 {
            write!(f, ", {} Perl is not PCRE2", self.n_perl_only)?;
        }
        if self.n_older_pcre2 > 0 {
            write!(f, ", {} variable-length lookbehinds unsettled", self.n_older_pcre2)?;
        }
        if self.n_timed_out > 0 {
            write!(f, ", {} past the engine's time limit", self.n_timed_out)?;
        }
        Ok(())
    }
}

#[test]
fn random_patterns_agree_with_their_home_engines_and_the_algebra() {
    let n_patterns = env_number("RELANG_FUZZ_PATTERNS").map_or(CI_PATTERNS, |n| n as usize);
    let seed = env_number("RELANG_FUZZ_SEED").unwrap_or(CI_SEED);
    let shrink_limit =
        env_number("RELANG_FUZZ_SHRINK").map_or(DEFAULT_SHRINK_LIMIT, |n| n as usize);
    let dialects: Vec<Dialect> = match std::env::var("RELANG_FUZZ_DIALECTS") {
        Ok(names) => names
            .split(',')
            .map(|name| name.trim().parse().unwrap_or_else(|err| panic!("{name}: {err}")))
            .collect(),
        Err(_) => Dialect::ALL.to_vec(),
    };
    quiet_panics_in_this_test();
    let universe = Universe::new();
    let known = known();
    let js_modifiers = js_has_modifiers();
    eprintln!(
        "differential: {n_patterns} patterns per dialect, seed {seed}, {} strings each{}",
        universe.strings.len(),
        if js_modifiers { "" } else { "; js: this node lacks (?i:...), not generated" }
    );
    let from = env_number("RELANG_FUZZ_FROM").map_or(0, |n| n as usize);
    let run = Run { n_patterns, from, seed, shrink_limit, js_modifiers };
    let mut unexplained = Vec::new();
    let mut fixed = Vec::new();
    for dialect in dialects {
        fuzz_dialect(dialect, &run, &universe, &known, &mut unexplained, &mut fixed);
    }
    // This test's own panic messages are quiet (`quiet_panics_in_this_test`): say why first.
    for line in unexplained.iter().map(|line| format!("not known: {line}")) {
        eprintln!("{line}");
    }
    for line in fixed.iter().map(|line| format!("agrees now, remove it: {line}")) {
        eprintln!("{line}");
    }
    assert!(
        unexplained.is_empty(),
        "{} disagreements not in tests/dialects/fuzz_known.toml:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "these entries of tests/dialects/fuzz_known.toml agree now: remove them\n{}",
        fixed.join("\n")
    );
}

/// The settings of one run.
struct Run {
    n_patterns: usize,
    /// The first pattern compared (`RELANG_FUZZ_FROM`): a long run's findings are
    /// reproduced from near them.
    from: usize,
    seed: u64,
    shrink_limit: usize,
    js_modifiers: bool,
}

/// One dialect's batch: generated, compared, counted per construct, disagreements shrunk
/// and reported; those not in `known` go to `unexplained`, known entries that agree now to
/// `fixed`.
fn fuzz_dialect(
    dialect: Dialect,
    run: &Run,
    universe: &Universe,
    known: &[Known],
    unexplained: &mut Vec<String>,
    fixed: &mut Vec<String>,
) {
    let started = Instant::now();
    let mut generator = Generator::new(dialect, run.seed ^ dialect_salt(dialect), run.js_modifiers);
    let mut seen = BTreeSet::new();
    let mut samples = Vec::new();
    while samples.len() < run.n_patterns {
        let sample = generator.sample();
        if seen.insert(sample.pattern.clone()) {
            samples.push(sample);
        }
    }
    let mut total = Tally::default();
    let mut by_feature: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut refused_as_unsupported = 0;
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut invalid_reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut unsupported_examples = Vec::new();
    let mut found = Vec::new();
    let mut missing = false;
    for chunk in samples[run.from.min(samples.len())..].chunks(CHUNK * 5) {
        let patterns: Vec<String> = chunk.iter().map(|sample| sample.pattern.clone()).collect();
        let Some(outcomes) = evaluate(dialect, &patterns, universe) else {
            missing = true;
            break;
        };
        for (sample, outcome) in chunk.iter().zip(outcomes) {
            total.add(&outcome);
            for feature in &sample.features {
                by_feature.entry(feature).or_default().add(&outcome);
            }
            match &outcome {
                Outcome::BothInvalid { err, unsupported } => {
                    let reason = err.split(" (at ").next().unwrap_or_default().to_owned();
                    *invalid_reasons.entry(reason).or_default() += 1;
                    if *unsupported {
                        refused_as_unsupported += 1;
                        if unsupported_examples.len() < 3 {
                            unsupported_examples.push(format!("{:?}: {err}", sample.pattern));
                        }
                    }
                }
                Outcome::Refused(err) | Outcome::OverBudget(err) => {
                    // The message without its position.
                    let reason = err.split(" (at ").next().unwrap_or_default().to_owned();
                    *reasons.entry(reason).or_default() += 1;
                }
                Outcome::Disagrees(finding) => {
                    found.push((sample.pattern.clone(), finding.clone(), sample.features.clone()));
                }
                _ => {}
            }
        }
        if run.n_patterns > CI_PATTERNS {
            eprintln!(
                "{dialect}: {} of {} patterns, {} disagree, {:.0} s",
                total.n_patterns,
                run.n_patterns,
                found.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    if missing {
        assert!(!engines_required(), "the {dialect} engine is not installed");
        eprintln!("SKIPPED {dialect}: its engine is not installed");
        return;
    }
    if dialect == Dialect::Pcre && pcre2_compiles("a").is_none() {
        assert!(!engines_required(), "pcre2test (pcre2-utils) is not installed");
        eprintln!("SKIPPED settling Perl's differences with PCRE2: pcre2test is not installed");
    }
    eprintln!("{dialect}: {total} in {:.1} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    eprintln!(
        "  {refused_as_unsupported} invalid in the engine were refused by relang as not supported rather than invalid"
    );
    for (feature, tally) in &by_feature {
        eprintln!("  {feature:<16} {tally}");
    }
    for (label, reasons) in [("refused", reasons), ("invalid", invalid_reasons)] {
        let mut reasons: Vec<(usize, String)> =
            reasons.into_iter().map(|(reason, count)| (count, reason)).collect();
        reasons.sort_by(|left, right| right.cmp(left));
        for (count, reason) in reasons.iter().take(8) {
            eprintln!("  {label} {count:>6}: {reason}");
        }
    }
    for example in &unsupported_examples {
        eprintln!("  invalid, relang says not supported: {example}");
    }
    let n_found = found.len();
    let to_shrink = pick_to_shrink(found, run.shrink_limit);
    let to_shrink = &to_shrink[..];
    let minimized = shrink(dialect, to_shrink, universe);
    if n_found > 0 {
        eprintln!("  shrunk in {:.1} s", started.elapsed().as_secs_f64());
    }
    let mut groups: BTreeMap<(&str, String), Vec<(&str, &Finding)>> = BTreeMap::new();
    for ((raw, _), (small, finding)) in to_shrink.iter().zip(&minimized) {
        groups.entry((finding.kind(), small.clone())).or_default().push((raw, finding));
    }
    if n_found > 0 {
        eprintln!(
            "  {n_found} disagreements, {} shrunk, to {} minimized patterns:",
            to_shrink.len(),
            groups.len()
        );
    }
    for ((kind, small), raws) in &groups {
        let is_known =
            known.iter().any(|entry| entry.dialect == dialect.as_str() && entry.pattern == *small);
        let (raw, finding) = raws[0];
        let shrunk_finding =
            &minimized.iter().find(|(pattern, _)| pattern == small).expect("a minimized pattern").1;
        eprintln!(
            "  {} [{dialect}] {small:?}: {shrunk_finding} ({kind}; {} raw, e.g. {raw:?}: {finding})",
            if is_known { "known" } else { "NEW  " },
            raws.len()
        );
        if !is_known {
            unexplained.push(format!("[{dialect}] {small:?}: {shrunk_finding} (from {raw:?})"));
        }
    }
    if n_found > to_shrink.len() {
        unexplained.push(format!(
            "[{dialect}] {} disagreements not shrunk (RELANG_FUZZ_SHRINK={})",
            n_found - to_shrink.len(),
            run.shrink_limit
        ));
    }
    // Each known entry of the dialect still disagrees: once fixed, it leaves the list. An
    // answer over relang's budget or past the engine's time limit settles nothing.
    let entries: Vec<String> = known
        .iter()
        .filter(|entry| entry.dialect == dialect.as_str())
        .map(|entry| entry.pattern.clone())
        .collect();
    if let Some(outcomes) = evaluate(dialect, &entries, universe) {
        for (pattern, outcome) in entries.iter().zip(outcomes) {
            let unsettled = matches!(outcome, Outcome::OverBudget(_) | Outcome::EngineTimedOut);
            if !unsettled && !matches!(outcome, Outcome::Disagrees(_)) {
                fixed.push(format!("[{dialect}] {pattern:?}"));
            }
        }
    }
}

/// At most `limit` of `found` to shrink, spread over kinds of findings: bucketed by the
/// kind, whether the string is ASCII, and the constructs used, the shortest pattern of each
/// bucket first (short patterns shrink fastest), round by round. The rest are only counted.
fn pick_to_shrink(
    found: Vec<(String, Finding, Vec<&'static str>)>,
    limit: usize,
) -> Vec<(String, Finding)> {
    let mut buckets: BTreeMap<String, Vec<(String, Finding)>> = BTreeMap::new();
    for (pattern, finding, features) in found {
        let ascii = match &finding {
            Finding::Membership { text, .. } => text.is_ascii(),
            _ => true,
        };
        let key = format!("{} {ascii} {}", finding.kind(), features.join(","));
        buckets.entry(key).or_default().push((pattern, finding));
    }
    let mut buckets: Vec<Vec<(String, Finding)>> = buckets.into_values().collect();
    for bucket in &mut buckets {
        bucket.sort_by_key(|(pattern, _)| {
            (std::cmp::Reverse(pattern.chars().count()), pattern.clone())
        });
    }
    buckets.sort_by_key(|bucket| bucket.last().map(|(pattern, _)| pattern.chars().count()));
    let mut res = Vec::new();
    while res.len() < limit && buckets.iter().any(|bucket| !bucket.is_empty()) {
        for bucket in &mut buckets {
            if res.len() < limit
                && let Some(shortest) = bucket.pop()
            {
                res.push(shortest);
            }
        }
    }
    res
}

/// A per-dialect change to the seed, so the dialects do not share one stream of choices.
fn dialect_salt(dialect: Dialect) -> u64 {
    dialect.as_str().bytes().fold(0xcbf2_9ce4_8422_2325, |acc, byte| {
        (acc ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Panics of relang on generated patterns are findings, caught and reported: this keeps
/// their messages and backtraces out of the log, on this test's thread only.
fn quiet_panics_in_this_test() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let name = std::thread::current().name().unwrap_or_default().to_owned();
        if !name.contains("random_patterns_agree_with_their_home_engines") {
            previous(info);
        }
    }));
}
