//! `/v1/analyze/backtracking`: the backtracking risk of a pattern in its engine, and the
//! requests it refuses.

use serde_json::json;

use crate::support::{app, data, error, post};

const PATH: &str = "/v1/analyze/backtracking";

fn term(pattern: &str, dialect: &str) -> serde_json::Value {
    json!({ "type": "regex", "value": pattern, "dialect": dialect })
}

#[actix_web::test]
async fn nested_loops_are_exponential_with_an_attack_and_hotspot() {
    let app = app().await;
    let answer = data(post(&app, PATH, json!({ "term": term("^(a+)+$", "js") })).await);
    assert_eq!(answer["type"], "backtracking");
    assert_eq!(answer["complexity"], "exponential");
    assert_eq!(answer["attack"], json!({ "prefix": "a", "pump": "a", "suffix": "b" }));
    assert_eq!(answer["hotspot"], json!([{ "start": 2, "end": 3 }]));
    assert!(answer.get("degree").is_none() && answer.get("reason").is_none(), "{answer}");
}

#[actix_web::test]
async fn the_mode_decides_between_a_full_match_and_a_search() {
    let app = app().await;
    let ask = |mode: &str| json!({ "term": term(r"\s+$", "python"), "mode": mode });
    let full = data(post(&app, PATH, ask("match")).await);
    assert_eq!(full["complexity"], "linear", "{full}");
    assert!(full.get("attack").is_none() && full["hotspot"] == json!([]), "{full}");
    let search = data(post(&app, PATH, ask("search")).await);
    assert_eq!((&search["complexity"], &search["degree"]), (&json!("polynomial"), &json!(2)));
    let attack = &search["attack"];
    assert!(attack["pump"].as_str().is_some_and(|pump| pump.trim().is_empty()), "{search}");
}

#[actix_web::test]
async fn constructs_left_unanalysed_are_unknown_with_the_reason() {
    let app = app().await;
    let answer = data(post(&app, PATH, json!({ "term": term("(?:(?=ab)a|a)+", "js") })).await);
    assert_eq!(answer["complexity"], "unknown");
    assert!(answer["reason"].as_str().is_some_and(|reason| reason.contains("lookaround")));
    assert!(answer.get("attack").is_none(), "{answer}");
}

#[actix_web::test]
async fn a_lower_bound_alone_is_superlinear_with_its_attack() {
    let app = app().await;
    let ask = json!({ "term": term(r"^-+([^=]+?\d+)$", "js"), "mode": "search" });
    let answer = data(post(&app, PATH, ask).await);
    assert_eq!((&answer["complexity"], &answer["degree"]), (&json!("superlinear"), &json!(2)));
    assert!(answer["reason"].as_str().is_some_and(|reason| reason.contains("n^3")), "{answer}");
    assert!(answer["attack"]["pump"].as_str().is_some_and(|pump| !pump.is_empty()), "{answer}");
}

#[actix_web::test]
async fn backreferences_are_read_as_the_engine_runs_them() {
    let app = app().await;
    let quoted = term(r#"(["'])(?:\\.|(?!\1)[^\\\r\n])*\1"#, "js");
    let answer = data(post(&app, PATH, json!({ "term": quoted, "mode": "search" })).await);
    assert_eq!((&answer["complexity"], &answer["degree"]), (&json!("polynomial"), &json!(2)));
}

#[actix_web::test]
async fn what_has_no_backtracking_engine_is_refused() {
    let app = app().await;
    let default_dialect = json!({ "term": { "type": "regex", "value": "(a+)+$" } });
    error(post(&app, PATH, default_dialect).await, 400, "BadRequest");
    let rust = json!({ "term": term("(a+)+$", "rust") });
    error(post(&app, PATH, rust).await, 400, "BadRequest");
    let fair = json!({ "term": { "type": "fair", "value": "AAAA" } });
    error(post(&app, PATH, fair).await, 400, "BadRequest");
    let mode = json!({ "term": term("a", "js"), "mode": "fullmatch" });
    error(post(&app, PATH, mode).await, 400, "BadRequest");
    let invalid = json!({ "term": term("(a", "python") });
    error(post(&app, PATH, invalid).await, 400, "RegexSyntaxError");
}
