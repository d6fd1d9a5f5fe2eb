//! What a client may hold of the server at the HTTP level: the time a body has to arrive, and
//! the size of the answer it gets.
//!
//! # Overview
//! - [`GuardedPayload`] wraps every request body ([`guard_body`]) and checks it as it
//!   streams in, before `serde_json` sees it:
//!   - a body that has not arrived by its deadline ends with an I/O error of kind
//!     `TimedOut`, which the JSON extractor's error handler answers 408 `RequestTimeout` in
//!     the envelope ([`body_error`]); actix itself times out only the request head
//!     (`client_request_timeout`), so a client that sends `Content-Length: 100` and ten
//!     bytes would otherwise hold its connection, and its buffers, for ever;
//!   - a body that is not a JSON object, or nests deeper than [`MAX_JSON_DEPTH`] anywhere
//!     (even inside a field the server ignores, which `serde_json` skips without a depth
//!     limit), ends with an error of kind `InvalidData`: 400 `InvalidJson`.
//! - [`success_body`] writes a success envelope, refusing with 400 `ResponseTooLarge` an
//!   answer larger than the response limit; it stops writing as soon as the limit is
//!   passed, so refusing a huge answer costs no more than the limit. [`json_response`]
//!   sends it, or a body the answer cache kept.
//!
//! # Invariants
//! A body's deadline counts from when its request reached the application, so a client
//! cannot extend it by sending a byte now and then.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpMessage;
use actix_web::HttpResponse;
use actix_web::dev::{Payload, ServiceRequest};
use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::http::header::{CONTENT_TYPE, HeaderValue};
use actix_web::rt::time::{Sleep, sleep};
use actix_web::web::Bytes;
use api_types::ErrorCode;
use api_types::response::Success;
use futures_core::Stream;
use langcore::{Budget, BudgetError};
use serde::Serialize;

use crate::error::HttpError;

/// The deepest nesting of arrays and objects a request body may have, as the contract's
/// `InvalidJson` promises (and `serde_json`'s own limit for the values it reads).
pub(crate) const MAX_JSON_DEPTH: usize = 128;

/// Wraps the body of `req` in a [`GuardedPayload`] that must arrive within `timeout`.
pub(crate) fn guard_body(req: &mut ServiceRequest, timeout: Duration) {
    let payload = GuardedPayload::new(req.take_payload(), timeout);
    req.set_payload(Payload::Stream { payload: Box::pin(payload) });
}

/// A request body that fails once its deadline fires before it has all arrived, or once it
/// shows it is not a JSON object within [`MAX_JSON_DEPTH`].
pub(crate) struct GuardedPayload {
    inner: Payload,
    deadline: Pin<Box<Sleep>>,
    shape: Shape,
    failed: bool,
}

impl GuardedPayload {
    /// `inner`, which must arrive within `timeout` from now.
    pub(crate) fn new(inner: Payload, timeout: Duration) -> GuardedPayload {
        GuardedPayload {
            inner,
            deadline: Box::pin(sleep(timeout)),
            shape: Shape::default(),
            failed: false,
        }
    }

    fn fail(&mut self, kind: io::ErrorKind, message: &str) -> Poll<Option<<Self as Stream>::Item>> {
        self.failed = true;
        Poll::Ready(Some(Err(PayloadError::Io(io::Error::new(kind, message)))))
    }
}

impl Stream for GuardedPayload {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.failed {
            return Poll::Ready(None);
        }
        if let Poll::Ready(item) = Pin::new(&mut self.inner).poll_next(cx) {
            if let Some(Ok(bytes)) = &item
                && let Err(problem) = self.shape.feed(bytes)
            {
                return self.fail(io::ErrorKind::InvalidData, problem);
            }
            return Poll::Ready(item);
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => self.fail(io::ErrorKind::TimedOut, BODY_TIMEOUT_MESSAGE),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// What a streaming scan of a JSON text has seen so far: enough to know the nesting depth
/// and the first value's kind, not to validate it (`serde_json` does that).
#[derive(Debug, Default)]
struct Shape {
    depth: usize,
    started: bool,
    in_string: bool,
    escaped: bool,
}

impl Shape {
    /// Scans the next `bytes` of the text.
    fn feed(&mut self, bytes: &[u8]) -> Result<(), &'static str> {
        for &byte in bytes {
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b' ' | b'\t' | b'\n' | b'\r' => continue,
                b'{' | b'[' if self.started || byte == b'{' => {
                    self.depth += 1;
                    if self.depth > MAX_JSON_DEPTH {
                        return Err("the JSON body nests arrays and objects more than 128 deep");
                    }
                }
                _ if !self.started => return Err("the JSON body must be an object"),
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                b'"' => self.in_string = true,
                _ => {}
            }
            self.started = true;
        }
        Ok(())
    }
}

/// The message of a body that did not arrive in time.
const BODY_TIMEOUT_MESSAGE: &str = "the request body did not arrive in time";

/// The answer to a body that [`GuardedPayload`] stopped: 408 `RequestTimeout` when it was
/// late, 400 `InvalidJson` when it was not an object within the depth limit; `None` for
/// any other payload error.
pub(crate) fn body_error(err: &PayloadError) -> Option<HttpError> {
    let PayloadError::Io(err) = err else { return None };
    match err.kind() {
        io::ErrorKind::TimedOut => Some(HttpError::new(ErrorCode::RequestTimeout, err.to_string())),
        io::ErrorKind::InvalidData => Some(HttpError::new(ErrorCode::InvalidJson, err.to_string())),
        _ => None,
    }
}

/// The bytes a response buffer starts with: enough for a boolean, a number or a short
/// pattern in the envelope, so that most answers are written without growing it.
const SMALL_ANSWER: usize = 256;

/// `answer` in the success envelope, as the body [`json_response`] sends, or 400
/// `ResponseTooLarge` when the envelope would be larger than `limit` bytes.
///
/// # Errors
/// When the answer is too large, or cannot be written as JSON (a bug).
pub(crate) fn success_body<T: Serialize>(answer: T, limit: usize) -> Result<Bytes, HttpError> {
    let mut body = Bounded { bytes: Vec::with_capacity(SMALL_ANSWER.min(limit)), limit };
    match serde_json::to_writer(&mut body, &Success::new(answer)) {
        Ok(()) => Ok(Bytes::from(body.bytes)),
        Err(err) if err.io_error_kind() == Some(io::ErrorKind::FileTooLarge) => {
            Err(too_large(limit))
        }
        Err(err) => Err(HttpError::new(ErrorCode::InternalError, err.to_string())),
    }
}

/// 200 with `body`, a JSON document.
pub(crate) fn json_response(body: Bytes) -> HttpResponse {
    let mut response = HttpResponse::with_body(StatusCode::OK, body);
    let json = HeaderValue::from_static("application/json");
    response.headers_mut().insert(CONTENT_TYPE, json);
    response.map_into_boxed_body()
}

/// Runs `write`, which builds a text charged to its budget's memory limit, with that limit
/// lowered to the response limit `limit`, so that a text too large to send stops growing
/// there, with 400 `ResponseTooLarge`.
///
/// # Errors
/// When the text would be larger than `limit`, or `write` fails otherwise.
pub(crate) fn text_within<T>(
    limit: usize,
    budget: &Budget,
    write: impl FnOnce(&Budget) -> Result<T, langcore::Error>,
) -> Result<T, HttpError> {
    let lowered = budget.with_max_memory(budget.max_memory().min(limit));
    write(&lowered).map_err(|err| match err {
        langcore::Error::Budget(BudgetError::TooMuchMemory { limit: charged, .. })
            if charged < budget.max_memory() =>
        {
            too_large(limit)
        }
        other => HttpError::from(other),
    })
}

/// The 400 of an answer larger than the response limit `limit`.
fn too_large(limit: usize) -> HttpError {
    HttpError::new(
        ErrorCode::ResponseTooLarge,
        format!("the answer is larger than this server's response limit of {limit} bytes"),
    )
}

/// A buffer that refuses to grow past `limit` bytes.
struct Bounded {
    bytes: Vec<u8>,
    limit: usize,
}

impl io::Write for Bounded {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes.len().saturating_add(buf.len()) > self.limit {
            return Err(io::Error::from(io::ErrorKind::FileTooLarge));
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use actix_web::body::MessageBody;

    use super::*;

    #[test]
    fn answers_within_the_limit_are_sent_whole() {
        let response = json_response(success_body("abc", 64).unwrap());
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers().get(CONTENT_TYPE).unwrap(), "application/json");
        let body = response.into_body().try_into_bytes().unwrap();
        assert_eq!(body, r#"{"success":true,"data":"abc"}"#);
        let exact = body.len();
        assert!(success_body("abc", exact).is_ok());
        let too_large = success_body("abc", exact - 1).unwrap_err();
        assert_eq!(too_large.code(), ErrorCode::ResponseTooLarge);
    }

    #[actix_web::test]
    async fn a_late_body_ends_with_a_timeout() {
        let (_sender, inner) = actix_http::h1::Payload::create(false);
        let mut timed = GuardedPayload::new(Payload::from(inner), Duration::from_millis(10));
        let first = std::future::poll_fn(|cx| Pin::new(&mut timed).poll_next(cx)).await;
        let Some(Err(err)) = first else { panic!("{first:?}") };
        assert_eq!(body_error(&err).map(|err| err.code()), Some(ErrorCode::RequestTimeout));
        let next = std::future::poll_fn(|cx| Pin::new(&mut timed).poll_next(cx)).await;
        assert!(next.is_none());
    }

    /// The depth and the first value's kind, whatever the chunks, strings and escapes.
    #[test]
    fn shapes_are_scanned_across_chunks() {
        let scan = |chunks: &[&str]| {
            let mut shape = Shape::default();
            chunks.iter().try_for_each(|chunk| shape.feed(chunk.as_bytes()))
        };
        let nested = |depth: usize| format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let deep = |depth: usize| format!(r#"{{"term":{{}},"x":{}}}"#, nested(depth - 1));
        assert_eq!(scan(&[&deep(128)]), Ok(()));
        assert!(scan(&[&deep(129)]).unwrap_err().contains("128 deep"));
        assert_eq!(scan(&[" \n{\"a\":", "[[]]}"]), Ok(()));
        assert!(scan(&["[]"]).unwrap_err().contains("must be an object"));
        assert!(scan(&["  ", "\"x\""]).unwrap_err().contains("must be an object"));
        // Brackets inside strings, escaped quotes included, do not nest.
        let string = format!(r#"{{"a":"{}\"{}"}}"#, "[".repeat(200), "{".repeat(200));
        assert_eq!(scan(&[&string[..50], &string[50..]]), Ok(()));
        // Closing what was never opened is serde_json's to refuse; it never underflows.
        assert_eq!(scan(&["{}]]]"]), Ok(()));
    }
}
