//! HTTP routes, one module per area, each with a `configure` function.
//!
//! Every path is a resource with one method; any other method gets 405 in the contract's
//! envelope (actix's default would be an empty 405).

pub(crate) mod account;
pub(crate) mod analyze;
pub(crate) mod compute;
pub(crate) mod generate;
pub(crate) mod health;
pub(crate) mod not_found;
pub(crate) mod playground;

use actix_web::{HttpRequest, web};
use api_types::ErrorCode;

use crate::error::HttpError;

/// Registers `route` (a method and its handler) as the only method of `path`.
pub(crate) fn register(cfg: &mut web::ServiceConfig, path: &'static str, route: actix_web::Route) {
    cfg.service(resource(path).route(route));
}

fn resource(path: &'static str) -> actix_web::Resource {
    web::resource(path).default_service(web::to(method_not_allowed))
}

async fn method_not_allowed(req: HttpRequest) -> Result<&'static str, HttpError> {
    Err(HttpError::new(
        ErrorCode::MethodNotAllowed,
        format!("{} is not allowed on {}", req.method(), req.path()),
    ))
}
