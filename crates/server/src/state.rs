//! What every handler shares: the engine and the limits of the caller.

use std::sync::Arc;
use std::time::Duration;

use api_types::request::Limits;
use api_types::response::{AccountLimits, AccountLimitsTag};

use fair_codec::{FairCodec, KeyError, Limits as FairLimits};
use langcore::graph::GraphLimits;

use crate::config::Config;
use crate::engine::Engine;

/// Shared by all handlers through `web::Data`.
pub(crate) struct AppState {
    pub(crate) engine: Engine,
    /// Shared with engine jobs, which run on other threads.
    pub(crate) codec: Arc<FairCodec>,
    pub(crate) limits: Limits,
    pub(crate) account: AccountLimits,
}

impl AppState {
    pub(crate) fn new(config: &Config) -> Result<AppState, KeyError> {
        let max_states = usize::try_from(config.max_states).unwrap_or(usize::MAX);
        let max_terms = usize::try_from(config.max_terms).unwrap_or(usize::MAX);
        // A FAIR may not carry a bigger automaton than a request may build.
        let fair_limits = FairLimits::default()
            .with_graph_limits(GraphLimits::default().with_max_states(max_states));
        let codec = FairCodec::new(config.keyring()?).with_limits(fair_limits);
        Ok(AppState {
            engine: Engine::new(
                config.engine_threads(),
                Duration::from_millis(config.default_timeout_ms),
                max_states,
            ),
            codec: Arc::new(codec),
            limits: Limits { max_terms, max_timeout_ms: config.max_timeout_ms },
            account: AccountLimits {
                kind: AccountLimitsTag::Tag,
                // No quota without auth: the largest count every JSON client reads exactly.
                max_requests_count: api_types::response::MAX_SAFE_INTEGER,
                max_requests_rate: 0,
                max_terms_count: config.max_terms,
                max_timeout: config.max_timeout_ms,
                max_states_count: config.max_states,
            },
        })
    }
}
