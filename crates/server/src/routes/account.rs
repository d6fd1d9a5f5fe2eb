//! `GET /v1/account/limits`: the caller's limits; rate limited, but costs no quota.

use actix_web::{HttpResponse, web};
use api_types::response::Success;

use crate::auth::UnmeteredCaller;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    crate::routes::register(cfg, "/v1/account/limits", web::get().to(limits));
}

async fn limits(UnmeteredCaller(caller): UnmeteredCaller) -> HttpResponse {
    HttpResponse::Ok().json(Success::new(caller.report()))
}
