//! The one place where engine (langcore) work is scheduled: a first slice on the HTTP
//! worker that received the request, a longer one in the middle lane, the rest in the long
//! lane (bounded lanes of threads of their own).
//!
//! # Overview
//! [`Scheduler::run`] takes the request's [`Budget`] (made when the request was validated,
//! so time spent queueing counts too) and:
//! - runs the job at once, on the calling HTTP worker, interrupted after a short slice
//!   (`slice`): most requests finish there, with no hop between threads;
//! - a job interrupted with budget left starts again from scratch in the **middle lane**,
//!   for a longer slice (`MIDDLE_SLICE`); unless it used less CPU time than the slice (the
//!   machine was busy, the job was not expensive): then it gets another slice on the
//!   worker, a few times;
//! - a job that outlives the middle lane's slice starts again in the **long lane**, with
//!   its whole budget.
//!
//! So cheap requests never wait behind expensive ones, requests of a few milliseconds wait
//! at most for a few middle slices (not behind a long lane of jobs that take seconds), and
//! an expensive job holds a worker for one slice, a middle thread for another, and pays
//! for it up to three times. Priority between them is this policy
//! ([`after_slice`]), not the kernel's: the long lane's threads keep the normal priority
//! (under `SCHED_BATCH`, which only tells the kernel they are CPU-bound: their wake-ups
//! preempt no one) and get their fair share of the cores beside any other process of the
//! host. So that cheap requests do not wait for the kernel to preempt a busy long-lane
//! thread, the lane gives way by itself: its jobs' budgets carry a pause
//! ([`Budget::with_pause`], [`give_way`]) that, at every budget check while a request
//! computes in a slice (on an HTTP worker or in the middle lane), sleeps until none does (at most `MAX_PAUSE`, then at least
//! `MIN_RUN` of computing before the next pause, so the lane keeps a share of a core); and
//! by default the lane has one thread fewer than the machine has cores (config.rs). Busy
//! processes elsewhere on the host compute on no HTTP worker: they never make the lane
//! pause. The slice is an interrupt, not a shorter deadline
//! ([`Budget::with_interrupt`]), and a slice that ended after it is run again, so a result
//! never depends on where it was computed.
//!
//! # Invariants
//! In each lane at most `threads` jobs run and at most `queue_depth` wait; a job that finds
//! the middle lane's queue full goes on to the long lane, and one that finds the long
//! lane's queue full fails at once with 503 `Overloaded` and `Retry-After`, instead of
//! waiting without bound. A worker computes for at most `MAX_SLICES` slices per request. A
//! job's budget is cancelled ([`Cancellation`]) as soon as its request is answered or
//! dropped, so no job computes past its answer for longer than it takes to reach its next
//! budget check.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use api_types::ErrorCode;
use langcore::{Budget, Cancellation};
use thread_priority::{
    NormalThreadSchedulePolicy, ThreadPriority, ThreadPriorityOsValue, ThreadSchedulePolicy,
};
use tokio::sync::{Semaphore, oneshot};

use crate::error::HttpError;

/// What a client told to retry should wait, in seconds: the queue moves within a timeout.
const RETRY_AFTER_SECONDS: u64 = 1;
/// How long past its deadline a job in the long lane has to notice it before the request is
/// answered `TimeoutExceeded` without it (a job that never checks its budget, or a host so
/// busy that the job got no CPU time). The job goes on until it notices; its answer is
/// dropped.
const DEADLINE_GRACE: Duration = Duration::from_millis(20);
/// The most slices a job gets on the HTTP worker when it is interrupted without having used
/// a slice of CPU time (a busy machine descheduled it).
const MAX_SLICES: usize = 3;
/// The longest a long-lane job waits at one budget check while HTTP workers compute.
const MAX_PAUSE: Duration = Duration::from_millis(4);
/// How long a long-lane job computes after a pause before it pauses again: its share of a
/// core while the HTTP workers stay busy.
const MIN_RUN: Duration = Duration::from_millis(1);
/// How long a paused long-lane job sleeps before it looks at the HTTP workers again.
const PAUSE_STEP: Duration = Duration::from_micros(50);

/// The slice of the middle lane: long enough for the requests of a few milliseconds that
/// outlive the first slice, short enough that they wait little behind expensive ones.
const MIDDLE_SLICE: Duration = Duration::from_millis(16);

/// How many budget checks a job makes on a worker before the slice samples its thread's CPU
/// time.
const CHECKS_BEFORE_SAMPLE: u32 = 64;

/// Requests computing in a slice (on an HTTP worker, in their slices or between them, or in
/// the middle lane), in every scheduler of the process: they all share its cores.
static SLICED: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// When the long-lane job on this thread last ended a pause.
    static LAST_PAUSE: Cell<Option<Instant>> = const { Cell::new(None) };
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

/// How many threads each lane has, how many jobs may wait for one, and the first slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SchedulerConfig {
    pub(crate) threads: usize,
    pub(crate) queue_depth: usize,
    pub(crate) slice: Duration,
}

/// Runs engine jobs: a first slice on the calling worker, then the middle and long lanes.
pub(crate) struct Scheduler {
    middle_lane: Lane,
    long_lane: Lane,
    slice: Duration,
}

/// What [`Scheduler::run`] does after a slice on the worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    /// Answer with the slice's result: it finished, or the budget's time is spent.
    Answer,
    /// Another slice on the worker: the job was descheduled, not expensive.
    Again,
    /// Start again in the lanes, with the whole budget.
    Lanes,
}

/// The scheduling policy, after a slice that ended at `ended` with `interrupt` set: a run
/// that ended before its interrupt (finished or failed on its own), or one whose deadline
/// passed, is the answer; one interrupted having used at least a slice of CPU time is
/// expensive and goes to the long lane; one that used less was descheduled and gets another
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
        Next::Lanes
    }
}

/// Whether a long-lane job at a budget check pauses: while `sliced` requests compute on
/// the HTTP workers, unless it ended a pause less than [`MIN_RUN`] ago (`since_pause`,
/// `None` if it never paused), so that it keeps a share of a core however busy they are.
fn pauses(sliced: usize, since_pause: Option<Duration>) -> bool {
    sliced > 0 && since_pause.is_none_or(|since| since >= MIN_RUN)
}

/// The long lane's [`Budget::with_pause`] hook: leaves the core to the requests on the HTTP
/// workers (and to the threads they wake, such as the client's) while they compute, for at
/// most [`MAX_PAUSE`] at a time (see [`pauses`]).
fn give_way() {
    let now = Instant::now();
    let since_pause = LAST_PAUSE.get().map(|ended| now.saturating_duration_since(ended));
    if !pauses(SLICED.load(Ordering::Relaxed), since_pause) {
        return;
    }
    let until = now + MAX_PAUSE;
    while SLICED.load(Ordering::Relaxed) > 0 && Instant::now() < until {
        std::thread::sleep(PAUSE_STEP);
    }
    LAST_PAUSE.set(Some(Instant::now()));
}

/// Counts a request in [`SLICED`] while it lives.
struct Sliced;

impl Sliced {
    fn enter() -> Sliced {
        SLICED.fetch_add(1, Ordering::Relaxed);
        Sliced
    }
}

impl Drop for Sliced {
    fn drop(&mut self) {
        SLICED.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Scheduler {
    pub(crate) fn new(config: SchedulerConfig) -> Scheduler {
        Scheduler {
            middle_lane: Lane::new("middle", config.threads, config.queue_depth, false),
            long_lane: Lane::new("long", config.threads, config.queue_depth, true),
            slice: config.slice,
        }
    }

    /// Runs `job` under the request's `budget`: on the calling worker for a slice, then,
    /// when it did not finish within the slice and the budget has time left, again in the
    /// lanes (see [`after_slice`] and [`Scheduler::in_lanes`]). The answer comes by the
    /// deadline plus [`DEADLINE_GRACE`], with or without the lanes'.
    pub(crate) async fn run<T, F>(&self, budget: Budget, job: F) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        // Dropped with this future: when the request is answered, or when it is dropped.
        let cancellation = Cancellation::new();
        let budget = budget.with_cancellation(&cancellation);
        let sliced = Sliced::enter();
        let mut slices = 0;
        loop {
            let (res, run, interrupt) = run_slice(&job, &budget, self.slice);
            slices += 1;
            match after_slice(&run, interrupt, budget.deadline(), slices, self.slice) {
                Next::Answer => return res?,
                // Let the worker serve its other connections before the next slice.
                Next::Again => actix_web::rt::task::yield_now().await,
                Next::Lanes => break,
            }
        }
        drop(sliced);
        let lanes = self.in_lanes(budget, Arc::new(job));
        let Some(deadline) = budget.deadline() else { return lanes.await };
        let time_left = (deadline + DEADLINE_GRACE).saturating_duration_since(Instant::now());
        match actix_web::rt::time::timeout(time_left, lanes).await {
            Ok(res) => res,
            Err(_) => Err(HttpError::timeout(None)),
        }
    }

    /// Runs `job` in the middle lane for [`MIDDLE_SLICE`] (counted in [`SLICED`]), then, if
    /// it outlived that slice with time left, again in the long lane. A full middle lane is
    /// passed by.
    async fn in_lanes<T, F>(&self, budget: Budget, job: Arc<F>) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        let middle_job = Arc::clone(&job);
        let middle = self.middle_lane.run(move || {
            let _sliced = Sliced::enter();
            let (res, run, interrupt) = run_slice(&*middle_job, &budget, MIDDLE_SLICE);
            let time_left = budget.deadline().is_none_or(|deadline| run.ended < deadline);
            let outlived = run.ended >= interrupt && time_left;
            if outlived { None } else { Some(res) }
        });
        match middle.await {
            Ok(Some(res)) => return res?,
            Ok(None) => {}
            Err(err) if err.code() == ErrorCode::Overloaded => {}
            Err(err) => return Err(err),
        }
        self.long_lane.run(move || run_caught(&*job, &budget.with_pause(give_way))).await??
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

/// A fixed number of threads of its own and a bounded queue in front of them.
struct Lane {
    /// One permit per thread and per place in the queue.
    admitted: Arc<Semaphore>,
    tasks: mpsc::Sender<Task>,
}

impl Lane {
    /// Starts the lane's `threads` threads, under `SCHED_BATCH` where it can be set if
    /// `batch`.
    fn new(name: &'static str, threads: usize, queue_depth: usize, batch: bool) -> Lane {
        let threads = threads.max(1);
        let (tasks, queue) = mpsc::channel::<Task>();
        let queue = Arc::new(Mutex::new(queue));
        for idx in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned =
                std::thread::Builder::new().name(format!("{name}-lane-{idx}")).spawn(move || {
                    if batch && let Err(err) = set_batch() {
                        tracing::warn!(?err, "a lane thread keeps the normal scheduling policy");
                    }
                    serve(&queue);
                });
            if let Err(err) = spawned {
                tracing::error!(%err, lane = name, "a lane thread did not start");
            }
        }
        Lane { admitted: Arc::new(Semaphore::new(threads.saturating_add(queue_depth))), tasks }
    }

    /// Runs `work` on one of the lane's threads and returns what it returns; fails at once
    /// when the queue is full.
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
        let (sender, receiver) = oneshot::channel();
        let task: Task = Box::new(move || {
            let res = work();
            // The place is free before the answer is: a request sent after it finds it free.
            drop(admitted);
            let _ = sender.send(res);
        });
        let shut_down = || HttpError::new(ErrorCode::InternalError, "the server is shutting down");
        self.tasks.send(task).map_err(|_| shut_down())?;
        receiver.await.map_err(|_| shut_down())
    }
}

/// Puts the calling thread under `SCHED_BATCH` at nice 0: the normal priority and fair
/// share, marked CPU-bound, so its wake-ups never preempt another thread.
fn set_batch() -> Result<(), thread_priority::Error> {
    let batch = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch);
    let nice_0 = ThreadPriority::Os(ThreadPriorityOsValue::default());
    thread_priority::set_thread_priority_and_policy(
        thread_priority::thread_native_id(),
        nice_0,
        batch,
    )
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
    use thread_priority::thread_schedule_policy;

    use super::*;

    const SLICE: Duration = Duration::from_millis(1);

    fn scheduler(slice: Duration) -> Scheduler {
        Scheduler::new(SchedulerConfig { threads: 1, queue_depth: 1, slice })
    }

    fn on_the_long_lane() -> bool {
        std::thread::current().name().is_some_and(|name| name.starts_with("long-lane"))
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
        assert_eq!(next(run(start, 2, 1), 1), Next::Lanes);
        // Interrupted having used less: descheduled, so another slice, up to MAX_SLICES.
        assert_eq!(next(run(start, 5, 0), 1), Next::Again);
        assert_eq!(next(run(start, 5, 0), MAX_SLICES - 1), Next::Again);
        assert_eq!(next(run(start, 5, 0), MAX_SLICES), Next::Lanes);
        // Past the deadline: whatever the run says is the answer (a timeout).
        assert_eq!(next(run(start, 100, 1), 1), Next::Answer);
        assert_eq!(after_slice(&run(start, 100, 1), interrupt, None, 1, SLICE), Next::Lanes);
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

    #[test]
    fn the_long_lane_pauses_while_workers_compute_but_keeps_a_share() {
        let ms = Duration::from_millis;
        // Nothing on the workers: no pause, however long since the last one.
        assert!(!pauses(0, None));
        assert!(!pauses(0, Some(ms(100))));
        // A request on the workers: a pause, unless the last one ended under MIN_RUN ago.
        assert!(pauses(1, None));
        assert!(pauses(3, Some(MIN_RUN)));
        assert!(!pauses(1, Some(MIN_RUN - Duration::from_micros(1))));
        assert!(!pauses(1, Some(Duration::ZERO)));
    }

    /// While a request computes on the workers, a long-lane job's budget check waits, for at
    /// most `MAX_PAUSE`.
    #[test]
    fn a_budget_check_in_the_long_lane_waits_for_the_workers() {
        let sliced = Sliced::enter();
        let budget = Budget::unlimited().with_pause(give_way);
        // A thread of its own: it has never paused.
        let waited = std::thread::spawn(move || {
            let started = Instant::now();
            budget.check_time(langcore::Operation::Product).map(|()| started.elapsed())
        });
        let waited = waited.join().unwrap().unwrap();
        drop(sliced);
        assert!(waited >= MAX_PAUSE, "{waited:?}");
        assert!(waited < MAX_PAUSE + Duration::from_millis(300), "{waited:?}");
    }

    /// A cheap job runs on the calling thread: no hop to another thread and back.
    #[actix_web::test]
    async fn a_cheap_job_runs_on_the_calling_worker() {
        let caller = std::thread::current().id();
        let scheduler = scheduler(Duration::from_secs(60));
        let ran_on = scheduler.run(Budget::unlimited(), |_| Ok(std::thread::current().id()));
        assert_eq!(ran_on.await.unwrap(), caller);
    }

    /// A job that outlives its slice starts again in the long lane, whose threads keep the
    /// normal priority under `SCHED_BATCH`, with its whole budget and the pause that gives
    /// way to the workers; the answer is the long lane's run.
    #[actix_web::test]
    async fn an_expensive_job_moves_to_the_long_lane_at_normal_priority() {
        let scheduler = scheduler(SLICE);
        let answer = scheduler.run(Budget::unlimited(), |budget| {
            // Busy past the slice, checking the budget as langcore's loops do.
            while budget.check_time(langcore::Operation::Determinize).is_ok() {
                if on_the_long_lane() {
                    let nice = rustix::process::getpriority_process(None);
                    let pauses = budget.with_pause(give_way) == *budget;
                    return Ok((thread_schedule_policy().ok(), nice.ok(), pauses));
                }
            }
            Err(HttpError::timeout(None))
        });
        let batch = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Batch);
        assert_eq!(answer.await.unwrap(), (Some(batch), Some(0), true));
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

    /// A job that outlives the first slice but not the middle lane's is answered there, and
    /// does not wait for a long lane busy with an expensive job.
    #[actix_web::test]
    async fn a_job_of_a_few_milliseconds_passes_a_busy_long_lane() {
        let scheduler = Arc::new(scheduler(SLICE));
        let expensive = {
            let scheduler = Arc::clone(&scheduler);
            let budget = Budget::unlimited().with_deadline(Instant::now() + Duration::from_secs(3));
            actix_web::rt::spawn(async move { scheduler.run(budget, spin).await })
        };
        actix_web::rt::time::sleep(Duration::from_millis(200)).await;
        let started = Instant::now();
        let ran_on = scheduler.run(Budget::unlimited(), busy_for(4)).await.unwrap();
        let elapsed = started.elapsed();
        assert!(
            ran_on.as_deref().is_some_and(|name| name.starts_with("middle-lane")),
            "{ran_on:?}"
        );
        assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
        assert_eq!(expensive.await.unwrap().unwrap_err().code(), ErrorCode::TimeoutExceeded);
    }

    /// A long-lane job that gets no CPU time (or never checks its budget) does not hold its
    /// request past the deadline.
    #[actix_web::test]
    async fn a_stuck_long_lane_job_is_answered_at_its_deadline() {
        let scheduler = scheduler(SLICE);
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + Duration::from_millis(100));
        let res = scheduler
            .run(budget, |budget| {
                if !on_the_long_lane() {
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

    /// A full long lane refuses at once with 503 and `Retry-After`, in words that name no
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

    /// Issue 17: a long-lane job answered at its deadline went on computing for seconds. Its
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
