//! The one place where engine work runs: off the HTTP workers, in two bounded lanes, under a
//! budget.
//!
//! # Overview
//! [`Engine::run`] takes the request's [`Budget`] (made when the request was validated, so
//! time spent queueing counts too) and runs the job on actix's blocking thread pool, never on
//! the async workers, in one of two lanes of `threads` threads each:
//! - the quick lane runs every job first, interrupted after a short slice (`quick`): most
//!   requests finish there;
//! - a job interrupted with budget left starts again from scratch in the long lane, with
//!   its whole budget.
//!
//! So expensive jobs can fill the long lane while cheap ones keep answering; an expensive
//! job pays for one slice twice. The slice is an interrupt, not a shorter deadline
//! ([`Budget::with_interrupt`]), and a quick run that ended after it is run again, so a
//! result never depends on the lane it came from.
//!
//! # Invariants
//! At most `threads` jobs run and at most `queue_depth` wait in each lane; a job that finds
//! its lane's queue full fails at once with 503 `Overloaded` and `Retry-After`, instead of
//! waiting without bound.

use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web;
use api_types::ErrorCode;
use langcore::Budget;
use tokio::sync::Semaphore;

use crate::error::HttpError;

/// What a client told to retry should wait, in seconds: the queue moves within a timeout.
const RETRY_AFTER_SECONDS: u64 = 1;

/// How many threads each lane has, how many jobs may wait for one, and the quick slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EngineConfig {
    pub(crate) threads: usize,
    pub(crate) queue_depth: usize,
    pub(crate) quick: Duration,
}

/// Runs engine jobs in a quick and a long lane.
pub(crate) struct Engine {
    quick_lane: Lane,
    long_lane: Lane,
    quick: Duration,
}

impl Engine {
    pub(crate) fn new(config: EngineConfig) -> Engine {
        Engine {
            quick_lane: Lane::new("quick", config.threads, config.queue_depth),
            long_lane: Lane::new("long", config.threads, config.queue_depth),
            quick: config.quick,
        }
    }

    /// Runs `job` under the request's `budget`: in the quick lane, then, when it did not
    /// finish within the slice and the budget has time left, again in the long lane.
    pub(crate) async fn run<T, F>(&self, budget: Budget, job: F) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        let job = Arc::new(job);
        let interrupt = Instant::now() + self.quick;
        let (res, ended) = self.quick_lane.run(budget.with_interrupt(interrupt), &job).await?;
        let time_left = budget.deadline().is_none_or(|deadline| Instant::now() < deadline);
        if ended < interrupt || !time_left {
            return res;
        }
        self.long_lane.run(budget, &job).await?.0
    }
}

/// A fixed number of threads and a bounded queue in front of them.
struct Lane {
    name: &'static str,
    /// One permit per thread.
    running: Arc<Semaphore>,
    /// One permit per thread and per place in the queue.
    admitted: Arc<Semaphore>,
}

impl Lane {
    fn new(name: &'static str, threads: usize, queue_depth: usize) -> Lane {
        let threads = threads.max(1);
        Lane {
            name,
            running: Arc::new(Semaphore::new(threads)),
            admitted: Arc::new(Semaphore::new(threads.saturating_add(queue_depth))),
        }
    }

    /// Runs `job` on one of the lane's threads and returns its result and when it ended;
    /// fails at once when the queue is full.
    async fn run<T, F>(&self, budget: Budget, job: &Arc<F>) -> Result<(T, Instant), HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> T + Send + Sync + 'static,
    {
        let admitted = Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| {
            HttpError::new(
                ErrorCode::Overloaded,
                format!("the engine's {} lane and its queue are full; retry later", self.name),
            )
            .with_retry_after(RETRY_AFTER_SECONDS)
        })?;
        let running = Arc::clone(&self.running)
            .acquire_owned()
            .await
            .map_err(|_| HttpError::new(ErrorCode::InternalError, "the engine is shutting down"))?;
        let job = Arc::clone(job);
        web::block(move || {
            let _permits = (admitted, running);
            (job(&budget), Instant::now())
        })
        .await
        .map_err(|err| {
            HttpError::new(ErrorCode::InternalError, format!("engine job failed: {err}"))
        })
    }
}
