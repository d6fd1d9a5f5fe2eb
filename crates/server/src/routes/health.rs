//! `GET /healthz` and `HEAD /healthz` (liveness for load balancers and scripts) and
//! `GET /openapi.json`.

use actix_web::{HttpResponse, web};

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(healthz))
        .route("/healthz", web::head().to(healthz))
        .route("/openapi.json", web::get().to(openapi));
}

async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

async fn openapi() -> HttpResponse {
    HttpResponse::Ok().json(api_types::openapi())
}
