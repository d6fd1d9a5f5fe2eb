//! Automaton to pattern: round trips on random patterns and operation results, against
//! canonical equality and the `regex` crate.

use std::time::{Duration, Instant};

use langcore::{Budget, Dfa, Dialect, Language};
use proptest::prelude::*;

use crate::corpus;
use crate::home_engines::{engine, engines_required, run_engine};
use crate::patterns::{STRING_CHARS, all_strings, oracle, pattern};

fn dfa(pattern: &str) -> Dfa {
    Dfa::from_regex_with(pattern, &Budget::unlimited()).expect("valid pattern")
}

/// Converts `language` and checks the result: it parses, denotes the same language
/// (canonical equality), and the `regex` crate agrees with it on `inputs`.
fn check_round_trip(language: &Dfa, inputs: &[String]) -> Result<String, TestCaseError> {
    let pattern = language.to_pattern(&Budget::unlimited()).unwrap();
    prop_assert!(
        pattern.is_ascii() && !pattern.contains(|c: char| c.is_ascii_control()),
        "{}",
        pattern
    );
    let back = Dfa::from_regex_with(&pattern, &Budget::unlimited());
    prop_assert!(back.is_ok(), "{:?} does not parse: {:?}", pattern, back);
    prop_assert_eq!(&back.unwrap(), language, "{} denotes another language", pattern);
    if pattern != "[]" {
        let oracle = oracle(&pattern);
        for input in inputs {
            prop_assert_eq!(
                oracle.is_match(input),
                language.matches(input),
                "{} on {:?}",
                pattern,
                input
            );
        }
    }
    Ok(pattern)
}

/// Strings up to length 3 over a, b, c, d, and random longer ones.
fn inputs() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop::collection::vec(prop::sample::select(STRING_CHARS.to_vec()), 4..12),
        10,
    )
    .prop_map(|long| {
        all_strings(3).into_iter().chain(long.into_iter().map(String::from_iter)).collect()
    })
}

/// Proptest cases: `quick` by default, ten times as many with `RELANG_SLOW_TESTS=1`.
fn cases(quick: u32) -> u32 {
    if std::env::var_os("RELANG_SLOW_TESTS").is_some() { 10 * quick } else { quick }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(2000)))]

    #[test]
    fn patterns_round_trip(input_pattern in pattern(), inputs in inputs()) {
        check_round_trip(&dfa(&input_pattern), &inputs)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(500)))]

    #[test]
    fn operation_results_round_trip(left in pattern(), right in pattern(), inputs in inputs()) {
        let budget = Budget::unlimited();
        let (a, b) = (dfa(&left), dfa(&right));
        check_round_trip(&a.intersection(&b, &budget).unwrap(), &inputs)?;
        check_round_trip(&a.difference(&b, &budget).unwrap(), &inputs)?;
        check_round_trip(&a.complement(&budget).unwrap(), &inputs)?;
    }
}

/// The pattern of a term is exact and, for a pattern as given, never longer than it; the
/// union, concatenation and repetition of terms are exact too.
fn check_term(language: &Language, inputs: &[String]) -> Result<String, TestCaseError> {
    let output = language.to_pattern(&Budget::unlimited()).unwrap();
    let dfa = language.to_dfa(&Budget::unlimited()).unwrap();
    let back = Dfa::from_regex_with(&output, &Budget::unlimited());
    prop_assert!(back.is_ok(), "{:?} does not parse: {:?}", output, back);
    prop_assert_eq!(&back.unwrap(), dfa, "{} denotes another language", output);
    if output != "[]" {
        let oracle = oracle(&output);
        for input in inputs {
            prop_assert_eq!(
                oracle.is_match(input),
                dfa.matches(input),
                "{} on {:?}",
                output,
                input
            );
        }
    }
    Ok(output)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn term_patterns_are_exact_and_no_longer(
        left in pattern(),
        right in pattern(),
        inputs in inputs(),
    ) {
        let budget = Budget::unlimited();
        let (a, b) = (Language::from_regex(&left).unwrap(), Language::from_regex(&right).unwrap());
        let output = check_term(&a, &inputs)?;
        prop_assert!(output.len() <= left.len(), "{} came back as {}", left, output);
        check_term(&a.union(&b, &budget).unwrap(), &inputs)?;
        check_term(&a.concat(&b, &budget).unwrap(), &inputs)?;
        check_term(&a.repeat(2, Some(5), &budget).unwrap(), &inputs)?;
        check_term(&a.intersection(&b, &budget).unwrap(), &inputs)?;
    }
}

/// The structural pattern makes long terms cheap: a literal is linear (issue 22), a counted
/// repetition stays counted (issue 17), and a union is `A|B` when that is shortest.
#[test]
fn long_terms_convert_quickly() {
    // A deadline far above what they take (milliseconds), so a loaded machine changes
    // nothing: the outputs are the assertion, not the time.
    let budget = Budget::default().with_deadline(Instant::now() + Duration::from_secs(60));
    let literal = "0123456789".repeat(400);
    assert_eq!(Language::from_regex(&literal).unwrap().to_pattern(&budget).unwrap(), literal);
    let repeated = Language::from_regex("(ab){1000}").unwrap();
    assert_eq!(repeated.to_pattern(&budget).unwrap(), "(ab){1000}");
    let long = "x".repeat(2000);
    let both = Language::from_regex(&long)
        .unwrap()
        .union(&Language::from_regex("[a-f]+@[0-9]+").unwrap(), &budget)
        .unwrap();
    assert_eq!(both.to_pattern(&budget).unwrap(), "[a-f]+@[0-9]+|x{2000}");
}

#[track_caller]
fn check(pattern: &str, expected: &str) {
    let output = dfa(pattern).to_pattern(&Budget::default()).unwrap();
    assert_eq!(output, expected, "{pattern}");
}

#[test]
fn trivial_languages() {
    check("[]", "[]");
    check("", "");
    check("()*", "");
    check(".*", ".*");
    check("(?s:.)", ".");
    check("[^\n]*", r"[^\n]*");
}

#[test]
fn suffix_languages_come_back_as_written() {
    check("(a|b)*abb", "[ab]*abb");
    check("(a|b)*a(a|b){10}", "[ab]*a[ab]{10}");
}

/// The corpus of the quality table in docs/benchmarks.md: every pattern round-trips, agrees
/// with the corpus' samples, and is never longer than regexsolver's, shorter in total.
#[test]
fn corpus_patterns_are_no_longer_than_regexsolvers() {
    let (mut ours, mut theirs) = (0, 0);
    for language in corpus::load() {
        let dfa = language.dfa(&Budget::default());
        let pattern = dfa.to_pattern(&Budget::default()).unwrap();
        assert_eq!(Dfa::from_regex(&pattern).unwrap(), dfa, "{}: {pattern}", language.name);
        let oracle = oracle(&pattern);
        for input in &language.matches {
            assert!(
                dfa.matches(input) && oracle.is_match(input),
                "{}: {pattern} on {input:?}",
                language.name
            );
        }
        for input in &language.rejects {
            assert!(
                !dfa.matches(input) && !oracle.is_match(input),
                "{}: {pattern} on {input:?}",
                language.name
            );
        }
        let len = pattern.chars().count();
        assert!(
            len <= language.regexsolver_length,
            "{}: {pattern} ({len} characters)",
            language.name
        );
        ours += len;
        theirs += language.regexsolver_length;
    }
    assert!(ours < theirs, "{ours} characters in all, regexsolver {theirs}");
}

/// Characters at the edges of what the renderer escapes: every ASCII character, Latin-1,
/// the BMP, the surrogate gap and the astral planes.
fn interesting_chars() -> Vec<char> {
    let mut chars: Vec<char> = (0..=0x7F).filter_map(char::from_u32).collect();
    chars.extend([
        '\u{80}',
        '\u{A0}',
        'é',
        'ß',
        '\u{FF}',
        '\u{100}',
        'α',
        'Ω',
        '\u{2028}',
        '\u{4E00}',
        '\u{D7FF}',
        '\u{E000}',
        '\u{FFFF}',
        '\u{10000}',
        '\u{1F600}',
        '\u{10FFFF}',
    ]);
    chars
}

/// Patterns whose languages need every kind of escape.
const ESCAPE_PATTERNS: &[&str] = &[
    r"\\\.\+\*\?\(\)\|\[\]\{\}\^\$",
    r"[\\.+*?()|\[\]{}^$]",
    r"[#&~\-]",
    r"[\-&~#|]{2}|--|&&|~~|\|\|",
    r"[-a]|[a-]|\^|[\^a]",
    r"\x00\x01\x1F\x7F\t\n\r\x0B\x0C ",
    r"[\x00-\x1F]+",
    r"é|ß|\u{4E00}|\u{1F600}|\u{10FFFF}",
    r"[\u{D7FF}\u{E000}]",
    r"[\u{D000}-\u{E100}]",
    r"[^\u{D7FF}-\u{E000}]",
    r"[^\u{D7FE}\u{D7FF}]",
    r"[^\u{E000}\u{E001}]",
    r"[\u{10000}-\u{10FFFF}]+",
    r"[^a]",
    r".",
    r"[^\n]*",
    r"[ -~]",
    r"\p{Greek}{2}",
    r"[^\x00\u{10FFFF}]",
    // Under `*` and `+`, JavaScript's classes of code units: `[^]*`, `\D+`, `[^,]*`.
    r"a.*\u{1F600}.+",
    r"[^0-9]+|[^,]*,",
];

/// One line of an engine check's input.
fn engine_entry(name: &str, pattern: &str, dfa: &Dfa, samples: &[String]) -> String {
    let (matches, rejects): (Vec<&String>, Vec<&String>) =
        samples.iter().partition(|s| dfa.matches(s));
    serde_json::json!({ "name": name, "pattern": pattern, "matches": matches, "rejects": rejects })
        .to_string()
}

/// The patterns in `dialect` of the corpus, the escaping cases and a few hundred random
/// patterns, each with strings it must match and reject, as lines for an engine's check.
fn engine_entries(dialect: Dialect) -> Vec<String> {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    // A deadline per conversion, not one for all of them: a busy machine takes longer.
    let budget = Budget::default;
    let mut lines = Vec::new();
    for language in corpus::load() {
        let dfa = language.dfa(&budget());
        let samples: Vec<String> =
            language.matches.iter().chain(&language.rejects).cloned().collect();
        let output = dfa.to_pattern_in(dialect, &budget()).unwrap();
        lines.push(engine_entry(&language.name, &output, &dfa, &samples));
    }
    let chars = interesting_chars();
    let singles = chars.iter().map(char::to_string);
    let pairs = chars
        .iter()
        .step_by(7)
        .flat_map(|&a| chars.iter().step_by(11).map(move |&b| format!("{a}{b}")));
    let samples: Vec<String> = std::iter::once(String::new()).chain(singles).chain(pairs).collect();
    for (idx, pattern) in ESCAPE_PATTERNS.iter().enumerate() {
        let dfa = Dfa::from_regex(pattern).unwrap();
        let output = dfa.to_pattern_in(dialect, &budget()).unwrap();
        if dialect == Dialect::Rust {
            assert_eq!(Dfa::from_regex(&output).unwrap(), dfa, "{pattern} → {output}");
        }
        lines.push(engine_entry(&format!("escape_{idx}"), &output, &dfa, &samples));
    }
    let mut runner = TestRunner::deterministic();
    let random_inputs = inputs();
    for idx in 0..300 {
        let source = pattern().new_tree(&mut runner).unwrap().current();
        let dfa = dfa(&source);
        let output = dfa.to_pattern_in(dialect, &budget()).unwrap();
        if output != "[]" {
            let samples = random_inputs.new_tree(&mut runner).unwrap().current();
            lines.push(engine_entry(
                &format!("random_{idx} from {source}"),
                &output,
                &dfa,
                &samples,
            ));
        }
    }
    lines
}

/// Runs `program script FILE` on the entries of `dialect` and expects it to agree with
/// every one; skipped with a note when `program` is not installed.
fn check_in_engine(dialect: Dialect, program: &str, script: &str) {
    let lines = engine_entries(dialect);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(script);
    let input =
        std::env::temp_dir().join(format!("relang-{dialect}-check-{}.jsonl", std::process::id()));
    std::fs::write(&input, lines.join("\n")).unwrap();
    let result = std::process::Command::new(program).arg(&script).arg(&input).output();
    std::fs::remove_file(&input).unwrap();
    match result {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // A skip fails CI (`CI=true`) and elsewhere goes past the harness's capture, so
            // the person running the tests sees it.
            let why = format!("{program} is not installed, so {dialect} patterns were not checked");
            let is_ci = std::env::var("CI").is_ok_and(|ci| ci == "true" || ci == "1");
            assert!(!is_ci, "CI=true: {why}");
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("SKIPPED: {why}\n").as_bytes(),
            );
        }
        Err(err) => panic!("running {program}: {err}"),
        Ok(output) => {
            let report = String::from_utf8_lossy(&output.stdout);
            assert!(output.status.success(), "{report}{}", String::from_utf8_lossy(&output.stderr));
            assert!(report.contains(&format!("checked {} patterns", lines.len())), "{report}");
        }
    }
}

/// Python's `re` compiles every pattern of the `python` dialect without a warning and
/// agrees with the language on samples.
#[test]
fn python_re_agrees_with_generated_patterns() {
    check_in_engine(Dialect::Python, "python3", "tests/python/check_patterns.py");
}

/// JavaScript's `RegExp` (no flags) compiles every pattern of the `js` dialect and agrees
/// with the language on samples, astral characters included.
#[test]
fn javascript_regexp_agrees_with_generated_patterns() {
    check_in_engine(Dialect::Js, "node", "tests/js/check_patterns.js");
}

/// A product equal to one of its operands is that operand, pattern and all: a tag minus
/// the e-mail addresses it cannot be comes back as the tag's own pattern.
#[test]
fn products_equal_to_an_operand_keep_its_pattern() {
    // No deadline: a conversion cut short by time could differ between the calls.
    let budget = Budget::unlimited();
    let tag = Language::from_regex(r"<[a-z]+ on[a-z]+=[^>]*>").unwrap();
    let mail = Language::from_regex(r"[a-z.]+@[a-z]+\.[a-z]{2,4}").unwrap();
    let pattern = tag.to_pattern(&budget).unwrap();
    let outside = tag.difference(&mail, &budget).unwrap();
    assert_eq!(outside.to_pattern(&budget).unwrap(), pattern);
    let wide = Language::from_regex("<.*").unwrap();
    let inside = tag.intersection(&wide, &budget).unwrap();
    assert_eq!(inside.to_pattern(&budget).unwrap(), pattern);
}

/// The pattern of `pattern` (written for `input`) in `output`, checked exact by reading it
/// back in `output`.
#[track_caller]
fn across(pattern: &str, input: Dialect, output: Dialect) -> String {
    let budget = Budget::default();
    let language = Language::from_regex_in(pattern, input, &budget).unwrap();
    let text = language.to_pattern_in(output, &budget).unwrap();
    let back = Language::from_regex_in(&text, output, &budget)
        .unwrap_or_else(|err| panic!("{pattern} ({input:?}) → {text} ({output:?}): {err}"));
    assert_eq!(
        back.to_dfa(&budget).unwrap(),
        language.to_dfa(&budget).unwrap(),
        "{pattern} ({input:?}) → {text} ({output:?})"
    );
    text
}

/// A pattern written for another engine comes back through its parse tree (after the
/// dialect's own reading: its classes, case folding, quantifiers), printed in the output
/// dialect, exact there; its text as written is a candidate only when it is our dialect's
/// own syntax, since other engines' `\w`, `\d` and case folding follow their own Unicode
/// tables.
#[test]
fn patterns_of_every_dialect_print_in_every_dialect() {
    let dialects = [Dialect::Rust, Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre];
    let patterns = [
        (Dialect::Js, r"\d{3}-\d{4}"),
        (Dialect::Js, r"(?:foo|ba[rz])+\/x"),
        (Dialect::Python, r"(?i:ab)c[a-z_]{2}[0-9]?"),
        (Dialect::Python, r"[a-f0-9]{1,4}(?::[a-f0-9]{1,4}){7}"),
        (Dialect::Java, r"[a-z&&[^aeiou]]+[\w&&[^_]]"),
        (Dialect::Pcre, r"(?:foo|bar)+x*+[[:digit:]]"),
        (Dialect::Pcre, r"(?<=a)b|c(?=d)d"),
    ];
    for (pattern, input) in patterns.iter().map(|&(input, pattern)| (pattern, input)) {
        for output in dialects {
            across(pattern, input, output);
        }
    }
    let outputs = dialects.map(|output| across(r"\d{3}-\d{4}", Dialect::Js, output));
    // ASCII digits are `\d` where the dialect's `\d` is ASCII (JavaScript, Java, PCRE).
    let (ascii, escape) = ("[0-9]{3}-[0-9]{4}", r"\d{3}-\d{4}");
    assert_eq!(outputs, [ascii, ascii, escape, escape, escape].map(String::from));
    assert_eq!(across(r"(?:foo|ba[rz])+\/x", Dialect::Js, Dialect::Rust), "(ba[rz]|foo)+/x");
}

/// Sets that are, or are close to, a class escape of some dialect (`\d`, `\w`, `\s` and
/// negations as Rust, Python, Java, PCRE or JavaScript read them), as patterns of ours.
const SHORTHAND_SETS: &[&str] = &[
    r"\d+",
    r"[0-9]+",
    r"[^0-9]",
    r"\D",
    r"[\d.]+",
    r"[^\d,]",
    r"[\d--5]",
    r"\w+",
    r"[0-9A-Za-z_]+",
    r"[\p{L}\p{N}_]+",
    r"[^\p{L}\p{N}_]",
    r"[0-9A-Za-z_.\-]+",
    r"[^0-9A-Za-z_\-]",
    r"\s",
    r"[\t\n\x0B\x0C\r ]*",
    r"[\s\x1C-\x1F]",
    r"[^\t\n\x0B\x0C\r ]+",
    r"[\t\n\x0B\x0C\r \xA0\u{1680}\u{2000}-\u{200A}\u{2028}\u{2029}\u{202F}\u{205F}\u{3000}\u{FEFF}]",
];

/// Characters on which the dialects' class escapes differ: Unicode digits, letters,
/// numbers, marks and spaces, Python's information separators, JavaScript's U+FEFF.
const SHORTHAND_CHARS: &[char] = &[
    '0',
    '9',
    'a',
    'Z',
    '_',
    '-',
    '.',
    ',',
    ' ',
    '\t',
    '\x0B',
    '\x1C',
    '\u{85}',
    '\u{A0}',
    '\u{300}',
    '\u{660}',
    '\u{1680}',
    '\u{2028}',
    '\u{2160}',
    '\u{3000}',
    '\u{FEFF}',
    'é',
    '\u{1D7CE}',
];

/// Sets equal to a dialect's class escape, or to one plus or minus a little, are written
/// with it (`\d` in Python's output of `\d`, `[^\D,]`, Java's `\s`), and every output means
/// the same in its home engine: on every string of one or two of the characters where the
/// dialects' escapes differ.
#[test]
fn class_escapes_agree_with_their_home_engines() {
    let mut strings: Vec<String> = SHORTHAND_CHARS.iter().map(char::to_string).collect();
    for a in SHORTHAND_CHARS.iter().step_by(3) {
        strings.extend(SHORTHAND_CHARS.iter().map(|b| format!("{a}{b}")));
    }
    for dialect in [Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre] {
        let budget = Budget::unlimited();
        let languages: Vec<Language> =
            SHORTHAND_SETS.iter().map(|set| Language::from_regex(set).unwrap()).collect();
        let outputs: Vec<String> = languages
            .iter()
            .map(|language| language.to_pattern_in(dialect, &budget).unwrap())
            .collect();
        // A set that is a class escape, or one with a little added or taken away, uses it.
        let expected: &[(&str, &str)] = match dialect {
            Dialect::Python => &[
                (r"\d+", r"\d+"),
                (r"[\p{L}\p{N}_]+", r"\w+"),
                (r"[^\d,]", r"[^\d,]"),
                (r"[\d--5]", r"[^\D5]"),
            ],
            Dialect::Js => &[(r"[0-9]+", r"\d+"), (r"[0-9A-Za-z_.\-]+", r"[\w\-.]+")],
            Dialect::Java | Dialect::Pcre => {
                &[(r"[0-9]+", r"\d+"), (r"[^0-9]", r"\D"), (r"[^\t\n\x0B\x0C\r ]+", r"\S+")]
            }
            _ => &[],
        };
        for (set, output) in expected {
            let at = SHORTHAND_SETS.iter().position(|s| s == set).unwrap();
            assert_eq!(outputs[at], *output, "{set} in {dialect}");
        }
        let batch: Vec<(String, Vec<String>)> =
            outputs.iter().map(|output| (output.clone(), strings.clone())).collect();
        let Some(answers) = engine(dialect).and_then(|command| run_engine(command, &batch)) else {
            assert!(!engines_required(), "the {dialect} engine is not installed");
            eprintln!("SKIPPED {dialect}: its engine is not installed");
            continue;
        };
        for ((output, language), answer) in outputs.iter().zip(&languages).zip(answers) {
            let answer = answer.unwrap_or_else(|| panic!("{dialect} refuses {output}"));
            for (text, want) in strings.iter().zip(answer) {
                let got = language.matches(text, &budget).unwrap();
                assert_eq!(
                    got, want,
                    "{output} ({dialect}) on {text:?}: relang {got}, engine {want}"
                );
            }
        }
    }
}
