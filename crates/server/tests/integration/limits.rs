//! Issue 17's findings of a hostile client, one regression test each (`r17_<slug>`): what a
//! careful operator of a public service expects at the edges of HTTP and JSON.

use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::test;
use serde_json::json;

use crate::support::{app, app_with_tokens, error, post, read, regex, request, timed_alone, token};

#[actix_web::test]
async fn r17_head_healthz_answers() {
    let app = app().await;
    let req = test::TestRequest::default().method(actix_web::http::Method::HEAD).uri("/healthz");
    let res = test::call_service(&app, req.to_request()).await;
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn r17_unauthorized_carries_a_bearer_challenge() {
    let app = app_with_tokens(&[token("alice-token", &[])], &[]).await;
    let term = json!({ "term": regex("a") });
    for (bearer, challenge) in [
        (None, "Bearer realm=\"relang\""),
        (Some("someone-else"), "Bearer realm=\"relang\", error=\"invalid_token\""),
    ] {
        let req = request("POST", "/v1/analyze/empty", bearer).set_json(&term);
        let res = test::call_service(&app, req.to_request()).await;
        let value = res.headers().get(header::WWW_AUTHENTICATE).cloned();
        assert_eq!(value.as_ref().map(|value| value.to_str().unwrap()), Some(challenge));
        let code = if bearer.is_some() { "InvalidToken" } else { "MissingOrMalformedToken" };
        error(read(res).await, 401, code);
    }
}

/// A charset is parsed under the request's budget: 100,000 Unicode classes are refused
/// before they are built, in well under a second (issue 17: 1.0 to 1.6 s with a 50 ms
/// deadline, holding the quick lane).
#[actix_web::test]
async fn r17_a_huge_charset_is_refused_by_the_budget() {
    let app = app().await;
    let charset = format!("[[(?i)\\p{{L}}]{}]", "\\p{L}".repeat(100_000));
    let body = json!({
        "term": regex("[ab]*"),
        "limit": 3,
        "charset": charset,
        "options": { "execution": { "timeout": 50 } },
    });
    let _alone = timed_alone().await;
    let started = Instant::now();
    let (status, body) = post(&app, "/v1/generate/strings", body).await;
    let elapsed = started.elapsed();
    assert_eq!(status, 400, "{body}");
    assert!(
        ["AutomatonTooManyStates", "TimeoutExceeded"]
            .contains(&body["errorCode"].as_str().unwrap()),
        "{body}"
    );
    assert!(elapsed < Duration::from_millis(500), "{elapsed:?}");
}
