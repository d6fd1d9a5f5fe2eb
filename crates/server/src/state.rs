//! What every handler shares: the engine, the FAIR codec and authentication.

use std::sync::Arc;

use fair_codec::{FairCodec, Limits as FairLimits};
use langcore::graph::GraphLimits;

use crate::auth::Auth;
use crate::config::{Config, ConfigError};
use crate::engine::Engine;

/// Shared by all handlers through `web::Data`.
pub(crate) struct AppState {
    pub(crate) engine: Engine,
    /// Shared with engine jobs, which run on other threads.
    pub(crate) codec: Arc<FairCodec>,
    /// Read by the [`Caller`](crate::auth::Caller) extractor; reloaded on SIGHUP.
    pub(crate) auth: Auth,
}

impl AppState {
    pub(crate) fn new(config: &Config) -> Result<AppState, ConfigError> {
        let max_states = usize::try_from(config.max_states).unwrap_or(usize::MAX);
        // A FAIR may not carry a bigger automaton than a request may build; token limits
        // never exceed the server's, so this holds for every caller.
        let fair_limits = FairLimits::default()
            .with_graph_limits(GraphLimits::default().with_max_states(max_states));
        let keyring = config.keyring().map_err(ConfigError::new)?;
        Ok(AppState {
            engine: Engine::new(config.engine()),
            codec: Arc::new(FairCodec::new(keyring).with_limits(fair_limits)),
            auth: Auth::new(config)?,
        })
    }
}
