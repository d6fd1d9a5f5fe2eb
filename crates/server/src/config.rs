//! Server configuration from flags and `RELANG_*` environment variables.
//!
//! Every value has a default that works on a laptop, so `cargo run --release -p server`
//! needs no configuration. [`Config::check`] rejects inconsistent values at start-up;
//! handlers never read the environment.

use std::fmt;
use std::net::SocketAddr;
use std::num::NonZeroU64;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use fair_codec::{KeyError, Keyring};

use crate::logging::LogFormat;
use crate::scheduler::SchedulerConfig;

/// How to run the server. Every flag can also be set through its environment variable.
#[derive(Clone, Debug, clap::Parser)]
#[command(name = "relang-server", version, about = "The relang regular-language service")]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "RELANG_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// HTTP worker threads (0: one per core).
    #[arg(long, env = "RELANG_WORKERS", default_value_t = 0)]
    pub workers: usize,

    /// How many requests that outlive their first slice compute at once in the engine's
    /// lane, off the HTTP workers, in turns (0: one per core but one, at least one, so that
    /// the workers always find a core the lane leaves them).
    #[arg(long, env = "RELANG_ENGINE_THREADS", default_value_t = 0)]
    pub engine_threads: usize,

    /// How many more requests may be in the lane, waiting for their turn (each on a thread
    /// of its own); a request that finds the lane full gets 503 `Overloaded` with
    /// `Retry-After`.
    #[arg(long, env = "RELANG_ENGINE_QUEUE_DEPTH", default_value_t = 128)]
    pub engine_queue_depth: usize,

    /// The first slice, in milliseconds, that a request computes on the HTTP worker that
    /// received it: a request still computing after it starts again in the lane, so
    /// expensive requests do not hold up cheap ones.
    #[arg(long, env = "RELANG_ENGINE_QUICK_MS", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub engine_quick_ms: u64,

    /// Compute budget of a request without `execution.timeout`, in milliseconds.
    #[arg(long, env = "RELANG_DEFAULT_TIMEOUT_MS", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub default_timeout_ms: u64,

    /// The largest `execution.timeout` a request may ask for, in milliseconds.
    #[arg(long, env = "RELANG_MAX_TIMEOUT_MS", default_value_t = 30_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_timeout_ms: u64,

    /// The most states one automaton may have.
    #[arg(long, env = "RELANG_MAX_STATES", default_value_t = 100_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_states: u64,

    /// The most memory one engine step of a request may use for its large tables (a DFA's
    /// transition table, counting tables), in MiB.
    #[arg(long, env = "RELANG_MAX_MEMORY_MB", default_value_t = 128,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub max_memory_mb: u64,

    /// How many compiled terms (patterns and FAIR values, by text, dialect and limits) are
    /// kept for requests that repeat them, within --max-memory-mb; 0 turns the cache off.
    #[arg(long, env = "RELANG_TERM_CACHE", default_value_t = 4096)]
    pub term_cache: usize,

    /// How many answers (a question, its terms, their limits and the output dialect) are
    /// kept for requests that repeat them, within a sixteenth of --max-memory-mb (an answer
    /// and its key take a few hundred bytes: the memory bound is the tighter one for long
    /// patterns); 0 turns the cache off.
    #[arg(long, env = "RELANG_ANSWER_CACHE", default_value_t = 65_536)]
    pub answer_cache: usize,

    /// The most terms one request may carry.
    #[arg(long, env = "RELANG_MAX_TERMS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(2..))]
    pub max_terms: u64,

    /// The largest request body, in bytes.
    #[arg(long, env = "RELANG_BODY_LIMIT", default_value_t = 1 << 20)]
    pub body_limit: usize,

    /// The largest response body, in bytes: a larger answer (the DOT text of a huge automaton,
    /// a long pattern) gets 400 `ResponseTooLarge` instead.
    #[arg(long, env = "RELANG_RESPONSE_LIMIT", default_value_t = 16 << 20,
          value_parser = clap::value_parser!(u64).range(1024..))]
    pub response_limit: u64,

    /// The longest pattern an answer may carry (`format: regex`, `/analyze/pattern`), in
    /// bytes: the conversion stops once it would be longer, and the client gets 400
    /// `ResponseTooLarge` naming the limit and the way out (`format: fair`).
    #[arg(long, env = "RELANG_MAX_PATTERN_BYTES", default_value_t = 64 << 10,
          value_parser = clap::value_parser!(u64).range(16..))]
    pub max_pattern_bytes: u64,

    /// How long a client has to send a request's head, and then its body, in milliseconds: a
    /// late head or body gets 408 `RequestTimeout` (a late head also a closed connection).
    /// actix counts a head's time from a clock it reads every 500 ms, so a head may have up
    /// to 500 ms less: below a second, prompt clients may get 408.
    #[arg(long, env = "RELANG_CLIENT_REQUEST_TIMEOUT_MS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub client_request_timeout_ms: u64,

    /// The most connections open at once; past it the server stops accepting until one
    /// closes (new clients wait in the kernel's listen queue).
    #[arg(long, env = "RELANG_MAX_CONNECTIONS", default_value_t = 4096,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,

    /// The secret that signs FAIR values (at least 32 bytes). Without it, a fixed, public
    /// development key is used: fine on a laptop, never in production.
    #[arg(long, env = "RELANG_FAIR_KEY", hide_env_values = true)]
    pub fair_key: Option<String>,

    /// Former signing keys, comma-separated: FAIR values they signed are still accepted.
    #[arg(long, env = "RELANG_FAIR_OLD_KEYS", value_delimiter = ',', hide_env_values = true)]
    pub fair_old_keys: Vec<String>,

    /// A TOML file of bearer-token digests and their limits: turns auth on. Reloaded on
    /// SIGHUP. Without it, every request is accepted with the limits above.
    #[arg(long, env = "RELANG_TOKENS_FILE")]
    pub tokens_file: Option<PathBuf>,

    /// How long a token's maxRequestsCount lasts: `month` (calendar months, UTC) or a number
    /// of seconds (windows counted from the Unix epoch; 86400 = UTC days).
    #[arg(long, env = "RELANG_QUOTA_PERIOD", default_value = "month")]
    pub quota_period: QuotaPeriod,

    /// Keep quota counters in this Redis (`redis://[:PASSWORD@]HOST:PORT[/DB]`), shared by every
    /// replica and kept across restarts. Without it they live in this process's memory.
    #[arg(long, env = "RELANG_REDIS_URL", hide_env_values = true)]
    pub redis_url: Option<String>,

    /// With --redis-url, the rate limit (maxRequestsRate) is one across replicas, counted in
    /// Redis; while Redis is unreachable it is `local` (each replica limits on its own, as
    /// without Redis), `open` (every request admitted) or `closed` (refused with 503).
    #[arg(long, env = "RELANG_RATE_LIMIT_REDIS_OUTAGE", value_enum,
          default_value_t = OutagePolicy::Local)]
    pub rate_limit_redis_outage: OutagePolicy,

    /// Serve `GET /metrics` on this address only (for example `0.0.0.0:9090`), not on --bind.
    /// Without it, /metrics is served on --bind beside the API.
    #[arg(long, env = "RELANG_METRICS_ADDR")]
    pub metrics_addr: Option<SocketAddr>,

    /// After SIGTERM, how long to go on serving while /readyz answers 503, so that load
    /// balancers stop sending requests, before the listener closes, in seconds. SIGINT (Ctrl-C)
    /// does not wait.
    #[arg(long, env = "RELANG_DRAIN_DELAY_SECS", default_value_t = 5)]
    pub drain_delay_secs: u64,

    /// After SIGTERM, the time within which the process exits, in seconds: the drain delay,
    /// then requests in flight finish; any still running near the end are cut off. Keep it
    /// below the orchestrator's own (Kubernetes' terminationGracePeriodSeconds).
    #[arg(long, env = "RELANG_SHUTDOWN_GRACE_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(2..))]
    pub shutdown_grace_secs: u64,

    /// How log lines are written: `json` (one object per line) or `text` (`key="value"`).
    #[arg(long, env = "RELANG_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Something to do instead of serving.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands of `relang-server`.
#[derive(Clone, Debug, PartialEq, Eq, clap::Subcommand)]
pub enum Command {
    /// Print the SHA-256 digest of the token read from standard input, for the tokens file
    /// (the same as `printf %s TOKEN | sha256sum`).
    HashToken,
}

/// A configuration the server cannot run with.
#[derive(Debug)]
pub struct ConfigError(String);

impl ConfigError {
    pub(crate) fn new(message: impl fmt::Display) -> ConfigError {
        ConfigError(message.to_string())
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// Checks that the values fit together.
    ///
    /// # Errors
    /// A message naming the values that conflict.
    pub fn check(&self) -> Result<(), String> {
        if self.default_timeout_ms > self.max_timeout_ms {
            return Err(format!(
                "the default timeout ({} ms) is above the maximum timeout ({} ms)",
                self.default_timeout_ms, self.max_timeout_ms
            ));
        }
        if self.drain_delay_secs.saturating_add(2) > self.shutdown_grace_secs {
            return Err(format!(
                "the drain delay ({} s) leaves requests in flight less than 2 s of the shutdown \
                 grace ({} s)",
                self.drain_delay_secs, self.shutdown_grace_secs
            ));
        }
        if self.redis_url.is_some() && self.tokens_file.is_none() {
            return Err("a Redis URL is set but no tokens file: without tokens there are no \
                        quotas to count"
                .to_owned());
        }
        Ok(())
    }

    /// The FAIR keyring: the configured keys, or the development key when none is set.
    ///
    /// # Errors
    /// When a key is too short.
    pub fn keyring(&self) -> Result<Keyring, KeyError> {
        let keyring = match &self.fair_key {
            Some(key) => Keyring::new(key.as_bytes())?,
            None => Keyring::development(),
        };
        self.fair_old_keys
            .iter()
            .try_fold(keyring, |keyring, key| keyring.with_verifying_key(key.as_bytes()))
    }

    /// How long a request's head, then its body, may take to arrive.
    pub(crate) fn client_request_timeout(&self) -> Duration {
        Duration::from_millis(self.client_request_timeout_ms)
    }

    /// `--max-memory-mb` in bytes.
    pub(crate) fn max_memory_bytes(&self) -> usize {
        usize::try_from(self.max_memory_mb << 20).unwrap_or(usize::MAX)
    }

    /// The most resident memory one request may take, in bytes: its tables
    /// (`--max-memory-mb`) with half again for the copies around them, and 64 MiB for the
    /// rest (docs/reliability.md).
    pub(crate) fn request_memory_bound(&self) -> u64 {
        (self.max_memory_mb << 20).saturating_mul(3) / 2 + (64 << 20)
    }

    /// After SIGTERM: how long to serve while not ready, then how long requests in flight
    /// have to finish (the grace less the delay, less a second to exit).
    pub(crate) fn drain(&self) -> (Duration, Duration) {
        let delay = Duration::from_secs(self.drain_delay_secs);
        let grace = self.shutdown_grace_secs.saturating_sub(self.drain_delay_secs);
        (delay, Duration::from_secs(grace.saturating_sub(1)))
    }

    /// The longest pattern an answer may carry, in bytes.
    pub(crate) fn max_pattern_bytes(&self) -> usize {
        usize::try_from(self.max_pattern_bytes).unwrap_or(usize::MAX)
    }

    /// The largest response body, in bytes.
    pub(crate) fn response_limit(&self) -> usize {
        usize::try_from(self.response_limit).unwrap_or(usize::MAX)
    }

    /// The scheduler's lane (permits, 0 resolved by [`default_engine_threads`], and queue)
    /// and slice.
    pub(crate) fn scheduler(&self) -> SchedulerConfig {
        let threads = match self.engine_threads {
            0 => {
                default_engine_threads(std::thread::available_parallelism().map_or(2, usize::from))
            }
            threads => threads,
        };
        SchedulerConfig {
            threads,
            queue_depth: self.engine_queue_depth,
            slice: Duration::from_millis(self.engine_quick_ms),
            park_below: self.request_memory_bound().saturating_mul(PARKED_BOUNDS),
        }
    }
}

/// Lane jobs take turns (hand their permits over and wait with their tables) while the
/// process's resident memory is under this many requests' bounds. With one, a single job
/// near its bound stopped every hand-over, and small requests in the lane waited for it to
/// finish (up to 1.1 s under the load test's mix, issue 18); two leave room for one such job
/// beside the tables of those waiting.
const PARKED_BOUNDS: u64 = 2;

/// The lane's permits on a machine of `cores` cores: one per core but one, at least one.
/// A lane as wide as the machine keeps every core busy under a stream of expensive
/// requests, and the HTTP workers then wait for the kernel to preempt it (issue 18).
fn default_engine_threads(cores: usize) -> usize {
    cores.saturating_sub(1).max(1)
}

/// What the shared rate limit does while its Redis is unreachable (`auth/shared_rate.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OutagePolicy {
    /// Each replica applies the token's rate on its own, in memory.
    Local,
    /// Every request is admitted.
    Open,
    /// Every request of a rate-limited token is refused with 503 `Overloaded`.
    Closed,
}

impl OutagePolicy {
    /// The policy as the flag writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            OutagePolicy::Local => "local",
            OutagePolicy::Open => "open",
            OutagePolicy::Closed => "closed",
        }
    }
}

/// How long a token's `maxRequestsCount` lasts before it renews.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuotaPeriod {
    /// A calendar month in UTC: counts renew at 00:00 UTC on the first of every month.
    Month,
    /// Fixed windows of this many seconds, counted from the Unix epoch (`86400`: UTC days).
    Seconds(NonZeroU64),
}

impl fmt::Display for QuotaPeriod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QuotaPeriod::Month => f.write_str("month"),
            QuotaPeriod::Seconds(period) => write!(f, "{period}"),
        }
    }
}

impl FromStr for QuotaPeriod {
    type Err = String;

    fn from_str(text: &str) -> Result<QuotaPeriod, String> {
        if text == "month" {
            return Ok(QuotaPeriod::Month);
        }
        text.parse::<NonZeroU64>()
            .map(QuotaPeriod::Seconds)
            .map_err(|_| format!("expected `month` or a positive number of seconds, got {text:?}"))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[test]
    fn defaults_work_without_configuration() {
        let config = Config::try_parse_from(["relang-server"]).unwrap();
        assert_eq!(config.bind, "127.0.0.1:8080".parse().unwrap());
        assert_eq!((config.default_timeout_ms, config.max_timeout_ms), (5_000, 30_000));
        assert_eq!(
            (config.max_states, config.max_terms, config.body_limit),
            (100_000, 10, 1 << 20)
        );
        assert_eq!(config.check(), Ok(()));
        assert!(config.scheduler().threads >= 1);
        assert_eq!(config.scheduler().queue_depth, 128);
        assert_eq!(config.scheduler().slice, Duration::from_millis(1));
        assert_eq!(config.scheduler().park_below, 512 << 20);
        assert_eq!(config.metrics_addr, None);
        assert_eq!(config.rate_limit_redis_outage, OutagePolicy::Local);
        assert_eq!(config.drain(), (Duration::from_secs(5), Duration::from_secs(24)));
    }

    #[test]
    fn the_drain_delay_leaves_time_to_finish() {
        let config = |delay: &str, grace: &str| {
            let args = ["--drain-delay-secs", delay, "--shutdown-grace-secs", grace];
            Config::try_parse_from(["relang-server"].iter().chain(&args)).unwrap()
        };
        assert_eq!(config("0", "2").drain(), (Duration::ZERO, Duration::from_secs(1)));
        assert_eq!(config("8", "10").check(), Ok(()));
        assert!(config("9", "10").check().unwrap_err().contains("less than 2 s"));
    }

    #[test]
    fn the_long_lane_leaves_the_workers_a_core() {
        assert_eq!([1, 2, 3, 8].map(default_engine_threads), [1, 1, 2, 7]);
        let config = Config::try_parse_from(["relang-server", "--engine-threads", "2"]).unwrap();
        assert_eq!(config.scheduler().threads, 2);
    }

    #[test]
    fn fair_keys_come_from_configuration() {
        let development = Config::try_parse_from(["relang-server"]).unwrap().keyring().unwrap();
        assert!(development.is_development());
        let key = "k".repeat(32);
        let old = "o".repeat(40);
        let config =
            Config::try_parse_from(["relang-server", "--fair-key", &key, "--fair-old-keys", &old])
                .unwrap();
        let keyring = config.keyring().unwrap();
        assert!(!keyring.is_development());
        assert_eq!(keyring.n_keys(), 2);
        let short = Config::try_parse_from(["relang-server", "--fair-key", "short"]).unwrap();
        assert!(short.keyring().is_err());
    }

    #[test]
    fn accounts_come_from_configuration() {
        let config = Config::try_parse_from(["relang-server"]).unwrap();
        assert_eq!((config.tokens_file, config.redis_url), (None, None));
        assert_eq!((config.quota_period, config.command), (QuotaPeriod::Month, None));
        let config = Config::try_parse_from([
            "relang-server",
            "--tokens-file",
            "/etc/relang/tokens.toml",
            "--quota-period",
            "86400",
            "--redis-url",
            "redis://127.0.0.1:6379",
        ])
        .unwrap();
        assert_eq!(config.quota_period.to_string(), "86400");
        assert_eq!(config.check(), Ok(()));
        let hash = Config::try_parse_from(["relang-server", "hash-token"]).unwrap();
        assert_eq!(hash.command, Some(Command::HashToken));
        assert!(Config::try_parse_from(["relang-server", "--quota-period", "weekly"]).is_err());
        let redis_alone =
            Config::try_parse_from(["relang-server", "--redis-url", "redis://localhost"]).unwrap();
        assert!(redis_alone.check().unwrap_err().contains("no tokens file"));
    }

    /// docs/configuration.md names every flag, its variable and its default.
    #[test]
    fn every_flag_is_documented() {
        let doc = include_str!("../../../docs/configuration.md");
        let command = <Config as clap::CommandFactory>::command();
        for arg in command.get_arguments().filter(|arg| arg.get_long().is_some()) {
            let long = arg.get_long().unwrap_or_default();
            if ["help", "version"].contains(&long) {
                continue;
            }
            let env = arg.get_env().map(|env| env.to_string_lossy().into_owned());
            let row = format!("| `--{long}` | `{}` | ", env.unwrap_or_default());
            let line = doc.lines().find(|line| line.starts_with(&row));
            let line = line.unwrap_or_else(|| panic!("docs/configuration.md has no row {row}"));
            for default in arg.get_default_values() {
                let default = format!("`{}`", default.to_string_lossy());
                assert!(line.contains(&default), "--{long}: default {default} missing in {line}");
            }
        }
        for subcommand in command.get_subcommands() {
            let name = format!("`relang-server {}`", subcommand.get_name());
            assert!(doc.contains(&name), "docs/configuration.md does not name {name}");
        }
    }

    #[test]
    fn rejects_bad_values() {
        assert!(Config::try_parse_from(["relang-server", "--bind", "nowhere"]).is_err());
        assert!(Config::try_parse_from(["relang-server", "--max-terms", "1"]).is_err());
        assert!(Config::try_parse_from(["relang-server", "--default-timeout-ms", "0"]).is_err());
        let config = Config::try_parse_from([
            "relang-server",
            "--default-timeout-ms",
            "9",
            "--max-timeout-ms",
            "8",
        ])
        .unwrap();
        assert!(config.check().unwrap_err().contains("above the maximum"));
    }

    #[test]
    fn periods_parse_and_print() {
        assert_eq!("month".parse(), Ok(QuotaPeriod::Month));
        assert_eq!("86400".parse(), Ok(QuotaPeriod::Seconds(NonZeroU64::new(86_400).unwrap())));
        assert_eq!(QuotaPeriod::Seconds(NonZeroU64::new(86_400).unwrap()).to_string(), "86400");
        for bad in ["0", "-1", "monthly", ""] {
            assert!(bad.parse::<QuotaPeriod>().is_err(), "{bad}");
        }
    }
}
