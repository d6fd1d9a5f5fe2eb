//! The service's one error type, rendered as the contract's JSON envelope.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use api_types::{ErrorBody, ErrorCode};

/// A failed request: the contract's error code and a message for humans.
#[derive(Debug)]
pub(crate) struct ApiError {
    body: ErrorBody,
    message: String,
}

impl ApiError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        let message = message.into();
        ApiError { body: ErrorBody::new(code, message.clone()), message }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.body.code().status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status_code()).json(&self.body)
    }
}
