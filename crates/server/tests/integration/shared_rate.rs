//! One rate limit across replicas: two replicas against a real Redis share a token's
//! `maxRequestsRate`; with Redis killed, each falls back to its own limit (the default
//! `--rate-limit-redis-outage local`), or refuses (`closed`). Skipped, saying so on the
//! terminal, when `redis-server` is not installed (a failure under `CI=true`).

use std::time::{Duration, Instant};

use crate::support::{Answer, KeptAlive, RedisServer, RunningServer, TempDir, token};

const TOKEN: &str = "rate-limited-token";
/// Requests per second, and so the burst too.
const RATE: u64 = 2;
const AUTH: &str = "Authorization: Bearer rate-limited-token\r\n";

/// `n` requests to `/v1/account/limits` (rate limited, but no quota) spread over `replicas`
/// in turn; the answers, and the time they took.
fn burst(replicas: &[&RunningServer], n: usize) -> (Vec<Answer>, Duration) {
    let mut connections: Vec<KeptAlive> =
        replicas.iter().map(|replica| KeptAlive::connect(replica.addr()).unwrap()).collect();
    let started = Instant::now();
    let answers = (0..n)
        .map(|idx| {
            let connection = &mut connections[idx % replicas.len()];
            connection.exchange("GET", "/v1/account/limits", AUTH, "").unwrap()
        })
        .collect();
    (answers, started.elapsed())
}

/// Checks that the answers are 200 or 429 with the rate-limit headers, and that at most
/// the burst plus the rate over `took` were admitted; returns how many were.
#[track_caller]
fn check_rate(answers: &[Answer], took: Duration) -> usize {
    for answer in answers {
        match answer.status {
            200 => {}
            429 => {
                assert!(answer.body.contains("RateLimited"), "{}", answer.body);
                assert!(answer.header("retry-after").is_some(), "{answer:?}");
                let policy = format!("\"rate\";q={RATE};w=1");
                assert_eq!(answer.header("ratelimit-policy"), Some(policy.as_str()));
                assert!(answer.header("ratelimit").is_some_and(|value| value.contains("r=0")));
            }
            _ => panic!("{answer:?}"),
        }
    }
    let admitted = answers.iter().filter(|answer| answer.status == 200).count();
    // One more for the rounding of a request on the edge of a tick.
    let bound = RATE as f64 * (1.0 + took.as_secs_f64()) + 1.0;
    assert!(admitted as f64 <= bound, "{admitted} admitted in {took:?}, at most {bound}");
    assert!(admitted >= RATE as usize, "the burst is admitted: {admitted}");
    admitted
}

#[test]
fn replicas_share_one_rate_through_redis_and_keep_a_limit_without_it() {
    let dir = TempDir::new("shared-rate");
    let Some(mut redis) = RedisServer::start(&dir, "the rate limit shared through Redis") else {
        return;
    };
    let tokens = dir.write("tokens.toml", &token(TOKEN, &[("maxRequestsRate", RATE)]));
    let url = redis.url();
    let args = ["--tokens-file", tokens.to_str().unwrap(), "--redis-url", &url];
    let replicas = [RunningServer::start(&args), RunningServer::start(&args)];
    let closed =
        RunningServer::start(&[&args[..], &["--rate-limit-redis-outage", "closed"]].concat());
    for replica in &replicas {
        assert_eq!(replica.get("/readyz").status, 200);
    }

    // Both replicas together admit what one token's rate allows.
    let (answers, took) = burst(&[&replicas[0], &replicas[1]], 30);
    check_rate(&answers, took);

    redis.kill();
    // Each replica now limits on its own (`local`), and is not ready.
    for replica in &replicas {
        let (answers, took) = burst(&[replica], 15);
        check_rate(&answers, took);
        let answer = replica.get("/readyz");
        assert_eq!(answer.status, 503, "{}", answer.body);
        let metrics = replica.get("/metrics").body;
        assert!(metrics.contains(r#"relang_redis_errors_total{op="rate"}"#), "{metrics}");
    }
    // `closed` refuses while Redis is away.
    let (answers, _) = burst(&[&closed], 3);
    for answer in answers {
        assert_eq!(answer.status, 503, "{answer:?}");
        assert!(answer.body.contains("Overloaded") && answer.header("retry-after").is_some());
    }
}
