//! The fallback for unknown paths: 404 in the contract's envelope, not actix's plain text.

use actix_web::HttpRequest;
use api_types::ErrorCode;

use crate::error::HttpError;

pub(crate) async fn not_found(req: HttpRequest) -> Result<&'static str, HttpError> {
    Err(HttpError::new(
        ErrorCode::NotFound,
        format!("no route for {} {}", req.method(), req.path()),
    ))
}
