//! What a client may hold of the server at the HTTP level: the time a body has to arrive, and
//! the size of the answer it gets.
//!
//! # Overview
//! - [`TimedPayload`] ends a request body that has not arrived by its deadline with an I/O
//!   error of kind `TimedOut`, which the JSON extractor's error handler answers 408
//!   `RequestTimeout` in the envelope ([`is_body_timeout`]); actix itself times out only the
//!   request head (`client_request_timeout`), so a client that sends `Content-Length: 100`
//!   and ten bytes would otherwise hold its connection, and its buffers, for ever.
//! - [`respond`] writes a success envelope, refusing with 400 `ResponseTooLarge` an answer
//!   larger than the response limit; it stops writing as soon as the limit is passed, so
//!   refusing a huge answer costs no more than the limit.
//!
//! # Invariants
//! A body's deadline counts from when its request reached the application, so a client
//! cannot extend it by sending a byte now and then.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::HttpResponse;
use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header::ContentType;
use actix_web::rt::time::{Sleep, sleep};
use actix_web::web::Bytes;
use api_types::ErrorCode;
use api_types::response::Success;
use futures_core::Stream;
use serde::Serialize;

use crate::error::HttpError;

/// A request body that fails once `deadline` fires before it has all arrived.
pub(crate) struct TimedPayload {
    inner: Payload,
    deadline: Pin<Box<Sleep>>,
    timed_out: bool,
}

impl TimedPayload {
    /// `inner`, which must arrive within `timeout` from now.
    pub(crate) fn new(inner: Payload, timeout: Duration) -> TimedPayload {
        TimedPayload { inner, deadline: Box::pin(sleep(timeout)), timed_out: false }
    }
}

impl Stream for TimedPayload {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.timed_out {
            return Poll::Ready(None);
        }
        if let Poll::Ready(item) = Pin::new(&mut self.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => {
                self.timed_out = true;
                let err = io::Error::new(io::ErrorKind::TimedOut, BODY_TIMEOUT_MESSAGE);
                Poll::Ready(Some(Err(PayloadError::Io(err))))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The message of a body that did not arrive in time.
const BODY_TIMEOUT_MESSAGE: &str = "the request body did not arrive in time";

/// Whether `err` is the one [`TimedPayload`] ends a late body with.
pub(crate) fn is_body_timeout(err: &PayloadError) -> bool {
    matches!(err, PayloadError::Io(err) if err.kind() == io::ErrorKind::TimedOut)
}

/// The 408 of a body that did not arrive in time.
pub(crate) fn body_timeout() -> HttpError {
    HttpError::new(ErrorCode::RequestTimeout, BODY_TIMEOUT_MESSAGE)
}

/// 200 with `answer` in the success envelope, or 400 `ResponseTooLarge` when the envelope
/// would be larger than `limit` bytes.
///
/// # Errors
/// When the answer is too large, or cannot be written as JSON (a bug).
pub(crate) fn respond<T: Serialize>(answer: T, limit: usize) -> Result<HttpResponse, HttpError> {
    let mut body = Bounded { bytes: Vec::new(), limit };
    match serde_json::to_writer(&mut body, &Success::new(answer)) {
        Ok(()) => Ok(HttpResponse::Ok().content_type(ContentType::json()).body(body.bytes)),
        Err(err) if err.io_error_kind() == Some(io::ErrorKind::FileTooLarge) => {
            Err(HttpError::new(
                ErrorCode::ResponseTooLarge,
                format!("the answer is larger than this server's response limit of {limit} bytes"),
            ))
        }
        Err(err) => Err(HttpError::new(ErrorCode::InternalError, err.to_string())),
    }
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
        let response = respond("abc", 64).unwrap();
        let body = response.into_body().try_into_bytes().unwrap();
        assert_eq!(body, r#"{"success":true,"data":"abc"}"#);
        let exact = body.len();
        assert!(respond("abc", exact).is_ok());
        assert_eq!(respond("abc", exact - 1).unwrap_err().code(), ErrorCode::ResponseTooLarge);
    }

    #[actix_web::test]
    async fn a_late_body_ends_with_a_timeout() {
        let (_sender, inner) = actix_http::h1::Payload::create(false);
        let mut timed = TimedPayload::new(Payload::from(inner), Duration::from_millis(10));
        let first = std::future::poll_fn(|cx| Pin::new(&mut timed).poll_next(cx)).await;
        assert!(matches!(first, Some(Err(ref err)) if is_body_timeout(err)), "{first:?}");
        let next = std::future::poll_fn(|cx| Pin::new(&mut timed).poll_next(cx)).await;
        assert!(next.is_none());
    }
}
