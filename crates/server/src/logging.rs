//! The log: one line per request, as JSON lines or as quoted `key="value"` text.
//!
//! # Overview
//! - [`LogFormat`]: `--log-format json|text`.
//! - [`init`]: installs the global subscriber (`RUST_LOG` filters, default [`DEFAULT_FILTER`]), which
//!   writes through a [`LogWriter`]: each thread buffers its lines and one thread writes
//!   them out every few milliseconds, so a request's line costs no lock shared with other
//!   workers and no system call (`log_writer.rs`).
//!   Request lines are written by `request_log.rs`, in the same format, without going
//!   through the subscriber's formatting when the lines are plain (JSON, or text without
//!   colours).
//!
//! # Invariants
//! In text, every value but a number or a boolean is quoted and escaped (Rust's `{:?}` of
//! a string), so a value with spaces, quotes or newlines never splits a field or a line.
//! No header is logged: the bearer token never reaches the log.

use std::cell::RefCell;
use std::fmt::{self, Write as _};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use tracing::field::{Field, Visit};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::field::{MakeExt, MakeVisitor, VisitFmt, VisitOutput};
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::FormatTime;

use crate::log_writer::{LogFlush, LogWriter};

/// How log lines are written (to standard output).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One JSON object per line, the event's fields at the top level.
    Json,
    /// `TIME LEVEL target: message key="value" ...`, every non-numeric value quoted.
    Text,
}

/// The filter without `RUST_LOG`: `info`, but not actix-http's ERROR line for each request it
/// cannot parse (a client's error, which a hostile client could repeat at will): the server
/// logs those itself, at WARN (`connection.rs`).
const DEFAULT_FILTER: &str = "info,actix_http::h1::dispatcher=off";

/// Where request lines go when the subscriber's lines are plain (JSON, or text without
/// colours), and in which format: `request_log.rs` writes them there itself.
pub(crate) struct PlainLines {
    pub(crate) format: LogFormat,
    pub(crate) writer: LogWriter,
}

static PLAIN: OnceLock<PlainLines> = OnceLock::new();

/// The plain lines' writer and format, once [`init`] installed a subscriber without colours
/// (one per process: the first call counts).
pub(crate) fn plain_lines() -> Option<&'static PlainLines> {
    PLAIN.get()
}

/// Installs the global log subscriber in `format`, writing to standard output; `RUST_LOG`
/// filters (default: this module's `DEFAULT_FILTER`). Colours only on a
/// terminal, and only in text. Keep the returned guard while the server runs: dropping it writes out the
/// lines still buffered.
pub fn init(format: LogFormat) -> LogFlush {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let (writer, flush) = LogWriter::new(std::io::stdout());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer.clone())
        .with_timer(LineTime);
    let ansi = {
        use std::io::IsTerminal;
        format == LogFormat::Text && std::io::stdout().is_terminal()
    };
    if !ansi {
        let _ = PLAIN.set(PlainLines { format, writer: writer.clone() });
    }
    match format {
        LogFormat::Json => builder.json().flatten_event(true).init(),
        LogFormat::Text => builder.with_ansi(ansi).fmt_fields(TextFields.delimited(" ")).init(),
    }
    flush
}

/// Each line's time as tracing-subscriber's `SystemTime` writes it (RFC 3339 in UTC, with
/// microseconds: `2026-11-24T20:28:28.205695Z`), the date and time to the second formatted
/// once a second per thread rather than for every line.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineTime;

impl FormatTime for LineTime {
    fn format_time(&self, writer: &mut Writer<'_>) -> fmt::Result {
        with_line_time(|second, micros| write!(writer, "{second}.{micros:06}Z"))
    }
}

/// Runs `write` with the time now: the date and time to the second in RFC 3339 without the
/// final `Z` (`2026-11-24T20:28:28`), formatted once a second per thread, and the
/// microseconds.
pub(crate) fn with_line_time<T>(write: impl FnOnce(&str, u32) -> T) -> T {
    thread_local! {
        /// The second last formatted, and its text without the final `Z`.
        static SECOND: RefCell<(u64, String)> = const { RefCell::new((0, String::new())) };
    }
    let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
    let micros = since.subsec_micros();
    SECOND.with_borrow_mut(|(second, text)| {
        if *second != since.as_secs() || text.is_empty() {
            *second = since.as_secs();
            *text = crate::calendar::to_rfc3339(since.as_secs());
            text.pop();
        }
        write(text, micros)
    })
}

/// The fields of a text line, each as [`write_field`] writes it; strings, integers and
/// booleans are written at once (a string's `{:?}` is one quoted, escaped string), without
/// formatting them twice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TextFields;

impl<'a> MakeVisitor<Writer<'a>> for TextFields {
    type Visitor = TextVisitor<'a>;

    fn make_visitor(&self, writer: Writer<'a>) -> TextVisitor<'a> {
        TextVisitor { writer, result: Ok(()) }
    }
}

/// Writes one line's fields ([`TextFields`]); keeps the first error.
pub(crate) struct TextVisitor<'a> {
    writer: Writer<'a>,
    result: fmt::Result,
}

impl TextVisitor<'_> {
    fn bare(&mut self, field: &Field, value: &dyn fmt::Display) {
        if self.result.is_ok() {
            self.result = write!(self.writer, "{}={value}", field.name());
        }
    }
}

impl Visit for TextVisitor<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        if self.result.is_ok() {
            self.result = if field.name() == "message" {
                self.writer.write_str(value)
            } else {
                write!(self.writer, "{}={value:?}", field.name())
            };
        }
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.bare(field, &value);
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.bare(field, &value);
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.bare(field, &value);
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if self.result.is_ok() {
            self.result = if field.name() == "message" {
                write!(self.writer, "{value:?}")
            } else {
                write_field(&mut self.writer, field, value)
            };
        }
    }
}

impl VisitOutput<fmt::Result> for TextVisitor<'_> {
    fn finish(self) -> fmt::Result {
        self.result
    }
}

impl VisitFmt for TextVisitor<'_> {
    fn writer(&mut self) -> &mut dyn fmt::Write {
        &mut self.writer
    }
}

/// One field in text: `message` bare, numbers and booleans bare, anything else quoted.
/// The value's `{:?}` is written into a buffer of the thread's, kept between lines.
fn write_field(writer: &mut Writer<'_>, field: &Field, value: &dyn fmt::Debug) -> fmt::Result {
    thread_local! {
        static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    }
    TEXT.with(|text| match text.try_borrow_mut() {
        Ok(mut text) => write_field_with(writer, field, value, &mut text),
        // A value whose `Debug` logs: a buffer of its own.
        Err(_) => write_field_with(writer, field, value, &mut String::new()),
    })
}

/// [`write_field`] with `text` as the buffer.
fn write_field_with(
    writer: &mut Writer<'_>,
    field: &Field,
    value: &dyn fmt::Debug,
    text: &mut String,
) -> fmt::Result {
    text.clear();
    write!(text, "{value:?}")?;
    if field.name() == "message" {
        return writer.write_str(text);
    }
    if is_bare(text) {
        write!(writer, "{}={text}", field.name())
    } else {
        write!(writer, "{}={text:?}", field.name())
    }
}

/// Whether `text` (a value's `{:?}`) needs no quotes: already one quoted, escaped string,
/// a number or a boolean.
fn is_bare(text: &str) -> bool {
    is_one_quoted_string(text) || text.parse::<f64>().is_ok() || text == "true" || text == "false"
}

/// Whether `text` is `"..."` with every inner quote escaped (a string's `{:?}`).
fn is_one_quoted_string(text: &str) -> bool {
    let Some(inner) = text.strip_prefix('"').and_then(|rest| rest.strip_suffix('"')) else {
        return false;
    };
    let mut escaped = false;
    for c in inner.chars() {
        match (escaped, c) {
            (false, '\\') => escaped = true,
            (false, '"') => return false,
            _ => escaped = false,
        }
    }
    !escaped
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log_writer::Captured;

    #[test]
    fn only_numbers_booleans_and_quoted_strings_stay_bare() {
        for bare in ["12", "0.25", "true", "false", "\"a b\"", "\"\"", r#""say \"hi\"""#] {
            assert!(is_bare(bare), "{bare}");
        }
        for quoted in ["a b", "Mozilla/5.0 (X11)", "\"", "Some(\"x\")", "", "x=1", "\"a\" b \"c\""]
        {
            assert!(!is_bare(quoted), "{quoted}");
        }
    }

    /// The fields of one event, as `fields` writes them (no time, level or target).
    fn formatted<F>(fields: F) -> String
    where
        F: for<'w> tracing_subscriber::fmt::FormatFields<'w> + Send + Sync + 'static,
    {
        let out = Captured::default();
        let subscriber = tracing_subscriber::fmt()
            .without_time()
            .with_level(false)
            .with_target(false)
            .with_ansi(false)
            .fmt_fields(fields)
            .with_writer(out.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            let none: Option<&str> = None;
            tracing::info!(
                path = "/a \"b\"\n",
                status = 404_u16,
                delta = -3_i64,
                latency_ms = 0.25,
                hit = true,
                errorCode = none,
                code = Some("NotFound"),
                "request"
            );
        });
        out.text()
    }

    /// Strings, integers and booleans skip the `{:?}` round trip, and come out as it wrote
    /// them.
    #[test]
    fn text_fields_write_what_the_debug_path_writes() {
        use tracing_subscriber::fmt::format::debug_fn;
        let fast = formatted(TextFields.delimited(" "));
        let slow = formatted(debug_fn(write_field).delimited(" "));
        assert_eq!(fast, slow);
        assert!(
            fast.contains(r#"path="/a \"b\"\n" status=404 delta=-3 latency_ms=0.25"#),
            "{fast}"
        );
        assert!(fast.contains(r#"hit=true code="NotFound""#), "{fast}");
    }

    /// The time of a line is written as tracing-subscriber's own timer writes it.
    #[test]
    fn line_times_are_rfc_3339_as_before() {
        let time = |timer: &dyn Fn(&mut Writer<'_>) -> fmt::Result| {
            let mut text = String::new();
            timer(&mut Writer::new(&mut text)).unwrap();
            text
        };
        // Both at the same second, but for a second that ended in between: try again.
        let (ours, theirs) = (0..3)
            .map(|_| {
                let ours = time(&|writer| LineTime.format_time(writer));
                let theirs =
                    time(&|writer| tracing_subscriber::fmt::time::SystemTime.format_time(writer));
                (ours, theirs)
            })
            .find(|(ours, theirs)| ours[..19] == theirs[..19])
            .unwrap();
        assert_eq!((ours.len(), &ours[19..20], &ours[26..]), (theirs.len(), ".", "Z"), "{ours}");
        assert!(ours[20..26].bytes().all(|byte| byte.is_ascii_digit()), "{ours}");
    }
}
