//! The service's one error type, rendered as the contract's JSON envelope.

use std::fmt;
use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header::{HeaderName, RETRY_AFTER, WWW_AUTHENTICATE};
use actix_web::{HttpResponse, ResponseError};
use api_types::{ApiError, ErrorCode};
use langcore::Operation;

/// A failed request, as actix sees it: an [`ApiError`] with its status and envelope, for 429
/// and 503 the `Retry-After` header, for a rate limit's 429 the `RateLimit` and
/// `RateLimit-Policy` headers (IETF draft-ietf-httpapi-ratelimit-headers), and for 401 the
/// `WWW-Authenticate` challenge of RFC 6750.
#[derive(Debug)]
pub(crate) struct HttpError {
    error: ApiError,
    /// Whole seconds, at least 1.
    retry_after: Option<u64>,
    /// The budget limit the request ran out of, when it did.
    exhausted: Option<Exhausted>,
    /// The rate (requests per second, also the burst) a 429 `RateLimited` enforced.
    rate_limit: Option<u32>,
}

/// A budget limit a request ran out of (`time`, `states`, `memory`, `depth`), and the
/// operation that was running when it is known.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Exhausted {
    pub(crate) limit: &'static str,
    pub(crate) op: Option<Operation>,
}

impl HttpError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> HttpError {
        HttpError::from(ApiError::new(code, message))
    }

    /// `TimeoutExceeded`: the request's time budget ran out `during` an operation, or
    /// before its answer was ready when the operation is not known.
    pub(crate) fn timeout(during: Option<Operation>) -> HttpError {
        let message = timeout_message(None, during);
        let exhausted = Some(Exhausted { limit: "time", op: during });
        HttpError { exhausted, ..HttpError::new(ErrorCode::TimeoutExceeded, message) }
    }

    /// The same error, a timeout's message saying how long the time `budget` was.
    pub(crate) fn with_time_budget(self, budget: Duration) -> HttpError {
        let Some(Exhausted { limit: "time", op: during }) = self.exhausted else { return self };
        let message = timeout_message(Some(budget), during);
        HttpError { error: ApiError::new(ErrorCode::TimeoutExceeded, message), ..self }
    }

    /// The same error, telling the client to wait `seconds` (at least 1) before retrying.
    pub(crate) fn with_retry_after(self, seconds: u64) -> HttpError {
        HttpError { retry_after: Some(seconds.max(1)), ..self }
    }

    /// The same error, a 429 of a rate of `per_second` requests a second (and as many at
    /// once), whose `RateLimit` headers say so.
    pub(crate) fn with_rate_limit(self, per_second: u32) -> HttpError {
        HttpError { rate_limit: Some(per_second), ..self }
    }

    /// The budget limit the request ran out of, if it did.
    pub(crate) fn exhausted(&self) -> Option<Exhausted> {
        self.exhausted
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
        HttpError { error, retry_after: None, exhausted: None, rate_limit: None }
    }
}

/// "the time budget of 5000 ms ran out during determinization", as far as it is known.
fn timeout_message(budget: Option<Duration>, during: Option<Operation>) -> String {
    let budget = budget.map(|budget| format!(" of {} ms", budget.as_millis())).unwrap_or_default();
    match during {
        Some(op) => format!("the time budget{budget} ran out during {op}"),
        None => format!("the time budget{budget} ran out before the answer was ready"),
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
            if let Some(per_second) = self.rate_limit {
                // One policy, "rate": `per_second` requests in a window of one second; none
                // left now (`r=0`), and more in `t` seconds.
                let policy = format!("\"rate\";q={per_second};w=1");
                response.insert_header((RATE_LIMIT_POLICY, policy));
                response.insert_header((RATE_LIMIT, format!("\"rate\";r=0;t={seconds}")));
            }
        }
        if let Some(challenge) = bearer_challenge(self.error.code()) {
            response.insert_header((WWW_AUTHENTICATE, challenge));
        }
        response.json(self.error.to_body())
    }
}

/// The `WWW-Authenticate` value a 401 with `code` carries (RFC 6750, section 3): a plain
/// challenge when no usable token was sent, `invalid_token` when an unknown one was.
fn bearer_challenge(code: ErrorCode) -> Option<&'static str> {
    match code {
        ErrorCode::MissingOrMalformedToken => Some("Bearer realm=\"relang\""),
        ErrorCode::InvalidToken => Some("Bearer realm=\"relang\", error=\"invalid_token\""),
        _ => None,
    }
}

/// The rate-limit headers of IETF draft-ietf-httpapi-ratelimit-headers (version 9).
const RATE_LIMIT: HeaderName = HeaderName::from_static("ratelimit");
const RATE_LIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");

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
        match err {
            langcore::BudgetError::Timeout { op } => HttpError::timeout(Some(op)),
            langcore::BudgetError::PatternTooLong { limit, .. } => HttpError {
                exhausted: Some(Exhausted {
                    limit: crate::metrics::budget_limit(&err),
                    op: Some(err.operation()),
                }),
                ..HttpError::new(
                    ErrorCode::ResponseTooLarge,
                    format!(
                        "the pattern would be longer than this server's pattern limit of \
                         {limit} bytes: ask for options.response.format \"fair\" to get the \
                         language as a FAIR value"
                    ),
                )
            },
            _ => HttpError {
                exhausted: Some(Exhausted {
                    limit: crate::metrics::budget_limit(&err),
                    op: Some(err.operation()),
                }),
                ..HttpError::new(ErrorCode::AutomatonTooManyStates, err.to_string())
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_say_how_long_the_budget_was_and_what_ran_out() {
        let engine = HttpError::from(langcore::BudgetError::Timeout { op: Operation::Determinize });
        assert_eq!(engine.code(), ErrorCode::TimeoutExceeded);
        assert_eq!(engine.error.message(), "the time budget ran out during determinization");
        let engine = engine.with_time_budget(Duration::from_millis(250));
        assert_eq!(
            engine.error.message(),
            "the time budget of 250 ms ran out during determinization"
        );
        let late = HttpError::timeout(None).with_time_budget(Duration::from_secs(5));
        assert_eq!(
            late.error.message(),
            "the time budget of 5000 ms ran out before the answer was ready"
        );
        // Other errors keep their message.
        let states = HttpError::from(langcore::BudgetError::TooManyStates {
            op: Operation::Product,
            limit: 10,
        });
        let message = states.error.message().to_owned();
        assert_eq!(states.with_time_budget(Duration::from_secs(1)).error.message(), message);
    }
}
