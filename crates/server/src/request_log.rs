//! The request log: one line per request, written when it is answered, straight into the
//! log writer's buffer of the thread that answered it.
//!
//! # Overview
//! - [`RequestLog`]: what the request middleware (`startup.rs`) logs of each request, once,
//!   when it is answered: `method`, `path`, `status`, `errorCode` (failures only),
//!   `latency_ms` and `request_id` (also sent back as the `x-request-id` header). 5xx are logged at `ERROR`, 4xx at
//!   `WARN`, the rest at `INFO`.
//! - when `logging::init` found its lines plain (JSON, or text without colours,
//!   [`plain_lines`]), a request's line is written here, as bytes into the thread's
//!   buffer of the [`LogWriter`](crate::log_writer::LogWriter) (integers and the latency
//!   written digit by digit, the time from the thread's text of the current second, no
//!   `format!`, no `String` per field),
//!   when `RUST_LOG` enables the line's level. Otherwise (colours, or no `init`, as in the
//!   in-process tests) the line is a `tracing` event, formatted by whatever subscriber is
//!   installed.
//!
//! # Invariants
//! A line written here is, byte for byte, the line tracing-subscriber writes for the same
//! event in the same format (the tests compare both, over any method, path, status and
//! latency): the log's format does not depend on the path a line takes. No header is
//! logged: the bearer token never reaches the log.

use std::cell::RefCell;
use std::fmt;
use std::io::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::http::{Method, Uri};
use actix_web::web::Bytes;
use api_types::ErrorCode;
use tracing::Level;

use crate::calendar::unix_now;
use crate::error::HttpError;
use crate::logging::{LogFormat, plain_lines, with_line_time};

/// The target of request lines.
pub(crate) const TARGET: &str = "relang::request";

/// A process-unique request id: the start time in seconds (hex) and a counter, so the ids
/// of two replicas or two runs rarely meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RequestId {
    started: u64,
    count: u64,
}

impl RequestId {
    fn next() -> RequestId {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        static STARTED: OnceLock<u64> = OnceLock::new();
        let started = *STARTED.get_or_init(unix_now);
        RequestId { started, count: NEXT.fetch_add(1, Ordering::Relaxed) }
    }

    /// Appends the id (`6743a1b0-12`) to `out`.
    fn write(self, out: &mut Vec<u8>) {
        push_hex(out, self.started);
        out.push(b'-');
        push_decimal(out, self.count);
    }

    /// The `x-request-id` header's value, on the bytes written for it (not a copy).
    fn header_value(self) -> Option<HeaderValue> {
        let mut text = Vec::with_capacity(40);
        self.write(&mut text);
        HeaderValue::from_maybe_shared(Bytes::from(text)).ok()
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:x}-{}", self.started, self.count)
    }
}

/// One request's line.
#[derive(Clone, Copy, Debug)]
struct RequestLine<'a> {
    level: Level,
    method: &'a str,
    path: &'a str,
    status: u16,
    error_code: Option<ErrorCode>,
    /// The time to answer, in whole microseconds (logged in milliseconds).
    latency_micros: u64,
    request_id: RequestId,
}

impl RequestLine<'_> {
    /// Logs the line: into the installed writer when there is one and the filter enables the
    /// line's level, else as a `tracing` event.
    fn log(&self) {
        let enabled = match self.level {
            Level::ERROR => tracing::enabled!(target: TARGET, Level::ERROR),
            Level::WARN => tracing::enabled!(target: TARGET, Level::WARN),
            _ => tracing::enabled!(target: TARGET, Level::INFO),
        };
        if !enabled {
            return;
        }
        match plain_lines() {
            Some(plain) => with_line_time(|second, micros| {
                with_scratch(|line| {
                    self.write(plain.format, second, micros, line);
                    plain.writer.write_line(line);
                });
            }),
            None => self.event(),
        }
    }

    /// The line as a `tracing` event.
    fn event(&self) {
        let error_code = self.error_code.and_then(code_name);
        let request_id = self.request_id.to_string();
        // The same value as the plain line's digits: whole microseconds, in milliseconds.
        let latency_ms = self.latency_micros as f64 / 1e3;
        macro_rules! request_event {
            ($level:expr) => {
                tracing::event!(
                    target: TARGET,
                    $level,
                    method = self.method,
                    path = self.path,
                    status = self.status,
                    errorCode = error_code.as_deref(),
                    latency_ms,
                    request_id = request_id.as_str(),
                    "request"
                )
            };
        }
        match self.level {
            Level::ERROR => request_event!(Level::ERROR),
            Level::WARN => request_event!(Level::WARN),
            _ => request_event!(Level::INFO),
        }
    }

    /// Appends the whole line in `format` to `out`, with the time `second` (the date and
    /// time to the second, without the `Z`) and `micros`.
    fn write(&self, format: LogFormat, second: &str, micros: u32, out: &mut Vec<u8>) {
        match format {
            LogFormat::Json => self.write_json(second, micros, out),
            LogFormat::Text => self.write_text(second, micros, out),
        }
    }

    /// `{"timestamp":...,"level":...,"message":"request",fields...,"target":...}`, as
    /// tracing-subscriber's flattened JSON.
    fn write_json(&self, second: &str, micros: u32, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"timestamp\":\"");
        push_time(out, second, micros);
        out.extend_from_slice(b"\",\"level\":\"");
        out.extend_from_slice(self.level.as_str().as_bytes());
        out.extend_from_slice(b"\",\"message\":\"request\"");
        self.write_fields(
            out,
            |out, key| push_parts(out, &[b",\"", key, b"\":"]),
            push_json_string,
        );
        push_parts(out, &[b",\"target\":\"", TARGET.as_bytes(), b"\"}\n"]);
    }

    /// `TIME LEVEL relang::request: request key=value ...`, as tracing-subscriber's full
    /// text format with `logging`'s fields.
    fn write_text(&self, second: &str, micros: u32, out: &mut Vec<u8>) {
        push_time(out, second, micros);
        out.extend_from_slice(match self.level {
            Level::ERROR => b" ERROR ",
            Level::WARN => b"  WARN ",
            _ => b"  INFO ",
        });
        push_parts(out, &[TARGET.as_bytes(), b": request"]);
        self.write_fields(out, |out, key| push_parts(out, &[b" ", key, b"="]), push_debug_string);
        out.push(b'\n');
    }

    /// The fields, in order, each after `key` (which writes its name and separator), strings
    /// quoted by `string`; the request id is quoted in both formats.
    fn write_fields(
        &self,
        out: &mut Vec<u8>,
        key: fn(&mut Vec<u8>, &[u8]),
        string: fn(&mut Vec<u8>, &str),
    ) {
        key(out, b"method");
        string(out, self.method);
        key(out, b"path");
        string(out, self.path);
        key(out, b"status");
        push_decimal(out, u64::from(self.status));
        if let Some(code) = self.error_code {
            key(out, b"errorCode");
            push_code(out, code);
        }
        key(out, b"latency_ms");
        push_millis(out, self.latency_micros);
        key(out, b"request_id");
        out.push(b'"');
        self.request_id.write(out);
        out.push(b'"');
    }
}

/// Appends `parts` one after another.
fn push_parts(out: &mut Vec<u8>, parts: &[&[u8]]) {
    for part in parts {
        out.extend_from_slice(part);
    }
}

/// Runs `write` with a buffer of the thread's, emptied, kept between lines.
fn with_scratch(write: impl FnOnce(&mut Vec<u8>)) {
    thread_local! {
        static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut line) => {
            line.clear();
            write(&mut line);
        }
        Err(_) => write(&mut Vec::new()),
    });
}

/// The name of `code` as the envelope writes it (`RegexSyntaxError`).
pub(crate) fn code_name(code: ErrorCode) -> Option<String> {
    serde_json::to_value(code).ok().and_then(|name| name.as_str().map(str::to_owned))
}

/// `code`'s name as a quoted string: the same in JSON and in text (names are ASCII letters).
fn push_code(out: &mut Vec<u8>, code: ErrorCode) {
    // Writing to a `Vec` does not fail, nor does serializing a unit variant.
    let _ = serde_json::to_writer(out, &code);
}

/// Whether `text` is written as it is inside quotes, in JSON and by `{:?}` alike: printable
/// ASCII but for the quote and the backslash.
fn is_plain(text: &str) -> bool {
    text.bytes().all(|byte| (b' '..=b'~').contains(&byte) && byte != b'"' && byte != b'\\')
}

/// `text` as a JSON string, as `serde_json` writes it.
fn push_json_string(out: &mut Vec<u8>, text: &str) {
    push_quoted(out, text, |out, text| {
        let _ = serde_json::to_writer(out, text);
    });
}

/// `text` quoted and escaped, as `{:?}` writes it.
fn push_debug_string(out: &mut Vec<u8>, text: &str) {
    push_quoted(out, text, |out, text| {
        let _ = write!(out, "{text:?}");
    });
}

/// `text` between quotes when [`is_plain`], else as `escaped` writes it (quotes included).
fn push_quoted(out: &mut Vec<u8>, text: &str, escaped: fn(&mut Vec<u8>, &str)) {
    if is_plain(text) {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
    } else {
        escaped(out, text);
    }
}

/// `second` (the date and time without the `Z`), then `.`, six digits of `micros`, `Z`.
fn push_time(out: &mut Vec<u8>, second: &str, micros: u32) {
    out.extend_from_slice(second.as_bytes());
    out.push(b'.');
    push_padded(out, u64::from(micros), 6);
    out.push(b'Z');
}

/// `value` in decimal.
fn push_decimal(out: &mut Vec<u8>, value: u64) {
    let mut digits = [0_u8; 20];
    let mut start = digits.len();
    let mut rest = value;
    loop {
        start -= 1;
        // A digit: the remainder is below 10.
        digits[start] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

/// `value` in decimal, zero-padded to at least `width` digits.
fn push_padded(out: &mut Vec<u8>, value: u64, width: usize) {
    let n_digits = value.checked_ilog10().map_or(1, |log| log as usize + 1);
    out.extend(std::iter::repeat_n(b'0', width.saturating_sub(n_digits)));
    push_decimal(out, value);
}

/// `value` in lower-case hexadecimal.
fn push_hex(out: &mut Vec<u8>, value: u64) {
    let n_digits = (value.checked_ilog2().unwrap_or(0) / 4 + 1) as usize;
    for idx in (0..n_digits).rev() {
        // A nibble: below 16.
        out.push(b"0123456789abcdef"[((value >> (4 * idx)) & 0xf) as usize]);
    }
}

/// `micros` microseconds in milliseconds, as `serde_json` and `{:?}` write the `f64` of
/// `micros / 1000`: the shortest decimal, at least one digit after the point (`1.0`).
/// Exact for every latency below 2^53 ns: three decimals are the shortest that give the
/// same `f64`.
fn push_millis(out: &mut Vec<u8>, micros: u64) {
    push_decimal(out, micros / 1_000);
    out.push(b'.');
    let mut fraction = micros % 1_000;
    if fraction == 0 {
        out.push(b'0');
        return;
    }
    let mut width = 3;
    while fraction.is_multiple_of(10) {
        fraction /= 10;
        width -= 1;
    }
    push_padded(out, fraction, width);
}

/// One request's log line in the making: started when the request reaches the app, logged
/// when it is answered (the request middleware, `startup.rs`); see the module docs for the
/// fields and levels.
pub(crate) struct RequestLog {
    request_id: RequestId,
    method: Method,
    uri: Uri,
}

impl RequestLog {
    /// Gives `req` its id.
    pub(crate) fn start(req: &ServiceRequest) -> RequestLog {
        RequestLog {
            request_id: RequestId::next(),
            method: req.method().clone(),
            uri: req.uri().clone(),
        }
    }

    /// Logs the request, answered `res` after `took`, and sends its id back with the answer.
    ///
    /// # Errors
    /// `res`'s error, logged.
    pub(crate) fn finish<B>(
        self,
        res: Result<ServiceResponse<B>, actix_web::Error>,
        took: Duration,
    ) -> Result<ServiceResponse<B>, actix_web::Error> {
        let (status, error) = match &res {
            Ok(res) => (res.status(), res.response().error()),
            Err(err) => (err.as_response_error().status_code(), Some(err)),
        };
        let status = status.as_u16();
        let line = RequestLine {
            level: match status {
                500.. => Level::ERROR,
                400..500 => Level::WARN,
                _ => Level::INFO,
            },
            method: self.method.as_str(),
            path: self.uri.path(),
            status,
            error_code: error.and_then(|err| err.as_error::<HttpError>()).map(HttpError::code),
            latency_micros: u64::try_from((took.as_nanos() + 500) / 1_000).unwrap_or(u64::MAX),
            request_id: self.request_id,
        };
        line.log();
        let mut res = res?;
        if let Some(value) = self.request_id.header_value() {
            res.headers_mut().insert(HeaderName::from_static("x-request-id"), value);
        }
        Ok(res)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::log_writer::Captured;
    use crate::logging::{LineTime, TextFields};

    /// `line` as the log subscriber of `logging::init` writes it in `format`, as an event.
    fn through_tracing(line: &RequestLine<'_>, format: LogFormat) -> String {
        use tracing_subscriber::field::MakeExt;
        let captured = Captured::default();
        let builder = tracing_subscriber::fmt()
            .with_writer(captured.clone())
            .with_timer(LineTime)
            .with_ansi(false)
            .with_max_level(Level::TRACE);
        match format {
            LogFormat::Json => {
                let subscriber = builder.json().flatten_event(true).finish();
                tracing::subscriber::with_default(subscriber, || line.event());
            }
            LogFormat::Text => {
                let subscriber = builder.fmt_fields(TextFields.delimited(" ")).finish();
                tracing::subscriber::with_default(subscriber, || line.event());
            }
        }
        captured.text()
    }

    /// `line` as written straight, with the time of `reference` (which starts with it).
    fn written(line: &RequestLine<'_>, format: LogFormat, reference: &str) -> String {
        let start = usize::from(format == LogFormat::Json) * r#"{"timestamp":""#.len();
        let second = &reference[start..start + 19];
        let micros = reference[start + 20..start + 26].parse().unwrap();
        let mut out = Vec::new();
        line.write(format, second, micros, &mut out);
        String::from_utf8(out).unwrap()
    }

    fn check(line: &RequestLine<'_>) {
        for format in [LogFormat::Json, LogFormat::Text] {
            let reference = through_tracing(line, format);
            assert_eq!(written(line, format, &reference), reference, "{format:?}");
        }
    }

    fn line<'a>(method: &'a str, path: &'a str, status: u16, micros: u64) -> RequestLine<'a> {
        RequestLine {
            level: match status {
                500.. => Level::ERROR,
                400..500 => Level::WARN,
                _ => Level::INFO,
            },
            method,
            path,
            status,
            error_code: (status >= 400).then_some(ErrorCode::RegexSyntaxError),
            latency_micros: micros,
            request_id: RequestId { started: 0x6743_a1b0, count: micros },
        }
    }

    #[test]
    fn lines_are_the_ones_tracing_writes() {
        check(&line("POST", "/v1/analyze/empty", 200, 123));
        check(&line("GET", "/no%20such\"page", 404, 0));
        check(&line("DELETE", "/a\\b\n\u{7f}é", 503, 1_000));
        check(&line("PUT", "", 429, 120_500));
        let mut no_code = line("POST", "/v1/x", 500, 7);
        no_code.error_code = None;
        check(&no_code);
        let mut code = line("POST", "/v1/x", 413, 99_999_999);
        code.error_code = Some(ErrorCode::PayloadTooLarge);
        check(&code);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn any_line_is_the_one_tracing_writes(
            method in "[A-Z]{1,8}|.{0,4}",
            path in "/[ -~]{0,30}|.{0,12}",
            status in 100_u16..600,
            micros in prop_oneof![0_u64..10_000, 0_u64..1 << 40],
            count in any::<u64>(),
        ) {
            let mut line = line(&method, &path, status, micros);
            line.request_id.count = count;
            for format in [LogFormat::Json, LogFormat::Text] {
                let reference = through_tracing(&line, format);
                prop_assert_eq!(written(&line, format, &reference), reference);
            }
        }

        #[test]
        fn integers_are_written_as_display_writes_them(value in any::<u64>(), width in 0_usize..22) {
            let mut out = Vec::new();
            push_padded(&mut out, value, width);
            prop_assert_eq!(String::from_utf8(out).unwrap(), format!("{value:0width$}"));
            let mut out = Vec::new();
            push_hex(&mut out, value);
            prop_assert_eq!(String::from_utf8(out).unwrap(), format!("{value:x}"));
        }
    }

    #[test]
    fn request_ids_differ_and_read_as_their_header() {
        let (first, second) = (RequestId::next(), RequestId::next());
        assert_ne!(first, second);
        let header = first.header_value().unwrap();
        assert_eq!(header.to_str().unwrap(), first.to_string());
    }
}
