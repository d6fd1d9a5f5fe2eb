//! Each dialect's classes and case-insensitive matching against its home engine, over every
//! Unicode scalar value.
//!
//! A pattern that matches one character at a time (`\w`, `[\s\S]\b`, `(?i)[a-z]`, a cased
//! letter under `(?i)`) is a set of characters. relang's set (the accepting first steps of
//! its DFA) must be the set the engine matches (the checkers' `A` command,
//! `tests/dialects/README.md`), on every code point assigned both in the engine's Unicode
//! version (its `V` answer) and in `regex-syntax`'s: characters one of them does not know
//! are the only difference allowed. An engine that is not installed is skipped, unless
//! `RELANG_REQUIRE_ENGINES=1`.

use langcore::alphabet::CharSet;
use langcore::{Budget, Dialect, Language};

use crate::differential::pcre2;
use crate::home_engines::{base64, engine, engines_required, run_lines};

/// A one-character pattern: as relang reads it and as the engine is given it.
struct Probe {
    pattern: String,
    /// The engine's pattern and flags (JavaScript's `i` for relang's `(?i:...)`).
    engine: String,
    flags: &'static str,
    /// The characters compared: all, or those case matters for.
    everywhere: bool,
}

impl Probe {
    fn all(pattern: &str) -> Probe {
        Probe { pattern: pattern.into(), engine: pattern.into(), flags: "", everywhere: true }
    }

    fn cased(pattern: String) -> Probe {
        Probe { engine: pattern.clone(), pattern, flags: "", everywhere: false }
    }

    /// A JavaScript pattern under the `i` flag, `(?i:...)` for relang.
    fn js_insensitive(body: &str, everywhere: bool) -> Probe {
        Probe { pattern: format!("(?i:{body})"), engine: body.into(), flags: "i", everywhere }
    }
}

/// The set of a `regex-syntax` class, through relang's default dialect.
fn set_of(pattern: &str, dialect: Dialect) -> CharSet {
    let budget = Budget::default();
    let language = Language::from_regex_in(pattern, dialect, &budget)
        .unwrap_or_else(|err| panic!("{pattern} ({dialect}): {err}"));
    let dfa = language.to_dfa(&budget).unwrap_or_else(|err| panic!("{pattern}: {err}"));
    dfa.classes()
        .iter()
        .filter(|&(id, _)| dfa.is_accepting(dfa.next_state(dfa.start(), id)))
        .fold(CharSet::empty(), |acc, (_, set)| acc.union(set))
}

/// The characters case-insensitive matching may involve.
fn cased() -> CharSet {
    set_of(r"[\p{Cased}\p{Changes_When_Casemapped}\p{Changes_When_Casefolded}]", Dialect::Rust)
}

/// The classes and case rules checked in `dialect`.
fn probes(dialect: Dialect) -> Vec<Probe> {
    let classes: &[&str] = match dialect {
        Dialect::Python => &[
            r"\w",
            r"\d",
            r"\s",
            r"[\s\S]\b",
            r"(?a)\w",
            r"(?a)[\s\S]\b",
            r"(?i)\w",
            r"(?i)[a-z]",
            r"(?i)[A-Z0-9_]",
            r"(?i)[\wk]",
            r"(?i)[^k]",
            r"(?i)[\u00b5-\u0250]",
            r"(?i)[\U00010400-\U00010430]",
            r"(?i)[\U00010400x]",
            r"(?ai)[a-z\u00e9]",
            r"(?ai)[\U00010400-\U00010401]",
        ],
        Dialect::Java => &[
            r"\w",
            r"\d",
            r"\s",
            r"[\s\S]\b",
            r"(?U)\w",
            r"(?i)[a-z]",
            r"(?iu)[a-z]",
            r"(?iu)[ik\u00e0-\u00ff]",
            r"(?iu)[\u0100-\u0250]",
            r"(?i)\p{Lower}",
            r"(?iu)\p{Lower}",
            r"(?iU)\p{Lower}",
            r"(?i)\p{Lu}",
            r"(?i)\p{IsLowercase}",
            r"(?i)\p{javaUpperCase}",
            r"(?iu)\w",
            r"\p{IsGreek}",
            r"\p{InGreek}",
            r"\p{IsLatin}",
            r"\p{InCombiningDiacriticalMarks}",
            r"\p{InLatin-1 Supplement}",
            r"\p{InEmoticons}",
            r"\p{InCJK_Unified_Ideographs_Extension_A}",
        ],
        Dialect::Pcre => &[r"\w", r"\d", r"\s", r"[\s\S]\b"],
        _ => &[r"\w", r"\d", r"\s", r"[\s\S]\b"],
    };
    let mut res: Vec<Probe> = classes.iter().map(|pattern| Probe::all(pattern)).collect();
    if dialect == Dialect::Js {
        for body in [r"\w", "[a-z]", r"[\u00b5-\u0250]", r"[^k]"] {
            res.push(Probe::js_insensitive(body, true));
        }
    }
    let literals = set_of(r"\p{Changes_When_Casemapped}", Dialect::Rust);
    for &(lo, hi) in literals.ranges() {
        for letter in (lo..=hi).map(String::from) {
            res.extend(match dialect {
                Dialect::Js => vec![Probe::js_insensitive(&letter, false)],
                Dialect::Java => {
                    vec![
                        Probe::cased(format!("(?i){letter}")),
                        Probe::cased(format!("(?iu){letter}")),
                    ]
                }
                _ => vec![Probe::cased(format!("(?i){letter}"))],
            });
        }
    }
    res
}

/// The code points of `lo-hi,c,...` (hex).
fn parse_ranges(text: &str) -> CharSet {
    let code = |digits: &str| {
        u32::from_str_radix(digits, 16).ok().and_then(char::from_u32).expect("a code point")
    };
    CharSet::from_ranges(text.split(',').filter(|part| !part.is_empty()).map(|part| {
        let (lo, hi) = part.split_once('-').unwrap_or((part, part));
        (code(lo), code(hi))
    }))
}

fn format_ranges(set: &CharSet) -> String {
    let hex = |(lo, hi): (char, char)| format!("{:x}-{:x}", lo as u32, hi as u32);
    set.ranges().iter().copied().map(hex).collect::<Vec<_>>().join(",")
}

/// Up to 8 code points of `set`, for a failure message.
fn sample(set: &CharSet) -> String {
    let codes: Vec<String> = (0..set.len().min(8))
        .filter_map(|idx| set.nth(idx))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    format!("{} ({} in all)", codes.join(" "), set.len())
}

/// Characters whose properties changed between Unicode versions, assigned in both: the
/// engines that predate the change read them the old way.
const VERSION_CHANGES: &[(char, &str)] = &[
    ('\u{10fc}', "Other_Lowercase in regex-syntax's Unicode 16.0, not in Java 17's 13.0"),
    ('\u{ab69}', "Other_Lowercase in regex-syntax's Unicode 16.0, not in Java 17's 13.0"),
];

/// The characters compared for `probe`: JavaScript without the `u` flag matches UTF-16
/// units, so a character above U+FFFF is two (relang reads it as one: another question).
fn candidates(probe: &Probe, dialect: Dialect, cased: &CharSet) -> CharSet {
    let all = if probe.everywhere { CharSet::full() } else { cased.clone() };
    let changed: CharSet = VERSION_CHANGES.iter().map(|&(c, _)| c).collect();
    let all = all.difference(&changed);
    if dialect == Dialect::Js { all.intersection(&CharSet::range('\0', '\u{ffff}')) } else { all }
}

/// The differences between relang and the engine on `probes`, or `None` when the engine
/// is not installed.
fn disagreements(dialect: Dialect, probes: &[Probe]) -> Option<Vec<String>> {
    let candidates: Vec<CharSet> = {
        let cased = cased();
        probes.iter().map(|probe| candidates(probe, dialect, &cased)).collect()
    };
    let mut input = String::from("V\n");
    for (probe, candidates) in probes.iter().zip(&candidates) {
        input.push_str(&format!("P {} {}\n", base64(&probe.engine), probe.flags));
        input.push_str(&format!("A {}\n", format_ranges(candidates)));
    }
    let output = run_lines(engine(dialect)?, input)?;
    let mut lines = output.lines();
    let version = lines.next().and_then(|line| line.strip_prefix("v ")).expect("a V answer");
    let (version, assigned) = version.split_once(' ').expect("a version and ranges");
    let assigned = parse_ranges(assigned).intersection(&set_of(r"\P{Cn}", Dialect::Rust));
    eprintln!("{dialect}: Unicode {version}, {} probes", probes.len());
    let mut res = Vec::new();
    for (probe, candidates) in probes.iter().zip(&candidates) {
        assert_eq!(lines.next(), Some("ok"), "{} ({dialect}): the engine refuses it", probe.engine);
        let found = lines.next().and_then(|line| line.strip_prefix('r')).expect("an A answer");
        // A letter the engine's version does not have is no question to it.
        if !probe.everywhere && !probe.engine.chars().last().is_some_and(|c| assigned.contains(c)) {
            continue;
        }
        let compared = candidates.intersection(&assigned);
        let engine_set = parse_ranges(found.trim()).intersection(&compared);
        let relang_set = set_of(&probe.pattern, dialect).intersection(&compared);
        if engine_set != relang_set {
            res.push(format!(
                "{} ({dialect}): only relang {}; only the engine {}",
                probe.pattern,
                sample(&relang_set.difference(&engine_set)),
                sample(&engine_set.difference(&relang_set)),
            ));
        }
    }
    Some(res)
}

#[test]
fn classes_and_case_folding_agree_with_home_engines_everywhere() {
    let mut failures = Vec::new();
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre] {
        let Some(found) = disagreements(dialect, &probes(dialect)) else {
            assert!(!engines_required(), "the {dialect} engine is not installed");
            eprintln!(
                "SKIPPED: the {dialect} engine is not installed, its classes were not checked"
            );
            continue;
        };
        failures.extend(found);
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}

/// Escapes longer than a backslash and one character: octal and hex forms, control letters,
/// code points, quoting, and their edges in each dialect.
const LONGER_ESCAPES: &[&str] = &[
    r"\0",
    r"\01",
    r"\012",
    r"\0123",
    r"\0477",
    r"\12",
    r"\101",
    r"\141",
    r"\400",
    r"\8a",
    r"\x4",
    r"\x4g",
    r"\x{41}",
    r"\x{}",
    r"\u004",
    r"\u0041",
    r"\u{41}",
    r"\U00000041",
    r"\c$",
    r"\c1",
    r"\c_",
    r"\ca",
    r"\cA",
    r"\c[",
    r"\o{101}",
    r"\N{U+41}",
    r"\k<a>",
    r"\pL",
    r"\p{L}",
    r"\P{L}",
    r"\p{^L}",
    r"\Q*\E",
    r"\Qab",
    r"a\E*",
    r"\Ea",
    r"\x41\x",
];

/// Counted repetitions at the edges of each engine's syntax and bounds.
const COUNTS: &[&str] = &[
    "a{",
    "a{1",
    "a{,}",
    "a{1,2}?",
    "a{ 1}",
    "a{1, 2}",
    "a**",
    "a*+",
    "a+?+",
    "a{1}{2}",
    "a{0}",
    "a{,2}",
    "a{2,}?+",
    "a??",
    "a?*",
    "(a)*+",
    "a{01}",
    "{1}",
    "a|*",
    "a{65535}",
    "a{65536}",
    "a{2147483648}",
    "a{4294967295}",
    "x{3,1}",
    "a{}",
    "a{a}",
    "a{1,b}",
    " {1}",
    "a(?#x)*",
    "\\b*",
    "^*",
    "(?=a)*",
    "(?<=a)?",
    "(?:)*",
    "(|a)+",
];

/// The characters an escape's one-character strings are compared on: ASCII and a few
/// beyond (a line separator, a mark, characters that fold to ASCII, one above U+FFFF).
fn escape_candidates() -> Vec<char> {
    let beyond = "é\u{2028}\u{85}\u{a0}\u{1F600}\u{301}ſK\u{100}\u{13f}";
    ('\0'..='\x7f').chain(beyond.chars()).collect()
}

/// What the home engine of `dialect` says of each probe: `None` where it refuses it, else
/// whether it fully matches each candidate; `None` for all without the engine.
fn engine_escapes(
    dialect: Dialect,
    probes: &[String],
    candidates: &[char],
) -> Option<Vec<Option<Vec<bool>>>> {
    if dialect == Dialect::Pcre {
        let texts: Vec<String> = candidates.iter().map(char::to_string).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        return probes
            .iter()
            .map(|probe| {
                Some(
                    pcre2(probe, &texts)?
                        .ok()
                        .map(|found| found.iter().map(|m| m == &Some(true)).collect()),
                )
            })
            .collect();
    }
    let ranges =
        candidates.iter().map(|&c| format!("{:x}", u32::from(c))).collect::<Vec<_>>().join(",");
    let input: String =
        probes.iter().map(|probe| format!("P {}\nA {ranges}\n", base64(probe))).collect();
    let output = run_lines(engine(dialect)?, input)?;
    let mut lines = output.lines();
    let mut res = Vec::with_capacity(probes.len());
    for _ in probes {
        let compiled = lines.next().expect("a P answer") == "ok";
        let found = parse_ranges(lines.next().and_then(|line| line.strip_prefix('r'))?.trim());
        res.push(compiled.then(|| candidates.iter().map(|&c| found.contains(c)).collect()));
    }
    Some(res)
}

/// Every escape (a backslash and each printable ASCII character, and [`LONGER_ESCAPES`])
/// alone, as a class and after a class member, every group opening `(?c` with a printable
/// ASCII `c` (flags, scoped flags, turned off), and [`COUNTS`], in each dialect: relang
/// refuses what the engine refuses, reads what it reads (or says it does not support it),
/// and matches the same one-character strings. `pcre2test` stands for PCRE (Perl differs
/// on escapes). Where node lacks JavaScript's modifiers (`(?i:...)`, ECMAScript 2025), its
/// refusal of a group opening is not compared; counts with spaces are not probed in PCRE,
/// which reads them as text in 10.42 and as counts in 10.43 (and relang).
#[test]
fn escapes_flags_and_counts_agree_with_home_engines() {
    let singles = (b'!'..=b'~').map(|b| format!("\\{}", char::from(b)));
    let escapes: Vec<String> =
        singles.chain(LONGER_ESCAPES.iter().map(|e| e.to_string())).collect();
    let groups = (b'!'..=b'~').map(char::from).filter(|&c| c != ')').flat_map(|c| {
        [format!("(?{c})a"), format!("(?{c}:a)"), format!("(?-{c})a"), format!("(?{c}-:a)")]
    });
    let probes: Vec<String> = escapes
        .iter()
        .flat_map(|e| [e.clone(), format!("[{e}]"), format!("[a{e}]")])
        .chain(groups)
        .chain(COUNTS.iter().map(|count| count.to_string()))
        .collect();
    let candidates = escape_candidates();
    let mut failures = Vec::new();
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre] {
        let spaced_count = |probe: &String| probe.contains('{') && probe.contains(' ');
        let probes: Vec<String> = probes
            .iter()
            .filter(|&probe| dialect != Dialect::Pcre || !spaced_count(probe))
            .cloned()
            .collect();
        let Some(answers) = engine_escapes(dialect, &probes, &candidates) else {
            assert!(!engines_required(), "the {dialect} engine is not installed");
            eprintln!(
                "SKIPPED: the {dialect} engine is not installed, its escapes were not checked"
            );
            continue;
        };
        let modifiers = probes
            .iter()
            .zip(&answers)
            .any(|(probe, answer)| probe == "(?i:a)" && answer.is_some());
        for (probe, answer) in probes.iter().zip(answers) {
            let budget = Budget::default().with_max_states(200_000);
            let reading = Language::from_regex_in(probe, dialect, &budget);
            let older_engine = dialect == Dialect::Js && !modifiers && probe.starts_with("(?");
            match (reading, answer) {
                (Err(_), None) => {}
                (Ok(_), None) if older_engine => {}
                (Err(err), Some(_)) if err.to_string().contains("not supported") => {}
                (Err(err), Some(_)) => {
                    failures.push(format!("{probe} ({dialect}): relang refuses it: {err}"))
                }
                (Ok(_), None) => {
                    failures.push(format!("{probe} ({dialect}): the engine refuses it"))
                }
                (Ok(language), Some(engine)) => {
                    for (&c, engine) in candidates.iter().zip(engine) {
                        // A count of millions is over the budget: nothing to compare.
                        let Ok(relang) = language.matches(&c.to_string(), &budget) else { break };
                        if relang != engine {
                            failures.push(format!(
                                "{probe} ({dialect}) on {c:?}: the engine says {engine}"
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}

/// Names Java reads otherwise than Python or than their spelling suggests: Python's names
/// of ideographs and Hangul syllables, aliases, loose forms, block forms with a wrong or
/// padded code, and the Unicode 1.0 names Java gives control characters.
const JAVA_NAME_FORMS: &[&str] = &[
    "HANGUL SYLLABLE GA",
    "CJK UNIFIED IDEOGRAPH-4E00",
    "CJK UNIFIED IDEOGRAPHS 4E00",
    "CJK UNIFIED IDEOGRAPHS 04E00",
    "CJK UNIFIED IDEOGRAPHS 4e00",
    "HANGUL SYLLABLES AC00",
    "BASIC LATIN 41",
    "LATIN 1 SUPPLEMENT 84",
    "LATIN 1 SUPPLEMENT 85",
    "BYTE ORDER MARK",
    "LINE FEED",
    "LF",
    "line feed (lf)",
    " NEXT LINE (NEL)\t",
    "LATIN_SMALL_LETTER_A",
    "LATIN SMALL LETTER  A",
    "LATINSMALLLETTERA",
    "latin ſmall letter a",
    "",
];

/// Java's `\N{name}` as `Character.codePointOf` reads it: the name `Character.getName` gives
/// each code point up to U+00FF and every 151st above (those it names) reads as that
/// character, alone and lowercased in a class; [`JAVA_NAME_FORMS`] are refused where Java
/// refuses them and otherwise read as the character Java reads.
#[test]
fn java_character_names_agree_with_java() {
    let sampled: Vec<String> = (0..=0xff)
        .chain((0x100..=0x10_ffff).step_by(151))
        .map(|code| format!("{code:x}"))
        .collect();
    let Some(output) = engine(Dialect::Java)
        .and_then(|java| run_lines(java, format!("N {}\n", sampled.join(","))))
    else {
        assert!(!engines_required(), "the java engine is not installed");
        eprintln!(
            "SKIPPED: the java engine is not installed, its character names were not checked"
        );
        return;
    };
    let names: Vec<(char, &str)> = output
        .trim()
        .strip_prefix('n')
        .expect("an N answer")
        .split('|')
        .filter_map(|entry| {
            let (code, name) = entry.trim().split_once(':')?;
            Some((u32::from_str_radix(code, 16).ok().and_then(char::from_u32)?, name))
        })
        .collect();
    assert!(names.len() > 1_500, "Java named {} of the sampled code points", names.len());
    let mut failures = Vec::new();
    for &(c, name) in &names {
        let budget = Budget::default();
        for pattern in [format!(r"\N{{{name}}}"), format!(r"[b\N{{{}}}]", name.to_lowercase())] {
            let reading = Language::from_regex_in(&pattern, Dialect::Java, &budget)
                .map(|language| language.matches(&c.to_string(), &budget));
            if !matches!(reading, Ok(Ok(true))) {
                failures.push(format!("{pattern} (U+{:04X}): {reading:?}", u32::from(c)));
            }
        }
    }
    let probes: Vec<String> = JAVA_NAME_FORMS.iter().map(|name| format!(r"\N{{{name}}}")).collect();
    let candidates = ['a', '\n', '\u{84}', '\u{85}', '\u{4e00}', '\u{ac00}', '\u{feff}', 'A'];
    let answers = engine_escapes(Dialect::Java, &probes, &candidates).expect("java answers");
    for (probe, answer) in probes.iter().zip(answers) {
        let budget = Budget::default();
        let reading = Language::from_regex_in(probe, Dialect::Java, &budget);
        match (reading, answer) {
            (Err(_), None) => {}
            (Ok(language), Some(engine)) => {
                for (&c, engine) in candidates.iter().zip(engine) {
                    if language.matches(&c.to_string(), &budget).ok() != Some(engine) {
                        failures.push(format!("{probe} on {c:?}: Java says {engine}"));
                    }
                }
            }
            (reading, answer) => {
                failures.push(format!("{probe}: relang {reading:?}, Java {answer:?}"))
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n"));
}
