//! Real-world patterns against their home engines: `tests/dialects/corpus.toml`.
//!
//! For each accepted pattern, strings relang generates from its language and from its
//! complement (over a small mixed alphabet), plus single-character mutations of them, are
//! classified by the home engine's full match (`tests/dialects/check.py`, `check.js`,
//! `Check.java`, `check.pl` for PCRE; the `regex` crate for the default dialect) and must
//! be classified the same way by relang. An engine that is not installed is skipped, unless
//! `RELANG_REQUIRE_ENGINES=1` (CI installs them).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use langcore::alphabet::CharSet;
use langcore::{Budget, Dialect, GenerateOptions, Language, PathOrder};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    dialect: String,
    source: String,
    pattern: String,
    /// A part of the error relang must give, for patterns it does not read.
    reject: Option<String>,
    /// `invalid` (the home engine refuses it too) or `not-regular`; absent for the
    /// patterns that are valid in their home dialect and regular.
    class: Option<Class>,
}

/// Why a pattern is outside the acceptance goal.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum Class {
    /// Refused by the home engine itself.
    Invalid,
    /// Valid, but its language is not regular (an unbounded backreference).
    NotRegular,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Corpus {
    pattern: Vec<Entry>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load() -> Vec<Entry> {
    let path = root().join("tests/dialects/corpus.toml");
    let text =
        std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    let corpus: Corpus =
        toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
    corpus.pattern
}

/// The characters strings are drawn from: enough to tell the dialects apart.
fn alphabet() -> CharSet {
    CharSet::from_ranges([
        ('\n', '\n'),
        ('\r', '\r'),
        (' ', '~'),
        ('\u{a0}', '\u{a0}'),
        ('é', 'é'),
        ('٣', '٣'),
    ])
}

/// Strings to ask about: some of the language, some of its complement, and single-character
/// mutations (deletion, replacement, insertion) of the former.
fn probes(language: &Language, budget: &Budget) -> Vec<String> {
    let options = GenerateOptions::default()
        .with_limit(12)
        .with_max_length(24)
        .with_path_order(PathOrder::Interleave)
        .with_charset(Some(alphabet()));
    let members = language.generate(&options, budget).unwrap_or_default();
    let mut res: Vec<String> = members.clone();
    if let Ok(complement) = language.complement(budget) {
        res.extend(complement.generate(&options, budget).unwrap_or_default());
    }
    for member in members.iter().take(6) {
        let chars: Vec<char> = member.chars().collect();
        for at in [0, chars.len() / 2, chars.len().saturating_sub(1)] {
            if at < chars.len() {
                let mut deleted = chars.clone();
                deleted.remove(at);
                res.push(deleted.into_iter().collect());
            }
            for replacement in ['a', 'Z', '0', ' ', '-', '\n', 'é'] {
                let mut changed = chars.clone();
                if at < chars.len() {
                    changed[at] = replacement;
                    res.push(changed.iter().collect());
                }
                changed.insert(at.min(chars.len()), replacement);
                res.push(changed.into_iter().collect());
            }
        }
    }
    res.sort();
    res.dedup();
    res
}

/// The command that runs a dialect's checker, or `None` for the default dialect.
pub(crate) fn engine(dialect: Dialect) -> Option<Command> {
    let dir = root().join("tests/dialects");
    let (program, script) = match dialect {
        Dialect::Python => ("python3", "check.py"),
        Dialect::Js => ("node", "check.js"),
        Dialect::Java => ("java", "Check.java"),
        Dialect::Pcre => ("perl", "check.pl"),
        _ => return None,
    };
    let mut command = Command::new(program);
    command.arg(dir.join(script));
    // check.pl's alarm stops a match that backtracks too long only with unsafe signals.
    command.env("PERL_SIGNALS", "unsafe");
    Some(command)
}

/// Whether a missing engine fails the tests (`RELANG_REQUIRE_ENGINES=1`, set by CI).
pub(crate) fn engines_required() -> bool {
    std::env::var("RELANG_REQUIRE_ENGINES").is_ok_and(|value| value == "1")
}

pub(crate) fn base64(text: &str) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let bytes = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let word = u32::from(bytes[0]) << 16 | u32::from(bytes[1]) << 8 | u32::from(bytes[2]);
        for idx in 0..4 {
            if idx <= chunk.len() {
                out.push(DIGITS[(word >> (18 - 6 * idx) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The engine's answers: per pattern, `None` when it does not compile, else one answer per
/// string. `None` overall when the engine is not installed.
///
/// # Panics
/// Where the engine ran out of the checker's time on a pattern (`check.js`).
pub(crate) fn run_engine(
    command: Command,
    batch: &[(String, Vec<String>)],
) -> Option<Vec<Option<Vec<bool>>>> {
    let answers = run_engine_answers(command, batch)?;
    let answer = |(answer, (pattern, _)): (Answer, &(String, Vec<String>))| match answer {
        Answer::Invalid => None,
        Answer::Matches(matches) => Some(matches),
        Answer::TimedOut => panic!("{pattern}: the engine took past the checker's time limit"),
    };
    Some(answers.into_iter().zip(batch).map(answer).collect())
}

/// An engine's answer on a pattern.
pub(crate) enum Answer {
    /// It does not compile.
    Invalid,
    /// It took past the checker's time limit: no answer (`T`, `check.js`).
    TimedOut,
    /// Whether it fully matches each string.
    Matches(Vec<bool>),
}

/// The engine's answer on each pattern of `batch`; `None` when the engine is not installed.
pub(crate) fn run_engine_answers(
    command: Command,
    batch: &[(String, Vec<String>)],
) -> Option<Vec<Answer>> {
    let mut input = String::new();
    for (pattern, strings) in batch {
        input.push_str(&format!("P {}\n", base64(pattern)));
        for text in strings {
            input.push_str(&format!("S {}\n", base64(text)));
        }
    }
    let text = run_lines(command, input)?;
    let mut lines = text.lines();
    let mut res = Vec::new();
    for (_, strings) in batch {
        let compiled = lines.next();
        let matches: Vec<bool> = strings.iter().map(|_| lines.next() == Some("1")).collect();
        res.push(match compiled {
            Some("ok") => Answer::Matches(matches),
            Some("T") => Answer::TimedOut,
            _ => Answer::Invalid,
        });
    }
    Some(res)
}

/// The checker's output for the protocol lines `input`, or `None` when its engine is not
/// installed.
pub(crate) fn run_lines(mut command: Command, input: String) -> Option<String> {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().ok()?;
    writer.join().ok()?.ok()?;
    assert!(output.status.success(), "{command:?} failed");
    String::from_utf8(output.stdout).ok()
}

/// The share of the valid and regular patterns that relang must accept, in percent.
const MIN_ACCEPTANCE_PERCENT: usize = 99;

#[test]
fn accepted_patterns_agree_with_their_home_engines() {
    // A budget per use: a default one's deadline runs from its creation.
    let budget = Budget::default;
    let require = engines_required();
    let mut by_dialect: BTreeMap<&str, Vec<(&Entry, Language)>> = BTreeMap::new();
    let mut invalid: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    let mut n_goal = 0;
    let mut n_accepted = 0;
    let mut refused = Vec::new();
    let mut unexpected = Vec::new();
    let corpus = load();
    for entry in &corpus {
        let dialect: Dialect =
            entry.dialect.parse().unwrap_or_else(|err| panic!("{}: {err}", entry.source));
        let parsed = Language::from_regex_in(&entry.pattern, dialect, &budget());
        if entry.class.is_some() {
            assert!(entry.reject.is_some(), "{}: a classed entry names its error", entry.source);
        } else {
            n_goal += 1;
        }
        if entry.class == Some(Class::Invalid) {
            invalid.entry(entry.dialect.as_str()).or_default().push(entry);
        }
        match (&entry.reject, parsed) {
            (Some(part), Err(err)) => {
                if !err.to_string().contains(part.as_str()) {
                    unexpected.push(format!("{}: {err}, not {part:?}", entry.source));
                } else if entry.class.is_none() {
                    refused.push(format!("{} ({}): {err}", entry.source, entry.pattern));
                }
            }
            (Some(part), Ok(_)) => {
                unexpected.push(format!("{}: expected an error with {part:?}", entry.source));
            }
            (None, Err(err)) => {
                unexpected.push(format!("{} ({}): {err}", entry.source, entry.pattern));
            }
            (None, Ok(language)) => {
                n_accepted += 1;
                by_dialect.entry(entry.dialect.as_str()).or_default().push((entry, language));
            }
        }
    }
    eprintln!(
        "accepted {n_accepted} of the {n_goal} valid and regular patterns ({:.1}%); refused:\n{}",
        n_accepted as f64 * 100.0 / n_goal.max(1) as f64,
        refused.join("\n")
    );
    assert!(unexpected.is_empty(), "unexpected:\n{}", unexpected.join("\n"));
    assert!(
        n_accepted * 100 >= n_goal * MIN_ACCEPTANCE_PERCENT,
        "accepted {n_accepted} of {n_goal}"
    );
    check_invalid_in_home_engines(&invalid, require);
    let mut mismatches = Vec::new();
    for (name, entries) in by_dialect {
        let dialect: Dialect = name.parse().unwrap_or_default();
        let batch: Vec<(String, Vec<String>)> = entries
            .iter()
            .map(|(entry, language)| (entry.pattern.clone(), probes(language, &budget())))
            .collect();
        let answers: Vec<Option<Vec<bool>>> = match engine(dialect) {
            Some(command) => match run_engine(command, &batch) {
                Some(answers) => answers,
                None if require => panic!("the {name} engine is not installed"),
                None => {
                    eprintln!("skipping {name}: its engine is not installed");
                    continue;
                }
            },
            None => batch
                .iter()
                .map(|(pattern, strings)| {
                    let oracle = regex::Regex::new(&format!("^(?s:{pattern})$")).ok()?;
                    Some(strings.iter().map(|text| oracle.is_match(text)).collect())
                })
                .collect(),
        };
        for (((entry, language), (_, strings)), answer) in entries.iter().zip(&batch).zip(answers) {
            let Some(answer) = answer else {
                mismatches.push(format!(
                    "{}: the {name} engine does not compile {:?}",
                    entry.source, entry.pattern
                ));
                continue;
            };
            for (text, want) in strings.iter().zip(answer) {
                let got = language.matches(text, &budget()).unwrap();
                if got != want {
                    mismatches.push(format!(
                        "{} [{name}] {:?} on {text:?}: relang {got}, engine {want}",
                        entry.source, entry.pattern
                    ));
                }
            }
        }
    }
    assert!(mismatches.is_empty(), "{} mismatches:\n{}", mismatches.len(), mismatches.join("\n"));
}

/// Patterns marked `invalid` must be refused by their home engine too.
fn check_invalid_in_home_engines(invalid: &BTreeMap<&str, Vec<&Entry>>, require: bool) {
    for (name, entries) in invalid {
        let dialect: Dialect = name.parse().unwrap_or_default();
        let batch: Vec<(String, Vec<String>)> =
            entries.iter().map(|entry| (entry.pattern.clone(), Vec::new())).collect();
        let Some(command) = engine(dialect) else { continue };
        match run_engine(command, &batch) {
            Some(answers) => {
                for (entry, answer) in entries.iter().zip(answers) {
                    assert!(answer.is_none(), "{}: the {name} engine compiles it", entry.source);
                }
            }
            None if require => panic!("the {name} engine is not installed"),
            None => eprintln!("skipping {name}: its engine is not installed"),
        }
    }
}
