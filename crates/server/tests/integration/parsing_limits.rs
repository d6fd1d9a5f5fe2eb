//! Hostile patterns (deep nesting, wide alternations, huge counts, megabyte patterns) get an
//! answer or a clean 400 quickly, and bodies over the limit get 413.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::support::{app, data, error, post, regex, timed_alone};

/// Posts `pattern` to `/v1/analyze/cardinality` and returns the answer and how long it took,
/// which must be well under the default timeout: these inputs fail or succeed early.
async fn count(pattern: &str) -> ((u16, Value), Duration) {
    let _alone = timed_alone().await;
    let app = app().await;
    let started = Instant::now();
    let answer = post(&app, "/v1/analyze/cardinality", json!({ "term": regex(pattern) })).await;
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(3), "{} bytes took {elapsed:?}", pattern.len());
    (answer, elapsed)
}

#[actix_web::test]
async fn ten_thousand_nested_groups_are_a_syntax_error() {
    let pattern = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
    let (answer, _) = count(&pattern).await;
    error(answer, 400, "RegexSyntaxError");
}

#[actix_web::test]
async fn a_three_thousand_branch_alternation_is_counted() {
    let branches: Vec<String> = (0..3_000).map(|idx| format!("w{idx:04}")).collect();
    let (answer, _) = count(&branches.join("|")).await;
    assert_eq!(data(answer)["value"], 3_000);
}

#[actix_web::test]
async fn a_million_fold_repetition_is_over_the_state_limit() {
    let (answer, _) = count("a{1000000}").await;
    error(answer, 400, "AutomatonTooManyStates");
}

#[actix_web::test]
async fn patterns_near_the_body_limit_answer_and_over_it_get_413() {
    // Just under the default 1 MiB body: the parser's trees would be over the memory limit.
    for unit in ["ab", "[ab]", "\\w"] {
        let json_len = serde_json::to_string(unit).unwrap().len() - 2;
        let (answer, _) = count(&unit.repeat(((1 << 20) - 100) / json_len)).await;
        error(answer.clone(), 400, "AutomatonTooManyStates");
        assert!(answer.1["error"].as_str().unwrap().contains("memory limit"), "{}", answer.1);
    }
    // A quarter of that parses, and the NFA is over the state limit.
    let (answer, _) = count(&"ab".repeat(1 << 17)).await;
    error(answer.clone(), 400, "AutomatonTooManyStates");
    assert!(answer.1["error"].as_str().unwrap().contains("100000 states"), "{}", answer.1);
    let (answer, _) = count(&"a".repeat(1 << 20)).await;
    error(answer, 413, "PayloadTooLarge");
}
