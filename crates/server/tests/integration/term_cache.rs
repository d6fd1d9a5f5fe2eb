//! Issue 18: the cache of compiled terms (`--term-cache`) changes no answer, and a caller's
//! limits hold even when a caller with larger ones built the automaton first; issue 32: nor
//! does the cache of answers (`--answer-cache`), nor does it answer a caller with smaller
//! limits what only larger ones could compute.

use serde_json::{Value, json};

use crate::support::{app_with, app_with_tokens, config, data, error, post, post_as, regex, token};

/// Requests whose answers depend only on their terms, over patterns in several dialects
/// (one with lookarounds, built when parsed), refusals, and `fair` a FAIR value.
fn requests(fair: &Value) -> Vec<(&'static str, Value)> {
    let python =
        json!({ "type": "regex", "value": "(?=.*[0-9])[a-c0-9]{2,3}", "dialect": "python" });
    let terms = [regex("(abc|de){2}"), regex("[a-z]{3}@[a-z]+\\.com"), python, fair.clone()];
    let mut requests = Vec::new();
    for term in &terms {
        for path in [
            "/v1/analyze/empty",
            "/v1/analyze/length",
            "/v1/analyze/cardinality",
            "/v1/analyze/empty",
            "/v1/analyze/deterministic",
            "/v1/compute/determinize",
        ] {
            requests.push((path, json!({ "term": term })));
        }
        let strings = ["abcde", "dede", "a1", "ann@abc.com", ""];
        requests.push(("/v1/analyze/match", json!({ "term": term, "strings": strings })));
        requests.push(("/v1/generate/strings", json!({ "term": term, "limit": 5 })));
        requests.push(("/v1/analyze/equivalent", json!({ "terms": [term, regex("(abc|de){2}")] })));
        requests.push(("/v1/compute/union", json!({ "terms": [term, term] })));
        requests.push(("/v1/analyze/subset", json!({ "terms": [term, regex("[a-e0-9]*")] })));
        requests.push(("/v1/analyze/subset", json!({ "terms": [regex("[a-e0-9]*"), term] })));
        for dialect in ["python", "java"] {
            let options = json!({ "response": { "dialect": dialect } });
            requests.push(("/v1/analyze/pattern", json!({ "term": term, "options": options })));
        }
    }
    requests.push(("/v1/analyze/empty", json!({ "term": regex("a(") })));
    requests.push(("/v1/analyze/empty", json!({ "term": regex("a(") })));
    requests
}

#[actix_web::test]
async fn r18_cached_terms_answer_as_terms_built_anew() {
    let cached = app_with(config(&[])).await;
    let uncached = app_with(config(&["--term-cache", "0", "--answer-cache", "0"])).await;
    let body = json!({ "terms": [regex("(abc|de){2}"), regex("de.*")] });
    let fair = data(post(&uncached, "/v1/compute/intersection", body).await);
    assert_eq!(fair["type"], "fair", "{fair}");
    // Each request twice on the cached server: the second finds its terms in the cache,
    // some with the automaton an earlier question built, and its answer when it has one.
    for round in 0..2 {
        for (path, body) in requests(&fair) {
            let expected = post(&uncached, path, body.clone()).await;
            let got = post(&cached, path, body.clone()).await;
            assert_eq!(got, expected, "round {round}, {path} {body}");
        }
    }
}

#[actix_web::test]
async fn r18_a_cached_automaton_is_no_larger_than_the_callers_limit() {
    const ALICE: &str = "alice-token";
    const BOB: &str = "bob-token";
    let tokens = [token(ALICE, &[]), token(BOB, &[("maxStatesCount", 1_000)])];
    let app = app_with_tokens(&tokens, &[]).await;
    // 2^11 states once determinized: Alice may build them, Bob may not.
    let body = json!({ "term": regex("(a|b)*a(a|b){10}") });
    for _ in 0..2 {
        let dfa = data(post_as(&app, ALICE, "/v1/compute/determinize", body.clone()).await);
        assert_eq!(dfa["type"], "fair", "{dfa}");
        let refused = post_as(&app, BOB, "/v1/compute/determinize", body.clone()).await;
        error(refused, 400, "AutomatonTooManyStates");
    }
    // A finite language whose count needs about as many states: Alice's answer is
    // remembered, and Bob is still refused.
    let body = json!({ "term": regex("(a|b){0,12}a(a|b){10}") });
    for _ in 0..2 {
        let count = data(post_as(&app, ALICE, "/v1/analyze/cardinality", body.clone()).await);
        assert_eq!(count["type"], "integer", "{count}");
        let refused = post_as(&app, BOB, "/v1/analyze/cardinality", body.clone()).await;
        error(refused, 400, "AutomatonTooManyStates");
    }
}
