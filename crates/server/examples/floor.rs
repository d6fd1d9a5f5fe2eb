//! The floor of issue 18: a bare actix-web endpoint that parses the same JSON body as
//! `/v1/analyze/empty` (into the same `TermRequest`) and answers a fixed envelope, with no
//! middleware, authentication or engine; `/v1/analyze/cardinality`, which reads the same
//! body, too, and `/v1/analyze/subset`, which reads two terms (the real-pattern mix of issue
//! 32 asks all three). `tests/load/floor.sh` runs it and relang-server back to back under the
//! same load.
//!
//! Usage: `floor [ADDRESS]` (default `127.0.0.1:8081`); `RELANG_WORKERS` sets the worker
//! count as for relang-server (unset or 0: actix's default, one per core it may run on).

use actix_web::{App, HttpResponse, HttpServer, web};
use api_types::request::{TermRequest, TwoTermsRequest};

/// The answer relang gives for `(abc|de){2}`: not empty.
const ANSWER: &str = r#"{"success":true,"data":{"type":"boolean","value":false}}"#;

async fn empty(body: web::Json<TermRequest>) -> HttpResponse {
    std::hint::black_box(body.into_inner());
    HttpResponse::Ok().content_type("application/json").body(ANSWER)
}

/// The same fixed answer to a body of two terms.
async fn subset(body: web::Json<TwoTermsRequest>) -> HttpResponse {
    std::hint::black_box(body.into_inner());
    HttpResponse::Ok().content_type("application/json").body(ANSWER)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let bind = std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:8081".to_owned());
    let workers = std::env::var("RELANG_WORKERS").ok().and_then(|text| text.parse().ok());
    let mut server = HttpServer::new(|| {
        App::new()
            .route("/v1/analyze/empty", web::post().to(empty))
            .route("/v1/analyze/cardinality", web::post().to(empty))
            .route("/v1/analyze/subset", web::post().to(subset))
    });
    if let Some(workers) = workers.filter(|&workers: &usize| workers > 0) {
        server = server.workers(workers);
    }
    server.bind(bind)?.run().await
}
