//! Fuzzes request decoding and dispatch: arbitrary bodies to the real app's paths, in process.
//!
//! The first input byte picks the request: its low bits a path (every endpoint of
//! `api_types::ENDPOINTS`, plus paths the app does not serve), its top bit the method (POST
//! or GET); the second byte whether a JSON content type is sent. The rest is the body. The
//! app is the one `relang-server` serves (`server::service`), with a small compute budget,
//! built once per process on a single-threaded actix system. Every response must be
//! anything but a 5xx (503 aside, the overload answer), and every 4xx or 503 must be the
//! contract's error envelope.

#![no_main]

use std::future::Future;
use std::pin::Pin;

use actix_web::web::Bytes;
use actix_web::{App, test};
use clap::Parser;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Paths outside the contract: the app must answer them with the envelope too.
const OTHER_PATHS: [&str; 5] = ["/healthz", "/openapi.json", "/v1/nowhere", "/", "/v1/analyze/"];

/// Sends one request to the app and returns its status and body.
type Send = Box<dyn Fn(test::TestRequest) -> Pin<Box<dyn Future<Output = (u16, Bytes)>>>>;

thread_local! {
    /// The actix system and the app: built once, on the fuzzer's thread, and never dropped
    /// (dropping them at exit would reach actix's thread locals after their destruction).
    static APP: &'static (actix_web::rt::SystemRunner, Send) = Box::leak(Box::new(build_app()));
}

fn build_app() -> (actix_web::rt::SystemRunner, Send) {
    let config = server::Config::try_parse_from([
        "relang-server",
        "--engine-threads",
        "1",
        "--default-timeout-ms",
        "100",
        "--max-timeout-ms",
        "200",
        "--max-states",
        "2000",
        "--body-limit",
        "65536",
    ])
    .expect("valid flags");
    let system = actix_web::rt::System::new();
    let service = server::service(&config).expect("a valid configuration");
    let app = std::rc::Rc::new(system.block_on(test::init_service(App::new().configure(service))));
    let send: Send = Box::new(move |req| {
        let app = std::rc::Rc::clone(&app);
        Box::pin(async move {
            let res = test::call_service(&*app, req.to_request()).await;
            let status = res.status().as_u16();
            (status, test::read_body(res).await)
        })
    });
    (system, send)
}

fn path(selector: u8) -> &'static str {
    let idx = usize::from(selector & 0x7f);
    let n_endpoints = api_types::ENDPOINTS.len();
    match api_types::ENDPOINTS.get(idx % (n_endpoints + OTHER_PATHS.len())) {
        Some(endpoint) => endpoint.path,
        None => OTHER_PATHS[idx % (n_endpoints + OTHER_PATHS.len()) - n_endpoints],
    }
}

/// Asserts the error envelope: exactly `success: false`, a message and an error code.
fn assert_envelope(status: u16, body: &[u8]) {
    let text = String::from_utf8_lossy(body);
    let json: Value = serde_json::from_slice(body)
        .unwrap_or_else(|err| panic!("{status} with a body that is not JSON ({err}): {text}"));
    let fields = json.as_object().unwrap_or_else(|| panic!("{status}: not an object: {text}"));
    assert_eq!(fields.len(), 3, "{status}: not the envelope: {text}");
    assert_eq!(json["success"], false, "{status}: {text}");
    assert!(json["error"].as_str().is_some_and(|msg| !msg.is_empty()), "{status}: {text}");
    assert!(json["errorCode"].as_str().is_some_and(|code| !code.is_empty()), "{status}: {text}");
}

fuzz_target!(|data: &[u8]| {
    let [selector, headers, body @ ..] = data else { return };
    let req =
        if selector & 0x80 == 0 { test::TestRequest::post() } else { test::TestRequest::get() };
    let mut req = req.uri(path(*selector)).set_payload(body.to_vec());
    if headers & 1 == 1 {
        req = req.insert_header(("content-type", "application/json"));
    }
    let (status, body) = APP.with(|(system, send)| system.block_on(send(req)));
    assert!(status < 500 || status == 503, "{status}: {}", String::from_utf8_lossy(&body));
    if status >= 400 {
        assert_envelope(status, &body);
    }
});
