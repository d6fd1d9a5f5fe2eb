//! Error codes of the v1 contract and the JSON error envelope.

use std::fmt;

use serde::Serialize;
use utoipa::ToSchema;

/// An `errorCode` of the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The body is not JSON or not the request's shape.
    InvalidJson,
    /// Fewer terms than the operation needs.
    TooFewTerms,
    /// More terms than the operation or the caller's limit allows.
    TooManyTerms,
    /// `execution.timeout` above the caller's `maxTimeout`.
    TimeoutTooLarge,
    /// The compute budget ran out.
    TimeoutExceeded,
    /// An automaton would exceed `maxStatesCount`.
    AutomatonTooManyStates,
    /// `limit` outside 1..=100.
    InvalidNumberOfStringsToGenerate,
    /// A bad or unsupported pattern.
    RegexSyntaxError,
    /// A bad FAIR value.
    FairSyntaxError,
    /// Any other invalid field.
    BadRequest,
    /// Auth is on and the `Authorization` header is absent or malformed.
    MissingOrMalformedToken,
    /// The bearer token is unknown.
    InvalidToken,
    /// The token's request quota is used up.
    QuotaExceeded,
    /// Unknown path.
    NotFound,
    /// Wrong method on a known path.
    MethodNotAllowed,
    /// Body over the configured size.
    PayloadTooLarge,
    /// Over the token's request rate.
    RateLimited,
    /// Every engine thread is busy and the queue is full; not in the v1 contract, which has
    /// no overload code (`Retry-After: <seconds>` header).
    Overloaded,
    /// The answer would be larger than the server sends (`--response-limit`), such as the
    /// DOT text of a huge automaton; not in the v1 contract, which has no such code.
    ResponseTooLarge,
    /// The request's head or body did not arrive within the server's time for it
    /// (`--client-request-timeout-ms`); not in the v1 contract, which has no such code.
    RequestTimeout,
    /// The request is not valid HTTP/1.1 (its request line, a header, or its
    /// `Content-Length`), so the server answers before reading any body and closes the
    /// connection; not in the v1 contract, which has no such code.
    MalformedRequest,
    /// The request's head is larger than the server reads (HTTP 431); not in the v1
    /// contract, which has no such code.
    HeadersTooLarge,
    /// A bug; never for bad input.
    InternalError,
}

impl ErrorCode {
    /// The HTTP status the contract gives this code.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::InvalidJson
            | ErrorCode::TooFewTerms
            | ErrorCode::TooManyTerms
            | ErrorCode::TimeoutTooLarge
            | ErrorCode::TimeoutExceeded
            | ErrorCode::AutomatonTooManyStates
            | ErrorCode::InvalidNumberOfStringsToGenerate
            | ErrorCode::RegexSyntaxError
            | ErrorCode::FairSyntaxError
            | ErrorCode::BadRequest
            | ErrorCode::ResponseTooLarge
            | ErrorCode::MalformedRequest => 400,
            ErrorCode::MissingOrMalformedToken | ErrorCode::InvalidToken => 401,
            ErrorCode::QuotaExceeded => 403,
            ErrorCode::NotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::RequestTimeout => 408,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::HeadersTooLarge => 431,
            ErrorCode::RateLimited => 429,
            ErrorCode::InternalError => 500,
            ErrorCode::Overloaded => 503,
        }
    }
}

/// A failed request: the contract's error code and a message for humans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    code: ErrorCode,
    message: String,
}

impl ApiError {
    /// An error with `code` and a human-readable `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError { code, message: message.into() }
    }

    /// A [`ErrorCode::BadRequest`]: an invalid field value.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::BadRequest, message)
    }

    /// The error code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The human-readable message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The JSON envelope of this error.
    pub fn to_body(&self) -> ErrorBody {
        ErrorBody::new(self.code, self.message.clone())
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}: {}", self.code, self.message)
    }
}

impl std::error::Error for ApiError {}

/// The error envelope: `{"success": false, "error": "<message>", "errorCode": "<Code>"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorBody {
    success: bool,
    error: String,
    error_code: ErrorCode,
}

impl ErrorBody {
    /// The envelope for `code` with a human-readable `message`.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorBody {
        ErrorBody { success: false, error: message.into(), error_code: code }
    }

    /// The error code.
    pub fn code(&self) -> ErrorCode {
        self.error_code
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn envelope_has_the_contract_fields() {
        let body = ErrorBody::new(ErrorCode::NotFound, "no route for GET /x");
        assert_eq!(
            serde_json::to_value(&body).unwrap(),
            serde_json::json!({
                "success": false,
                "error": "no route for GET /x",
                "errorCode": "NotFound",
            })
        );
    }

    #[test]
    fn statuses_follow_the_contract_table() {
        let cases = [
            (ErrorCode::RegexSyntaxError, 400, "RegexSyntaxError"),
            (ErrorCode::InvalidToken, 401, "InvalidToken"),
            (ErrorCode::QuotaExceeded, 403, "QuotaExceeded"),
            (ErrorCode::MethodNotAllowed, 405, "MethodNotAllowed"),
            (ErrorCode::PayloadTooLarge, 413, "PayloadTooLarge"),
            (ErrorCode::RateLimited, 429, "RateLimited"),
            (ErrorCode::InternalError, 500, "InternalError"),
            (ErrorCode::Overloaded, 503, "Overloaded"),
            (ErrorCode::ResponseTooLarge, 400, "ResponseTooLarge"),
            (ErrorCode::RequestTimeout, 408, "RequestTimeout"),
            (ErrorCode::MalformedRequest, 400, "MalformedRequest"),
            (ErrorCode::HeadersTooLarge, 431, "HeadersTooLarge"),
        ];
        for (code, status, name) in cases {
            assert_eq!(code.status(), status, "{code:?}");
            assert_eq!(serde_json::to_value(code).unwrap(), name);
        }
    }
}
