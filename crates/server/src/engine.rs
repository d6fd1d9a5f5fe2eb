//! The one place where engine work runs: off the HTTP workers, bounded, under a budget.
//!
//! # Overview
//! [`Engine::run`] takes the request's [`Budget`] (made by the caller's limits when the
//! request was validated, so time spent waiting for a thread counts too), waits for one of a
//! fixed number of permits, and runs the job on actix's blocking thread pool. The async
//! workers never compute, so cheap requests keep answering while expensive ones run.

use std::sync::Arc;

use actix_web::web;
use api_types::ErrorCode;
use langcore::Budget;
use tokio::sync::Semaphore;

use crate::error::HttpError;

/// Runs engine jobs with bounded concurrency.
pub(crate) struct Engine {
    permits: Arc<Semaphore>,
}

impl Engine {
    pub(crate) fn new(threads: usize) -> Engine {
        Engine { permits: Arc::new(Semaphore::new(threads.max(1))) }
    }

    /// Runs `job` on an engine thread under the request's `budget`.
    pub(crate) async fn run<T, F>(&self, budget: Budget, job: F) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: FnOnce(&Budget) -> Result<T, HttpError> + Send + 'static,
    {
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
