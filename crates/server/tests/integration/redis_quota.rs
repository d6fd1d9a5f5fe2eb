//! Two replicas against one real Redis: a token's quota is shared between them and survives
//! restarting both. Skipped, saying so on the terminal, when `redis-server` is not installed
//! (a failure under `CI=true`).

use crate::support::{RedisServer, RunningServer, TempDir, token};

const SHARED: &str = "shared-quota-token";
const FRESH: &str = "fresh-token";
const QUOTA: u64 = 5;

const LENGTH: &str = r#"{"term": {"type": "regex", "value": "(abc)?d"}}"#;

fn status(server: &RunningServer, token: &str) -> u16 {
    server.post_as(Some(token), "/v1/analyze/length", LENGTH).0
}

#[test]
fn replicas_share_one_quota_through_redis_across_restarts() {
    let dir = TempDir::new("redis");
    let Some(redis) = RedisServer::start(&dir, "quotas shared through Redis") else { return };
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
