//! Typed helpers: build the real app, send JSON, read the envelope.

use actix_web::dev::{Service, ServiceResponse};
use actix_web::{App, test};
use clap::Parser;
use serde_json::{Value, json};
use server::{Config, service};

/// The server's configuration with `args` added to the defaults.
pub(crate) fn config(args: &[&str]) -> Config {
    Config::try_parse_from(["relang-server"].iter().chain(args)).expect("valid test flags")
}

/// The real application, in process, with default configuration.
pub(crate) async fn app()
-> impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error> {
    app_with(config(&[])).await
}

/// The real application, in process, with `config`.
pub(crate) async fn app_with(
    config: Config,
) -> impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error> {
    test::init_service(App::new().configure(service(&config).expect("valid keys"))).await
}

/// Sends `body` to `POST path` and returns the status and the JSON body.
pub(crate) async fn post(
    app: &impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let req = test::TestRequest::post().uri(path).set_json(body).to_request();
    read(test::call_service(app, req).await).await
}

/// Reads the status and JSON body of a response.
pub(crate) async fn read(res: ServiceResponse) -> (u16, Value) {
    let status = res.status().as_u16();
    let bytes = test::read_body(res).await;
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|err| panic!("not JSON ({err}): {}", String::from_utf8_lossy(&bytes)));
    (status, body)
}

/// A regex term.
pub(crate) fn regex(pattern: &str) -> Value {
    json!({ "type": "regex", "value": pattern })
}

/// Asserts a success envelope and returns its `data`.
#[track_caller]
pub(crate) fn data((status, body): (u16, Value)) -> Value {
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true, "{body}");
    body["data"].clone()
}

/// Asserts an error envelope with `status` and `code`.
#[track_caller]
pub(crate) fn error((status, body): (u16, Value), expected_status: u16, code: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["errorCode"], code, "{body}");
    assert!(body["error"].as_str().is_some_and(|message| !message.is_empty()), "{body}");
}
