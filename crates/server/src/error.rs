//! The service's one error type, rendered as the contract's JSON envelope.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use api_types::{ApiError, ErrorCode};

/// A failed request, as actix sees it: an [`ApiError`] with its status and envelope.
#[derive(Debug)]
pub(crate) struct HttpError(ApiError);

impl HttpError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> HttpError {
        HttpError(ApiError::new(code, message))
    }
}

impl From<ApiError> for HttpError {
    fn from(err: ApiError) -> HttpError {
        HttpError(err)
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl ResponseError for HttpError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.0.code().status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        HttpResponse::build(self.status_code()).json(self.0.to_body())
    }
}

/// Engine failures: the pattern's fault, or the budget's.
impl From<langcore::Error> for HttpError {
    fn from(err: langcore::Error) -> HttpError {
        let code = match &err {
            langcore::Error::Parse(_) => ErrorCode::RegexSyntaxError,
            langcore::Error::Budget(budget) => return HttpError::from(*budget),
            langcore::Error::InvalidRepetition { .. } => ErrorCode::BadRequest,
            _ => ErrorCode::InternalError,
        };
        HttpError::new(code, err.to_string())
    }
}

impl From<langcore::BudgetError> for HttpError {
    fn from(err: langcore::BudgetError) -> HttpError {
        let code = match err {
            langcore::BudgetError::Timeout { .. } => ErrorCode::TimeoutExceeded,
            _ => ErrorCode::AutomatonTooManyStates,
        };
        HttpError::new(code, err.to_string())
    }
}
