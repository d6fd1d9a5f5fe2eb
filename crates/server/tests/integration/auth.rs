//! Accounts: bearer tokens, their limits, quotas and rates, and reloading the tokens file.

use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use actix_web::http::header;
use serde_json::{Value, json};
use server::service;

use crate::support::{
    RunningServer, TempDir, app, app_with_tokens, config, data, error, post_as, regex, request,
    send, token,
};

const ALICE: &str = "alice-token";
const BOB: &str = "bob-token";

fn small_term() -> Value {
    json!({ "term": regex("(abc)?d") })
}

#[actix_web::test]
async fn auth_off_accepts_any_or_no_authorization_header() {
    let app = app().await;
    let headers = [None, Some("Bearer anything"), Some("Basic YWxhZGRpbjpvcGVu"), Some("junk")];
    for header in headers {
        let with_header = |req: actix_web::test::TestRequest| match header {
            Some(value) => req.insert_header((header::AUTHORIZATION, value)),
            None => req,
        };
        let post = with_header(request("POST", "/v1/analyze/length", None).set_json(small_term()));
        let (status, _, body) = send(&app, post).await;
        assert_eq!((status, &body["data"]["max"]), (200, &json!(4)), "{header:?}: {body}");
        let (status, _, body) =
            send(&app, with_header(request("GET", "/v1/account/limits", None))).await;
        assert_eq!(status, 200, "{header:?}: {body}");
        assert_eq!(body["data"]["maxRequestsRate"], 0, "{header:?}: no rate limit without auth");
    }
}

#[actix_web::test]
async fn absent_or_malformed_authorization_is_401_missing_or_malformed_token() {
    let app = app_with_tokens(&[token(ALICE, &[])], &[]).await;
    for path in ["/v1/analyze/length", "/v1/account/limits"] {
        let method = if path.ends_with("limits") { "GET" } else { "POST" };
        let (status, _, body) =
            send(&app, request(method, path, None).set_json(small_term())).await;
        error((status, body), 401, "MissingOrMalformedToken");
    }
    let malformed = ["Basic YWxhZGRpbjpvcGVu", "Bearer", "Bearer ", "Bearer a b", ALICE, "Token x"];
    for value in malformed {
        let req = request("POST", "/v1/analyze/length", None)
            .insert_header((header::AUTHORIZATION, value))
            .set_json(small_term());
        let (status, _, body) = send(&app, req).await;
        error((status, body), 401, "MissingOrMalformedToken");
    }
    // The scheme is case-insensitive.
    let req = request("POST", "/v1/analyze/length", None)
        .insert_header((header::AUTHORIZATION, format!("bearer {ALICE}")))
        .set_json(small_term());
    let (status, _, body) = send(&app, req).await;
    data((status, body));
}

#[actix_web::test]
async fn unknown_tokens_are_401_invalid_token_and_never_echoed() {
    let app = app_with_tokens(&[token(ALICE, &[])], &[]).await;
    let secret = "not-a-known-token";
    let (status, body) = post_as(&app, secret, "/v1/analyze/length", small_term()).await;
    assert!(!body.to_string().contains(secret), "{body}");
    error((status, body), 401, "InvalidToken");
    let (status, _, body) = send(&app, request("GET", "/v1/account/limits", Some(secret))).await;
    error((status, body), 401, "InvalidToken");
    data(post_as(&app, ALICE, "/v1/analyze/length", small_term()).await);
}

#[actix_web::test]
async fn limits_report_the_calling_tokens_own_limits() {
    let alice = token(ALICE, &[("maxRequestsCount", 500), ("maxRequestsRate", 20)]);
    let bob = token(BOB, &[("maxTermsCount", 3), ("maxTimeout", 2_000), ("maxStatesCount", 5_000)]);
    let app = app_with_tokens(&[alice, bob], &[]).await;
    let limits = |token| {
        let app = &app;
        async move { data(send_get(app, "/v1/account/limits", token).await) }
    };
    assert_eq!(
        limits(ALICE).await,
        json!({
            "type": "accountLimits",
            "maxRequestsCount": 500,
            "maxRequestsRate": 20,
            "maxTermsCount": 10,
            "maxTimeout": 30000,
            "maxStatesCount": 100000,
        })
    );
    assert_eq!(
        limits(BOB).await,
        json!({
            "type": "accountLimits",
            "maxRequestsCount": 1000,
            "maxRequestsRate": 0,
            "maxTermsCount": 3,
            "maxTimeout": 2000,
            "maxStatesCount": 5000,
        })
    );
}

async fn send_get(
    app: &impl actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse,
        Error = actix_web::Error,
    >,
    path: &str,
    token: &str,
) -> (u16, Value) {
    let (status, _, body) = send(app, request("GET", path, Some(token))).await;
    (status, body)
}

#[actix_web::test]
async fn a_used_up_quota_is_403_while_limits_stay_free() {
    let app =
        app_with_tokens(&[token(ALICE, &[("maxRequestsCount", 2)]), token(BOB, &[])], &[]).await;
    // Every admitted request counts, a refused one included.
    let bad = json!({ "term": regex("a(?|b)") });
    error(post_as(&app, ALICE, "/v1/analyze/empty", bad).await, 400, "RegexSyntaxError");
    for _ in 0..3 {
        data(send_get(&app, "/v1/account/limits", ALICE).await);
    }
    data(post_as(&app, ALICE, "/v1/analyze/length", small_term()).await);
    let (status, body) = post_as(&app, ALICE, "/v1/analyze/length", small_term()).await;
    let message = body["error"].as_str().unwrap_or_default().to_owned();
    error((status, body), 403, "QuotaExceeded");
    assert!(message.contains("quota of 2 requests per calendar month"), "{message}");
    assert!(message.contains("renews at "), "{message}");
    error(post_as(&app, ALICE, "/v1/compute/union", json!({})).await, 403, "QuotaExceeded");
    // Limits stay readable, and other tokens keep their own quota.
    data(send_get(&app, "/v1/account/limits", ALICE).await);
    data(post_as(&app, BOB, "/v1/analyze/length", small_term()).await);
}

#[actix_web::test]
async fn over_the_rate_is_429_with_retry_after_in_whole_seconds() {
    let app =
        app_with_tokens(&[token(ALICE, &[("maxRequestsRate", 1)]), token(BOB, &[])], &[]).await;
    let length = || request("POST", "/v1/analyze/length", Some(ALICE)).set_json(small_term());
    let (status, retry_after, _) = send(&app, length()).await;
    assert_eq!((status, retry_after), (200, None));
    let (status, retry_after, body) = send(&app, length()).await;
    assert_eq!(retry_after.as_deref(), Some("1"), "{body}");
    error((status, body), 429, "RateLimited");
    // /v1/account/limits costs no quota but is rate limited.
    let (status, retry_after, body) =
        send(&app, request("GET", "/v1/account/limits", Some(ALICE))).await;
    assert_eq!(retry_after.as_deref(), Some("1"), "{body}");
    error((status, body), 429, "RateLimited");
    // A token without a rate limit is never refused for its rate.
    for _ in 0..20 {
        data(post_as(&app, BOB, "/v1/analyze/length", small_term()).await);
    }
    // After Retry-After, the next request fits.
    actix_web::rt::time::sleep(Duration::from_millis(1_050)).await;
    let (status, retry_after, body) = send(&app, length()).await;
    assert_eq!((status, retry_after), (200, None), "{body}");
}

#[actix_web::test]
async fn the_tokens_max_terms_count_gives_too_many_terms() {
    let app = app_with_tokens(&[token(ALICE, &[("maxTermsCount", 2)]), token(BOB, &[])], &[]).await;
    let three = json!({ "terms": [regex("a"), regex("b"), regex("c")] });
    error(post_as(&app, ALICE, "/v1/compute/union", three.clone()).await, 400, "TooManyTerms");
    data(post_as(&app, BOB, "/v1/compute/union", three).await);
    let two = json!({ "terms": [regex("a"), regex("b")] });
    data(post_as(&app, ALICE, "/v1/compute/union", two).await);
}

#[actix_web::test]
async fn the_tokens_max_timeout_gives_timeout_too_large_and_caps_the_default() {
    let app = app_with_tokens(&[token(ALICE, &[("maxTimeout", 300)]), token(BOB, &[])], &[]).await;
    let with_timeout = |pattern: &str, timeout: u64| json!({ "term": regex(pattern), "options": { "execution": { "timeout": timeout } } });
    let too_long = with_timeout("a", 301);
    error(
        post_as(&app, ALICE, "/v1/analyze/empty", too_long.clone()).await,
        400,
        "TimeoutTooLarge",
    );
    data(post_as(&app, BOB, "/v1/analyze/empty", too_long).await);
    data(post_as(&app, ALICE, "/v1/analyze/empty", with_timeout("a", 300)).await);
    // Without execution.timeout the server's default (5 s) is cut to the token's 300 ms.
    let blowup = json!({ "term": regex("(a|b)*a(a|b){30}") });
    let started = Instant::now();
    error(post_as(&app, ALICE, "/v1/compute/determinize", blowup).await, 400, "TimeoutExceeded");
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_millis(1_500), "the blow-up ran {elapsed:?}");
}

#[actix_web::test]
async fn the_tokens_max_states_count_caps_the_budget() {
    let app =
        app_with_tokens(&[token(ALICE, &[("maxStatesCount", 1_000)]), token(BOB, &[])], &[]).await;
    // The minimal DFA has 2^13 states: over Alice's 1,000, under the server's 100,000.
    let body = json!({ "term": regex("(a|b)*a(a|b){12}") });
    error(
        post_as(&app, ALICE, "/v1/compute/determinize", body.clone()).await,
        400,
        "AutomatonTooManyStates",
    );
    data(post_as(&app, BOB, "/v1/compute/determinize", body).await);
}

#[actix_web::test]
async fn an_unreachable_redis_fails_closed_with_500() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("redis://127.0.0.1:{port}");
    let app = app_with_tokens(&[token(ALICE, &[])], &["--redis-url", &url]).await;
    let started = Instant::now();
    let (status, body) = post_as(&app, ALICE, "/v1/analyze/length", small_term()).await;
    assert!(body["error"].as_str().unwrap_or_default().contains("quota store is unavailable"));
    error((status, body), 500, "InternalError");
    assert!(started.elapsed() < Duration::from_secs(5), "took {:?}", started.elapsed());
    // What costs no quota needs no Redis.
    data(send_get(&app, "/v1/account/limits", ALICE).await);
}

#[test]
fn unusable_tokens_files_stop_the_server_from_starting() {
    let dir = TempDir::new("bad-tokens");
    let missing = dir.path().join("missing.toml");
    let err = service(&config(&["--tokens-file", missing.to_str().unwrap()])).err().unwrap();
    assert!(err.to_string().starts_with("tokens file "), "{err}");
    let too_big = dir.write("tokens.toml", &token(ALICE, &[("maxStatesCount", 100_001)]));
    let err = service(&config(&["--tokens-file", too_big.to_str().unwrap()])).err().unwrap();
    assert!(err.to_string().contains("above the server's --max-states (100000)"), "{err}");
}

#[test]
fn hash_token_prints_the_digest_of_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_relang-server"))
        .arg("hash-token")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), b"abc\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n"
    );
}

/// Sends SIGHUP to `server` and waits until it logs `needle` (once more than before).
fn hang_up(server: &RunningServer, needle: &str) {
    let before = server.log_lines(needle).len();
    let status = Command::new("kill").args(["-HUP", &server.pid().to_string()]).status().unwrap();
    assert!(status.success(), "kill -HUP");
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.log_lines(needle).len() == before {
        assert!(Instant::now() < deadline, "no {needle:?} in the log after SIGHUP");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn sighup_reloads_the_tokens_file_without_dropping_requests() {
    let dir = TempDir::new("reload");
    let path = dir.write("tokens.toml", &token(ALICE, &[]));
    let server = Arc::new(RunningServer::start(&["--tokens-file", path.to_str().unwrap()]));
    let length = r#"{"term": {"type": "regex", "value": "(abc)?d"}}"#;
    assert_eq!(server.post_as(Some(ALICE), "/v1/analyze/length", length).0, 200);
    let (status, body) = server.post_as(Some(BOB), "/v1/analyze/length", length);
    assert_eq!((status, &body["errorCode"]), (401, &json!("InvalidToken")));

    // Alice keeps calling while the file changes under her.
    let stop = Arc::new(AtomicBool::new(false));
    let caller = {
        let (server, stop) = (Arc::clone(&server), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut statuses = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                statuses.push(server.post_as(Some(ALICE), "/v1/analyze/length", length).0);
            }
            statuses
        })
    };
    dir.write("tokens.toml", &[token(ALICE, &[]), token(BOB, &[("maxTermsCount", 3)])].concat());
    hang_up(&server, "tokens file reloaded");
    let (status, body) =
        server.send("GET", "/v1/account/limits", &format!("Authorization: Bearer {BOB}\r\n"), "");
    assert_eq!((status, &body["data"]["maxTermsCount"]), (200, &json!(3)), "{body}");

    // A broken file is logged and changes nothing.
    dir.write("tokens.toml", "[[token]]\ndigest = \"nope\"\n");
    hang_up(&server, "keeping the previous tokens");
    assert_eq!(server.post_as(Some(BOB), "/v1/analyze/length", length).0, 200);

    stop.store(true, Ordering::Relaxed);
    let statuses = caller.join().unwrap();
    assert!(statuses.len() > 1, "{statuses:?}");
    assert!(statuses.iter().all(|&status| status == 200), "{statuses:?}");
}
