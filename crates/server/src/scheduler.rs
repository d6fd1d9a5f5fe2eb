//! The one place where engine (langcore) work is scheduled: a first slice on the HTTP
//! worker that received the request, the rest in the lane (a bounded set of threads of its
//! own, computing in turns ordered by the CPU time each job has used).
//!
//! # Overview
//! [`Scheduler::run`] takes the request's [`Budget`] (made when the request was validated,
//! so time spent queueing counts too) and:
//! - runs the job at once, on the calling HTTP worker, interrupted after a short slice
//!   (`slice`): most requests finish there, with no hop between threads; a job interrupted
//!   having used less CPU time than the slice (the machine was busy, the job was not
//!   expensive) gets another slice on the worker, a few times ([`after_slice`]);
//! - a job interrupted with budget left starts again from scratch in the **lane**, with its
//!   whole budget, on a thread of its own. There it computes only while it holds one of
//!   `threads` run permits (`cores.rs`): at every budget check, a job that has computed a
//!   quantum more CPU time than a waiting one hands it its permit and waits for one again,
//!   least attained service first (waiting counting a little as service, so none starves).
//!   So a job of a few milliseconds gets a core within a budget check and a quantum of its
//!   arrival, however many expensive jobs the lane holds, and expensive jobs share what is
//!   left.
//!
//! Priority is this policy, not the kernel's: the lane's threads keep the default policy
//! and priority and get their fair share of the cores beside any other process of the
//! host (not `SCHED_BATCH`: under the kernel's EEVDF scheduler a batch thread held a core
//! longer against a waking HTTP worker, doubling small requests' p99 under the load test's
//! mix, docs/benchmarks.md); by default the lane has one permit fewer than the machine has
//! cores (config.rs), so the HTTP workers always find a core it leaves them, and where a
//! worker waits for a lane job's core anyway, the job yields it at a budget check
//! (`cores.rs`, `workers.rs`). The slice is an interrupt, not a shorter deadline
//! ([`Budget::with_interrupt`]), and a slice that ended after it is run again, so a result
//! never depends on where it was computed.
//!
//! # Invariants
//! At most `threads` lane jobs compute at once and at most `threads + queue_depth` are in
//! the lane (computing, waiting for a permit, or about to start), each on a thread of its
//! own; a job that finds the lane full fails at once with 503 `Overloaded` and
//! `Retry-After`, instead of waiting without bound. A job waiting for a permit still runs
//! against its deadline: it answers `TimeoutExceeded` naming the operation at its budget
//! check. A worker computes for at most `MAX_SLICES` slices per request. A job's budget is
//! cancelled ([`Cancellation`]) as soon as its request is answered or dropped, so no job
//! computes past its answer for longer than it takes to reach its next budget check.

mod cores;
mod workers;

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use api_types::ErrorCode;
use langcore::{Budget, Cancellation};
use tokio::sync::{Semaphore, oneshot};

use crate::error::HttpError;

/// What a client told to retry should wait, in seconds: the queue moves within a timeout.
const RETRY_AFTER_SECONDS: u64 = 1;
/// How long past its deadline a job in the lane has to notice it before the request is
/// answered `TimeoutExceeded` without it (a job that never checks its budget, or a host so
/// busy that the job got no CPU time). The job goes on until it notices; its answer is
/// dropped.
const DEADLINE_GRACE: Duration = Duration::from_millis(20);
/// The most slices a job gets on the HTTP worker when it is interrupted without having used
/// a slice of CPU time (a busy machine descheduled it).
const MAX_SLICES: usize = 3;
/// How many budget checks a job makes on a worker before the slice samples its thread's CPU
/// time.
const CHECKS_BEFORE_SAMPLE: u32 = 64;

thread_local! {
    /// The budget checks of the slice computing on this worker, and its CPU time sample.
    static SLICE_CLOCK: Cell<SliceClock> = const { Cell::new(SliceClock::START) };
}

/// What a slice knows of its CPU time: how many budget checks its job made, and when it made
/// the `CHECKS_BEFORE_SAMPLE`th, the time and the thread's CPU time then.
#[derive(Clone, Copy, Debug)]
struct SliceClock {
    checks: u32,
    sampled: Option<(Instant, Duration)>,
}

impl SliceClock {
    const START: SliceClock = SliceClock { checks: 0, sampled: None };
}

/// The slice budget's pause hook: counts a budget check, and samples the CPU time at the
/// `CHECKS_BEFORE_SAMPLE`th.
fn count_check() {
    let mut clock = SLICE_CLOCK.get();
    clock.checks = clock.checks.saturating_add(1);
    if clock.checks == CHECKS_BEFORE_SAMPLE {
        clock.sampled = Some((Instant::now(), thread_cpu_time()));
    }
    SLICE_CLOCK.set(clock);
}

/// How many lane jobs compute at once, how many more may wait in the lane, and the first
/// slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SchedulerConfig {
    pub(crate) threads: usize,
    pub(crate) queue_depth: usize,
    pub(crate) slice: Duration,
    /// The resident memory under which lane jobs take turns (hand their permits over and
    /// wait with their tables): two requests' memory bounds.
    pub(crate) park_below: u64,
}

/// Runs engine jobs: a first slice on the calling worker, then the lane.
pub(crate) struct Scheduler {
    lane: Lane,
    /// The lane's run permits.
    cores: Arc<cores::Cores>,
    slice: Duration,
}

/// What [`Scheduler::run`] does after a slice on the worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Answer with the slice's result: it finished, or the budget's time is spent.
    Answer,
    /// Another slice on the worker: the job was descheduled, not expensive.
    Again,
    /// Start again in the lane, with the whole budget.
    Lane,
}

/// The scheduling policy, after a slice that ended at `ended` with `interrupt` set: a run
/// that ended before its interrupt (finished or failed on its own), or one whose deadline
/// passed, is the answer; one interrupted having used at least a slice of CPU time is
/// expensive and goes to the lane; one that used less was descheduled and gets another
/// slice, unless it had `MAX_SLICES` already.
fn after_slice(
    run: &Run,
    interrupt: Instant,
    deadline: Option<Instant>,
    slices: usize,
    slice: Duration,
) -> Next {
    let time_left = deadline.is_none_or(|deadline| run.ended < deadline);
    if run.ended < interrupt || !time_left {
        Next::Answer
    } else if run.cpu < slice && slices < MAX_SLICES {
        Next::Again
    } else {
        Next::Lane
    }
}

impl Scheduler {
    pub(crate) fn new(config: SchedulerConfig) -> Scheduler {
        let threads = config.threads.max(1);
        Scheduler {
            lane: Lane::new(threads.saturating_add(config.queue_depth)),
            cores: Arc::new(cores::Cores::new(threads, config.park_below)),
            slice: config.slice,
        }
    }

    /// Runs `job` under the request's `budget`: on the calling worker for a slice, then,
    /// when it did not finish within the slice and the budget has time left, again in the
    /// lane (see [`after_slice`] and [`Scheduler::in_lane`]). The answer comes by the
    /// deadline plus [`DEADLINE_GRACE`], with or without the lane's.
    pub(crate) async fn run<T, F>(&self, budget: Budget, job: F) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        // Dropped with this future: when the request is answered, or when it is dropped.
        let cancellation = Cancellation::new();
        let budget = budget.with_cancellation(&cancellation);
        let mut slices = 0;
        // The CPU time the job used on the worker: its place in the lane's queue.
        let mut attained = Duration::ZERO;
        self.cores.register_worker();
        loop {
            let (res, run, interrupt) = run_slice(&job, &budget, self.slice);
            slices += 1;
            attained += run.cpu;
            match after_slice(&run, interrupt, budget.deadline(), slices, self.slice) {
                Next::Answer => return res?,
                // Let the worker serve its other connections before the next slice.
                Next::Again => actix_web::rt::task::yield_now().await,
                Next::Lane => break,
            }
        }
        let in_lane = self.in_lane(budget, attained, job);
        let Some(deadline) = budget.deadline() else { return in_lane.await };
        let time_left = (deadline + DEADLINE_GRACE).saturating_duration_since(Instant::now());
        match actix_web::rt::time::timeout(time_left, in_lane).await {
            Ok(res) => res,
            Err(_) => Err(HttpError::timeout(None)),
        }
    }

    /// Runs `job` in the lane under its whole `budget`, computing in turns ordered by its
    /// `attained` service (see `cores.rs`).
    async fn in_lane<T, F>(
        &self,
        budget: Budget,
        attained: Duration,
        job: F,
    ) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        let cores = Arc::clone(&self.cores);
        let entered = Instant::now();
        let work = move || {
            cores.run(attained, &budget, || {
                crate::metrics::engine_queue_waited(entered.elapsed());
                run_caught(&job, &budget.with_pause(cores::take_turn))
            })
        };
        self.lane.run(work).await??
    }
}

/// When a job's run ended, and the CPU time it used.
struct Run {
    ended: Instant,
    cpu: Duration,
}

/// What a job's run returns: its result, or an internal error when it panicked.
type Caught<T> = Result<Result<T, HttpError>, HttpError>;

/// Runs `job` on the calling worker for a `slice` under `budget`: returns its result, the
/// [`Run`] (its CPU time from the sample, see the module docs) and the interrupt.
fn run_slice<T>(
    job: &impl Fn(&Budget) -> Result<T, HttpError>,
    budget: &Budget,
    slice: Duration,
) -> (Caught<T>, Run, Instant) {
    let started = Instant::now();
    let interrupt = started + slice;
    SLICE_CLOCK.set(SliceClock::START);
    let res = run_caught(job, &budget.with_interrupt(interrupt).with_pause(count_check));
    let ended = Instant::now();
    let cpu = if ended < interrupt {
        // Not interrupted: its CPU time decides nothing.
        Duration::ZERO
    } else {
        match SLICE_CLOCK.get().sampled {
            Some((at, cpu_then)) => {
                thread_cpu_time().saturating_sub(cpu_then) + at.saturating_duration_since(started)
            }
            None => slice,
        }
    };
    (res, Run { ended, cpu }, interrupt)
}

/// Runs `job` on the calling thread, a panic caught as an internal error.
fn run_caught<T>(
    job: &(impl Fn(&Budget) -> Result<T, HttpError> + ?Sized),
    budget: &Budget,
) -> Caught<T> {
    panic::catch_unwind(AssertUnwindSafe(|| job(budget))).map_err(|_| {
        tracing::error!("an engine job panicked");
        HttpError::new(ErrorCode::InternalError, "the request failed on an internal error")
    })
}

/// The CPU time the calling thread has used so far.
fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::try_from(now).unwrap_or_default()
}

/// A task on a lane's thread: runs a job and sends its result back.
type Task = Box<dyn FnOnce() + Send>;

/// Threads of its own, one per job in it, at most `capacity` jobs: a job that waits for a
/// permit keeps its thread (and its state), so the lane needs one per job.
struct Lane {
    /// One permit per job in the lane.
    admitted: Arc<Semaphore>,
    capacity: usize,
    tasks: mpsc::Sender<Task>,
    queue: Arc<Mutex<mpsc::Receiver<Task>>>,
    /// The threads started so far: as many as jobs were ever in the lane at once.
    spawned: Mutex<usize>,
}

impl Lane {
    /// A lane for at most `capacity` jobs (at least one); its threads start when needed.
    fn new(capacity: usize) -> Lane {
        let capacity = capacity.max(1);
        let (tasks, queue) = mpsc::channel::<Task>();
        Lane {
            admitted: Arc::new(Semaphore::new(capacity)),
            capacity,
            tasks,
            queue: Arc::new(Mutex::new(queue)),
            spawned: Mutex::new(0),
        }
    }

    /// Runs `work` on one of the lane's threads and returns what it returns; fails at once
    /// when the lane is full.
    async fn run<R: Send + 'static>(
        &self,
        work: impl FnOnce() -> R + Send + 'static,
    ) -> Result<R, HttpError> {
        let admitted = Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| {
            HttpError::new(
                ErrorCode::Overloaded,
                "the server is busy with expensive requests; retry later",
            )
            .with_retry_after(RETRY_AFTER_SECONDS)
        })?;
        self.spawn_up_to(self.capacity - self.admitted.available_permits());
        crate::metrics::engine_queue_moved(1.0);
        let (sender, receiver) = oneshot::channel();
        let task: Task = Box::new(move || {
            let res = work();
            // The place is free before the answer is: a request sent after it finds it free.
            drop(admitted);
            crate::metrics::engine_queue_moved(-1.0);
            let _ = sender.send(res);
        });
        let shut_down = || HttpError::new(ErrorCode::InternalError, "the server is shutting down");
        self.tasks.send(task).map_err(|_| shut_down())?;
        receiver.await.map_err(|_| shut_down())
    }

    /// Starts threads until there are `in_lane`, one per job in the lane. One that does not
    /// start is logged: its job waits for another thread, or for its deadline.
    fn spawn_up_to(&self, in_lane: usize) {
        let mut spawned = self.spawned.lock().unwrap_or_else(PoisonError::into_inner);
        while *spawned < in_lane {
            let queue = Arc::clone(&self.queue);
            let thread = std::thread::Builder::new().name(format!("engine-lane-{spawned}"));
            let started = thread.spawn(move || serve(&queue));
            if let Err(err) = started {
                tracing::error!(%err, "a lane thread did not start");
                return;
            }
            *spawned += 1;
        }
    }
}

/// A lane thread's life: run tasks until the lane is dropped.
fn serve(queue: &Mutex<mpsc::Receiver<Task>>) {
    loop {
        let task = match queue.lock() {
            Ok(queue) => queue.recv(),
            Err(_) => return,
        };
        match task {
            Ok(task) => task(),
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLICE: Duration = Duration::from_millis(1);

    fn scheduler(slice: Duration) -> Scheduler {
        Scheduler::new(SchedulerConfig { threads: 1, queue_depth: 1, slice, park_below: u64::MAX })
    }

    fn on_the_lane() -> bool {
        std::thread::current().name().is_some_and(|name| name.starts_with("engine-lane"))
    }

    /// Computes until the budget stops it, as langcore's loops do.
    fn spin(budget: &Budget) -> Result<(), HttpError> {
        loop {
            budget.check_time(langcore::Operation::Product)?;
        }
    }

    /// A run that ended `ended_ms` after `start` having used `cpu_ms` of CPU time.
    fn run(start: Instant, ended_ms: u64, cpu_ms: u64) -> Run {
        Run { ended: start + Duration::from_millis(ended_ms), cpu: Duration::from_millis(cpu_ms) }
    }

    #[test]
    fn the_policy_answers_finished_runs_and_moves_expensive_ones() {
        let start = Instant::now();
        let interrupt = start + SLICE;
        let deadline = Some(start + Duration::from_millis(100));
        let next = |run: Run, slices| after_slice(&run, interrupt, deadline, slices, SLICE);
        // Finished (or failed on its own) within the slice: that is the answer.
        assert_eq!(next(Run { ended: start, cpu: Duration::ZERO }, 1), Next::Answer);
        // Interrupted having used its slice of CPU time: expensive.
        assert_eq!(next(run(start, 2, 1), 1), Next::Lane);
        // Interrupted having used less: descheduled, so another slice, up to MAX_SLICES.
        assert_eq!(next(run(start, 5, 0), 1), Next::Again);
        assert_eq!(next(run(start, 5, 0), MAX_SLICES - 1), Next::Again);
        assert_eq!(next(run(start, 5, 0), MAX_SLICES), Next::Lane);
        // Past the deadline: whatever the run says is the answer (a timeout).
        assert_eq!(next(run(start, 100, 1), 1), Next::Answer);
        assert_eq!(after_slice(&run(start, 100, 1), interrupt, None, 1, SLICE), Next::Lane);
    }

    /// A slice reads its CPU time only after `CHECKS_BEFORE_SAMPLE` checks: a job that
    /// slept (was descheduled) past its interrupt after them used less than its slice; one
    /// interrupted before them counts as having used it all.
    #[test]
    fn a_slice_samples_its_cpu_time_after_some_checks() {
        let check = |budget: &Budget| budget.check_time(langcore::Operation::Product);
        let sleeper = |n_checks: u32| {
            move |budget: &Budget| {
                for _ in 0..n_checks {
                    check(budget)?;
                }
                std::thread::sleep(SLICE * 20);
                check(budget).map_err(HttpError::from)
            }
        };
        let (res, run, interrupt) =
            run_slice(&sleeper(CHECKS_BEFORE_SAMPLE), &Budget::unlimited(), SLICE);
        assert_eq!(res.unwrap().unwrap_err().code(), ErrorCode::TimeoutExceeded);
        assert!(run.ended >= interrupt);
        assert!(run.cpu < SLICE * 20, "{:?}", run.cpu);
        let (_, run, _) = run_slice(&sleeper(1), &Budget::unlimited(), SLICE);
        assert_eq!(run.cpu, SLICE);
        // Finished within the slice: no sample, no CPU time.
        let (res, run, interrupt) =
            run_slice(&|_: &Budget| Ok(7), &Budget::unlimited(), SLICE * 100);
        assert_eq!((res.unwrap().unwrap(), run.cpu), (7, Duration::ZERO));
        assert!(run.ended < interrupt);
    }

    /// A cheap job runs on the calling thread: no hop to another thread and back.
    #[actix_web::test]
    async fn a_cheap_job_runs_on_the_calling_worker() {
        let caller = std::thread::current().id();
        let scheduler = scheduler(Duration::from_secs(60));
        let ran_on = scheduler.run(Budget::unlimited(), |_| Ok(std::thread::current().id()));
        assert_eq!(ran_on.await.unwrap(), caller);
    }

    /// A job that outlives its slice starts again in the lane, whose threads keep the
    /// process's scheduling policy and priority, with its whole budget and the pause hook
    /// that takes turns; the answer is the lane's run.
    #[actix_web::test]
    async fn an_expensive_job_moves_to_the_lane_at_normal_priority() {
        let scheduler = scheduler(SLICE);
        let answer = scheduler.run(Budget::unlimited(), |budget| {
            // Busy past the slice, checking the budget as langcore's loops do.
            while budget.check_time(langcore::Operation::Determinize).is_ok() {
                if on_the_lane() {
                    let takes_turns = budget.with_pause(cores::take_turn) == *budget;
                    return Ok((scheduling(), takes_turns));
                }
            }
            Err(HttpError::timeout(None))
        });
        assert_eq!(answer.await.unwrap(), (scheduling(), true));
    }

    /// The calling thread's nice value and, on Linux, its scheduling policy (field 41 of
    /// its `stat`).
    fn scheduling() -> (Option<i32>, Option<String>) {
        let stat = std::fs::read_to_string(workers::OWN_STAT).ok();
        let policy =
            stat.and_then(|stat| workers::stat_fields(&stat).nth(41 - 3).map(str::to_owned));
        (rustix::process::getpriority_process(None).ok(), policy)
    }

    /// Computes for `ms` milliseconds of wall time, checking the budget, and says where.
    fn busy_for(ms: u64) -> impl Fn(&Budget) -> Result<Option<String>, HttpError> {
        move |budget| {
            let started = Instant::now();
            while started.elapsed() < Duration::from_millis(ms) {
                budget.check_time(langcore::Operation::Product)?;
            }
            Ok(std::thread::current().name().map(str::to_owned))
        }
    }

    /// A job of a few milliseconds submitted while expensive jobs hold every permit (one)
    /// gets a core within a quantum: it answers long before them, from the lane.
    #[actix_web::test]
    async fn a_small_job_passes_expensive_ones_that_hold_the_permits() {
        let scheduler = Arc::new(Scheduler::new(SchedulerConfig {
            threads: 1,
            queue_depth: 4,
            slice: SLICE,
            park_below: u64::MAX,
        }));
        let expensive: Vec<_> = (0..2)
            .map(|_| {
                let scheduler = Arc::clone(&scheduler);
                let deadline = Instant::now() + Duration::from_secs(2);
                let budget = Budget::unlimited().with_deadline(deadline);
                actix_web::rt::spawn(async move {
                    let res = scheduler.run(budget, spin).await;
                    (res, Instant::now())
                })
            })
            .collect();
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
        let started = Instant::now();
        let ran_on = scheduler.run(Budget::unlimited(), busy_for(4)).await.unwrap();
        let answered = Instant::now();
        assert!(
            ran_on.as_deref().is_some_and(|name| name.starts_with("engine-lane")),
            "{ran_on:?}"
        );
        let elapsed = answered - started;
        assert!(elapsed < Duration::from_millis(500), "{elapsed:?}");
        for job in expensive {
            let (res, ended) = job.await.unwrap();
            assert_eq!(res.unwrap_err().code(), ErrorCode::TimeoutExceeded);
            assert!(ended > answered);
        }
    }

    /// A job waiting for a permit that nobody hands over (the holder never checks its
    /// budget) answers at its deadline, `TimeoutExceeded` naming the operation.
    #[actix_web::test]
    async fn a_job_waiting_for_a_permit_times_out_naming_its_operation() {
        let scheduler = Arc::new(Scheduler::new(SchedulerConfig {
            threads: 1,
            queue_depth: 1,
            slice: SLICE,
            park_below: u64::MAX,
        }));
        let holder = {
            let scheduler = Arc::clone(&scheduler);
            actix_web::rt::spawn(async move {
                scheduler
                    .run(Budget::unlimited(), |budget| {
                        if !on_the_lane() {
                            return spin(budget);
                        }
                        std::thread::sleep(Duration::from_millis(600));
                        Ok(())
                    })
                    .await
            })
        };
        actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + Duration::from_millis(150));
        let err = scheduler.run(budget, spin).await.unwrap_err();
        let elapsed = started.elapsed();
        assert_eq!(err.code(), ErrorCode::TimeoutExceeded);
        assert!(err.to_string().ends_with("ran out during product construction"), "{err}");
        assert!(elapsed >= Duration::from_millis(150), "{elapsed:?}");
        assert!(elapsed < Duration::from_millis(450), "{elapsed:?}");
        holder.await.unwrap().unwrap();
    }

    /// A lane job that gets no CPU time (or never checks its budget) does not hold its
    /// request past the deadline.
    #[actix_web::test]
    async fn a_stuck_lane_job_is_answered_at_its_deadline() {
        let scheduler = scheduler(SLICE);
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + Duration::from_millis(100));
        let res = scheduler
            .run(budget, |budget| {
                if !on_the_lane() {
                    return spin(budget);
                }
                std::thread::sleep(Duration::from_millis(600));
                Ok(())
            })
            .await;
        let elapsed = started.elapsed();
        assert_eq!(res.unwrap_err().code(), ErrorCode::TimeoutExceeded);
        assert!(elapsed >= Duration::from_millis(100), "{elapsed:?}");
        assert!(elapsed < Duration::from_millis(400), "{elapsed:?}");
    }

    /// A full lane refuses at once with 503 and `Retry-After`, in words that name no
    /// part of the server; a panicking job is an internal error, on the worker or the lane.
    #[actix_web::test]
    async fn overload_and_panics_are_clean_errors() {
        let scheduler = Arc::new(scheduler(SLICE));
        let budget =
            || Budget::unlimited().with_deadline(Instant::now() + Duration::from_millis(300));
        // One running and one queued fill a lane of one thread and a queue of one.
        let busy: Vec<_> = (0..2)
            .map(|_| {
                let scheduler = Arc::clone(&scheduler);
                actix_web::rt::spawn(async move { scheduler.run(budget(), spin).await })
            })
            .collect();
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        let err = scheduler.run(budget(), spin).await.unwrap_err();
        assert_eq!((err.code(), err.retry_after()), (ErrorCode::Overloaded, Some(1)));
        assert!(!err.to_string().contains("lane"), "{err}");
        for task in busy {
            assert_eq!(task.await.unwrap().unwrap_err().code(), ErrorCode::TimeoutExceeded);
        }
        let err = scheduler.run(Budget::unlimited(), |_| -> Result<(), _> { panic!("boom") });
        assert_eq!(err.await.unwrap_err().code(), ErrorCode::InternalError);
    }

    /// Issue 17: a lane job answered at its deadline went on computing for seconds. Its
    /// budget is cancelled with the answer: the job stops at its next check.
    #[actix_web::test]
    async fn r17_a_job_stops_when_its_request_is_answered() {
        let scheduler = scheduler(Duration::ZERO);
        let budget = Budget::unlimited().with_deadline(Instant::now() + Duration::from_millis(50));
        let (stopped, stopped_at) = oneshot::channel();
        let stopped = Mutex::new(Some(stopped));
        let res = scheduler
            .run(budget, move |budget| {
                let started = Instant::now();
                budget.check_time(langcore::Operation::Parse).map_err(HttpError::from)?;
                // Past the deadline, as a step that checks its budget rarely; then checks
                // without the deadline until something stops it.
                std::thread::sleep(Duration::from_millis(200));
                let unlimited = budget.with_deadline(Instant::now() + Duration::from_secs(60));
                while unlimited.check_time(langcore::Operation::Parse).is_ok() {
                    if started.elapsed() > Duration::from_secs(10) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                if let Some(stopped) = stopped.lock().unwrap().take() {
                    let _ = stopped.send(Instant::now());
                }
                Ok(())
            })
            .await;
        let answered = Instant::now();
        assert_eq!(res.unwrap_err().code(), ErrorCode::TimeoutExceeded);
        let stopped_at = stopped_at.await.unwrap();
        let late = stopped_at.saturating_duration_since(answered);
        assert!(late < Duration::from_millis(300), "the job went on for {late:?}");
    }
}
