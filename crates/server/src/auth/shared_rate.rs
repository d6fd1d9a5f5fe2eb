//! One rate limit across replicas: with `--redis-url`, a token's `maxRequestsRate` is
//! counted in Redis for every replica, instead of in each replica's memory.
//!
//! # Algorithm
//! GCRA (the generic cell rate algorithm, which `governor` runs in memory without Redis) in
//! one Lua script ([`GCRA`]), on Redis' clock (`TIME`), so the replicas' clocks do not
//! matter. A token's key holds its theoretical arrival time (TAT), in microseconds. With
//! T = 1 s / rate, a request is admitted when max(TAT, now) + T is at most now + burst · T,
//! and the TAT moves to that; otherwise it waits the difference (`Retry-After`). The burst
//! is the rate, as `governor`'s `Quota::per_second`: a token admits `rate` requests at once,
//! then one every T, and over any `d` seconds at most `rate + rate · d`. One round trip per
//! request; no state in the replica.
//!
//! # Invariants
//! One key per token, `relang:rate:{<digest>}`: the braces are a Redis Cluster hash tag, so
//! the key has one slot whatever is added to it, and the script touches that key only. It
//! expires when its TAT passes (nothing left to remember). The token is never seen here,
//! only its digest.
//!
//! # Outage
//! When Redis fails or does not answer within its timeout ([`REDIS_TIMEOUT`]), the request
//! is decided by [`OutagePolicy`] (`--rate-limit-redis-outage`): `local` (the default)
//! applies the token's limiter in this replica's memory, as without Redis (so in total up to
//! the number of replicas times the rate); `open` admits; `closed` refuses with 503
//! `Overloaded`. For [`OUTAGE_RETRY`] after a failure, requests go to the policy without
//! asking Redis, so an outage does not add a timeout to every request.
//!
//! [`REDIS_TIMEOUT`]: crate::redis_link::REDIS_TIMEOUT

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use api_types::ErrorCode;
use redis::aio::ConnectionManager;

use crate::auth::tokens::{TokenEntry, rate_limited};
use crate::config::OutagePolicy;
use crate::error::HttpError;
use crate::metrics::rate_limit_decision;
use crate::redis_link::RedisLink;

/// How long requests skip Redis after it failed, going straight to the outage policy.
const OUTAGE_RETRY: Duration = Duration::from_secs(1);

/// GCRA; `KEYS[1]`: the token's key; `ARGV[1]`: T in microseconds; `ARGV[2]`: the burst.
/// Returns 0 when admitted, else the microseconds to wait. Numbers are written with `%.0f`:
/// Lua's default `%.14g` would round a 16-digit time.
const GCRA: &str = r"
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000000 + tonumber(time[2])
local tat = now
local stored = redis.call('GET', KEYS[1])
if stored then tat = math.max(tonumber(stored), now) end
local next_tat = tat + interval
local wait = next_tat - now - burst * interval
if wait > 0 then return math.ceil(wait) end
local ttl_ms = math.ceil((next_tat - now) / 1000) + 1
redis.call('SET', KEYS[1], string.format('%.0f', next_tat), 'PX', ttl_ms)
return 0
";

/// The rate limit in Redis, with its outage policy.
pub(crate) struct SharedRate {
    link: Arc<RedisLink>,
    script: redis::Script,
    outage: OutagePolicy,
    /// Start of this limiter's clock, for `skip_until`.
    epoch: Instant,
    /// Milliseconds after `epoch` until which Redis is not asked (0: ask it).
    skip_until: AtomicU64,
}

impl SharedRate {
    /// A rate limit in the Redis of `link`, deciding by `outage` when Redis is unreachable.
    pub(crate) fn new(link: Arc<RedisLink>, outage: OutagePolicy) -> SharedRate {
        SharedRate {
            link,
            script: redis::Script::new(GCRA),
            outage,
            epoch: Instant::now(),
            skip_until: AtomicU64::new(0),
        }
    }

    /// Takes one request from `entry`'s rate, across replicas.
    ///
    /// # Errors
    /// 429 `RateLimited` past the rate; 503 `Overloaded` when Redis is unreachable and the
    /// policy is `closed`.
    pub(crate) async fn check(&self, entry: &TokenEntry) -> Result<(), HttpError> {
        let rate = entry.limits.report().max_requests_rate;
        let Ok(rate) = u32::try_from(rate) else { return Ok(()) };
        if rate == 0 {
            return Ok(());
        }
        if self.millis() < self.skip_until.load(Ordering::Relaxed) {
            return self.in_outage(entry);
        }
        let key = format!("relang:rate:{{{}}}", entry.digest.to_hex());
        let interval = 1_000_000 / u64::from(rate);
        let gcra = async |connection: &mut ConnectionManager| {
            self.script.key(&key).arg(interval).arg(rate).invoke_async::<u64>(connection).await
        };
        match self.link.call("rate", gcra).await {
            Ok(0) => {
                rate_limit_decision("allowed");
                Ok(())
            }
            Ok(wait_micros) => {
                rate_limit_decision("limited");
                Err(rate_limited(rate, Duration::from_micros(wait_micros)))
            }
            Err(err) => {
                tracing::warn!(
                    %err,
                    policy = self.outage.as_str(),
                    "the rate limit's Redis did not answer; deciding by the outage policy"
                );
                let retry = u64::try_from(OUTAGE_RETRY.as_millis()).unwrap_or(u64::MAX);
                self.skip_until.store(self.millis().saturating_add(retry), Ordering::Relaxed);
                self.in_outage(entry)
            }
        }
    }

    /// The decision while Redis is unreachable.
    fn in_outage(&self, entry: &TokenEntry) -> Result<(), HttpError> {
        match self.outage {
            OutagePolicy::Local => entry.check_rate(),
            OutagePolicy::Open => {
                rate_limit_decision("outage_allowed");
                Ok(())
            }
            OutagePolicy::Closed => {
                rate_limit_decision("outage_refused");
                Err(HttpError::new(
                    ErrorCode::Overloaded,
                    "the rate limit's store is unavailable, so the request was refused; retry \
                     later",
                )
                .with_retry_after(OUTAGE_RETRY.as_secs()))
            }
        }
    }

    fn millis(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}
