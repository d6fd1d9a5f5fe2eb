//! Probes and draining: `/livez`, `/readyz`, and a replica restarted under load without a
//! failed request.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use crate::support::{KeptAlive, RunningServer, app_with_tokens, request, send, token};

const LENGTH: &str = r#"{"term": {"type": "regex", "value": "(abc)?d"}}"#;
const JSON: &str = "Content-Type: application/json\r\n";
/// Generous, for a busy machine: every client sends a request within it, so each learns of
/// the drain from an answer.
const DRAIN_SECS: u64 = 4;
const GRACE_SECS: u64 = 15;
const CLIENTS: usize = 4;
/// Requests each client sends to the new replica after the old one closed its connection.
const AFTER_SWITCH: usize = 5;

#[test]
fn probes_answer_while_serving() {
    let server = RunningServer::start(&[]);
    for (path, status) in [("/livez", "live"), ("/readyz", "ready"), ("/healthz", "ok")] {
        let answer = server.get(path);
        assert_eq!(answer.status, 200, "{path}: {}", answer.body);
        assert!(answer.body.contains(&format!("\"status\":\"{status}\"")), "{}", answer.body);
    }
}

/// A Redis the configuration requires but that does not answer makes the replica unready,
/// not dead.
#[actix_web::test]
async fn an_unreachable_redis_fails_readiness_only() {
    // Nothing listens on port 1 of the loopback.
    let app = app_with_tokens(&[token("t", &[])], &["--redis-url", "redis://127.0.0.1:1"]).await;
    let (status, _, body) = send(&app, request("GET", "/readyz", None)).await;
    assert_eq!((status, body["status"].as_str()), (503, Some("redis unreachable")), "{body}");
    let (status, _, body) = send(&app, request("GET", "/livez", None)).await;
    assert_eq!((status, body["status"].as_str()), (200, Some("live")), "{body}");
}

/// What the clients saw, counted.
#[derive(Default)]
struct Outcomes {
    ok: AtomicUsize,
    failed: Arc<std::sync::Mutex<Vec<String>>>,
    switched: AtomicUsize,
}

/// One client: requests on a kept-alive connection to `old` until an answer closes it, then
/// on one to `new` (as a load balancer moves to the ready replica).
fn client(old: std::net::SocketAddr, new: std::net::SocketAddr, outcomes: &Outcomes) {
    let fail = |what: String| outcomes.failed.lock().unwrap().push(what);
    let mut connection = KeptAlive::connect(old).expect("connect to the old replica");
    loop {
        match connection.exchange("POST", "/v1/analyze/length", JSON, LENGTH) {
            Ok(answer) if answer.status == 200 => {
                outcomes.ok.fetch_add(1, Ordering::Relaxed);
                if answer.closes() {
                    break;
                }
            }
            Ok(answer) => return fail(format!("{}: {}", answer.status, answer.body)),
            Err(err) => return fail(format!("old replica: {err}")),
        }
    }
    outcomes.switched.fetch_add(1, Ordering::Relaxed);
    let mut connection = KeptAlive::connect(new).expect("connect to the new replica");
    for _ in 0..AFTER_SWITCH {
        match connection.exchange("POST", "/v1/analyze/length", JSON, LENGTH) {
            Ok(answer) if answer.status == 200 => outcomes.ok.fetch_add(1, Ordering::Relaxed),
            Ok(answer) => return fail(format!("{}: {}", answer.status, answer.body)),
            Err(err) => return fail(format!("new replica: {err}")),
        };
    }
}

/// A rolling restart: the new replica is up, the old one gets SIGTERM under steady load on
/// kept-alive connections. Its readiness fails first, every client learns from an answer to
/// move, no request fails or finds its connection reset, and the old replica exits within
/// its grace.
#[test]
fn a_replica_restarted_under_load_fails_no_request() {
    let drain = DRAIN_SECS.to_string();
    let grace = GRACE_SECS.to_string();
    let args = ["--drain-delay-secs", drain.as_str(), "--shutdown-grace-secs", grace.as_str()];
    let mut old = RunningServer::start(&args);
    let new = RunningServer::start(&args);
    let outcomes = Arc::new(Outcomes::default());
    let clients: Vec<_> = (0..CLIENTS)
        .map(|_| {
            let outcomes = Arc::clone(&outcomes);
            let (old, new) = (old.addr(), new.addr());
            std::thread::spawn(move || client(old, new, &outcomes))
        })
        .collect();
    // A load balancer's probe of the old replica, until it is gone.
    let (saw_unready, probing) =
        (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(true)));
    let prober = {
        let (saw_unready, probing, addr) =
            (Arc::clone(&saw_unready), Arc::clone(&probing), old.addr());
        std::thread::spawn(move || {
            while probing.load(Ordering::Relaxed) {
                let status = KeptAlive::connect(addr)
                    .and_then(|mut connection| connection.exchange("GET", "/readyz", "", ""));
                if status.is_ok_and(|answer| answer.status == 503) {
                    saw_unready.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        })
    };
    // Under load before the signal.
    while outcomes.ok.load(Ordering::Relaxed) < CLIENTS * 10 {
        std::thread::sleep(Duration::from_millis(10));
    }
    let took = old.terminate();
    probing.store(false, Ordering::Relaxed);
    prober.join().unwrap();
    for client in clients {
        client.join().unwrap();
    }
    let failed = outcomes.failed.lock().unwrap();
    assert!(failed.is_empty(), "{failed:?}");
    assert_eq!(outcomes.switched.load(Ordering::Relaxed), CLIENTS);
    assert!(saw_unready.load(Ordering::Relaxed), "/readyz never answered 503");
    assert!(took < Duration::from_secs(GRACE_SECS), "{took:?}");
    assert!(!old.wait_for_log("stopping: the listener closes").is_empty());
}

/// A second stop signal does not wait for the drain delay: an operator's second Ctrl-C, or
/// an orchestrator's impatience, stops the process at once.
#[test]
fn a_second_signal_stops_at_once() {
    let mut server =
        RunningServer::start(&["--drain-delay-secs", "60", "--shutdown-grace-secs", "90"]);
    let status = std::process::Command::new("kill")
        .args(["-TERM", &server.pid().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    server.wait_for_log("stopping: /readyz answers 503");
    assert_eq!(server.get("/readyz").status, 503);
    // Far below the 60 s drain delay.
    assert!(server.terminate() < Duration::from_secs(15));
    server.wait_for_log("a second stop signal");
}
