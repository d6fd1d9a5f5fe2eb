//! `/v1/analyze/overlaps`: every pair of terms that share a string, with its shortest, then
//! smallest, common string; checked against pairwise intersections, the `regex` crate and
//! interegular (PyPI) on a set of real lexer token patterns.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{TempDir, app, app_with, config, data, error, post, pypi_venv, regex};

/// Token rules of a small programming language's lexer, in the common subset of the `regex`
/// crate's and Python's syntax that interegular reads.
const TOKENS: [&str; 16] = [
    "[A-Za-z_][A-Za-z0-9_]*",
    "if|else|while|for|return|fn|let",
    "true|false",
    "[0-9]+",
    "0x[0-9a-fA-F]+",
    "[0-9]+\\.[0-9]*([eE][+-]?[0-9]+)?",
    "\"([^\"\\\\]|\\\\.)*\"",
    "[0-9a-fA-F]+",
    "//[^\\n]*",
    "/\\*([^*]|\\*+[^*/])*\\*+/",
    "[ \\t\\r\\n]+",
    "==|!=|<=|>=|&&|\\|\\|",
    "[-+*/%<>=!&|^~]",
    "[+-]?[0-9]+",
    "[(){}\\[\\];,.:]",
    "[A-Z][A-Z0-9_]*",
];

fn terms(patterns: &[&str]) -> Value {
    Value::Array(patterns.iter().map(|pattern| regex(pattern)).collect())
}

/// The pairs of the answer, and each witness checked to match both patterns by the `regex`
/// crate.
fn pairs(answer: &Value, patterns: &[&str]) -> BTreeSet<(usize, usize)> {
    let full = |pattern: &str| regex::Regex::new(&format!("^(?:{pattern})$")).unwrap();
    let mut found = BTreeSet::new();
    for overlap in answer["overlaps"].as_array().expect("a list") {
        let [left, right] = [0, 1].map(|side| overlap["terms"][side].as_u64().unwrap() as usize);
        let witness = overlap["witness"].as_str().expect("a witness");
        assert!(left < right, "{overlap}");
        assert!(full(patterns[left]).is_match(witness), "{overlap}");
        assert!(full(patterns[right]).is_match(witness), "{overlap}");
        found.insert((left, right));
    }
    found
}

#[actix_web::test]
async fn every_overlapping_pair_with_its_smallest_witness() {
    let app = app().await;
    let patterns = ["[a-z]+", "if|else", "[0-9]+", "[a-z0-9]+"];
    let answer =
        data(post(&app, "/v1/analyze/overlaps", json!({ "terms": terms(&patterns) })).await);
    let overlap = |left: u64, right: u64, witness: &str| json!({ "terms": [left, right], "witness": witness });
    let expected = json!({
        "type": "overlaps",
        "overlaps": [overlap(0, 1, "if"), overlap(0, 3, "a"), overlap(1, 3, "if"), overlap(2, 3, "0")],
    });
    assert_eq!(answer, expected);

    // The same pairs as one intersection per pair, on all the token rules.
    let wide = app_with(config(&["--max-terms", "16"])).await;
    let answer =
        data(post(&wide, "/v1/analyze/overlaps", json!({ "terms": terms(&TOKENS) })).await);
    let found = pairs(&answer, &TOKENS);
    for (left, first) in TOKENS.iter().enumerate() {
        for (right, second) in TOKENS.iter().enumerate().skip(left + 1) {
            let body = json!({ "terms": [regex(first), regex(second)] });
            let both = data(post(&app, "/v1/compute/intersection", body).await);
            let empty = data(post(&app, "/v1/analyze/empty", json!({ "term": both })).await);
            assert_eq!(empty["value"] == false, found.contains(&(left, right)), "{left} {right}");
        }
    }

    // Lookarounds and FAIR terms are terms like the others.
    let fair =
        data(post(&app, "/v1/compute/determinize", json!({ "term": regex("[0-9]{3}") })).await);
    let digits = json!({ "type": "regex", "value": "(?=.*7)[0-9]+", "dialect": "python" });
    let answer = data(post(&app, "/v1/analyze/overlaps", json!({ "terms": [fair, digits] })).await);
    assert_eq!(answer["overlaps"], json!([overlap(0, 1, "007")]));

    let one = json!({ "terms": [regex("a")] });
    error(post(&app, "/v1/analyze/overlaps", one).await, 400, "TooFewTerms");
    let many: Vec<&str> = vec!["a"; 11];
    let body = json!({ "terms": terms(&many) });
    error(post(&app, "/v1/analyze/overlaps", body).await, 400, "TooManyTerms");
}

/// The overlapping pairs of the token rules are interegular's (skipped, with a `SKIPPED`
/// line, without Python or PyPI; a failure under `CI=true`).
#[actix_web::test]
async fn the_pairs_agree_with_interegular() {
    let Some(python) = pypi_venv("interegular", "0.3.3") else { return };
    let app = app_with(config(&["--max-terms", "16"])).await;
    let answer = data(post(&app, "/v1/analyze/overlaps", json!({ "terms": terms(&TOKENS) })).await);
    let ours = pairs(&answer, &TOKENS);
    let dir = TempDir::new("interegular");
    let input = dir.write("patterns.json", &serde_json::to_string(&TOKENS).unwrap());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/overlaps_interegular.py");
    let output = Command::new(&python).arg(&script).arg(&input).output().expect("python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let theirs: Vec<(usize, usize)> = serde_json::from_str(stdout.trim()).expect("pairs");
    assert_eq!(ours, theirs.into_iter().collect());
    assert!(ours.len() >= 8, "{ours:?}");
}
