//! What every handler shares: the engine and the limits of the caller.

use std::time::Duration;

use api_types::request::Limits;
use api_types::response::{AccountLimits, AccountLimitsTag};

use crate::config::Config;
use crate::engine::Engine;

/// Shared by all handlers through `web::Data`.
pub(crate) struct AppState {
    pub(crate) engine: Engine,
    pub(crate) limits: Limits,
    pub(crate) account: AccountLimits,
}

impl AppState {
    pub(crate) fn new(config: &Config) -> AppState {
        let max_states = usize::try_from(config.max_states).unwrap_or(usize::MAX);
        let max_terms = usize::try_from(config.max_terms).unwrap_or(usize::MAX);
        AppState {
            engine: Engine::new(
                config.engine_threads(),
                Duration::from_millis(config.default_timeout_ms),
                max_states,
            ),
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
        }
    }
}
