//! The playground in Debian's headless chromium, driven by `tests/browser/playground.mjs`
//! (playwright-core from npm) against the real binary; what the page shows is compared with
//! the API's own answers.
//!
//! It skips, saying why on the terminal (`support::skip`), without `/usr/bin/chromium`,
//! Node.js or the npm registry, and fails instead under `CI=true`. The
//! binary is the one cargo built for this test run (the debug one under `cargo test`, the
//! release one under `cargo test --release`); the script also runs by hand against any
//! server (`tests/browser/README.md`). Screenshots go to `target/browser/`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Value, json};

use crate::support::{RunningServer, TempDir, run_or_skip, skip, token};

/// The token the page is given for the server with a tokens file.
const TOKEN: &str = "playground-token";

const CHROMIUM: &str = "/usr/bin/chromium";

/// The workspace's `tests/browser`, copied with `playwright-core` installed into `dir`, or
/// `None` (printed) when chromium, Node.js or npm is missing or the registry out of reach.
fn install_script(dir: &Path) -> Option<PathBuf> {
    if !Path::new(CHROMIUM).exists() {
        skip(&format!("no {CHROMIUM} (apt-get install chromium)"));
        return None;
    }
    run_or_skip(
        "node --version (needs Node.js 20 or later)",
        Command::new("node").arg("--version"),
    )?;
    let source = workspace().join("tests/browser");
    for file in ["package.json", "package-lock.json", "playground.mjs"] {
        std::fs::copy(source.join(file), dir.join(file)).expect("copy tests/browser");
    }
    let mut install = Command::new("npm");
    install
        .args(["ci", "--no-audit", "--no-fund", "--fetch-retries=1", "--fetch-timeout=30000"])
        .current_dir(dir);
    run_or_skip("npm ci of playwright-core (needs npm and its registry)", &mut install)?;
    Some(dir.join("playground.mjs"))
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The API's `data` for `body` at `path`.
fn api(server: &RunningServer, path: &str, body: Value) -> Value {
    let (status, answer) = server.post(path, &body.to_string());
    assert_eq!(status, 200, "{answer}");
    answer["data"].clone()
}

/// The strings of one page of `[a-z]{2}`, five at a time, from the API.
fn page(server: &RunningServer, offset: u64) -> Value {
    let body =
        json!({ "term": { "type": "regex", "value": "[a-z]{2}" }, "limit": 5, "offset": offset });
    api(server, "/v1/generate/strings", body)["strings"]["value"].clone()
}

#[test]
fn the_playground_intersects_generates_and_marks_errors_in_chromium() {
    let dir = TempDir::new("browser");
    let Some(script) = install_script(dir.path()) else { return };
    let server = RunningServer::start(&[]);
    let tokens = dir.write("tokens.toml", &token(TOKEN, &[]));
    let guarded = RunningServer::start(&["--tokens-file", tokens.to_str().expect("UTF-8")]);
    let shots = workspace().join("target/browser");
    let output = Command::new("node")
        .arg(&script)
        .arg(format!("http://{}/", server.addr()))
        .arg(&shots)
        .arg(format!("http://{}/", guarded.addr()))
        .arg(TOKEN)
        .current_dir(dir.path())
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let seen: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(seen["problems"], json!([]), "{seen}");

    // The intersection: the API's pattern, its strings, its automaton drawn.
    let terms = json!([
        { "type": "regex", "value": "(abc|de){2}" },
        { "type": "regex", "value": "de.*" },
    ]);
    let body = json!({ "terms": terms, "options": { "response": { "format": "regex" } } });
    let pattern = api(&server, "/v1/compute/intersection", body)["value"].clone();
    assert_eq!(seen["intersection"], pattern, "{seen}");
    let sample = seen["sample"].as_array().expect("the result's strings");
    assert!(sample.contains(&json!("deabc")), "{seen}");
    let dot =
        api(&server, "/v1/analyze/dot", json!({ "term": { "type": "regex", "value": pattern } }));
    assert_eq!(seen["dot"], dot["value"], "{seen}");
    let dot = dot["value"].as_str().expect("DOT text");
    let lines_of_states = |needle| {
        let of_a_state = |line: &&str| line.trim_start().starts_with(|c: char| c.is_ascii_digit());
        dot.lines().filter(of_a_state).filter(|line| line.contains(needle)).count()
    };
    let drawing = &seen["drawing"];
    assert_eq!(drawing["states"], lines_of_states("[shape="), "{seen}");
    assert_eq!(drawing["accepting"], lines_of_states("doublecircle"), "{seen}");
    assert_eq!(drawing["edgeLabels"].as_array().map(Vec::len), Some(lines_of_states(" -> ")));

    // A shared link restores the form and the answer.
    assert_eq!(seen["shared"]["terms"], json!(["(abc|de){2}", "de.*"]), "{seen}");
    assert_eq!(seen["shared"]["operation"], "compute/intersection", "{seen}");
    assert_eq!(seen["shared"]["result"], pattern, "{seen}");

    // Generation, page after page, exactly as the API pages it.
    assert_eq!(seen["firstPage"], page(&server, 0), "{seen}");
    assert_eq!(seen["secondPage"], page(&server, 5), "{seen}");
    assert_ne!(seen["firstPage"], seen["secondPage"], "{seen}");

    // The syntax error: inline with its code, the quoted part marked in the second term.
    let body = json!({ "terms": [{ "type": "regex", "value": "abc" }, { "type": "regex", "value": "de(?|x)" }] });
    let (status, refusal) = server.post("/v1/compute/union", &body.to_string());
    assert_eq!(status, 400, "{refusal}");
    assert_eq!(seen["error"]["code"], refusal["errorCode"], "{seen}");
    assert_eq!(seen["error"]["message"], refusal["error"], "{seen}");
    let message = refusal["error"].as_str().expect("a message");
    let quoted = message.rsplit_once(": `").and_then(|(_, rest)| rest.strip_suffix("`)"));
    assert_eq!(seen["error"]["marked"].as_str(), quoted, "{seen}");
    assert_eq!(seen["error"]["invalid"], "true", "{seen}");

    // A phone's width needs no sideways scrolling.
    assert!(seen["narrow"]["scrollWidth"].as_u64() <= seen["narrow"]["innerWidth"].as_u64());

    check_the_first_hour(&server, &seen);

    let shots_taken =
        ["intersection", "generate", "syntax-error", "narrow", "large-1280", "large-390"];
    for name in shots_taken.into_iter().chain(["playground-1280", "playground-390"]) {
        let png = std::fs::read(shots.join(format!("{name}.png"))).expect("a screenshot");
        assert!(png.starts_with(b"\x89PNG"), "{name}.png is not a PNG");
    }
    println!("screenshots in {}", shots.display());
}

/// The API's verdicts on `strings` against `pattern`, as the page shows them.
fn verdicts(server: &RunningServer, pattern: &str, strings: &[&str]) -> Value {
    let body = json!({ "term": { "type": "regex", "value": pattern }, "strings": strings });
    let results = api(server, "/v1/analyze/match", body)["results"].clone();
    let results = results.as_array().expect("one result per string").iter().zip(strings);
    let shown = results.map(|(result, text)| {
        let matches = result["matches"].as_bool().expect("a verdict");
        let viable = (!matches).then(|| result["viablePrefixLength"].to_string());
        json!({ "matches": matches, "viable": viable, "text": format!("{}{text}", if matches { "✓" } else { "✗" }) })
    });
    Value::Array(shown.collect())
}

/// What a newcomer meets first: the drawing on first load, the running state, the test
/// strings, the witness explained, seeded generation, a large automaton drawn whole at two
/// widths and exported, and a token.
fn check_the_first_hour(server: &RunningServer, seen: &Value) {
    assert!(seen["firstLoad"]["states"].as_u64().is_some_and(|states| states > 1), "{seen}");

    let running = &seen["running"];
    assert_eq!(running["busy"], "true", "{seen}");
    assert_eq!(running["oldResultShown"], 0, "{seen}");
    assert_eq!(running["runDisabled"], true, "{seen}");
    assert!(running["result"].as_str().is_some_and(|text| text.starts_with("Running Union")));

    let strings = ["abcde", "dede", "dex", "ab", "\u{660}"];
    let tested = &seen["tested"];
    assert_eq!(tested["term"], "(abc|de){2}", "{seen}");
    assert_eq!(tested["results"], verdicts(server, "(abc|de){2}", &strings), "{seen}");
    assert_eq!(seen["retested"]["results"], verdicts(server, "de.*", &strings), "{seen}");

    let body = json!({ "terms": [{ "type": "regex", "value": "\\d" }, { "type": "regex", "value": "[0-9]" }] });
    let witness = api(server, "/v1/analyze/equivalent", body)["witness"].clone();
    assert_eq!(seen["witness"]["witness"], witness, "{seen}");
    assert_eq!(seen["witness"]["why"], "Term 1 matches this string, term 2 does not:", "{seen}");
    let code_point =
        format!("U+{:04X}", witness.as_str().and_then(|w| w.chars().next()).map_or(0, u32::from));
    assert_eq!(seen["witness"]["codePoints"], format!(" ({code_point})"), "{seen}");

    let body = json!({
        "term": { "type": "regex", "value": "[a-z]{2}" }, "limit": 5, "offset": 0,
        "pathOrder": "shuffled", "characterOrder": "shuffled", "seed": 7,
    });
    assert_eq!(seen["shuffledPage"], api(server, "/v1/generate/strings", body)["strings"]["value"]);

    let body = json!({ "term": { "type": "regex", "value": "(a|b)*a(a|b){4}" } });
    let dot = api(server, "/v1/analyze/dot", body)["value"].clone();
    assert_eq!(seen["largeDot"], dot, "{seen}");
    let of_a_state = |line: &&str| line.trim_start().starts_with(|c: char| c.is_ascii_digit());
    let states = dot.as_str().map_or(0, |dot| {
        dot.lines().filter(of_a_state).filter(|line| line.contains("[shape=")).count()
    });
    assert_eq!(states, 32, "{dot}");
    for width in ["1280", "390"] {
        let large = &seen["large"][width];
        assert_eq!(large["states"], states, "{width}: {seen}");
        assert_eq!(
            (&large["outside"], &large["scrolls"]),
            (&json!(0), &json!(false)),
            "{width}: {large}"
        );
        assert_eq!(
            (&large["inViewport"], &large["startArrows"]),
            (&json!(true), &json!(1)),
            "{large}"
        );
    }
    let exported = &seen["exported"];
    assert_eq!(exported["name"], "automaton.svg", "{seen}");
    assert_eq!((&exported["isSvg"], &exported["styled"]), (&json!(true), &json!(true)), "{seen}");
    assert_eq!(exported["states"], states, "{seen}");

    let auth = &seen["auth"];
    assert_eq!(auth["refused"], "MissingOrMalformedToken", "{seen}");
    assert_eq!(auth["accessOpen"], "", "the access box opens: {seen}");
    assert!(auth["answered"].as_str().is_some_and(|pattern| !pattern.is_empty()), "{seen}");
    assert_eq!(auth["kept"], TOKEN, "{seen}");
}
