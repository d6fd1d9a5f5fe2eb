//! Request quotas: how many requests a token has made in the current period, in memory or
//! in Redis.
//!
//! # Overview
//! - [`QuotaPeriod::window`]: the [`Window`] of a period (configured in
//!   [`Config`](crate::config::Config)) that a moment falls in.
//! - [`QuotaCounter`]: counts one request of a token and answers `QuotaExceeded` once the
//!   count passes the token's limit.
//!
//! # Algorithm
//! Fixed windows aligned to the calendar (months) or to the Unix epoch (seconds), so every
//! replica computes the same window from its clock alone. Counting is one atomic increment
//! per request: `INCR` plus `EXPIREAT` in a `MULTI` block on Redis, a mutex-guarded map in
//! memory. A refused request gives its increment back (`DECR`), so it consumes no quota: a
//! client that keeps calling past its quota does not push the count up, and a raised
//! `maxRequestsCount` (after a reload) admits requests at once.
//!
//! # Invariants
//! A window's Redis key names the period and the window (`relang:quota:month:24322:<digest>`),
//! so a changed period never reuses an old count, and it expires an hour after its window
//! ends. Nothing here retries: when Redis cannot answer, the request fails (fail closed).
//! Tokens are never seen here, only their digests. Every decision is counted
//! (`relang_quota_decisions_total`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use api_types::ErrorCode;
use redis::aio::ConnectionManager;

use crate::auth::tokens::TokenDigest;
use crate::calendar::{SECONDS_PER_DAY, civil_from_days, days_from_civil, to_rfc3339, unix_now};
use crate::config::QuotaPeriod;
use crate::error::HttpError;
use crate::metrics::quota_decision;
use crate::redis_link::RedisLink;

/// How long a Redis counter outlives its window (clock skew between replicas).
const KEY_GRACE_SECS: u64 = 3_600;

/// One period: the window a moment falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Window {
    /// Months since year 0 (`Month`), or windows since the epoch (`Seconds`).
    pub(crate) index: u64,
    /// When the next window starts, in seconds since the Unix epoch.
    pub(crate) ends_at: u64,
}

impl QuotaPeriod {
    /// The window that contains `now` (seconds since the Unix epoch).
    pub(crate) fn window(self, now: u64) -> Window {
        match self {
            QuotaPeriod::Seconds(period) => {
                let index = now / period.get();
                Window { index, ends_at: (index + 1).saturating_mul(period.get()) }
            }
            QuotaPeriod::Month => {
                let (year, month, _) = civil_from_days(now / SECONDS_PER_DAY);
                let (next_year, next_month) =
                    if month == 12 { (year + 1, 1) } else { (year, month + 1) };
                Window {
                    index: year * 12 + (month - 1),
                    ends_at: days_from_civil(next_year, next_month) * SECONDS_PER_DAY,
                }
            }
        }
    }
}

/// Counts requests per token and period, and refuses those over the token's limit.
pub(crate) struct QuotaCounter {
    period: QuotaPeriod,
    store: Store,
}

enum Store {
    /// Per process: counts start again when the process does.
    Memory(Mutex<HashMap<TokenDigest, Tally>>),
    /// Shared by every replica using the same Redis, and kept across restarts.
    Redis(Arc<RedisLink>),
}

/// A token's count in one window.
struct Tally {
    window: u64,
    used: u64,
}

impl QuotaCounter {
    /// Counters in this process's memory.
    pub(crate) fn in_memory(period: QuotaPeriod) -> QuotaCounter {
        QuotaCounter { period, store: Store::Memory(Mutex::default()) }
    }

    /// Counters in the Redis of `link`.
    pub(crate) fn in_redis(period: QuotaPeriod, link: Arc<RedisLink>) -> QuotaCounter {
        QuotaCounter { period, store: Store::Redis(link) }
    }

    /// Counts one request of the token with `digest`, allowed `max_requests` per period.
    ///
    /// # Errors
    /// 403 `QuotaExceeded` once the count is above `max_requests`; 500 `InternalError` when
    /// Redis cannot answer (the request is refused: quotas fail closed).
    pub(crate) async fn charge(
        &self,
        digest: &TokenDigest,
        max_requests: u64,
    ) -> Result<(), HttpError> {
        let window = self.period.window(unix_now());
        let used = match &self.store {
            Store::Memory(tallies) => count_in_memory(tallies, digest, window),
            Store::Redis(redis) => count(redis, &self.key(digest, window), window).await?,
        };
        if used <= max_requests {
            quota_decision("allowed");
            return Ok(());
        }
        match &self.store {
            Store::Memory(tallies) => refund_in_memory(tallies, digest, window),
            Store::Redis(redis) => refund(redis, &self.key(digest, window)).await?,
        }
        quota_decision("exceeded");
        Err(HttpError::new(
            ErrorCode::QuotaExceeded,
            format!(
                "the token's quota of {max_requests} requests per {} is used up; it renews at {}",
                self.describe_period(),
                to_rfc3339(window.ends_at)
            ),
        ))
    }

    fn key(&self, digest: &TokenDigest, window: Window) -> String {
        format!("relang:quota:{}:{}:{}", self.period, window.index, digest.to_hex())
    }

    fn describe_period(&self) -> String {
        match self.period {
            QuotaPeriod::Month => "calendar month (UTC)".to_owned(),
            QuotaPeriod::Seconds(period) => format!("{period} s"),
        }
    }
}

/// Adds one to the token's count in `window` and returns the new count.
fn count_in_memory(
    tallies: &Mutex<HashMap<TokenDigest, Tally>>,
    digest: &TokenDigest,
    window: Window,
) -> u64 {
    let mut tallies = tallies.lock().unwrap_or_else(PoisonError::into_inner);
    let tally = tallies.entry(*digest).or_insert(Tally { window: window.index, used: 0 });
    if tally.window != window.index {
        *tally = Tally { window: window.index, used: 0 };
    }
    tally.used = tally.used.saturating_add(1);
    tally.used
}

/// Takes back one request of the token's count in `window`, which a refused request added.
fn refund_in_memory(
    tallies: &Mutex<HashMap<TokenDigest, Tally>>,
    digest: &TokenDigest,
    window: Window,
) {
    let mut tallies = tallies.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(tally) = tallies.get_mut(digest).filter(|tally| tally.window == window.index) {
        tally.used = tally.used.saturating_sub(1);
    }
}

/// `DECR key`: takes back the increment of a refused request.
async fn refund(redis: &RedisLink, key: &str) -> Result<(), HttpError> {
    let decrement = async |connection: &mut ConnectionManager| {
        redis::cmd("DECR").arg(key).query_async::<i64>(connection).await
    };
    redis.call("quota_refund", decrement).await.map_err(unavailable)?;
    Ok(())
}

/// `INCR key` and `EXPIREAT key` in one transaction; the new count.
async fn count(redis: &RedisLink, key: &str, window: Window) -> Result<u64, HttpError> {
    let expires_at = i64::try_from(window.ends_at + KEY_GRACE_SECS).unwrap_or(i64::MAX);
    let increment = async |connection: &mut ConnectionManager| {
        redis::pipe()
            .atomic()
            .incr(key, 1)
            .expire_at(key, expires_at)
            .ignore()
            .query_async::<(u64,)>(connection)
            .await
    };
    let (used,) = redis.call("quota", increment).await.map_err(unavailable)?;
    Ok(used)
}

/// Redis failed: the request is refused, and the operator finds the cause in the log.
fn unavailable(err: redis::RedisError) -> HttpError {
    quota_decision("error");
    tracing::error!(%err, "the quota store (Redis) did not answer; refusing the request");
    HttpError::new(
        ErrorCode::InternalError,
        "the quota store is unavailable, so the request was not counted; try again later",
    )
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU64;

    use super::*;

    fn seconds(period: u64) -> QuotaPeriod {
        QuotaPeriod::Seconds(NonZeroU64::new(period).unwrap())
    }

    #[test]
    fn months_follow_the_calendar() {
        // 2024-02-29T12:00:00Z, in a leap year.
        let window = QuotaPeriod::Month.window(1_709_208_000);
        assert_eq!(window, Window { index: 2024 * 12 + 1, ends_at: 1_709_251_200 });
        assert_eq!(to_rfc3339(window.ends_at), "2024-03-01T00:00:00Z");
        // The last second of a year, and the first of the next.
        let december = QuotaPeriod::Month.window(1_735_689_599);
        assert_eq!(to_rfc3339(december.ends_at), "2025-01-01T00:00:00Z");
        let january = QuotaPeriod::Month.window(1_735_689_600);
        assert_eq!(january.index, december.index + 1);
        assert_eq!(to_rfc3339(january.ends_at), "2025-02-01T00:00:00Z");
        assert_eq!(to_rfc3339(QuotaPeriod::Month.window(0).ends_at), "1970-02-01T00:00:00Z");
    }

    #[test]
    fn second_windows_start_at_the_epoch() {
        assert_eq!(seconds(60).window(119), Window { index: 1, ends_at: 120 });
        assert_eq!(seconds(60).window(120), Window { index: 2, ends_at: 180 });
    }

    /// A refused request consumes no quota: once the limit is raised (a tokens file reload),
    /// the next request fits however many were refused before.
    #[actix_web::test]
    async fn r17_refused_requests_consume_no_quota() {
        let counter = QuotaCounter::in_memory(QuotaPeriod::Month);
        let digest = TokenDigest::of("secret");
        counter.charge(&digest, 1).await.unwrap();
        for _ in 0..5 {
            let err = counter.charge(&digest, 1).await.unwrap_err();
            assert_eq!(err.code(), ErrorCode::QuotaExceeded);
        }
        counter.charge(&digest, 2).await.unwrap();
        assert!(counter.charge(&digest, 2).await.is_err());
    }

    #[test]
    fn memory_counts_restart_with_each_window() {
        let tallies = Mutex::default();
        let digest = TokenDigest::of("secret");
        let first = Window { index: 7, ends_at: 80 };
        assert_eq!(count_in_memory(&tallies, &digest, first), 1);
        assert_eq!(count_in_memory(&tallies, &digest, first), 2);
        assert_eq!(count_in_memory(&tallies, &TokenDigest::of("other"), first), 1);
        assert_eq!(count_in_memory(&tallies, &digest, Window { index: 8, ends_at: 90 }), 1);
    }
}
