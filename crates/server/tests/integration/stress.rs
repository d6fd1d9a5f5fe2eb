//! The stress corpus (`tests/stress/corpus.toml`): known explosive inputs, each with its
//! outcome and the most time it may take, through the in-process app with default limits.

use std::time::{Duration, Instant};

use serde_json::{Map, Value, json};

use crate::support::{app, post, regex, timed_alone};

const CORPUS: &str = include_str!("../../../../tests/stress/corpus.toml");

/// The request body of `case`.
fn body(case: &Value) -> Value {
    let mut body = match &case["fields"] {
        Value::Object(fields) => fields.clone(),
        _ => Map::new(),
    };
    if let Some(pattern) = case["term"].as_str() {
        let copies = case["repeat"].as_u64().map_or(1, |copies| copies as usize);
        body.insert("term".into(), regex(&pattern.repeat(copies)));
    }
    if let Some(patterns) = case["terms"].as_array() {
        let terms = patterns.iter().map(|pattern| regex(pattern.as_str().expect("a pattern")));
        body.insert("terms".into(), terms.collect());
    }
    if let Some(timeout) = case["timeout"].as_u64() {
        body.insert("options".into(), json!({ "execution": { "timeout": timeout } }));
    }
    if let Some(format) = case["format"].as_str() {
        let options = body.entry("options").or_insert_with(|| json!({}));
        options["response"] = json!({ "format": format });
    }
    Value::Object(body)
}

/// What is wrong with `answer` for `case`, if anything.
fn mismatch(case: &Value, status: u16, answer: &Value) -> Option<String> {
    let allowed: Vec<&str> = match &case["error"] {
        Value::String(code) => vec![code.as_str()],
        Value::Array(codes) => codes.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if !allowed.is_empty() {
        let code = answer["errorCode"].as_str().unwrap_or("");
        let message = answer["error"].as_str().unwrap_or("");
        let part = case["message"].as_str().unwrap_or("");
        return (status != 400 || !allowed.contains(&code) || !message.contains(part))
            .then(|| format!("wanted 400 {allowed:?} ({part:?}), got {status} {answer}"));
    }
    if status != 200 {
        return Some(format!("wanted 200, got {status} {answer}"));
    }
    let data = &answer["data"];
    if let Value::Object(expected) = &case["expect"]
        && let Some((key, value)) = expected.iter().find(|(key, value)| &data[key] != *value)
    {
        return Some(format!("wanted {key} = {value}, got {data}"));
    }
    if let Some(n_strings) = case["strings"].as_u64() {
        let strings = data["strings"]["value"].as_array().map_or(0, Vec::len);
        if strings as u64 != n_strings {
            return Some(format!("wanted {n_strings} strings, got {strings}"));
        }
    }
    None
}

/// How much more than a case's `max_ms` (measured on an idle machine) an answer may take:
/// the limits catch a hang or a budget that stops in the wrong phase, and the suite must
/// pass beside busy processes too (`tests/busy.sh`: `\p{L}{2000}` as DOT took 3.6 s of its
/// 3 s beside two busy loops).
const LOADED: u32 = 3;

#[actix_web::test]
async fn every_explosive_input_gets_its_outcome_in_time() {
    let _alone = timed_alone().await;
    let corpus: toml::Value = toml::from_str(CORPUS).expect("the corpus is TOML");
    let corpus = serde_json::to_value(corpus).expect("TOML maps to JSON");
    let cases = corpus["case"].as_array().expect("[[case]] entries");
    assert!(cases.len() >= 20, "the corpus lost cases");
    let app = app().await;
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("a name");
        let path = format!("/v1/{}", case["path"].as_str().expect("a path"));
        let max = Duration::from_millis(case["max_ms"].as_u64().expect("max_ms")) * LOADED;
        let started = Instant::now();
        let (status, answer) = post(&app, &path, body(case)).await;
        let elapsed = started.elapsed();
        println!("{name}: {status} {} in {elapsed:?}", answer["errorCode"]);
        if let Some(mut problem) = mismatch(case, status, &answer) {
            problem.truncate(problem.floor_char_boundary(400));
            failures.push(format!("{name}: {problem}"));
        }
        if elapsed > max {
            failures.push(format!("{name}: took {elapsed:?}, more than {max:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
