//! The service's one error type, rendered as the contract's JSON envelope.

use std::fmt;

use actix_web::http::StatusCode;
use actix_web::http::header::RETRY_AFTER;
use actix_web::{HttpResponse, ResponseError};
use api_types::{ApiError, ErrorCode};

/// A failed request, as actix sees it: an [`ApiError`] with its status and envelope, and for
/// 429 the `Retry-After` header.
#[derive(Debug)]
pub(crate) struct HttpError {
    error: ApiError,
    /// Whole seconds, at least 1.
    retry_after: Option<u64>,
}

impl HttpError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> HttpError {
        HttpError::from(ApiError::new(code, message))
    }

    /// The same error, telling the client to wait `seconds` (at least 1) before retrying.
    pub(crate) fn with_retry_after(self, seconds: u64) -> HttpError {
        HttpError { retry_after: Some(seconds.max(1)), ..self }
    }

    pub(crate) fn code(&self) -> ErrorCode {
        self.error.code()
    }

    #[cfg(test)]
    pub(crate) fn retry_after(&self) -> Option<u64> {
        self.retry_after
    }
}

impl From<ApiError> for HttpError {
    fn from(error: ApiError) -> HttpError {
        HttpError { error, retry_after: None }
    }
}

impl fmt::Display for HttpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl ResponseError for HttpError {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.error.code().status())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        if let Some(seconds) = self.retry_after {
            response.insert_header((RETRY_AFTER, seconds));
        }
        response.json(self.error.to_body())
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
