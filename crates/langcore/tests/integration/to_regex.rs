//! Automaton to pattern: round trips on random patterns and operation results, against
//! canonical equality and the `regex` crate.

use langcore::{Budget, Dfa};
use proptest::prelude::*;

use crate::corpus;
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
    check(".*", r"[\s\S]*");
    check("(?s:.)", r"[\s\S]");
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
];

/// One line of the Python check's input.
fn python_entry(name: &str, pattern: &str, dfa: &Dfa, samples: &[String]) -> String {
    let (matches, rejects): (Vec<&String>, Vec<&String>) =
        samples.iter().partition(|s| dfa.matches(s));
    serde_json::json!({ "name": name, "pattern": pattern, "matches": matches, "rejects": rejects })
        .to_string()
}

/// Python's `re` compiles every generated pattern without a warning and agrees with the
/// language on samples: the corpus, the escaping cases, and a few hundred random patterns.
#[test]
fn python_re_agrees_with_generated_patterns() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let budget = Budget::default();
    let mut lines = Vec::new();
    for language in corpus::load() {
        let dfa = language.dfa(&budget);
        let samples: Vec<String> =
            language.matches.iter().chain(&language.rejects).cloned().collect();
        lines.push(python_entry(&language.name, &dfa.to_pattern(&budget).unwrap(), &dfa, &samples));
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
        let output = dfa.to_pattern(&budget).unwrap();
        assert_eq!(Dfa::from_regex(&output).unwrap(), dfa, "{pattern} → {output}");
        lines.push(python_entry(&format!("escape_{idx}"), &output, &dfa, &samples));
    }
    let mut runner = TestRunner::deterministic();
    let random_inputs = inputs();
    for idx in 0..300 {
        let source = pattern().new_tree(&mut runner).unwrap().current();
        let dfa = dfa(&source);
        let output = dfa.to_pattern(&budget).unwrap();
        if output != "[]" {
            let samples = random_inputs.new_tree(&mut runner).unwrap().current();
            lines.push(python_entry(
                &format!("random_{idx} from {source}"),
                &output,
                &dfa,
                &samples,
            ));
        }
    }

    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/check_patterns.py");
    let input =
        std::env::temp_dir().join(format!("relang-python-check-{}.jsonl", std::process::id()));
    std::fs::write(&input, lines.join("\n")).unwrap();
    let result = std::process::Command::new("python3").arg(&script).arg(&input).output();
    std::fs::remove_file(&input).unwrap();
    match result {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            // A skip fails CI (`CI=true`) and elsewhere goes past the harness's capture, so
            // the person running the tests sees it.
            let why =
                "python3 is not installed, so generated patterns were not checked in Python's re";
            let is_ci = std::env::var("CI").is_ok_and(|ci| ci == "true" || ci == "1");
            assert!(!is_ci, "CI=true: {why}");
            let _ = std::io::Write::write_all(
                &mut std::io::stderr(),
                format!("SKIPPED: {why}\n").as_bytes(),
            );
        }
        Err(err) => panic!("running python3: {err}"),
        Ok(output) => {
            let report = String::from_utf8_lossy(&output.stdout);
            assert!(output.status.success(), "{report}{}", String::from_utf8_lossy(&output.stderr));
            assert!(report.contains(&format!("checked {} patterns", lines.len())), "{report}");
        }
    }
}
