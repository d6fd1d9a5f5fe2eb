//! Issue 17's findings of a hostile client, one regression test each (`r17_<slug>`): what a
//! careful operator of a public service expects at the edges of HTTP and JSON.

use actix_web::http::header;
use actix_web::test;
use serde_json::json;

use crate::support::{app, app_with_tokens, error, read, regex, request, token};

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
