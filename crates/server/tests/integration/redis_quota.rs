//! Two replicas against one real Redis: a token's quota is shared between them and survives
//! restarting both. Skipped, saying so on the terminal, when `redis-server` is not installed
//! (a failure under `CI=true`).

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{RunningServer, TempDir, skip, token};

const SHARED: &str = "shared-quota-token";
const FRESH: &str = "fresh-token";
const QUOTA: u64 = 5;

/// `redis-server` on a free port, without persistence; killed on drop.
struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// `None` (printed) when `redis-server` is not installed.
    fn start(dir: &TempDir) -> Option<RedisServer> {
        if Command::new("redis-server").arg("--version").output().is_err() {
            skip(
                "redis-server is not installed (apt-get install redis-server), so quotas \
                 shared through Redis were not tested",
            );
            return None;
        }
        // Ask the OS for a free port; Redis needs it as a number.
        let port = TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        let redis = RedisServer { child, port };
        redis.wait_until_ready();
        Some(redis)
    }

    fn wait_until_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) {
                let mut reply = [0; 5];
                if stream.write_all(b"PING\r\n").is_ok()
                    && stream.read_exact(&mut reply).is_ok()
                    && &reply == b"+PONG"
                {
                    return;
                }
            }
            assert!(Instant::now() < deadline, "redis-server did not answer PING");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const LENGTH: &str = r#"{"term": {"type": "regex", "value": "(abc)?d"}}"#;

fn status(server: &RunningServer, token: &str) -> u16 {
    server.post_as(Some(token), "/v1/analyze/length", LENGTH).0
}

#[test]
fn replicas_share_one_quota_through_redis_across_restarts() {
    let dir = TempDir::new("redis");
    let Some(redis) = RedisServer::start(&dir) else { return };
    let tokens = [token(SHARED, &[("maxRequestsCount", QUOTA)]), token(FRESH, &[])].concat();
    let tokens = dir.write("tokens.toml", &tokens);
    let url = redis.url();
    let args = ["--tokens-file", tokens.to_str().unwrap(), "--redis-url", &url];
    let replicas = [RunningServer::start(&args), RunningServer::start(&args)];
    assert_ne!(replicas[0].addr(), replicas[1].addr());

    // The quota of 5 is spent alternately on both replicas, then both refuse.
    for idx in 0..QUOTA as usize {
        assert_eq!(status(&replicas[idx % 2], SHARED), 200, "request {}", idx + 1);
    }
    for replica in &replicas {
        let (code, body) = replica.post_as(Some(SHARED), "/v1/analyze/length", LENGTH);
        assert_eq!((code, body["errorCode"].as_str()), (403, Some("QuotaExceeded")), "{body}");
    }

    // Restart both: the count lives in Redis.
    drop(replicas);
    let replicas = [RunningServer::start(&args), RunningServer::start(&args)];
    for replica in &replicas {
        assert_eq!(status(replica, SHARED), 403);
        assert_eq!(status(replica, FRESH), 200);
    }
}
