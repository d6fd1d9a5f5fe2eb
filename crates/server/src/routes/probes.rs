//! `GET /livez` (the process serves) and `GET /readyz` (it should be sent requests), for
//! orchestrators and load balancers; `HEAD` too. Plain JSON, no envelope, no token.
//!
//! `/readyz` answers 503 while the replica drains (`drain.rs`) and while the Redis that
//! `--redis-url` requires does not answer `PING` (quotas cannot be counted then, and
//! refuse requests): the body says which. `/healthz` (`health.rs`) stays as it was.

use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::state::AppState;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/livez", web::get().to(livez))
        .route("/livez", web::head().to(livez))
        .route("/readyz", web::get().to(readyz))
        .route("/readyz", web::head().to(readyz));
}

async fn livez() -> HttpResponse {
    HttpResponse::Ok().json(json!({ "status": "live" }))
}

async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    if state.drain.is_draining() {
        return HttpResponse::ServiceUnavailable().json(json!({ "status": "draining" }));
    }
    if let Some(redis) = &state.redis
        && !redis.is_reachable().await
    {
        return HttpResponse::ServiceUnavailable().json(json!({ "status": "redis unreachable" }));
    }
    HttpResponse::Ok().json(json!({ "status": "ready" }))
}
