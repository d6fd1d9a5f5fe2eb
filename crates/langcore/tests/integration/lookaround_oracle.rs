//! Lookarounds, word boundaries and anchors against Python's `re` as a membership oracle.
//!
//! Random patterns (nested lookaheads, lookarounds inside stars, lookbehinds inside
//! lookaheads, `\b`, `\B`, `^`, `$`) over a small alphabet, every string up to length 4 and
//! longer random ones: relang's `Language::from_regex_in(.., Python, ..)` must agree with
//! `re.fullmatch` on all. One python3 process answers the whole batch
//! (`tests/dialects/check.py`); without python3 the test is skipped, unless
//! `RELANG_REQUIRE_ENGINES=1`.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use langcore::{Budget, Dialect, Language};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// A lookbehind body of fixed width, as Python requires.
fn behind_body() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "-", "[ab]", "ab", "a|b", "(?<!a)b", "-a"])
        .prop_map(String::from)
}

fn pattern() -> impl Strategy<Value = String> {
    let leaf = prop::sample::select(vec!["a", "b", "-", "[ab]", ".", "\\b", "\\B", "^", "$", ""])
        .prop_map(String::from);
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("{left}{right}")),
            (inner.clone(), inner.clone()).prop_map(|(left, right)| format!("(?:{left}|{right})")),
            inner.clone().prop_map(|sub| format!("(?:{sub})*")),
            inner.clone().prop_map(|sub| format!("(?:{sub}){{0,2}}")),
            inner.clone().prop_map(|sub| format!("(?={sub})")),
            inner.clone().prop_map(|sub| format!("(?!{sub})")),
            behind_body().prop_map(|body| format!("(?<={body})")),
            behind_body().prop_map(|body| format!("(?<!{body})")),
        ]
    })
}

/// Every string over `a`, `b`, `-` up to length 4, and some longer ones.
fn inputs(runner: &mut TestRunner) -> Vec<String> {
    let mut res = vec![String::new()];
    let mut level = vec![String::new()];
    for _ in 0..4 {
        level =
            level.iter().flat_map(|head| ["a", "b", "-"].map(|c| format!("{head}{c}"))).collect();
        res.extend(level.iter().cloned());
    }
    let long = prop::collection::vec(prop::sample::select(vec!['a', 'b', '-']), 5..10);
    for _ in 0..20 {
        res.push(long.new_tree(runner).expect("a string").current().into_iter().collect());
    }
    res
}

fn base64(text: &str) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let bytes = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let word = u32::from(bytes[0]) << 16 | u32::from(bytes[1]) << 8 | u32::from(bytes[2]);
        for idx in 0..4 {
            out.push(if idx <= chunk.len() {
                DIGITS[(word >> (18 - 6 * idx) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    out
}

#[test]
fn lookarounds_agree_with_python_re() {
    let mut runner = TestRunner::deterministic();
    let strings = inputs(&mut runner);
    let patterns: Vec<String> =
        (0..600).map(|_| pattern().new_tree(&mut runner).expect("a pattern").current()).collect();
    let mut input = String::new();
    for pattern in &patterns {
        input.push_str(&format!("P {}\n", base64(pattern)));
        for text in &strings {
            input.push_str(&format!("S {}\n", base64(text)));
        }
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/dialects/check.py");
    let spawned =
        Command::new("python3").arg(script).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn();
    let Ok(mut child) = spawned else {
        assert!(std::env::var("RELANG_REQUIRE_ENGINES").is_err(), "python3 is not installed");
        eprintln!("skipping: python3 is not installed");
        return;
    };
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python3 runs");
    writer.join().expect("writer").expect("python3 reads");
    let text = String::from_utf8(output.stdout).expect("ASCII answers");
    let mut lines = text.lines();
    let budget = Budget::default();
    let mut n_compared = 0;
    for pattern in &patterns {
        let compiled = lines.next() == Some("ok");
        let answers: Vec<bool> = strings.iter().map(|_| lines.next() == Some("1")).collect();
        if !compiled {
            continue; // Python refuses some shapes (a `$` lookbehind body, say); so may we.
        }
        let language = Language::from_regex_in(pattern, Dialect::Python, &budget)
            .unwrap_or_else(|err| panic!("{pattern}: {err}"));
        for (text, want) in strings.iter().zip(answers) {
            let got = language.matches(text, &budget).unwrap();
            assert_eq!(got, want, "{pattern} on {text:?}: relang {got}, Python {want}");
            n_compared += 1;
        }
    }
    assert!(n_compared > 400 * strings.len(), "only {n_compared} comparisons");
}
