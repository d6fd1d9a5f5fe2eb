//! The lane's run permits, granted by least attained service: a lane job computes only
//! while it holds one, and at a budget check hands it to a waiting job that has computed
//! less.
//!
//! # Overview
//! - [`Cores`]: `permits` permits (the cores the lane may use) and the jobs waiting for one,
//!   ordered by their *standing* ([`Cores::standing`]): the CPU time they have computed so
//!   far (their attained service), less a share ([`AGING`]) of the time they have waited,
//!   then by arrival. A freed permit goes straight to the first of them.
//! - [`Cores::run`]: runs a job on the calling lane thread once it holds a permit, and gives
//!   the permit back when the job returns (or unwinds).
//! - [`take_turn`]: the pause hook of that job's budget ([`Budget::with_pause`]), called at
//!   every budget check; while a waiting job stands at least [`QUANTUM`] lower, it hands that
//!   job its permit and waits for one again, in order; when an HTTP worker waits for the
//!   job's core (`workers.rs`), it yields the core.
//!
//! # Algorithm
//! Least attained service (also called foreground-background: Nuyens and Wierman, *The
//! Foreground-Background queue: a survey*, 2008), the policy for jobs of unknown size:
//! a new job waits for a core at most one budget-check interval plus [`QUANTUM`] (and
//! [`LOOK_EVERY`]), however many expensive jobs hold the permits, so small jobs finish first
//! without anyone knowing they are small, and expensive ones share what is left. A job
//! computes for [`QUANTUM`] or more between two hand-overs (a park and an unpark), so they
//! cost little. Two weak spots of the plain policy, each seen under the load test's 90/10
//! mix (issue 18):
//! - under overload (when the lane cannot serve the first few milliseconds of every new
//!   job: about 80 explosive requests a second), a job of a few milliseconds waits behind
//!   the stream of newer jobs until its deadline (small requests answered after 5 s). Aging
//!   bounds that: a job that waited [`AGING`] times a span stands as if it had computed that
//!   span less. Every waiting job ages alike, so a job's place is fixed when it enters: its
//!   attained service plus the time since the epoch divided by [`AGING`];
//! - time held is not service: on a busy host the kernel deschedules the holder, and small
//!   jobs counted that time as computing. Attained service is CPU time: the slices on the
//!   HTTP worker, then the thread's CPU time while it held a permit.
//!
//! Workers first: a request's first slice runs on the HTTP worker that received it
//! (`scheduler.rs`), and where a lane thread shares that worker's core, the kernel shares
//! the core fairly between them, but lets the lane thread finish its own slice before a
//! waking worker runs. So a job holding a permit looks, every [`CHECKS_PER_PEEK`] budget
//! checks and at most every `workers.rs`'s `PEEK_EVERY` per worker, whether a worker is
//! runnable on its own CPU, and then yields the core (`sched_yield`). It yields only then,
//! so the lane is not lowered below other processes (issue 18: with the server on one core
//! under the load test's mix, small-request p50 0.15 ms against 0.83 to 1.22 and p99 6.7
//! to 9.5 ms against 17.6 to 26.2 when it yielded only while a worker computed a slice,
//! alternating runs, docs/benchmarks.md).
//!
//! A job that hands its permit over keeps its tables while it waits, so hand-overs also
//! hold memory: a job gives way only while the process's resident memory is under
//! `park_below` (two requests' memory bounds, set by the server's config). Over it the job
//! keeps its permit and computes on, as in a first-come lane, so the jobs waiting with
//! tables hold no more than that together, and the process stays under the permits'
//! bounds plus two (issue 17).
//!
//! # Invariants
//! At most `permits` jobs hold a permit. A permit is free only while no job waits. A job
//! waits no longer than its budget allows: at its deadline (or within [`POLL`] of its
//! cancellation) it leaves the queue and goes on without a permit, to fail at its next
//! budget check with `TimeoutExceeded` naming the operation that ran out. A job's attained
//! service only grows.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::Thread;
use std::time::{Duration, Instant};

use langcore::{Budget, Operation};

use super::thread_cpu_time;
use super::workers::{PEEK_EVERY, Workers};

/// How much higher a job holding a permit must stand than the first waiting job before it
/// hands its permit over: the least a job computes between two hand-overs.
const QUANTUM: Duration = Duration::from_millis(2);

/// How much waiting counts as computing less: a job that waited `AGING` times a span stands
/// as if it had computed that span less, so no job that needs little waits behind a stream
/// of newer jobs for long, however many arrive.
const AGING: u32 = 20;

/// How often at most a job holding a permit reads its CPU time while others wait (a system
/// call): a waiting job gets a core within this much more.
const LOOK_EVERY: Duration = Duration::from_micros(200);

/// How many budget checks a job holding a permit makes between two readings of the clock
/// for [`Workers::peek_every`] (a check comes every 0.2 to 0.4 µs in the subset
/// construction: a clock reading at each would cost 5% to 10%).
const CHECKS_PER_PEEK: u32 = 32;

/// How often a waiting job looks whether its request was cancelled (answered or dropped).
const POLL: Duration = Duration::from_millis(25);

/// Where the process's resident memory is read: the second field of `statm`, in pages.
const STATM: &str = "/proc/self/statm";

/// The size of a page of `statm` (Linux's on the architectures the server is built for).
const PAGE_BYTES: u64 = 4096;

/// No job waits: the value of [`Cores::least_waiting`] then.
const NONE_WAITS: u64 = u64::MAX;

thread_local! {
    /// The job running on this lane thread, while it runs.
    static TURN: RefCell<Option<Turn>> = const { RefCell::new(None) };
}

/// Whether a job holding a permit, at `standing`, gives it to a waiting job at
/// `least_waiting` (see [`Cores::standing`]).
fn gives_way(standing: Duration, least_waiting: Duration) -> bool {
    standing > least_waiting.saturating_add(QUANTUM)
}

/// The run permits of a lane and the jobs waiting for one.
pub(super) struct Cores {
    state: Mutex<State>,
    /// The standing of the first waiting job in nanoseconds, [`NONE_WAITS`] when
    /// none waits: read without the lock at every budget check.
    least_waiting: AtomicU64,
    /// Where [`Cores::standing`] counts waiting from.
    epoch: Instant,
    /// [`AGING`]; the tests of attained service alone set it out of reach, so that how
    /// long the machine takes to run them does not count.
    aging: u32,
    /// The resident memory, in bytes, under which a job may hand its permit over (see the
    /// module docs).
    park_below: u64,
    /// The HTTP workers, whom jobs holding a permit let have their cores.
    workers: Workers,
}

/// What [`Cores`] guards with its lock.
struct State {
    free: usize,
    waiting: BTreeMap<Place, Thread>,
    arrivals: u64,
}

/// A waiting job's place in the queue: least standing first (see [`Cores::standing`]), then
/// first come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    standing: Duration,
    arrival: u64,
}

/// The job running on a lane thread: its budget (without the pause hook), the service it
/// attained before its permit, and its hold of one (`None`: it holds none).
struct Turn {
    cores: Arc<Cores>,
    budget: Budget,
    attained: Duration,
    held: Option<Held>,
}

/// A job's hold of a permit: the thread's CPU time when it got the permit, when the job
/// next reads it, and when it next looks whether a worker waits for its core (reading the
/// clock at every [`CHECKS_PER_PEEK`]th budget check).
struct Held {
    cpu_at_grant: Duration,
    next_look: Instant,
    checks: u32,
    next_peek: Instant,
}

impl Held {
    fn now() -> Held {
        let now = Instant::now();
        Held { cpu_at_grant: thread_cpu_time(), next_look: now, checks: 0, next_peek: now }
    }
}

impl Cores {
    /// `permits` permits (at least one), all free; jobs hand them over only while the
    /// process's resident memory is under `park_below` bytes.
    pub(super) fn new(permits: usize, park_below: u64) -> Cores {
        let state = State { free: permits.max(1), waiting: BTreeMap::new(), arrivals: 0 };
        Cores {
            state: Mutex::new(state),
            least_waiting: AtomicU64::new(NONE_WAITS),
            epoch: Instant::now(),
            aging: AGING,
            park_below,
            workers: Workers::new(),
        }
    }

    /// Makes the calling HTTP worker one that lane jobs let have their cores (see the
    /// module docs); after its first call on a thread, a thread-local check.
    pub(super) fn register_worker(&self) {
        self.workers.register();
    }

    /// A job's standing in the queue, having computed `attained`, now: its attained service
    /// plus the time since the epoch divided by [`AGING`]. Jobs' standings grow alike while
    /// they wait, so those already in the queue are kept in order by the standing they
    /// entered with, and a job that waited ranks as if it had computed less.
    fn standing(&self, attained: Duration) -> Duration {
        attained + self.epoch.elapsed() / self.aging
    }

    /// Runs `job` on the calling thread once it holds a permit, waiting in order of
    /// `attained` (the service the job attained elsewhere) for at most what `budget` (with
    /// no pause hook) allows; `job`'s budget checks must call [`take_turn`] (see the module
    /// docs).
    pub(super) fn run<R>(
        self: &Arc<Self>,
        attained: Duration,
        budget: &Budget,
        job: impl FnOnce() -> R,
    ) -> R {
        let holds = self.acquire(attained, budget);
        let turn = Turn {
            cores: Arc::clone(self),
            budget: *budget,
            attained,
            held: holds.then(Held::now),
        };
        TURN.set(Some(turn));
        // Gives the permit back however `job` ends.
        let _done = TurnDone;
        job()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes a free permit, or waits for one in order; whether it holds one (see
    /// [`Cores::wait`]).
    fn acquire(&self, attained: Duration, budget: &Budget) -> bool {
        let mut state = self.lock();
        if state.free > 0 {
            state.free -= 1;
            return true;
        }
        let place = self.enqueue(&mut state, attained);
        drop(state);
        self.wait(place, budget)
    }

    /// Hands the permit to the first waiting job if the job that holds it, having attained
    /// `attained`, gives way to it, and then waits for one again; whether it holds one.
    fn pass(&self, attained: Duration, budget: &Budget) -> bool {
        let mut state = self.lock();
        let first = state.waiting.first_key_value().map(|(place, _)| place.standing);
        if !first.is_some_and(|least| gives_way(self.standing(attained), least)) {
            return true;
        }
        let place = self.enqueue(&mut state, attained);
        // The first is not this job: its standing is at least `QUANTUM` less.
        self.grant_first(&mut state);
        drop(state);
        self.wait(place, budget)
    }

    /// Gives a permit back: to the first waiting job, or to the free ones.
    fn release(&self) {
        let mut state = self.lock();
        if !self.grant_first(&mut state) {
            state.free += 1;
        }
    }

    /// Puts the calling thread in the queue at its place for `attained`, now.
    fn enqueue(&self, state: &mut State, attained: Duration) -> Place {
        let place = Place { standing: self.standing(attained), arrival: state.arrivals };
        state.arrivals += 1;
        state.waiting.insert(place, std::thread::current());
        self.publish(state);
        place
    }

    /// Grants a permit to the first waiting job, if any; whether there was one.
    fn grant_first(&self, state: &mut State) -> bool {
        let Some((_, thread)) = state.waiting.pop_first() else { return false };
        self.publish(state);
        thread.unpark();
        true
    }

    /// Publishes the first waiting job's standing for [`take_turn`]'s unlocked read.
    fn publish(&self, state: &State) {
        let least = state.waiting.first_key_value().map_or(NONE_WAITS, |(place, _)| {
            u64::try_from(place.standing.as_nanos()).unwrap_or(NONE_WAITS - 1)
        });
        self.least_waiting.store(least, Ordering::Relaxed);
    }

    /// Waits at `place` until a permit is granted (true) or `budget` stops the job (false:
    /// its deadline passed or it was cancelled; it leaves the queue).
    fn wait(&self, place: Place, budget: &Budget) -> bool {
        loop {
            if !self.lock().waiting.contains_key(&place) {
                return true;
            }
            let step = budget.deadline().map_or(POLL, |deadline| {
                deadline.saturating_duration_since(Instant::now()).min(POLL)
            });
            if step.is_zero() || is_stopped(budget) {
                let mut state = self.lock();
                let left = state.waiting.remove(&place).is_some();
                self.publish(&state);
                // Granted meanwhile: it holds a permit, and fails at its next check.
                return !left;
            }
            std::thread::park_timeout(step);
        }
    }
}

/// Whether `budget` stops work now: its deadline passed or it was cancelled (the
/// operation only names the error, which is dropped).
fn is_stopped(budget: &Budget) -> bool {
    budget.check_time(Operation::Parse).is_err()
}

/// Ends the turn of the job on this thread: gives its permit back if it holds one.
struct TurnDone;

impl Drop for TurnDone {
    fn drop(&mut self) {
        if let Some(turn) = TURN.take()
            && turn.held.is_some()
        {
            turn.cores.release();
        }
    }
}

/// At a budget check of the job on this lane thread (if any): hands its permit to a
/// waiting job whose standing is at least [`QUANTUM`] less, and waits for one again (see
/// the module docs). Without a waiting job it returns without reading a clock, and it reads
/// the thread's CPU time at most every [`LOOK_EVERY`].
pub(super) fn take_turn() {
    TURN.with(|turn| {
        // Borrowed already: called again from within (the turn's budget must carry no
        // pause hook); nothing to do.
        if let Ok(mut turn) = turn.try_borrow_mut()
            && let Some(turn) = turn.as_mut()
        {
            turn.take();
        }
    });
}

impl Turn {
    fn take(&mut self) {
        let Some(held) = self.held.as_mut() else { return };
        held.checks = held.checks.wrapping_add(1);
        if held.checks % CHECKS_PER_PEEK == 0 {
            let now = Instant::now();
            if now >= held.next_peek {
                let workers = &self.cores.workers;
                held.next_peek = now + workers.peek_every().unwrap_or(PEEK_EVERY);
                if workers.one_waits_here() {
                    std::thread::yield_now();
                }
            }
        }
        let least = self.cores.least_waiting.load(Ordering::Relaxed);
        if least == NONE_WAITS {
            return;
        }
        let now = Instant::now();
        if now < held.next_look {
            return;
        }
        held.next_look = now + LOOK_EVERY;
        // CPU time, not time held: a pause for the workers, or the kernel running another
        // thread, is no service.
        let attained = self.attained + thread_cpu_time().saturating_sub(held.cpu_at_grant);
        if !gives_way(self.cores.standing(attained), Duration::from_nanos(least)) {
            return;
        }
        if !may_park(resident_bytes(), self.cores.park_below) {
            // Over the bound: look again (and read the memory again) a quantum later.
            held.next_look = now + QUANTUM;
            return;
        }
        self.attained = attained;
        let holds = self.cores.pass(attained, &self.budget);
        self.held = holds.then(Held::now);
    }
}

/// Whether a job may wait with its tables while the process holds `resident` bytes (`None`:
/// unknown, off Linux): only under `park_below`.
fn may_park(resident: Option<u64>, park_below: u64) -> bool {
    resident.is_none_or(|resident| resident < park_below)
}

/// The process's resident memory in bytes, read at a hand-over (one small read, every
/// [`QUANTUM`] at most); `None` where `/proc` cannot tell.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string(STATM).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages.saturating_mul(PAGE_BYTES))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc;

    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn check(budget: &Budget) -> Result<(), langcore::BudgetError> {
        budget.check_time(Operation::Product)
    }

    #[test]
    fn a_job_gives_way_to_one_that_computed_a_quantum_less() {
        assert!(!gives_way(MS, MS));
        assert!(!gives_way(MS + QUANTUM, MS));
        assert!(gives_way(MS + QUANTUM + Duration::from_nanos(1), MS));
        assert!(gives_way(Duration::from_secs(1), Duration::ZERO));
        assert!(!gives_way(Duration::ZERO, Duration::from_secs(1)));
    }

    /// A freed permit goes to the waiting job that computed least, whatever the order of
    /// arrival (waiting counts for nothing, so the time between arrivals does not either).
    #[test]
    fn permits_go_to_the_least_attained_service_first() {
        let cores = Arc::new(Cores { aging: u32::MAX, ..Cores::new(1, u64::MAX) });
        assert!(cores.acquire(Duration::ZERO, &Budget::unlimited()));
        let (order, ran) = mpsc::channel();
        let waiters: Vec<_> = [30, 20, 10]
            .into_iter()
            .enumerate()
            .map(|(idx, attained_ms)| {
                let in_thread = Arc::clone(&cores);
                let order = order.clone();
                let waiter = std::thread::spawn(move || {
                    in_thread.run(MS * attained_ms, &Budget::unlimited(), || {
                        order.send(attained_ms).unwrap();
                    });
                });
                // Each in the queue before the next arrives.
                while cores.lock().waiting.len() <= idx {
                    std::thread::sleep(MS);
                }
                waiter
            })
            .collect();
        // 10 ms, and the time since the epoch when it came, divided by the aging: no more
        // than the time since the epoch now (read after, so no race).
        let least = Duration::from_nanos(cores.least_waiting.load(Ordering::Relaxed));
        let most = MS * 10 + cores.epoch.elapsed() / cores.aging;
        assert!(MS * 10 <= least && least <= most, "{least:?} {most:?}");
        cores.release();
        for waiter in waiters {
            waiter.join().unwrap();
        }
        assert_eq!(ran.try_iter().collect::<Vec<_>>(), [10, 20, 30]);
        assert_eq!(cores.least_waiting.load(Ordering::Relaxed), NONE_WAITS);
        assert_eq!(cores.lock().free, 1);
    }

    /// Jobs that compute and check their budget, more of them than permits: no more than
    /// `permits` ever compute at once, and every job gets its turns (each one finishes).
    #[test]
    fn permits_never_exceed_the_configured_number() {
        static COMPUTING: AtomicUsize = AtomicUsize::new(0);
        static MOST: AtomicUsize = AtomicUsize::new(0);
        let cores = Arc::new(Cores::new(2, u64::MAX));
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let cores = Arc::clone(&cores);
                std::thread::spawn(move || {
                    let budget = Budget::unlimited();
                    cores.run(Duration::ZERO, &budget, || {
                        let budget = budget.with_pause(take_turn);
                        let started = Instant::now();
                        while started.elapsed() < MS * 60 {
                            check(&budget).unwrap();
                            let now = COMPUTING.fetch_add(1, Ordering::SeqCst) + 1;
                            MOST.fetch_max(now, Ordering::SeqCst);
                            // Long enough that the holders' sections overlap.
                            std::thread::sleep(Duration::from_micros(200));
                            COMPUTING.fetch_sub(1, Ordering::SeqCst);
                        }
                    });
                })
            })
            .collect();
        for job in jobs {
            job.join().unwrap();
        }
        assert_eq!(MOST.load(Ordering::SeqCst), 2);
        assert_eq!(cores.lock().free, 2);
    }

    /// A job that waited long enough stands before a newer one that computed less: waiting
    /// `AGING` times a span counts as having computed that span less.
    #[test]
    fn waiting_counts_as_a_little_service() {
        let cores = Arc::new(Cores::new(1, u64::MAX));
        assert!(cores.acquire(Duration::ZERO, &Budget::unlimited()));
        let (order, ran) = mpsc::channel();
        let wait_for = |attained: Duration, name: &'static str| {
            let (cores, order) = (Arc::clone(&cores), order.clone());
            std::thread::spawn(move || {
                cores.run(attained, &Budget::unlimited(), || order.send(name).unwrap());
            })
        };
        let older = wait_for(MS * 5, "older");
        while cores.lock().waiting.is_empty() {
            std::thread::sleep(MS);
        }
        // 150 ms of waiting is worth 7.5 ms of computing: more than the 5 ms between them.
        std::thread::sleep(MS * 150);
        let newer = wait_for(Duration::ZERO, "newer");
        while cores.lock().waiting.len() < 2 {
            std::thread::sleep(MS);
        }
        cores.release();
        older.join().unwrap();
        newer.join().unwrap();
        assert_eq!(ran.try_iter().collect::<Vec<_>>(), ["older", "newer"]);
    }

    /// A holder hands its permit over once it has computed a quantum more CPU time than the
    /// waiting job, not once it has merely held it that long (asleep, or descheduled).
    /// Runs `holder` with the only permit of a lane that takes turns under `park_below`
    /// bytes, once a waiter with 1 ms of service is in the queue. Whether the waiter got
    /// the permit before the holder ended: each writes its name into one log while it
    /// holds the permit, so the log's order is the order of the permit, whatever the
    /// threads' timing (no clock readings of two threads are compared). Waiting counts for
    /// nothing here: with aging, a holder gives way after about 60 ms held (1 ms of
    /// service and a quantum, times `AGING`), which a busy machine can take to run 20
    /// sleeps of 1 ms (a `.ci/run` beside two busy loops failed so).
    fn waiter_first(park_below: u64, holder: fn(&Budget)) -> bool {
        let cores = Arc::new(Cores { aging: u32::MAX, ..Cores::new(1, park_below) });
        let log = Arc::new(Mutex::new(Vec::new()));
        let (queued, wait_for_queue) = mpsc::channel();
        let (holding, holder_log) = (Arc::clone(&cores), Arc::clone(&log));
        let holds = std::thread::spawn(move || {
            let budget = Budget::unlimited();
            holding.run(Duration::ZERO, &budget, || {
                wait_for_queue.recv().unwrap();
                holder(&budget.with_pause(take_turn));
                holder_log.lock().unwrap().push("holder");
            });
        });
        while cores.lock().free > 0 {
            std::thread::sleep(Duration::from_micros(100));
        }
        let (waiting, waiter_log) = (Arc::clone(&cores), Arc::clone(&log));
        let waits = std::thread::spawn(move || {
            waiting.run(MS, &Budget::unlimited(), || waiter_log.lock().unwrap().push("waiter"));
        });
        while cores.lock().waiting.is_empty() {
            std::thread::sleep(Duration::from_micros(100));
        }
        queued.send(()).unwrap();
        holds.join().unwrap();
        waits.join().unwrap();
        let log = log.lock().unwrap();
        assert_eq!(log.len(), 2, "{log:?}");
        log[0] == "waiter"
    }

    /// Computes for 100 ms of this thread's CPU time, checking its budget all along (CPU
    /// time, so that a busy machine that deschedules it changes nothing).
    fn compute_100_ms(budget: &Budget) {
        let started = thread_cpu_time();
        while thread_cpu_time().saturating_sub(started) < MS * 100 {
            check(budget).unwrap();
        }
    }

    #[test]
    fn service_is_cpu_time_not_time_held() {
        // Asleep for 20 ms between its checks: no service, so it keeps the permit.
        assert!(!waiter_first(u64::MAX, |budget| {
            for _ in 0..20 {
                check(budget).unwrap();
                std::thread::sleep(MS);
            }
        }));
        // Computing for 100 ms: it hands the permit over after about a quantum.
        assert!(waiter_first(u64::MAX, compute_100_ms));
    }

    /// Over the resident-memory bound a job keeps its permit: no more tables wait.
    #[test]
    fn over_the_memory_bound_jobs_keep_their_permits() {
        assert!(!waiter_first(0, compute_100_ms));
        assert!(may_park(Some(10), 11));
        assert!(!may_park(Some(11), 11));
        assert!(may_park(None, 0));
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|bytes| bytes > 0));
        }
    }

    /// A job that waits behind a permit nobody hands over leaves the queue at its deadline
    /// and fails at its next budget check, naming the operation.
    #[test]
    fn a_waiting_job_stops_at_its_deadline() {
        let cores = Arc::new(Cores::new(1, u64::MAX));
        assert!(cores.acquire(Duration::ZERO, &Budget::unlimited()));
        let started = Instant::now();
        let budget = Budget::unlimited().with_deadline(started + MS * 50);
        let res = cores.run(Duration::ZERO, &budget, || check(&budget));
        let elapsed = started.elapsed();
        assert_eq!(res, Err(langcore::BudgetError::Timeout { op: Operation::Product }));
        assert!(elapsed >= MS * 50 && elapsed < MS * 500, "{elapsed:?}");
        // It held no permit, so it gave none back; nobody waits any more.
        assert_eq!(cores.lock().free, 0);
        assert_eq!(cores.least_waiting.load(Ordering::Relaxed), NONE_WAITS);
    }
}
