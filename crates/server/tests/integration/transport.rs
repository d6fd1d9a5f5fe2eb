//! Routing, envelopes and HTTP-level errors, independent of the engine.

use std::io::{Read, Write};
use std::net::TcpStream;

use actix_web::test;
use serde_json::json;
use server::Application;

use crate::support::{app, app_with, config, error, read};

#[actix_web::test]
async fn healthz_answers_ok() {
    let app = app().await;
    let res = test::call_service(&app, test::TestRequest::get().uri("/healthz").to_request()).await;
    assert_eq!(read(res).await, (200, json!({ "status": "ok" })));
}

#[actix_web::test]
async fn unknown_paths_get_the_json_envelope() {
    let app = app().await;
    let res =
        test::call_service(&app, test::TestRequest::post().uri("/v1/nowhere").to_request()).await;
    assert_eq!(res.headers().get("content-type").unwrap(), "application/json");
    let (status, body) = read(res).await;
    assert_eq!(
        (status, body),
        (
            404,
            json!({ "success": false, "error": "no route for POST /v1/nowhere", "errorCode": "NotFound" })
        )
    );
}

#[actix_web::test]
async fn wrong_methods_get_405_in_the_envelope() {
    let app = app().await;
    let res =
        test::call_service(&app, test::TestRequest::get().uri("/v1/analyze/empty").to_request())
            .await;
    error(read(res).await, 405, "MethodNotAllowed");
    let res =
        test::call_service(&app, test::TestRequest::post().uri("/v1/account/limits").to_request())
            .await;
    error(read(res).await, 405, "MethodNotAllowed");
}

#[actix_web::test]
async fn malformed_bodies_are_invalid_json() {
    let app = app().await;
    for body in ["{", "[]", r#"{"term": 3}"#, r#"{"term": {"type": "regex"}}"#, ""] {
        let req = test::TestRequest::post()
            .uri("/v1/analyze/empty")
            .insert_header(("content-type", "application/json"))
            .set_payload(body)
            .to_request();
        error(read(test::call_service(&app, req).await).await, 400, "InvalidJson");
    }
}

#[actix_web::test]
async fn oversized_bodies_get_413() {
    let app = app_with(config(&["--body-limit", "100"])).await;
    let pattern = "a".repeat(200);
    let req = test::TestRequest::post()
        .uri("/v1/analyze/empty")
        .set_json(json!({ "term": { "type": "regex", "value": pattern } }))
        .to_request();
    error(read(test::call_service(&app, req).await).await, 413, "PayloadTooLarge");
}

#[actix_web::test]
async fn account_limits_report_the_server_defaults() {
    let app = app().await;
    let req = test::TestRequest::get()
        .uri("/v1/account/limits")
        .insert_header(("content-type", "application/json"))
        .to_request();
    let (status, body) = read(test::call_service(&app, req).await).await;
    assert_eq!(status, 200);
    assert_eq!(
        body["data"],
        json!({
            "type": "accountLimits",
            "maxRequestsCount": 9007199254740991u64,
            "maxRequestsRate": 0,
            "maxTermsCount": 10,
            "maxTimeout": 30000,
            "maxStatesCount": 100000,
        })
    );
}

#[actix_web::test]
async fn serves_the_generated_openapi_document() {
    let app = app().await;
    let res =
        test::call_service(&app, test::TestRequest::get().uri("/openapi.json").to_request()).await;
    let (status, doc) = read(res).await;
    assert_eq!(status, 200);
    assert_eq!(doc["paths"].as_object().unwrap().len(), api_types::ENDPOINTS.len());
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
}

#[actix_web::test]
async fn serves_over_tcp_on_a_free_port() {
    let app = Application::build(&config(&["--bind", "127.0.0.1:0"])).unwrap();
    let addr = app.local_addr();
    let server = actix_web::rt::spawn(app.run());
    let response = actix_web::rt::task::spawn_blocking(move || {
        let mut stream = TcpStream::connect(addr).unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    })
    .await
    .unwrap();
    assert!(response.starts_with("HTTP/1.1 200 OK"), "{response}");
    assert!(response.ends_with(r#"{"status":"ok"}"#), "{response}");
    server.abort();
}
