//! `GET /metrics` of the real binary: histogram buckets for the routes used, no series for
//! unknown paths, the engine's counters, and `--metrics-addr`.

use std::collections::BTreeSet;

use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

use crate::support::{KeptAlive, RunningServer};

const LENGTH: &str = r#"{"term": {"type": "regex", "value": "(abc)?d"}}"#;

/// The series of a scrape: each sample line without its value.
fn series(text: &str) -> BTreeSet<String> {
    let samples = text.lines().filter(|line| !line.starts_with('#') && !line.is_empty());
    samples.map(|line| line.rsplit_once(' ').map_or(line, |(name, _)| name).to_owned()).collect()
}

/// The value of the first sample whose line starts with `prefix` and contains `part`.
fn value(text: &str, prefix: &str, part: &str) -> Option<f64> {
    let line = text.lines().find(|line| line.starts_with(prefix) && line.contains(part))?;
    line.rsplit_once(' ')?.1.parse().ok()
}

fn scrape(server: &RunningServer) -> String {
    let answer = server.get("/metrics");
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert!(answer.header("content-type").is_some_and(|value| value.starts_with("text/plain")));
    answer.body
}

#[test]
fn requests_get_duration_buckets_by_route_template() {
    let server = RunningServer::start(&["--max-states", "20"]);
    let (status, _) = server.post("/v1/analyze/length", LENGTH);
    assert_eq!(status, 200);
    // The same question again: a hit in the answer cache (the term is not looked up); another
    // question of the same term: a hit in the term cache.
    assert_eq!(server.post("/v1/analyze/length", LENGTH).0, 200);
    assert_eq!(server.post("/v1/analyze/empty", LENGTH).0, 200);
    let (status, body) = server
        .post("/v1/compute/determinize", r#"{"term": {"type": "regex", "value": "[a-z]{30}"}}"#);
    assert_eq!(
        (status, body["errorCode"].as_str()),
        (400, Some("AutomatonTooManyStates")),
        "{body}"
    );
    assert_eq!(server.get("/healthz").status, 200);
    assert_eq!(server.get("/no/such/path").status, 404);

    let text = scrape(&server);
    let bucket = "http_server_request_duration_seconds_bucket{";
    let length = r#"http_route="/v1/analyze/length",http_response_status_code="200""#;
    for le in ["le=\"0.001\"", "le=\"1\"", "le=\"+Inf\""] {
        let line = text
            .lines()
            .find(|line| line.starts_with(bucket) && line.contains(length) && line.contains(le));
        assert!(line.is_some(), "no {le} bucket for /v1/analyze/length in\n{text}");
    }
    assert_eq!(value(&text, bucket, &format!("{length},le=\"+Inf\"")), Some(2.0), "{text}");
    assert!(text.contains(r#"http_route="/healthz""#), "{text}");
    assert!(text.contains(r#"http_route="unmatched",http_response_status_code="404""#), "{text}");
    assert!(!text.contains("/no/such/path"), "{text}");
    let states = r#"relang_budget_exhausted_total{limit="states""#;
    assert_eq!(value(&text, states, ""), Some(1.0), "{text}");
    assert!(
        value(&text, "relang_term_cache_requests_total", "hit").is_some_and(|hits| hits >= 1.0),
        "{text}"
    );
    assert!(
        value(&text, "relang_answer_cache_requests_total", "hit").is_some_and(|hits| hits >= 1.0),
        "{text}"
    );
    assert!(value(&text, "http_server_active_requests", "GET").is_some(), "{text}");
    assert!(text.contains("relang_build_info{version=\""), "{text}");
    assert!(
        value(&text, "process_resident_memory_bytes", "").is_some_and(|bytes| bytes > 0.0),
        "{text}"
    );
}

/// Unknown paths, however many and whatever they hold, all count as `unmatched`: 1,000 of
/// them add no series.
#[test]
fn unknown_paths_add_no_series() {
    let server = RunningServer::start(&[]);
    let mut connection = KeptAlive::connect(server.addr()).unwrap();
    assert_eq!(connection.exchange("GET", "/warm-up", "", "").unwrap().status, 404);
    assert_eq!(connection.exchange("POST", "/warm-up", "", "").unwrap().status, 404);
    // The first scrapes add /metrics' own series.
    scrape(&server);
    scrape(&server);
    let before = series(&scrape(&server));
    let mut rng = Pcg64::seed_from_u64(31);
    let mut paths = Vec::new();
    for idx in 0..1_000 {
        let path = format!("/v1/{:x}/{}", rng.random::<u64>(), rng.random::<u32>());
        let method = if idx % 2 == 0 { "GET" } else { "POST" };
        // No body: actix closes a connection whose body a 404 left unread.
        let answer = connection.exchange(method, &path, "", "").unwrap();
        assert_eq!(answer.status, 404, "{path}: {}", answer.body);
        paths.push(path);
    }
    let text = scrape(&server);
    assert_eq!(series(&text), before, "{text}");
    assert!(paths.iter().all(|path| !text.contains(path.as_str())));
}

#[test]
fn metrics_addr_serves_them_apart_from_the_api() {
    let server = RunningServer::start(&["--metrics-addr", "127.0.0.1:0"]);
    let metrics = server.metrics_addr();
    assert_ne!(metrics, server.addr());
    assert_eq!(server.post("/v1/analyze/length", LENGTH).0, 200);
    let (status, body) = server.send("GET", "/metrics", "", "");
    assert_eq!((status, body["errorCode"].as_str()), (404, Some("NotFound")), "{body}");
    let mut connection = KeptAlive::connect(metrics).unwrap();
    let answer = connection.exchange("GET", "/metrics", "", "").unwrap();
    assert_eq!(answer.status, 200);
    assert!(answer.body.contains(r#"http_route="/v1/analyze/length""#), "{}", answer.body);
}
