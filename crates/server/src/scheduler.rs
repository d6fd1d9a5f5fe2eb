//! The one place where engine (langcore) work runs: off the HTTP workers, in two bounded
//! lanes, under a budget.
//!
//! # Overview
//! [`Scheduler::run`] takes the request's [`Budget`] (made when the request was validated, so
//! time spent queueing counts too) and runs the job on threads of its own, never on
//! the async workers, in one of two lanes of `threads` threads each:
//! - the quick lane runs every job first, interrupted after a short slice (`quick`): most
//!   requests finish there;
//! - a job interrupted with budget left starts again from scratch in the long lane, with
//!   its whole budget; unless it used less CPU time than the slice (the machine was busy,
//!   the job was not expensive): then it tries the quick lane again, a few times.
//!
//! So expensive jobs can fill the long lane while cheap ones keep answering; an expensive
//! job pays for one slice twice. The long lane's threads run under Linux's `SCHED_IDLE`
//! policy: they only get the cores when no other thread wants them, and any thread that
//! wakes up (a quick job, an HTTP worker) takes its core at once; where that policy cannot
//! be set they run at nice 10 instead. The slice is an interrupt, not a shorter deadline
//! ([`Budget::with_interrupt`]), and a quick run that ended after it is run again, so a
//! result never depends on the lane it came from.
//!
//! # Invariants
//! At most `threads` jobs run and at most `queue_depth` wait in each lane; a job that finds
//! its lane's queue full fails at once with 503 `Overloaded` and `Retry-After`, instead of
//! waiting without bound.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use api_types::ErrorCode;
use langcore::Budget;
use thread_priority::{NormalThreadSchedulePolicy, ThreadPriority, ThreadSchedulePolicy};
use tokio::sync::{Semaphore, oneshot};

use crate::error::HttpError;

/// What a client told to retry should wait, in seconds: the queue moves within a timeout.
const RETRY_AFTER_SECONDS: u64 = 1;
/// The long lane's CPU priority (nice value) where `SCHED_IDLE` cannot be set: when the
/// cores are short, the quick lane's jobs run first. Raising a thread's nice value needs no
/// privilege.
const LONG_LANE_NICE: i32 = 10;
/// How long past its deadline a job in the long lane has to notice it before the request is
/// answered `TimeoutExceeded` without it: under `SCHED_IDLE` a job may get no CPU time at all
/// while other threads keep the cores busy. The job goes on until it notices; its answer is
/// dropped.
const DEADLINE_GRACE: Duration = Duration::from_millis(20);
/// The most runs a job gets in the quick lane when it is interrupted without having used
/// its slice of CPU time (a busy machine descheduled it).
const MAX_QUICK_RUNS: usize = 3;

/// How many threads each lane has, how many jobs may wait for one, and the quick slice.
#[derive(Clone, Copy, Debug)]
pub(crate) struct SchedulerConfig {
    pub(crate) threads: usize,
    pub(crate) queue_depth: usize,
    pub(crate) quick: Duration,
}

/// Schedules engine jobs in a quick and a long lane.
pub(crate) struct Scheduler {
    quick_lane: Lane,
    long_lane: Lane,
    quick: Duration,
}

impl Scheduler {
    pub(crate) fn new(config: SchedulerConfig) -> Scheduler {
        Scheduler {
            quick_lane: Lane::new("quick", config.threads, config.queue_depth, Priority::Normal),
            long_lane: Lane::new("long", config.threads, config.queue_depth, Priority::Low),
            quick: config.quick,
        }
    }

    /// Runs `job` under the request's `budget`: in the quick lane, then, when it did not
    /// finish within the slice and the budget has time left, again in the long lane. A run
    /// that was interrupted having used less CPU time than the slice was descheduled, not
    /// expensive: it tries the quick lane again, up to [`MAX_QUICK_RUNS`] runs. The answer
    /// comes by the deadline plus [`DEADLINE_GRACE`], with or without the long lane's.
    pub(crate) async fn run<T, F>(&self, budget: Budget, job: F) -> Result<T, HttpError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, HttpError> + Send + Sync + 'static,
    {
        let job = Arc::new(job);
        for _ in 0..MAX_QUICK_RUNS {
            let interrupt = Instant::now() + self.quick;
            let (res, run) = self.quick_lane.run(budget.with_interrupt(interrupt), &job).await?;
            let time_left = budget.deadline().is_none_or(|deadline| Instant::now() < deadline);
            if run.ended < interrupt || !time_left {
                return res;
            }
            if run.cpu >= self.quick {
                break;
            }
        }
        let long = self.long_lane.run(budget, &job);
        let Some(deadline) = budget.deadline() else { return long.await?.0 };
        let time_left = (deadline + DEADLINE_GRACE).saturating_duration_since(Instant::now());
        match actix_web::rt::time::timeout(time_left, long).await {
            Ok(res) => res?.0,
            Err(_) => Err(HttpError::new(
                ErrorCode::TimeoutExceeded,
                "the time budget ran out before the engine's long lane answered",
            )),
        }
    }
}

/// When a job's run on a lane thread ended, and the CPU time it used.
struct Run {
    ended: Instant,
    cpu: Duration,
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
    name: &'static str,
    /// One permit per thread and per place in the queue.
    admitted: Arc<Semaphore>,
    tasks: mpsc::Sender<Task>,
}

impl Lane {
    /// Starts the lane's `threads` threads at CPU priority `priority`.
    fn new(name: &'static str, threads: usize, queue_depth: usize, priority: Priority) -> Lane {
        let threads = threads.max(1);
        let (tasks, queue) = mpsc::channel::<Task>();
        let queue = Arc::new(Mutex::new(queue));
        for idx in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-lane-{idx}"))
                .spawn(move || serve(&queue, priority));
            if let Err(err) = spawned {
                tracing::error!(%err, lane = name, "a scheduler thread did not start");
            }
        }
        Lane {
            name,
            admitted: Arc::new(Semaphore::new(threads.saturating_add(queue_depth))),
            tasks,
        }
    }

    /// Runs `job` on one of the lane's threads and returns its result and its [`Run`];
    /// fails at once when the queue is full.
    async fn run<T, F>(&self, budget: Budget, job: &Arc<F>) -> Result<(T, Run), HttpError>
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
        let (sender, receiver) = oneshot::channel();
        let job = Arc::clone(job);
        let task: Task = Box::new(move || {
            let cpu_before = thread_cpu_time();
            let res = panic::catch_unwind(AssertUnwindSafe(|| job(&budget)));
            let run =
                Run { ended: Instant::now(), cpu: thread_cpu_time().saturating_sub(cpu_before) };
            // The place is free before the answer is: a request sent after it finds it free.
            drop(admitted);
            let _ = sender.send((res, run));
        });
        let shut_down = || HttpError::new(ErrorCode::InternalError, "the server is shutting down");
        self.tasks.send(task).map_err(|_| shut_down())?;
        match receiver.await.map_err(|_| shut_down())? {
            (Ok(res), run) => Ok((res, run)),
            (Err(_), _) => Err(HttpError::new(ErrorCode::InternalError, "an engine job panicked")),
        }
    }
}

/// A lane's CPU priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Priority {
    /// The normal one.
    Normal,
    /// Only the CPU time no other thread wants: see [`lower_priority`].
    Low,
}

/// How far [`lower_priority`] got.
#[derive(Debug, PartialEq, Eq)]
enum Lowered {
    /// `SCHED_IDLE`: the thread runs only when nothing else wants its core, and any other
    /// thread that wakes up preempts it at once.
    Idle,
    /// Nice [`LONG_LANE_NICE`]: others get more of the cores, but a thread that wakes up may
    /// wait for the end of this one's time slice (about a millisecond or two).
    Nice,
    /// Nothing could be changed: the normal priority.
    Unchanged,
}

/// Lowers the calling thread's CPU priority as far as an unprivileged thread can:
/// `SCHED_IDLE`, else nice [`LONG_LANE_NICE`]. Each failure is logged.
fn lower_priority() -> Lowered {
    let Err(err) = set_idle() else { return Lowered::Idle };
    tracing::warn!(?err, "a long-lane thread cannot use SCHED_IDLE; nice instead");
    let Err(err) = set_nice() else { return Lowered::Nice };
    tracing::warn!(%err, "a long-lane thread keeps the normal CPU priority");
    Lowered::Unchanged
}

/// Puts the calling thread under `SCHED_IDLE`.
fn set_idle() -> Result<(), thread_priority::Error> {
    let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
    let thread = thread_priority::thread_native_id();
    thread_priority::set_thread_priority_and_policy(thread, ThreadPriority::Min, idle)
}

/// Sets the calling thread's nice value to [`LONG_LANE_NICE`].
fn set_nice() -> rustix::io::Result<()> {
    rustix::process::setpriority_process(None, LONG_LANE_NICE)
}

/// A lane thread's life: set its priority, then run tasks until the lane is dropped.
fn serve(queue: &Mutex<mpsc::Receiver<Task>>, priority: Priority) {
    if priority == Priority::Low {
        lower_priority();
    }
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

    /// Runs `f` on a thread of its own, so the test's thread keeps its priority.
    fn on_new_thread<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        std::thread::spawn(f).join().unwrap()
    }

    #[test]
    fn the_long_lane_runs_under_sched_idle() {
        let (lowered, policy) = on_new_thread(|| (lower_priority(), thread_schedule_policy()));
        assert_eq!(lowered, Lowered::Idle);
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        assert_eq!(policy.unwrap(), idle);
    }

    /// The fallback where `SCHED_IDLE` is refused: nice 10, still an ordinary thread.
    #[test]
    fn the_fallback_is_nice_10() {
        let (res, nice, policy) = on_new_thread(|| {
            (set_nice(), rustix::process::getpriority_process(None), thread_schedule_policy())
        });
        assert_eq!((res, nice), (Ok(()), Ok(LONG_LANE_NICE)));
        let other = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other);
        assert_eq!(policy.unwrap(), other);
    }

    /// Each lane's threads have its priority: a job that outlives a zero slice ends in the
    /// long lane.
    #[actix_web::test]
    async fn each_lane_runs_at_its_priority() {
        let policy_in = |quick| async move {
            let scheduler = Scheduler::new(SchedulerConfig { threads: 1, queue_depth: 1, quick });
            let policy = scheduler.run(Budget::unlimited(), |_| Ok(thread_schedule_policy())).await;
            policy.unwrap().unwrap()
        };
        let other = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Other);
        let idle = ThreadSchedulePolicy::Normal(NormalThreadSchedulePolicy::Idle);
        assert_eq!(policy_in(Duration::from_secs(60)).await, other);
        assert_eq!(policy_in(Duration::ZERO).await, idle);
    }

    /// A long-lane job that gets no CPU time (or never checks its budget) does not hold its
    /// request past the deadline.
    #[actix_web::test]
    async fn a_starved_long_lane_job_is_answered_at_its_deadline() {
        let scheduler =
            Scheduler::new(SchedulerConfig { threads: 1, queue_depth: 1, quick: Duration::ZERO });
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + Duration::from_millis(100));
        let res = scheduler
            .run(budget, |budget| {
                // Out of the quick lane at once (its slice is zero), then asleep in the long.
                budget.check_time(langcore::Operation::Parse).map_err(HttpError::from)?;
                std::thread::sleep(Duration::from_millis(600));
                Ok(())
            })
            .await;
        let elapsed = started.elapsed();
        assert_eq!(res.unwrap_err().code(), ErrorCode::TimeoutExceeded);
        assert!(elapsed >= Duration::from_millis(100), "{elapsed:?}");
        assert!(elapsed < Duration::from_millis(400), "{elapsed:?}");
    }
}
