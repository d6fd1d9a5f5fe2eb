//! Expensive requests stop on time and do not starve cheap ones.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::support::{app_with, config, data, error, post, regex};

#[actix_web::test]
async fn blowup_answers_400_on_time_while_small_requests_keep_answering() {
    let app = app_with(config(&["--engine-threads", "2", "--max-states", "10000000"])).await;
    let blowup = json!({
        "term": regex("(a|b)*a(a|b){30}"),
        "options": { "execution": { "timeout": 1000 } },
    });
    let started = Instant::now();
    let slow = async {
        let answer = post(&app, "/v1/analyze/empty", blowup).await;
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
