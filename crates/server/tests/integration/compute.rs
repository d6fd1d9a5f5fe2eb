//! `/v1/compute/*`, FAIR round trips and response formats.

use serde_json::{Value, json};

use crate::support::{app, app_with, config, data, error, post, regex};

const COMPUTE_ENDPOINTS: [(&str, usize); 12] = [
    ("/v1/compute/complement", 1),
    ("/v1/compute/concat", 2),
    ("/v1/compute/determinize", 1),
    ("/v1/compute/difference", 2),
    ("/v1/compute/intersection", 2),
    ("/v1/compute/left_quotient", 2),
    ("/v1/compute/prefix_closure", 1),
    ("/v1/compute/repeat", 1),
    ("/v1/compute/reverse", 1),
    ("/v1/compute/right_quotient", 2),
    ("/v1/compute/suffix_closure", 1),
    ("/v1/compute/union", 2),
];

/// A request body for `path` over `terms`, with `options`.
fn body(path: &str, terms: &[Value], options: Value) -> Value {
    match path {
        "/v1/compute/repeat" => json!({ "term": terms[0], "min": 1, "max": 2, "options": options }),
        _ if terms.len() == 1 => json!({ "term": terms[0], "options": options }),
        _ => json!({ "terms": terms, "options": options }),
    }
}

#[actix_web::test]
async fn intersection_as_a_pattern() {
    let app = app().await;
    let result = data(
        post(
            &app,
            "/v1/compute/intersection",
            json!({
                "terms": [regex("(abc|de){2}"), regex("de.*"), regex(".*abc")],
                "options": { "schemaVersion": 1, "response": { "format": "regex" } },
            }),
        )
        .await,
    );
    assert_eq!(result, json!({ "type": "regex", "value": "deabc" }));
}

#[actix_web::test]
async fn every_compute_endpoint_honours_the_response_format() {
    let app = app().await;
    let terms = [regex("(ab|c)*"), regex("a.*")];
    for (path, n_terms) in COMPUTE_ENDPOINTS {
        let terms = &terms[..n_terms];
        let as_fair = data(
            post(&app, path, body(path, terms, json!({ "response": { "format": "fair" } }))).await,
        );
        assert_eq!(as_fair["type"], "fair", "{path}: {as_fair}");
        assert_eq!(as_fair["metadata"], json!({ "deterministic": true }), "{path}");
        let default = data(post(&app, path, body(path, terms, json!({}))).await);
        assert_eq!(default["type"], "fair", "{path}: any is the FAIR, which needs no conversion");
        let as_regex = data(
            post(&app, path, body(path, terms, json!({ "response": { "format": "regex" } }))).await,
        );
        let expected = if path == "/v1/compute/determinize" { "fair" } else { "regex" };
        assert_eq!(as_regex["type"], expected, "{path}: {as_regex}");
        // Both forms denote the same language.
        let same = data(
            post(&app, "/v1/analyze/equivalent", json!({ "terms": [as_fair, as_regex] })).await,
        );
        assert_eq!(same["value"], true, "{path}: {same}");
    }
}

#[actix_web::test]
async fn a_returned_fair_is_accepted_by_every_endpoint() {
    let app = app().await;
    let fair =
        data(post(&app, "/v1/compute/union", json!({ "terms": [regex("ab"), regex("c+")] })).await);
    assert_eq!(fair["type"], "fair");
    for endpoint in api_types::ENDPOINTS {
        let Some(request) = endpoint.request else { continue };
        let request = match request {
            "TermRequest" => json!({ "term": fair }),
            "TwoTermsRequest" | "MultiTermsRequest" => json!({ "terms": [fair, regex("ab")] }),
            "RepeatRequest" => json!({ "term": fair, "min": 0, "max": null }),
            "GenerateStringsRequest" => json!({ "term": fair, "limit": 3 }),
            "MatchRequest" => json!({ "term": fair, "strings": ["ab", "cc", "x"] }),
            "CountByLengthRequest" => json!({ "term": fair, "maxLength": 3 }),
            "SampleRequest" => json!({ "term": fair, "count": 3 }),
            // It reads a pattern's text, which a FAIR value has not: a 400 (backtracking.rs).
            "BacktrackingRequest" => continue,
            other => panic!("{}: no sample body for {other}", endpoint.path),
        };
        let (status, body) = post(&app, endpoint.path, request).await;
        assert_eq!(status, 200, "{}: {body}", endpoint.path);
    }
    let pattern = data(post(&app, "/v1/analyze/pattern", json!({ "term": fair })).await);
    assert_eq!(pattern["value"], "ab|c+");
}

#[actix_web::test]
async fn bad_fair_values_are_fair_syntax_errors() {
    let app = app().await;
    let fair = data(post(&app, "/v1/compute/determinize", json!({ "term": regex("abc") })).await);
    let text = fair["value"].as_str().unwrap();
    let altered =
        format!("{}{}", &text[..text.len() - 1], if text.ends_with('A') { 'B' } else { 'A' });
    for value in [altered.as_str(), "", "not base64!", &text[..text.len() / 2]] {
        let term = json!({ "type": "fair", "value": value });
        error(
            post(&app, "/v1/analyze/empty", json!({ "term": term })).await,
            400,
            "FairSyntaxError",
        );
    }
    // A value signed with another key.
    let other = app_with(config(&["--fair-key", &"x".repeat(32)])).await;
    error(post(&other, "/v1/analyze/empty", json!({ "term": fair })).await, 400, "FairSyntaxError");
}

#[actix_web::test]
async fn repeat_bounds() {
    let app = app().await;
    let repeat = |min: Value, max: Value| json!({ "term": regex("ab"), "min": min, "max": max, "options": { "response": { "format": "regex" } } });
    assert_eq!(
        data(post(&app, "/v1/compute/repeat", repeat(json!(2), json!(null))).await)["value"],
        "ab(ab)+"
    );
    error(post(&app, "/v1/compute/repeat", repeat(json!(3), json!(2))).await, 400, "BadRequest");
    error(post(&app, "/v1/compute/repeat", repeat(json!(2.0), json!(3))).await, 400, "InvalidJson");
}

#[actix_web::test]
async fn deterministic_dot_and_pattern() {
    let app = app().await;
    let ask = |path: &'static str, pattern: &'static str| {
        let app = &app;
        async move { data(post(app, path, json!({ "term": regex(pattern) })).await) }
    };
    assert_eq!(ask("/v1/analyze/deterministic", "abc").await["value"], true);
    assert_eq!(ask("/v1/analyze/deterministic", "ab|ac").await["value"], false);
    assert_eq!(
        ask("/v1/analyze/pattern", "(a|b)*abb").await,
        json!({ "type": "string", "value": "[ab]*abb" })
    );
    let dot = ask("/v1/analyze/dot", "ab*").await;
    assert!(dot["value"].as_str().unwrap().starts_with("digraph"), "{dot}");
    let determinized =
        data(post(&app, "/v1/compute/determinize", json!({ "term": regex("ab|ac") })).await);
    let flag = data(post(&app, "/v1/analyze/deterministic", json!({ "term": determinized })).await);
    assert_eq!(flag["value"], true);
}

/// The extensions reverse, prefix_closure, suffix_closure, left_quotient and right_quotient:
/// their results as patterns, on `regex` (any dialect) and FAIR terms, and their errors.
#[actix_web::test]
async fn derived_languages() {
    let app = app().await;
    let as_regex = json!({ "response": { "format": "regex" } });
    let cases = [
        ("/v1/compute/reverse", json!({ "term": regex("ab*c") }), "cb*a"),
        ("/v1/compute/prefix_closure", json!({ "term": regex("abc") }), "|a|ab|abc"),
        ("/v1/compute/suffix_closure", json!({ "term": regex("abc") }), "|c|bc|abc"),
        (
            "/v1/compute/left_quotient",
            json!({ "terms": [regex("git (add|commit)"), regex("git c")] }),
            "ommit",
        ),
        (
            "/v1/compute/right_quotient",
            json!({ "terms": [regex("[a-z]+\\.(rs|toml)"), regex("\\.toml")] }),
            "[a-z]+",
        ),
        (
            "/v1/compute/reverse",
            json!({ "term": { "type": "regex", "value": "(?=.*1)[01]{2}", "dialect": "js" } }),
            "01|1[01]",
        ),
    ];
    for (path, mut body, expected) in cases {
        body["options"] = as_regex.clone();
        let result = data(post(&app, path, body).await);
        assert_eq!(result["type"], "regex", "{path}: {result}");
        let same = data(
            post(&app, "/v1/analyze/equivalent", json!({ "terms": [result, regex(expected)] }))
                .await,
        );
        assert_eq!(same["value"], true, "{path}: {same}");
    }
    // A FAIR term in, the same language out.
    let fair = data(post(&app, "/v1/compute/reverse", json!({ "term": regex("ab*c") })).await);
    let back = data(post(&app, "/v1/compute/reverse", json!({ "term": fair })).await);
    let same =
        data(post(&app, "/v1/analyze/equivalent", json!({ "terms": [back, regex("ab*c")] })).await);
    assert_eq!(same["value"], true);

    error(
        post(&app, "/v1/compute/reverse", json!({ "term": regex("a(") })).await,
        400,
        "RegexSyntaxError",
    );
    let one_term = json!({ "terms": [regex("a")] });
    error(post(&app, "/v1/compute/left_quotient", one_term).await, 400, "TooFewTerms");
    let app = app_with(config(&["--max-states", "100"])).await;
    let body = json!({ "term": regex("(a|b){10}a(a|b)*") });
    error(post(&app, "/v1/compute/reverse", body).await, 400, "AutomatonTooManyStates");
}
