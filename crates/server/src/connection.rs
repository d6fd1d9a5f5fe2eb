//! The connections the server accepts: actix-http's own answers to broken requests get the
//! contract's envelope on their way out, and requests keep nothing of their connection.
//!
//! # Overview
//! actix-http's HTTP/1 dispatcher answers some requests before any code of ours runs, with
//! an empty body and no hook to change it: 400 to a request it cannot parse (request line,
//! header, `Content-Length`), 431 to a head larger than it reads (128 KiB or 96 headers), 408
//! to a head that does not arrive within `--client-request-timeout-ms`. [`Enveloped`] wraps
//! every accepted TCP stream and, as those answers are written, gives them a JSON body:
//! [`ErrorCode::MalformedRequest`], [`ErrorCode::HeadersTooLarge`] and
//! [`ErrorCode::RequestTimeout`].
//!
//! [`detach_headers`] copies each request's header values out of its connection's read
//! buffer before the application sees it (see its docs: pooled request heads pinned every
//! connection's buffers after a burst).
//!
//! # Why on the write side
//! A check of each head on the read side would have to parse HTTP as actix does (every
//! request of a kept-alive connection, chunked bodies included, to find where heads start)
//! and agree with it on every rule; it would still not see the 408 of a head that never
//! comes. The dispatcher's own answers are recognisable where they are written (see the
//! invariants), and looking for them costs one `ends_with` per write on the normal path.
//!
//! # Invariants
//! - Such an answer is the last thing the dispatcher writes on its connection (it closes the
//!   connection after), and it is encoded whole into the write buffer before any of it is
//!   written, so it is the tail of every buffer offered to `poll_write` while it is pending.
//! - No answer of the application is a 400, 408 or 431 with `content-length: 0`: every error
//!   it writes carries the envelope, and JSON bodies hold no raw line breaks.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use actix_http::RequestHead;
use actix_http::header::{HeaderMap, HeaderValue};
use actix_web::rt::net::TcpStream;
use api_types::{ErrorBody, ErrorCode};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::request_log::{TARGET, code_name};

/// An accepted stream whose bare error answers from actix-http get the envelope (see the
/// module docs).
pub(crate) struct Enveloped<T = TcpStream> {
    io: T,
    /// The answer that replaces a bare one, while it is being written.
    pending: Option<Replacement>,
}

impl<T> Enveloped<T> {
    /// Wraps `io`.
    pub(crate) fn new(io: T) -> Enveloped<T> {
        Enveloped { io, pending: None }
    }
}

/// The bytes written in place of a bare answer.
struct Replacement {
    bytes: Vec<u8>,
    written: usize,
    /// How many bytes of the caller's buffer (the bare answer) these replace.
    replaces: usize,
}

/// Gives the header values of `head` storage of their own, in a map no larger than they
/// need.
///
/// actix-http reads each header value as a slice of its connection's read buffer (8 KiB),
/// and after a request keeps its head, header map included, in one of two pools of 128 per
/// HTTP worker (its `MessagePool`, actix-web's `HttpRequestPool`; neither size can be
/// configured). So after a burst up to 256 heads per worker each held a whole read buffer and
/// a map with room for 16 headers (6.5 KiB) of a connection long closed: 500 slow bodies left
/// 7.4 MiB live (issue 17, measured with massif). Copied out, a pooled head holds a few
/// hundred bytes. A value that could not be copied (none: each was valid when read) keeps
/// its slice.
pub(crate) fn detach_headers(head: &mut RequestHead) {
    let shared = std::mem::take(&mut head.headers);
    let mut own = HeaderMap::with_capacity(shared.len_keys());
    for (name, value) in shared.iter() {
        let copy = HeaderValue::from_bytes(value.as_bytes()).unwrap_or_else(|_| value.clone());
        own.append(name.clone(), copy);
    }
    head.headers = own;
}

/// The longest bare answer: the status line, `content-length: 0`, `connection: close` and
/// the date, with room to spare.
const MAX_BARE_ANSWER: usize = 256;

/// Where the bare error answer at the end of `buf` starts, and its code; `None` when `buf`
/// does not end with one.
fn bare_answer(buf: &[u8]) -> Option<(usize, ErrorCode)> {
    if !buf.ends_with(b"\r\n\r\n") {
        return None;
    }
    let tail = buf.len().saturating_sub(MAX_BARE_ANSWER);
    let start = tail + buf[tail..].windows(7).rposition(|window| window == b"HTTP/1.")?;
    let head = &buf[start..];
    let code = match head.get(8..13)? {
        b" 400 " => ErrorCode::MalformedRequest,
        b" 408 " => ErrorCode::RequestTimeout,
        b" 431 " => ErrorCode::HeadersTooLarge,
        _ => return None,
    };
    let empty = CONTENT_LENGTH_0.as_bytes();
    let is_empty = head.windows(empty.len()).any(|window| window == empty);
    // One head, the last thing in the buffer.
    let end = head.windows(4).position(|window| window == b"\r\n\r\n")? + 4;
    (is_empty && end == head.len()).then_some((start, code))
}

/// The header line of an empty body, as actix-http writes it.
const CONTENT_LENGTH_0: &str = "\r\ncontent-length: 0\r\n";

/// What a client is told with each code.
fn message(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::RequestTimeout => "the request head did not arrive in time",
        ErrorCode::HeadersTooLarge => {
            "the request head is larger than this server reads (128 KiB, 96 headers)"
        }
        _ => "the request is not valid HTTP/1.1 (its request line, a header or its Content-Length)",
    }
}

/// The log line of a request refused before it was read, at WARN as every 4xx (actix-http's
/// own line for it is filtered out by default: `logging.rs`).
fn log_refused(code: ErrorCode) {
    let name = code_name(code);
    tracing::warn!(
        target: TARGET,
        status = code.status(),
        errorCode = name.as_deref(),
        "request refused before it was read"
    );
}

impl Replacement {
    /// The bare answer `head` (a whole head, no body) with the envelope of `code` as its body.
    fn new(head: &[u8], code: ErrorCode) -> Replacement {
        let body = serde_json::to_vec(&ErrorBody::new(code, message(code)))
            .expect("an error body is always JSON");
        let replaces = head.len();
        let head = String::from_utf8_lossy(head);
        // actix-http closes the connection after these answers, but does not always say so.
        let close =
            if head.contains("\r\nconnection: close\r\n") { "" } else { "connection: close\r\n" };
        let sized = format!(
            "\r\ncontent-length: {}\r\ncontent-type: application/json\r\n{close}",
            body.len()
        );
        let mut bytes = head.replacen(CONTENT_LENGTH_0, &sized, 1).into_bytes();
        bytes.extend_from_slice(&body);
        Replacement { bytes, written: 0, replaces }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Enveloped<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Enveloped<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let replacement = match &mut this.pending {
            Some(replacement) => replacement,
            None => match bare_answer(buf) {
                None => return Pin::new(&mut this.io).poll_write(cx, buf),
                // What comes before the bare answer goes first, as it is.
                Some((start, _)) if start > 0 => {
                    return Pin::new(&mut this.io).poll_write(cx, &buf[..start]);
                }
                Some((_, code)) => {
                    log_refused(code);
                    this.pending.insert(Replacement::new(buf, code))
                }
            },
        };
        // A `Pending` consumes nothing of `buf`: the caller offers it again, and the
        // replacement goes on where it stopped.
        while replacement.written < replacement.bytes.len() {
            let rest = &replacement.bytes[replacement.written..];
            match ready!(Pin::new(&mut this.io).poll_write(cx, rest))? {
                0 => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                written => replacement.written += written,
            }
        }
        let replaces = replacement.replaces;
        this.pending = None;
        Poll::Ready(Ok(replaces))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncWriteExt;

    use super::*;

    const BARE_400: &str = "HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\
                            date: Tue, 24 Nov 2026 19:54:25 GMT\r\n\r\n";

    /// What a client reads after `writes` went through an [`Enveloped`] writing at most
    /// `chunk` bytes a call.
    async fn written(writes: &[&[u8]], chunk: usize) -> String {
        let (client, server) = tokio::io::duplex(chunk);
        let mut enveloped = Enveloped::new(server);
        let reader = actix_web::rt::spawn(async move {
            let mut client = client;
            let mut out = Vec::new();
            tokio::io::AsyncReadExt::read_to_end(&mut client, &mut out).await.unwrap();
            out
        });
        for bytes in writes {
            enveloped.write_all(bytes).await.unwrap();
        }
        enveloped.shutdown().await.unwrap();
        drop(enveloped);
        String::from_utf8(reader.await.unwrap()).unwrap()
    }

    fn envelope(code: &str) -> serde_json::Value {
        serde_json::json!({ "success": false, "errorCode": code })
    }

    /// Splits an answer into its head and its JSON body, checking the body's length.
    fn parse(answer: &str) -> (&str, serde_json::Value) {
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())), "{head}");
        assert!(head.contains("\r\ncontent-type: application/json\r\n"), "{head}");
        (head, serde_json::from_str(body).unwrap())
    }

    #[actix_web::test]
    async fn bare_answers_get_the_envelope_however_they_are_written() {
        for (status, code) in [
            ("400 Bad Request", "MalformedRequest"),
            ("408 Request Timeout", "RequestTimeout"),
            ("431 Request Header Fields Too Large", "HeadersTooLarge"),
        ] {
            let bare = BARE_400.replace("400 Bad Request", status);
            for chunk in [1, 7, 4096] {
                let answer = written(&[bare.as_bytes()], chunk).await;
                let (head, body) = parse(&answer);
                assert!(head.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{head}");
                assert!(head.contains("\r\nconnection: close\r\n"), "{head}");
                assert_eq!(body["errorCode"], envelope(code)["errorCode"], "{body}");
                assert_eq!(body["success"], false);
                assert!(!body["error"].as_str().unwrap().is_empty());
            }
        }
    }

    /// A bare answer after a pipelined answer of the application: the first goes through
    /// untouched, the second gets its body.
    #[actix_web::test]
    async fn what_comes_before_a_bare_answer_is_kept() {
        let first = "HTTP/1.1 200 OK\r\ncontent-length: 15\r\n\r\n{\"status\":\"ok\"}";
        // Not the first answer on its connection: actix-http does not say it closes it.
        let bare = BARE_400.replace("connection: close\r\n", "");
        let both = format!("{first}{bare}");
        for chunk in [1, 10, 4096] {
            let answer = written(&[both.as_bytes()], chunk).await;
            let rest = answer.strip_prefix(first).unwrap();
            let (head, body) = parse(rest);
            assert_eq!(body["errorCode"], "MalformedRequest");
            assert_eq!(head.matches("\r\nconnection: close").count(), 1, "{head}");
        }
    }

    /// Every header, repeated ones in order, survives the copy, which shares no storage with
    /// the buffer the head was read from.
    #[test]
    fn detached_headers_are_copies_of_their_own() {
        let buffer = actix_web::web::Bytes::from_static(b"application/json 12 a b");
        let slice = |range: std::ops::Range<usize>| {
            HeaderValue::from_maybe_shared(buffer.slice(range)).unwrap()
        };
        let mut head = RequestHead::default();
        head.headers.insert(actix_web::http::header::CONTENT_TYPE, slice(0..16));
        head.headers.insert(actix_web::http::header::CONTENT_LENGTH, slice(17..19));
        head.headers.append("x-many".parse().unwrap(), slice(20..21));
        head.headers.append("x-many".parse().unwrap(), slice(22..23));
        let before = head.headers.clone();
        detach_headers(&mut head);
        assert_eq!(head.headers.len(), before.len());
        let in_buffer =
            |value: &HeaderValue| buffer.as_ptr_range().contains(&value.as_bytes().as_ptr());
        assert!(before.iter().all(|(_, value)| in_buffer(value)));
        for name in before.keys() {
            let copies: Vec<_> = head.headers.get_all(name).collect();
            assert_eq!(copies, before.get_all(name).collect::<Vec<_>>(), "{name}");
            assert!(!copies.into_iter().any(in_buffer), "{name}");
        }
    }

    /// Answers of the application, even empty ones, pass as they are.
    #[actix_web::test]
    async fn other_answers_pass_untouched() {
        let answers = [
            "HTTP/1.1 200 OK\r\ncontent-length: 15\r\n\r\n{\"status\":\"ok\"}".to_owned(),
            "HTTP/1.1 200 OK\r\ncontent-length: 15\r\n\r\n".to_owned(),
            "HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n".to_owned(),
            BARE_400.replace("content-length: 0", "content-length: 2") + "{}",
            BARE_400.trim_end().to_owned(),
        ];
        for answer in answers {
            assert_eq!(written(&[answer.as_bytes()], 5).await, answer);
            assert_eq!(bare_answer(answer.as_bytes()), None, "{answer}");
        }
        assert_eq!(bare_answer(BARE_400.as_bytes()), Some((0, ErrorCode::MalformedRequest)));
    }
}
