//! HTTP routes, one module per area, each with a `configure` function.
//!
//! Every path is a resource with one method; any other method gets 405 in the contract's
//! envelope (actix's default would be an empty 405).

pub(crate) mod account;
pub(crate) mod analyze;
pub(crate) mod compute;
pub(crate) mod generate;
pub(crate) mod health;
pub(crate) mod metrics;
pub(crate) mod not_found;
pub(crate) mod playground;
pub(crate) mod probes;

use actix_web::dev::Service;
use actix_web::{HttpRequest, web};
use api_types::ErrorCode;

use crate::error::HttpError;
use crate::state::AppState;
use crate::transport::guard_body;

/// Registers `route` (a method and its handler) as the only method of `path`. Its request
/// body is guarded ([`guard_body`]): late, too deep or not an object, it is refused before
/// it is parsed.
pub(crate) fn register(cfg: &mut web::ServiceConfig, path: &'static str, route: actix_web::Route) {
    cfg.service(resource(path).route(route).wrap_fn(|mut req, srv| {
        let timeout = req.app_data::<web::Data<AppState>>().map(|state| state.body_timeout);
        if let Some(timeout) = timeout {
            guard_body(&mut req, timeout);
        }
        srv.call(req)
    }));
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
