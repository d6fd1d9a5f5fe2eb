//! The published Python client (`regexsolver` 1.1.0 from PyPI) against a rate-limited token:
//! it gets 429 with `Retry-After`, waits, retries by itself, and every call succeeds.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{RunningServer, TempDir, run_or_skip, token};

const TOKEN: &str = "python-client-token";
const CALLS: u64 = 4;

/// A throw-away venv with `regexsolver==1.1.0`, or `None` (printed) when Python or PyPI
/// is out of reach.
fn install_client(dir: &Path) -> Option<PathBuf> {
    let venv = dir.join("venv");
    let mut create = Command::new("python3");
    create.args(["-m", "venv"]).arg(&venv);
    run_or_skip("python3 -m venv (needs python3 and python3-venv)", &mut create)?;
    let mut install = Command::new(venv.join("bin/pip"));
    install.args(["install", "--quiet", "--disable-pip-version-check"]).args([
        "--retries",
        "1",
        "--timeout",
        "20",
        "regexsolver==1.1.0",
    ]);
    run_or_skip("pip install regexsolver==1.1.0 (needs PyPI)", &mut install)?;
    Some(venv.join("bin/python"))
}

#[test]
fn the_python_client_waits_for_retry_after_and_succeeds() {
    let dir = TempDir::new("python-client");
    let Some(python) = install_client(dir.path()) else { return };
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
    let refused = server.log_lines("http.status_code=429");
    assert!(!refused.is_empty(), "no 429 in the server log");
}
