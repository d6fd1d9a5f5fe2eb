//! Expensive requests stop on time and do not starve cheap ones.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{app_with, config, data, error, post, regex, request, send, timed_alone};

#[actix_web::test]
async fn blowup_answers_400_on_time_while_small_requests_keep_answering() {
    let _alone = timed_alone().await;
    let app = app_with(config(&["--engine-threads", "2", "--max-states", "10000000"])).await;
    let blowup = json!({
        "term": regex("(a|b)*a(a|b){30}"),
        "options": { "execution": { "timeout": 1000 } },
    });
    let started = Instant::now();
    let slow = async {
        let answer = post(&app, "/v1/compute/determinize", blowup).await;
        (answer, started.elapsed())
    };
    let fast = async {
        let mut latencies = Vec::new();
        for _ in 0..5 {
            let sent = Instant::now();
            let answer =
                post(&app, "/v1/analyze/length", json!({ "term": regex("(abc)?d") })).await;
            assert_eq!(data(answer)["max"], 4);
            latencies.push(sent.elapsed());
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
        latencies
    };
    let ((answer, slow_elapsed), latencies) = futures_util::join!(slow, fast);
    error(answer, 400, "TimeoutExceeded");
    assert!(slow_elapsed < Duration::from_millis(1500), "the blow-up took {slow_elapsed:?}");
    for latency in latencies {
        assert!(latency < Duration::from_millis(500), "a small request took {latency:?}");
    }
}

#[actix_web::test]
async fn a_full_lane_answers_503_with_retry_after_and_cheap_requests_still_answer() {
    let _alone = timed_alone().await;
    let flags = ["--engine-threads", "1", "--engine-queue-depth", "0", "--engine-quick-ms", "10"];
    let flags = [&flags[..], &["--max-states", "10000000"]].concat();
    let app = app_with(config(&flags)).await;
    let blowup = |timeout: u64| {
        json!({
            "term": regex("(a|b)*a(a|b){30}"),
            "options": { "execution": { "timeout": timeout } },
        })
    };
    let holder = post(&app, "/v1/compute/determinize", blowup(1500));
    let others = async {
        // By now the first blow-up has left its worker slice for the lane's only place.
        actix_web::rt::time::sleep(Duration::from_millis(300)).await;
        let sent = Instant::now();
        let req = request("POST", "/v1/compute/determinize", None).set_json(blowup(1500));
        let refused = send(&app, req).await;
        let refused_after = sent.elapsed();
        let sent = Instant::now();
        let cheap = post(&app, "/v1/analyze/length", json!({ "term": regex("(abc)?d") })).await;
        let health = send(&app, request("GET", "/healthz", None)).await;
        (refused, refused_after, cheap, health, sent.elapsed())
    };
    let (held, (refused, refused_after, cheap, health, cheap_after)) =
        futures_util::join!(holder, others);
    error(held, 400, "TimeoutExceeded");
    let (status, retry_after, body) = refused;
    assert_eq!(retry_after.as_deref(), Some("1"));
    error((status, body), 503, "Overloaded");
    assert!(refused_after < Duration::from_millis(500), "refused after {refused_after:?}");
    assert_eq!(data(cheap)["max"], 4);
    assert_eq!(health.0, 200, "{:?}", health.2);
    assert!(cheap_after < Duration::from_millis(500), "cheap requests took {cheap_after:?}");
}

/// Busy-looping processes, killed when dropped.
struct Hogs(Vec<std::process::Child>);

impl Hogs {
    fn start(count: usize) -> Hogs {
        let spin = || std::process::Command::new("sh").args(["-c", "while :; do :; done"]).spawn();
        Hogs((0..count).map(|_| spin().expect("sh starts")).collect())
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        for hog in &mut self.0 {
            let _ = hog.kill();
            let _ = hog.wait();
        }
    }
}

/// With two busy-looping processes beside the server, a heavy request still gets its share
/// of the cores: it answers `AutomatonTooManyStates` well within its budget, not
/// `TimeoutExceeded` after waiting for CPU time no other process wanted.
#[actix_web::test]
async fn heavy_requests_are_not_starved_by_busy_processes() {
    let _alone = timed_alone().await;
    let app = app_with(config(&["--max-states", "20000"])).await;
    let heavy = json!({ "term": regex("(a|b)*a(a|b){40}") });
    let timed = || async {
        let started = Instant::now();
        // Determinize needs the DFA (cardinality of this infinite language no longer does).
        let answer = post(&app, "/v1/compute/determinize", heavy.clone()).await;
        (answer, started.elapsed())
    };
    let (answer, idle) = timed().await;
    error(answer, 400, "AutomatonTooManyStates");
    let _hogs = Hogs::start(2);
    let (answer, busy) = timed().await;
    error(answer, 400, "AutomatonTooManyStates");
    println!("idle {idle:?}, beside two busy loops {busy:?}");
    assert!(busy < Duration::from_secs(2).max(idle * 10), "idle {idle:?}, busy {busy:?}");
}
