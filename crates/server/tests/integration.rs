//! HTTP tests of the real application: in process, and over a socket on port 0.

use std::io::{Read, Write};
use std::net::TcpStream;

use actix_web::{App, test};
use server::{Application, Config, configure_app};

#[actix_web::test]
async fn healthz_answers_ok() {
    let app = test::init_service(App::new().configure(configure_app)).await;
    let res = test::call_service(&app, test::TestRequest::get().uri("/healthz").to_request()).await;
    assert_eq!(res.status(), 200);
    let body: serde_json::Value = test::read_body_json(res).await;
    assert_eq!(body, serde_json::json!({ "status": "ok" }));
}

#[actix_web::test]
async fn unknown_paths_get_the_json_envelope() {
    let app = test::init_service(App::new().configure(configure_app)).await;
    let req = test::TestRequest::post().uri("/v1/nowhere").to_request();
    let res = test::call_service(&app, req).await;
    assert_eq!(res.status(), 404);
    assert_eq!(res.headers().get("content-type").unwrap(), "application/json");
    let body: serde_json::Value = test::read_body_json(res).await;
    assert_eq!(
        body,
        serde_json::json!({
            "success": false,
            "error": "no route for POST /v1/nowhere",
            "errorCode": "NotFound",
        })
    );
}

#[actix_web::test]
async fn serves_over_tcp_on_a_free_port() {
    let config = Config { bind: "127.0.0.1:0".parse().unwrap() };
    let app = Application::build(&config).unwrap();
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

#[actix_web::test]
async fn serves_the_generated_openapi_document() {
    let app = test::init_service(App::new().configure(configure_app)).await;
    let res =
        test::call_service(&app, test::TestRequest::get().uri("/openapi.json").to_request()).await;
    assert_eq!(res.status(), 200);
    let doc: serde_json::Value = test::read_body_json(res).await;
    assert_eq!(doc["paths"].as_object().unwrap().len(), api_types::ENDPOINTS.len());
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
}
