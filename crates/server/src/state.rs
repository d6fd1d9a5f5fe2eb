//! What every handler shares: the scheduler, the FAIR codec, the caches of compiled terms
//! and of answers,
//! authentication, the Redis link and whether the replica drains.

use std::sync::Arc;

use actix_web::web;
use fair_codec::{DecodeLimits, FairCodec};
use langcore::graph::GraphLimits;

use crate::answer_cache::{AnswerCache, answer_cache_bytes};
use crate::auth::Auth;
use crate::config::{Config, ConfigError};
use crate::drain::Drain;
use crate::metrics::Exporter;
use crate::redis_link::RedisLink;
use crate::scheduler::Scheduler;
use crate::term_cache::TermCache;

/// Shared by all handlers through `web::Data`.
pub(crate) struct AppState {
    pub(crate) scheduler: Scheduler,
    /// Shared with engine jobs, which run on the scheduler's threads.
    pub(crate) codec: Arc<FairCodec>,
    /// Also registered on its own, for the [`Caller`](crate::auth::Caller) extractor;
    /// reloaded on SIGHUP.
    pub(crate) auth: web::Data<Auth>,
    /// The languages of terms seen before (`--term-cache`).
    pub(crate) terms: TermCache,
    /// The answers of questions asked before (`--answer-cache`).
    pub(crate) answers: AnswerCache,
    /// The largest response body, in bytes ([`crate::transport::success_body`]).
    pub(crate) response_limit: usize,
    /// How long a request body may take to arrive ([`crate::transport::guard_body`]).
    pub(crate) body_timeout: std::time::Duration,
    /// `--redis-url`'s link, which quotas, the rate limit and `/readyz` use.
    pub(crate) redis: Option<Arc<RedisLink>>,
    /// Set on SIGTERM ([`crate::drain`]).
    pub(crate) drain: web::Data<Drain>,
    /// Whether `/metrics` is served beside the API (no `--metrics-addr`).
    pub(crate) metrics_beside_api: bool,
}

impl AppState {
    pub(crate) fn new(config: &Config) -> Result<AppState, ConfigError> {
        let max_states = usize::try_from(config.max_states).unwrap_or(usize::MAX);
        // A FAIR may not carry a bigger automaton than a request may build; token limits
        // never exceed the server's, so this holds for every caller.
        let fair_limits = DecodeLimits::default()
            .with_graph_limits(GraphLimits::default().with_max_states(max_states));
        let keyring = config.keyring().map_err(ConfigError::new)?;
        Exporter::install();
        let redis = match &config.redis_url {
            Some(url) => Some(Arc::new(RedisLink::open(url).map_err(ConfigError::new)?)),
            None => None,
        };
        Ok(AppState {
            scheduler: Scheduler::new(config.scheduler()),
            codec: Arc::new(FairCodec::new(keyring).with_limits(fair_limits)),
            auth: web::Data::new(Auth::new(config, redis.as_ref())?),
            terms: TermCache::new(config.term_cache, config.max_memory_bytes()),
            answers: AnswerCache::new(
                config.answer_cache,
                answer_cache_bytes(config.max_memory_bytes()),
            ),
            response_limit: config.response_limit(),
            body_timeout: config.client_request_timeout(),
            redis,
            drain: web::Data::new(Drain::default()),
            metrics_beside_api: config.metrics_addr.is_none(),
        })
    }
}
