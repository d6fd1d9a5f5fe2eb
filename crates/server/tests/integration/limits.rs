//! Issue 17's findings of a hostile client, one regression test each (`r17_<slug>`): what a
//! careful operator of a public service expects at the edges of HTTP and JSON.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::http::header;
use actix_web::test::{TestRequest, call_service};
use serde_json::{Value, json};

use crate::support::{
    RunningServer, app, app_with, app_with_tokens, config, error, post, read, regex, request, skip,
    timed_alone, token,
};

#[actix_web::test]
async fn r17_head_healthz_answers() {
    let app = app().await;
    let req = TestRequest::default().method(actix_web::http::Method::HEAD).uri("/healthz");
    let res = call_service(&app, req.to_request()).await;
    assert_eq!(res.status(), 200);
}

#[actix_web::test]
async fn r17_unauthorized_carries_a_bearer_challenge() {
    let app = app_with_tokens(&[token("alice-token", &[])], &[]).await;
    let term = json!({ "term": regex("a") });
    for (bearer, challenge) in [
        (None, "Bearer realm=\"relang\""),
        (Some("someone-else"), "Bearer realm=\"relang\", error=\"invalid_token\""),
    ] {
        let req = request("POST", "/v1/analyze/empty", bearer).set_json(&term);
        let res = call_service(&app, req.to_request()).await;
        let value = res.headers().get(header::WWW_AUTHENTICATE).cloned();
        assert_eq!(value.as_ref().map(|value| value.to_str().unwrap()), Some(challenge));
        let code = if bearer.is_some() { "InvalidToken" } else { "MissingOrMalformedToken" };
        error(read(res).await, 401, code);
    }
}

/// A charset is parsed under the request's budget: 100,000 Unicode classes are refused
/// before they are built, within a second (issue 17: 1.0 to 1.6 s with a 50 ms
/// deadline, holding the quick lane).
#[actix_web::test]
async fn r17_a_huge_charset_is_refused_by_the_budget() {
    let app = app().await;
    let charset = format!("[[(?i)\\p{{L}}]{}]", "\\p{L}".repeat(100_000));
    let body = json!({
        "term": regex("[ab]*"),
        "limit": 3,
        "charset": charset,
        "options": { "execution": { "timeout": 50 } },
    });
    let _alone = timed_alone().await;
    let started = Instant::now();
    let (status, body) = post(&app, "/v1/generate/strings", body).await;
    let elapsed = started.elapsed();
    // Refused by the memory charge, before parsing, whatever the machine's speed: before,
    // a fast machine parsed it all and answered `TimeoutExceeded` within the second.
    let message = body["error"].as_str().unwrap_or_default().to_owned();
    assert!(message.contains("parse would exceed the memory limit"), "{message}");
    error((status, body), 400, "AutomatonTooManyStates");
    // Reading and scanning 600 kB takes a few hundred ms in a debug build on a busy machine.
    assert!(elapsed < Duration::from_millis(1_000), "{elapsed:?}");
}

/// An answer larger than the response limit is refused in the envelope (issue 17: 52 bytes
/// of `\p{L}{9000}` to `/analyze/dot` got 126 MB of DOT text).
#[actix_web::test]
async fn r17_answers_past_the_response_limit_are_refused() {
    let app = app_with(config(&["--response-limit", "65536"])).await;
    let dot = |pattern: &str| json!({ "term": regex(pattern) });
    let (status, body) = post(&app, "/v1/analyze/dot", dot("\\p{L}{2}")).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = post(&app, "/v1/analyze/dot", dot("\\p{L}{60}")).await;
    let message = body["error"].as_str().unwrap_or_default().to_owned();
    error((status, body), 400, "ResponseTooLarge");
    assert!(message.contains("65536 bytes"), "{message}");
}

/// A body that never arrives gets 408 in the envelope after `--client-request-timeout-ms`
/// (issue 17: `Content-Length: 100` then `{"term":` was held open for minutes).
#[test]
fn r17_a_late_body_gets_408_in_the_envelope() {
    let server = RunningServer::start(&["--client-request-timeout-ms", "300"]);
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = "POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                Content-Length: 100\r\n\r\n{\"term\":";
    stream.write_all(head.as_bytes()).unwrap();
    let started = Instant::now();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    let elapsed = started.elapsed();
    let response = String::from_utf8_lossy(&response);
    let (head, body) = response.split_once("\r\n\r\n").expect("a response");
    assert!(head.starts_with("HTTP/1.1 408"), "{response}");
    let body: Value = serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}: {body}"));
    error((408, body), 408, "RequestTimeout");
    assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
}

/// Sends `bytes` on a fresh connection to `server` and reads until the server closes it.
fn raw_exchange(server: &RunningServer, bytes: &[u8]) -> String {
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    stream.write_all(bytes).unwrap();
    let mut response = Vec::new();
    let _ = stream.read_to_end(&mut response);
    String::from_utf8(response).unwrap()
}

/// Checks that `answer` is a complete answer with `status` and the envelope of `code`, its
/// length and content type said, and a closed connection.
#[track_caller]
fn check_envelope(answer: &str, status: u16, code: &str) {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{answer:?}"));
    let head = head.to_ascii_lowercase();
    assert!(head.starts_with(&format!("http/1.1 {status} ")), "{answer}");
    assert!(head.contains("\r\ncontent-type: application/json\r\n"), "{answer}");
    assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())), "{answer}");
    assert!(head.contains("\r\nconnection: close"), "{answer}");
    let body: Value = serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}: {body}"));
    assert!(!body["error"].as_str().unwrap_or_default().is_empty(), "{body}");
    error((status, body), status, code);
}

/// The requests actix-http answers itself, before any handler runs, get the envelope
/// (issue 17: bad `Content-Length`, a late head and a head too large came back with an
/// empty body).
#[test]
fn r17_transport_errors_get_the_envelope() {
    // actix-http counts the head's time from a clock it updates every 500 ms, so a shorter
    // time could run out before a prompt head is read.
    let server = RunningServer::start(&["--client-request-timeout-ms", "1500"]);
    let post =
        |headers: &str| format!("POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\n{headers}\r\n");
    let malformed = [
        post("Content-Length: -1\r\n"),
        post("Content-Length: 3\r\nContent-Length: 4\r\n"),
        post("Content-Length: 1x\r\n"),
        post("Transfer-Encoding: chunked\r\nContent-Length: 3\r\n"),
        post("Bad\u{1}Header: y\r\n"),
        "GARBAGE\r\n\r\n".to_owned(),
        "GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n".to_owned(),
    ];
    for request in malformed {
        check_envelope(&raw_exchange(&server, request.as_bytes()), 400, "MalformedRequest");
    }
    // Each logged once, at WARN like every 4xx, with its code.
    let refused = server.wait_for_log("request refused before it was read");
    assert!(refused.iter().all(|line| line.contains("WARN")), "{refused:?}");
    assert!(refused.iter().any(|line| line.contains("MalformedRequest")), "{refused:?}");
    let many_headers = post(&"X-Padding: a\r\n".repeat(200));
    check_envelope(&raw_exchange(&server, many_headers.as_bytes()), 431, "HeadersTooLarge");
    let started = Instant::now();
    let late_head = raw_exchange(&server, b"POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\n");
    check_envelope(&late_head, 408, "RequestTimeout");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    // After an answer of the application on the same connection, as a second answer.
    let pipelined = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\
                     Content-Length: zz\r\n\r\n";
    let answers = raw_exchange(&server, pipelined.as_bytes());
    let second = answers.find("{\"status\":\"ok\"}").expect(&answers) + 15;
    assert!(answers.starts_with("HTTP/1.1 200 OK\r\n"), "{answers}");
    check_envelope(&answers[second..], 400, "MalformedRequest");
    // The server goes on serving.
    let (status, _) = server.post("/v1/analyze/empty", &json!({ "term": regex("a") }).to_string());
    assert_eq!(status, 200);
}

/// SIGTERM stops the server at once even while a client keeps an idle connection open: the
/// connections learn of the shutdown (as `HttpServer` arranges it; the server builds its
/// stack itself, for the envelope of `r17_transport_errors_get_the_envelope`), instead of
/// waiting for their keep-alive to run out.
#[test]
fn r17_a_stopped_server_closes_idle_connections_at_once() {
    // Without a drain delay: stopping, not draining, is under test.
    let mut server = RunningServer::start(&["--drain-delay-secs", "0"]);
    let mut stream = TcpStream::connect(server.addr()).unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut answer = [0_u8; 12];
    stream.read_exact(&mut answer).unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    let took = server.terminate();
    // The keep-alive is 5 s; stopping takes a few hundred ms in a debug build.
    assert!(took < Duration::from_secs(3), "{took:?}");
}

/// Sends `body` as JSON text to `/v1/analyze/empty`.
async fn post_text(body: String) -> (u16, Value) {
    let app = app().await;
    let req = TestRequest::post()
        .uri("/v1/analyze/empty")
        .insert_header(("content-type", "application/json"))
        .set_payload(body);
    read(call_service(&app, req.to_request()).await).await
}

/// JSON nested past 128 levels anywhere is `InvalidJson`, even inside a field the server
/// ignores (issue 17: 129 to 100,000 levels there answered 200).
#[actix_web::test]
async fn r17_deep_json_in_an_ignored_field_is_invalid() {
    let with_extra = |depth: usize| {
        let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        format!(r#"{{"term":{{"type":"regex","value":"a"}},"extra":{nested}}}"#)
    };
    let (status, body) = post_text(with_extra(127)).await;
    assert_eq!((status, &body["data"]["value"]), (200, &json!(false)), "{body}");
    for depth in [128, 1_000, 100_000] {
        let (status, body) = post_text(with_extra(depth)).await;
        assert!(body["error"].as_str().unwrap_or_default().contains("128 deep"), "{body}");
        error((status, body), 400, "InvalidJson");
    }
    let objects =
        format!(r#"{{"term":{{"type":"regex","value":"a"}},"x":{}}}"#, "{\"a\":".repeat(500));
    error(post_text(objects).await, 400, "InvalidJson");
}

/// An array where the contract has an object is `InvalidJson` (issue 17:
/// `{"term":["regex","a|b"]}` was read as a term).
#[actix_web::test]
async fn r17_arrays_in_place_of_objects_are_invalid() {
    for body in [
        r#"{"term":["regex","a|b"]}"#,
        r#"[{"type":"regex","value":"a|b"}]"#,
        r#"{"term":{"type":"regex","value":"a"},"options":[1,{"timeout":5}]}"#,
    ] {
        error(post_text(body.to_owned()).await, 400, "InvalidJson");
    }
}

/// A line of `/proc/<pid>/status` (`VmRSS`, `VmHWM`), in MiB.
fn memory_mib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("a Linux /proc");
    let line = status.lines().find(|line| line.starts_with(key)).expect("the key");
    let kib: u64 = line.split_whitespace().nth(1).and_then(|kib| kib.parse().ok()).expect("kB");
    kib / 1024
}

/// The issue's term: `copies` copies of 1,000 distinct characters, so a DFA of about
/// 1,000 x `copies` states over 1,001 classes, as a request body with a 30 s budget.
fn distinct_characters(copies: u32) -> String {
    let letters: String = (0..1_000).filter_map(|idx| char::from_u32(0x100 + 2 * idx)).collect();
    let term = regex(&format!("({letters}){{{copies}}}"));
    json!({ "term": term, "options": { "execution": { "timeout": 30_000 } } }).to_string()
}

/// Sends `requests` at once to `server` and checks that the process peaked under
/// `--max-memory-mb` x 1.5 + 64 MiB per request running at once, and came back within 20%
/// (plus 4 MiB of slack) of its RSS after warming up.
fn check_memory_bound(server: &RunningServer, max_memory_mib: u64, requests: &[(&str, String)]) {
    let warm_up = json!({ "term": regex("[a-z]{3}") }).to_string();
    for _ in 0..20 {
        assert_eq!(server.post("/v1/analyze/cardinality", &warm_up).0, 200);
    }
    let idle = memory_mib(server.pid(), "VmRSS:");
    std::thread::scope(|scope| {
        for (path, body) in requests {
            scope.spawn(move || {
                let (status, body) = server.post(path, body);
                assert!(status == 200 || status == 400, "{status}: {body}");
            });
        }
    });
    let peak = memory_mib(server.pid(), "VmHWM:");
    let bound = requests.len() as u64 * (max_memory_mib * 3 / 2 + 64);
    assert!(peak < bound, "peak RSS {peak} MiB, bound {bound} MiB");
    let after = settled_rss_mib(server, idle * 6 / 5 + 4);
    assert!(after <= idle * 6 / 5 + 4, "RSS {after} MiB after the load, {idle} MiB before");
}

/// The RSS of `server` in MiB once it is at most `bound`, or after 5 s: the allocator gives
/// freed pages back at once (`main.rs`, allocator policy), and the last connections' memory
/// with them once they close.
fn settled_rss_mib(server: &RunningServer, bound: u64) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let rss = memory_mib(server.pid(), "VmRSS:");
        if rss <= bound || Instant::now() > deadline {
            return rss;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Opens `count` connections to `server`, each sending `bytes`, then reads every answer to
/// its end (the server closes each connection after it) and checks its status line.
fn burst(server: &RunningServer, count: usize, bytes: &[u8], status_line: &str) {
    let streams: Vec<TcpStream> = (0..count)
        .map(|_| {
            let mut stream = TcpStream::connect(server.addr()).unwrap();
            stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
            stream.write_all(bytes).unwrap();
            stream
        })
        .collect();
    for mut stream in streams {
        let mut answer = Vec::new();
        let _ = stream.read_to_end(&mut answer);
        assert!(answer.starts_with(status_line.as_bytes()), "{}", String::from_utf8_lossy(&answer));
    }
}

/// Issue 17: after a burst of connections (slow bodies, malformed heads, heads that never
/// come), each answered and closed, the RSS comes back within 20% of idle (+1 MiB for the
/// rounding to MiB). Before, 500 slow bodies left it 11 MiB above a 17 MiB idle for good:
/// pooled request heads held their connections' read buffers (`connection::detach_headers`)
/// and glibc kept the free pages of the workers' heaps (the allocator policy of `main.rs`).
#[test]
fn r17_connection_bursts_leave_no_memory_behind() {
    if !cfg!(target_os = "linux") {
        skip("reads the server's RSS from /proc, which only Linux has");
        return;
    }
    let server = RunningServer::start(&["--client-request-timeout-ms", "1000"]);
    let warm_up = json!({ "term": regex("[a-z]{3}") }).to_string();
    for _ in 0..20 {
        assert_eq!(server.post("/v1/analyze/cardinality", &warm_up).0, 200);
    }
    let idle = memory_mib(server.pid(), "VmRSS:");
    let slow = b"POST /v1/analyze/empty HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
                 Content-Length: 100\r\n\r\n{\"term\":";
    std::thread::scope(|scope| {
        scope.spawn(|| burst(&server, 300, slow, "HTTP/1.1 408"));
        scope.spawn(|| {
            let malformed = b"POST /v1/analyze/empty HTTP/1.1\r\nContent-Length: x\r\n\r\n";
            burst(&server, 100, malformed, "HTTP/1.1 400");
        });
        scope.spawn(|| burst(&server, 100, b"POST /v1/ana", "HTTP/1.1 408"));
    });
    let bound = idle * 6 / 5 + 1;
    let after = settled_rss_mib(&server, bound);
    assert!(after <= bound, "RSS {after} MiB after the burst, {idle} MiB idle");
    assert_eq!(server.post("/v1/analyze/cardinality", &warm_up).0, 200);
}

/// Issue 17: a DFA whose table just fits the memory limit peaked at five times it, since
/// minimization's tables were not charged. Scaled down to `--max-memory-mb 24` (about 4 s in
/// a debug build); the issue's own term at the default limit runs with `RELANG_SLOW_TESTS`.
#[test]
fn r17_one_request_peaks_under_its_memory_bound() {
    let server = RunningServer::start(&["--max-memory-mb", "24"]);
    check_memory_bound(&server, 24, &[("/v1/compute/determinize", distinct_characters(6))]);
}

/// Six DOT requests of `\p{L}{9000}` at once (each refused at the 16 MiB response limit)
/// leave the RSS within 20% of idle (issue 17: the labels of all moves, held at once,
/// left 26 MB of free pages resident, 42 MiB after against 16 idle).
#[test]
fn r17_dot_requests_leave_no_memory_behind() {
    let server = RunningServer::start(&[]);
    let dot = json!({ "term": regex("\\p{L}{9000}") }).to_string();
    let requests: Vec<_> = (0..6).map(|_| ("/v1/analyze/dot", dot.clone())).collect();
    check_memory_bound(&server, 128, &requests);
}

/// The issue's requests at the default limits: its term through determinize, cardinality and
/// complement at once on two engine threads per lane, and 13,500 case-folded `\PL`.
#[test]
fn r17_the_issues_requests_stay_under_their_memory_bound() {
    if std::env::var_os("RELANG_SLOW_TESTS").is_none() {
        println!("SKIPPED: set RELANG_SLOW_TESTS=1 (about a minute in a debug build)");
        return;
    }
    let server = RunningServer::start(&["--engine-threads", "2"]);
    let folded = json!({ "term": regex(&"(?i)\\PL".repeat(13_500)) }).to_string();
    let dot = json!({ "term": regex("\\p{L}{9000}") }).to_string();
    let requests = [
        ("/v1/analyze/dot", dot),
        ("/v1/compute/determinize", distinct_characters(33)),
        ("/v1/analyze/cardinality", distinct_characters(33)),
        ("/v1/analyze/empty", folded),
    ];
    check_memory_bound(&server, 128, &requests);
}

/// The server runs under its allocator policy (issue 17; before, glibc's malloc kept freed
/// pages): jemalloc, purging freed pages at once on the thread that frees them, with no
/// background threads (issue 18: signalled at every large free, they preempted the HTTP
/// workers). jemalloc prints its options at exit when asked to.
#[test]
fn r17_the_server_runs_under_the_allocator_policy() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_relang-server"))
        .arg("hash-token")
        .env("_RJEM_MALLOC_CONF", "stats_print:true")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary starts");
    child.stdin.take().expect("piped stdin").write_all(b"a-token\n").expect("stdin");
    let output = child.wait_with_output().expect("the server binary exits");
    assert!(output.status.success());
    let stats = String::from_utf8_lossy(&output.stderr);
    for option in
        ["opt.dirty_decay_ms: 0 ", "opt.muzzy_decay_ms: 0 ", "opt.background_thread: false "]
    {
        assert!(stats.contains(option), "no {option:?} in jemalloc's statistics");
    }
}
