//! What every handler shares: the engine, the FAIR codec and the callers' limits.

use std::sync::Arc;

use fair_codec::{FairCodec, KeyError, Limits as FairLimits};
use langcore::graph::GraphLimits;

use crate::auth::Auth;
use crate::config::Config;
use crate::engine::Engine;

/// Shared by all handlers through `web::Data`.
pub(crate) struct AppState {
    pub(crate) engine: Engine,
    /// Shared with engine jobs, which run on other threads.
    pub(crate) codec: Arc<FairCodec>,
    /// Read by the [`Caller`](crate::auth::Caller) extractor.
    pub(crate) auth: Auth,
}

impl AppState {
    pub(crate) fn new(config: &Config) -> Result<AppState, KeyError> {
        let max_states = usize::try_from(config.max_states).unwrap_or(usize::MAX);
        // A FAIR may not carry a bigger automaton than a request may build.
        let fair_limits = FairLimits::default()
            .with_graph_limits(GraphLimits::default().with_max_states(max_states));
        let codec = FairCodec::new(config.keyring()?).with_limits(fair_limits);
        Ok(AppState {
            engine: Engine::new(config.engine_threads()),
            codec: Arc::new(codec),
            auth: Auth::new(config),
        })
    }
}
