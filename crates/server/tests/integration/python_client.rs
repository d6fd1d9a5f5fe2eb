//! The published Python client (`regexsolver` 1.1.0 from PyPI) against the real binary: the
//! scenario of `tests/clients/python_scenario.py` (every client method, answers checked in
//! Python), and a rate-limited token (429 with `Retry-After`, waited out by the client).
//!
//! The client is installed once per run into a venv under `CARGO_TARGET_TMPDIR`, kept for
//! the next run while it still imports regexsolver 1.1.0.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::support::{RunningServer, TempDir, pypi_venv, token};

const TOKEN: &str = "python-client-token";
const CALLS: u64 = 4;

/// The Python of a venv with `regexsolver==1.1.0`, or `None` (printed) when Python or PyPI
/// is out of reach.
fn client_python() -> Option<&'static Path> {
    static PYTHON: OnceLock<Option<PathBuf>> = OnceLock::new();
    PYTHON.get_or_init(|| pypi_venv("regexsolver", "1.1.0")).as_deref()
}

#[test]
fn the_python_client_scenario_calls_every_method_and_gets_right_answers() {
    let Some(python) = client_python() else { return };
    let server = RunningServer::start(&[]);
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/clients/python_scenario.py");
    let output = Command::new(python)
        .arg(&script)
        .arg(format!("http://{}/v1", server.addr()))
        .output()
        .expect("the venv's python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    // The script checks that it called every public method; the endpoints are all there.
    let methods = report["methods"].as_array().expect("a list of methods");
    for method in ["get_account_limits", "get_cardinality", "determinize", "generate_strings"] {
        assert!(methods.contains(&json!(method)), "{method} not called: {report}");
    }
    assert!(methods.len() >= 19, "{report}");
    assert!(report["checks"].as_u64().is_some_and(|checks| checks >= 80), "{report}");
}

#[test]
fn the_python_client_waits_for_retry_after_and_succeeds() {
    let Some(python) = client_python() else { return };
    let dir = TempDir::new("python-client");
    let tokens = dir.write("tokens.toml", &token(TOKEN, &[("maxRequestsRate", 1)]));
    let server = RunningServer::start(&["--tokens-file", tokens.to_str().unwrap()]);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/retry_after.py");
    let base_url = format!("http://{}/v1", server.addr());
    let output = Command::new(python)
        .arg(&script)
        .args([base_url.as_str(), TOKEN, &CALLS.to_string()])
        .output()
        .expect("the venv's python runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let report: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");

    // Every call succeeded, with the right answer.
    let expected: Vec<Value> = (1..=CALLS).map(|n| json!([n, n])).collect();
    assert_eq!(report["lengths"], json!(expected), "{report}");
    // The client saw 429s and waited them out: 4 calls at 1 per second take 3 s or more.
    assert!(report["retries"].as_u64().is_some_and(|retries| retries >= 1), "{report}");
    assert!(report["elapsed"].as_f64().is_some_and(|elapsed| elapsed >= 2.5), "{report}");
    // And the server says so too.
    let refused = server.log_lines("status=429");
    assert!(!refused.is_empty(), "no 429 in the server log");
}
