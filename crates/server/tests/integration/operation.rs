//! The binary as an operator meets it: the request log in both formats, start-up errors
//! as one line with a non-zero exit code, the release's example files.

use std::net::TcpListener;
use std::path::Path;
use std::process::Command;

use clap::Parser;
use serde_json::{Value, json};
use server::{Config, LogFormat};

use crate::support::{RunningServer, app_with, config, request, send};

/// The request lines of `server`'s JSON log for `path`, parsed.
fn json_lines(server: &RunningServer, path: &str) -> Vec<Value> {
    let needle = format!("\"path\":\"{path}\"");
    let lines = server.wait_for_log(&needle);
    lines.iter().map(|line| serde_json::from_str(line).expect("a JSON log line")).collect()
}

#[test]
fn json_logs_have_one_parseable_line_per_request_with_its_outcome() {
    let server = RunningServer::start(&["--log-format", "json"]);
    let start_up = server.log_lines("relang-server listening");
    let start_up: Value = serde_json::from_str(&start_up[0]).expect("a JSON start-up line");
    assert_eq!(start_up["playground"], format!("http://{}/", server.addr()), "{start_up}");

    let body = json!({ "term": { "type": "regex", "value": "a+" } }).to_string();
    let (status, _) = server.post("/v1/analyze/length", &body);
    assert_eq!(status, 200);
    let bad = json!({ "term": { "type": "regex", "value": "a(" } }).to_string();
    let (status, refusal) = server.post("/v1/analyze/cardinality", &bad);
    assert_eq!(status, 400);

    let ok = &json_lines(&server, "/v1/analyze/length")[0];
    assert_eq!(
        (&ok["level"], &ok["method"], &ok["status"]),
        (&json!("INFO"), &json!("POST"), &json!(200))
    );
    assert_eq!(ok.get("errorCode"), None, "{ok}");
    assert!(ok["latency_ms"].as_f64().is_some_and(|ms| ms >= 0.0), "{ok}");
    let failed = &json_lines(&server, "/v1/analyze/cardinality")[0];
    assert_eq!((&failed["level"], &failed["status"]), (&json!("WARN"), &json!(400)), "{failed}");
    assert_eq!(failed["errorCode"], refusal["errorCode"], "{failed}");
    let ids = [&ok["request_id"], &failed["request_id"]].map(|id| id.as_str().expect("an id"));
    assert_ne!(ids[0], ids[1]);
}

/// A response's `x-request-id` is the `request_id` of its log line.
#[test]
fn the_request_id_header_names_the_log_line() {
    use std::io::{Read, Write};
    let server = RunningServer::start(&["--log-format", "json"]);
    let body = json!({ "term": { "type": "regex", "value": "(abc|de){2}" } }).to_string();
    let mut stream = std::net::TcpStream::connect(server.addr()).expect("connect");
    let request = format!(
        "POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("write");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("read");
    let id = response
        .lines()
        .find_map(|line| line.strip_prefix("x-request-id: "))
        .unwrap_or_else(|| panic!("no x-request-id: {response}"));
    let lines = json_lines(&server, "/v1/analyze/empty");
    assert!(lines.iter().any(|line| line["request_id"] == id), "{id}: {lines:?}");
}

#[test]
fn text_logs_quote_every_value() {
    let server = RunningServer::start(&[]);
    let start_up = &server.log_lines("relang-server listening")[0];
    assert!(start_up.contains(&format!("playground=\"http://{}/\"", server.addr())), "{start_up}");
    // A path with a space, quotes and a percent escape stays inside its quotes.
    let (status, _) = server.send("GET", "/no%20such\"page", "", "");
    assert_eq!(status, 404);
    let line = &server.wait_for_log("status=404")[0];
    assert!(line.contains(" WARN "), "{line}");
    let (_, fields) = line.split_once("request ").expect("the request message");
    assert!(fields.contains(r#"path="/no%20such\"page""#), "{line}");
    assert!(fields.contains(r#"errorCode="NotFound""#), "{line}");
    assert!(fields.contains(r#"method="GET""#), "{line}");
    // Every field is `key=value` with a bare number or one quoted string.
    let mut rest = fields.trim_end();
    while !rest.is_empty() {
        let (key, value) = rest.split_once('=').unwrap_or_else(|| panic!("no `=` in {rest}"));
        assert!(key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "key {key:?}: {line}");
        let end = if let Some(quoted) = value.strip_prefix('"') {
            let mut escaped = false;
            let close = quoted.char_indices().find(|&(_, c)| {
                let closes = !escaped && c == '"';
                escaped = !escaped && c == '\\';
                closes
            });
            close.map(|(idx, _)| idx + 2).unwrap_or_else(|| panic!("unclosed quote: {line}"))
        } else {
            let end = value.find(' ').unwrap_or(value.len());
            assert!(value[..end].parse::<f64>().is_ok(), "unquoted {:?}: {line}", &value[..end]);
            end
        };
        rest = value[end..].trim_start();
    }
}

/// Runs the binary with `args` and `RUST_BACKTRACE=1`; its exit code and standard error.
fn fail_to_start(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_relang-server"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("the server binary runs");
    (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
}

#[test]
fn a_port_in_use_is_one_line_naming_the_address_and_bind() {
    let taken = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let address = taken.local_addr().expect("its address").to_string();
    let (code, stderr) = fail_to_start(&["--bind", &address]);
    assert!(code.is_some_and(|code| code != 0), "exit {code:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(&address) && stderr.contains("--bind"), "{stderr}");
    assert!(stderr.contains("in use"), "{stderr}");
}

#[test]
fn a_configuration_error_is_one_line_without_a_backtrace() {
    let (code, stderr) = fail_to_start(&[
        "--bind",
        "127.0.0.1:0",
        "--default-timeout-ms",
        "9",
        "--max-timeout-ms",
        "8",
    ]);
    assert!(code.is_some_and(|code| code != 0), "exit {code:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("relang-server: ") && stderr.contains("above the maximum"),
        "{stderr}"
    );
    let (code, stderr) = fail_to_start(&["--bind", "127.0.0.1:0", "--fair-key", "short"]);
    assert!(code.is_some_and(|code| code != 0), "exit {code:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

/// The release's example tokens file (`dist/`) turns auth on and admits its example
/// token, and the systemd unit's command line is a valid configuration.
#[actix_web::test]
async fn the_release_examples_work_as_shipped() {
    let dist = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../dist");
    let tokens = dist.join("tokens.example.toml");
    let app = app_with(config(&["--tokens-file", tokens.to_str().expect("a UTF-8 path")])).await;
    let limits = |token| request("GET", "/v1/account/limits", token);
    let (status, _, body) = send(&app, limits(Some("replace-me-with-a-long-random-token"))).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["maxRequestsRate"], 10, "{body}");
    let (status, _, _) = send(&app, limits(None)).await;
    assert_eq!(status, 401);

    let unit = std::fs::read_to_string(dist.join("relang-server.service")).expect("the unit");
    let exec = unit.lines().find_map(|line| line.strip_prefix("ExecStart=")).expect("ExecStart");
    let args: Vec<&str> = exec.split_whitespace().collect();
    assert_eq!(args[0], "/usr/local/bin/relang-server");
    let config = Config::try_parse_from(args).expect("the unit's flags parse");
    assert_eq!(config.check(), Ok(()));
    assert_eq!(config.log_format, LogFormat::Json);
}
