//! The server's one connection to Redis (`--redis-url`), shared by the quotas, the rate
//! limit and the readiness probe, each call timed and its failures counted.
//!
//! # Invariants
//! Nothing is connected until the first call; the connection manager reconnects by itself
//! afterwards. No call waits longer than [`REDIS_TIMEOUT`] for a connection or an answer,
//! and none is retried here: each caller has its own policy for a failure. Every call is
//! recorded under its operation (`relang_redis_duration_seconds`,
//! `relang_redis_errors_total`). The URL is never logged or put in a message: it may hold a
//! password.

use std::time::{Duration, Instant};

use redis::RedisResult;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use tokio::sync::OnceCell;

/// How long a call waits for Redis, to connect or to answer, before it fails.
pub(crate) const REDIS_TIMEOUT: Duration = Duration::from_millis(500);

/// A lazily connected, shared Redis connection.
pub(crate) struct RedisLink {
    client: redis::Client,
    /// Connected on first use, on the runtime of the worker that first needs it.
    connection: OnceCell<ConnectionManager>,
}

impl RedisLink {
    /// A link to the Redis at `url`; nothing is connected yet.
    ///
    /// # Errors
    /// When `url` is not a Redis URL (the message does not repeat it).
    pub(crate) fn open(url: &str) -> Result<RedisLink, String> {
        let client = redis::Client::open(url).map_err(|err| format!("invalid Redis URL: {err}"))?;
        Ok(RedisLink { client, connection: OnceCell::new() })
    }

    /// Runs `call` on the connection, recorded as the operation `op`.
    ///
    /// # Errors
    /// Redis' error, or a timeout, when there is no connection or no answer in time.
    pub(crate) async fn call<T>(
        &self,
        op: &'static str,
        call: impl AsyncFnOnce(&mut ConnectionManager) -> RedisResult<T>,
    ) -> RedisResult<T> {
        let started = Instant::now();
        let res = match self.connection().await {
            Ok(mut connection) => call(&mut connection).await,
            Err(err) => Err(err),
        };
        crate::metrics::redis_call(op, started.elapsed(), res.is_err());
        res
    }

    /// Whether Redis answers `PING` now.
    pub(crate) async fn is_reachable(&self) -> bool {
        let ping = async |connection: &mut ConnectionManager| {
            redis::cmd("PING").query_async::<String>(connection).await
        };
        self.call("ping", ping).await.is_ok()
    }

    async fn connection(&self) -> RedisResult<ConnectionManager> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT))
            .set_number_of_retries(1)
            .set_max_delay(REDIS_TIMEOUT);
        let connection = self
            .connection
            .get_or_try_init(|| ConnectionManager::new_with_config(self.client.clone(), config))
            .await?;
        Ok(connection.clone())
    }
}
