//! `GET /v1/account/limits`.

use actix_web::{HttpResponse, web};
use api_types::response::Success;

use crate::state::AppState;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    crate::routes::register(cfg, "/v1/account/limits", web::get().to(limits));
}

async fn limits(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(Success::new(&state.account))
}
