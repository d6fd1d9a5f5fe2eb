//! What every handler shares: the scheduler, the FAIR codec and authentication.

use std::sync::Arc;

use actix_web::web;
use fair_codec::{DecodeLimits, FairCodec};
use langcore::graph::GraphLimits;

use crate::auth::Auth;
use crate::config::{Config, ConfigError};
use crate::scheduler::Scheduler;

/// Shared by all handlers through `web::Data`.
pub(crate) struct AppState {
    pub(crate) scheduler: Scheduler,
    /// Shared with engine jobs, which run on the scheduler's threads.
    pub(crate) codec: Arc<FairCodec>,
    /// Also registered on its own, for the [`Caller`](crate::auth::Caller) extractor;
    /// reloaded on SIGHUP.
    pub(crate) auth: web::Data<Auth>,
}

impl AppState {
    pub(crate) fn new(config: &Config) -> Result<AppState, ConfigError> {
        let max_states = usize::try_from(config.max_states).unwrap_or(usize::MAX);
        // A FAIR may not carry a bigger automaton than a request may build; token limits
        // never exceed the server's, so this holds for every caller.
        let fair_limits = DecodeLimits::default()
            .with_graph_limits(GraphLimits::default().with_max_states(max_states));
        let keyring = config.keyring().map_err(ConfigError::new)?;
        Ok(AppState {
            scheduler: Scheduler::new(config.scheduler()),
            codec: Arc::new(FairCodec::new(keyring).with_limits(fair_limits)),
            auth: web::Data::new(Auth::new(config)?),
        })
    }
}
