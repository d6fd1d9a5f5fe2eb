//! `GET /healthz`: liveness for load balancers and scripts.

use actix_web::{HttpResponse, web};

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/healthz", web::get().to(healthz));
}

async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}
