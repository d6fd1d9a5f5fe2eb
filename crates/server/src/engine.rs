//! The one place where engine work runs: off the HTTP workers, bounded, under a budget.
//!
//! # Overview
//! [`Engine::run`] builds the request's [`Budget`] (its deadline counts from the moment the
//! request asks, so time spent waiting for a thread counts too), waits for one of a fixed
//! number of permits, and runs the job on actix's blocking thread pool. The async workers
//! never compute, so cheap requests keep answering while expensive ones run.

use std::sync::Arc;
use std::time::Duration;

use actix_web::web;
use api_types::ErrorCode;
use api_types::request::Options;
use langcore::Budget;
use tokio::sync::Semaphore;

use crate::error::HttpError;

/// Runs engine jobs with bounded concurrency and per-request budgets.
pub(crate) struct Engine {
    permits: Arc<Semaphore>,
    default_timeout: Duration,
    max_states: usize,
}

impl Engine {
    pub(crate) fn new(threads: usize, default_timeout: Duration, max_states: usize) -> Engine {
        Engine { permits: Arc::new(Semaphore::new(threads.max(1))), default_timeout, max_states }
    }

    /// The budget of a request with `options`.
    pub(crate) fn budget(&self, options: &Options) -> Budget {
        let timeout = options.timeout_ms.map_or(self.default_timeout, Duration::from_millis);
        Budget::new(timeout).with_max_states(self.max_states)
    }

    /// Runs `job` on an engine thread under the request's budget.
    pub(crate) async fn run<T, F>(&self, options: &Options, job: F) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: FnOnce(&Budget) -> Result<T, HttpError> + Send + 'static,
    {
        let budget = self.budget(options);
        let permit = Arc::clone(&self.permits)
            .acquire_owned()
            .await
            .map_err(|_| HttpError::new(ErrorCode::InternalError, "the engine is shutting down"))?;
        web::block(move || {
            let _permit = permit;
            job(&budget)
        })
        .await
        .map_err(|err| {
            HttpError::new(ErrorCode::InternalError, format!("engine job failed: {err}"))
        })?
    }
}
