//! The fallback for unknown paths: 404 in the contract's envelope, not actix's plain text.

use actix_web::HttpRequest;
use api_types::ErrorCode;

use crate::error::ApiError;

pub(crate) async fn not_found(req: HttpRequest) -> Result<&'static str, ApiError> {
    Err(ApiError::new(ErrorCode::NotFound, format!("no route for {} {}", req.method(), req.path())))
}
