//! The lane's run permits, granted by least attained service: a lane job computes only
//! while it holds one, and at a budget check hands it to a waiting job that has computed
//! less.
//!
//! # Overview
//! - [`Cores`]: `permits` permits (the cores the lane may use) and the jobs waiting for one,
//!   ordered by the time they have computed so far (their *attained service*), then by
//!   arrival. A freed permit goes straight to the first of them.
//! - [`Cores::run`]: runs a job on the calling lane thread once it holds a permit, and gives
//!   the permit back when the job returns (or unwinds).
//! - [`take_turn`]: called at every budget check of that job (through the scheduler's
//!   [`Budget::with_pause`] hook); while a waiting job has computed at least [`QUANTUM`]
//!   less, it hands that job its permit and waits for one again, in order.
//!
//! So a new job waits for a core at most one budget-check interval plus [`QUANTUM`], however
//! many expensive jobs hold the permits, and expensive jobs share what is left, the one that
//! has computed least first (least attained service, the policy Linux's CFS and many
//! schedulers approximate for unknown job sizes). A job computes for [`QUANTUM`] or more
//! between two hand-overs, so the hand-overs (a park and an unpark) cost little.
//!
//! # Invariants
//! At most `permits` jobs hold a permit. A permit is free only while no job waits. A job
//! waits no longer than its budget allows: at its deadline (or within [`POLL`] of its
//! cancellation) it leaves the queue and goes on without a permit, to fail at its next
//! budget check with `TimeoutExceeded` naming the operation that ran out. A job's attained
//! service is the wall time it held a permit, plus the CPU time it used on the HTTP worker
//! before, less the time it paused for the workers: it only grows.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::Thread;
use std::time::{Duration, Instant};

use langcore::{Budget, Operation};

/// How much more a job holding a permit must have computed than the first waiting job
/// before it hands its permit over: the least a job computes between two hand-overs.
pub(super) const QUANTUM: Duration = Duration::from_millis(2);

/// How often a waiting job looks whether its request was cancelled (answered or dropped).
const POLL: Duration = Duration::from_millis(25);

/// No job waits: the value of [`Cores::least_waiting`] then.
const NONE_WAITS: u64 = u64::MAX;

thread_local! {
    /// The job running on this lane thread, while it runs.
    static TURN: RefCell<Option<Turn>> = const { RefCell::new(None) };
}

/// Whether a job that has computed `attained` gives its permit to a waiting job that has
/// computed `least_waiting`.
pub(super) fn gives_way(attained: Duration, least_waiting: Duration) -> bool {
    attained > least_waiting.saturating_add(QUANTUM)
}

/// The run permits of a lane and the jobs waiting for one.
pub(super) struct Cores {
    state: Mutex<State>,
    /// The attained service of the first waiting job in nanoseconds, [`NONE_WAITS`] when
    /// none waits: read without the lock at every budget check.
    least_waiting: AtomicU64,
}

/// What [`Cores`] guards with its lock.
struct State {
    free: usize,
    waiting: BTreeMap<Place, Thread>,
    arrivals: u64,
}

/// A waiting job's place in the queue: least attained service first, then first come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Place {
    attained: Duration,
    arrival: u64,
}

/// The job running on a lane thread: its budget (without the pause hook), the service it
/// attained before its permit, and since when it holds one (`None`: it holds none).
struct Turn {
    cores: Arc<Cores>,
    budget: Budget,
    attained: Duration,
    held_since: Option<Instant>,
}

impl Cores {
    /// `permits` permits (at least one), all free.
    pub(super) fn new(permits: usize) -> Cores {
        let state = State { free: permits.max(1), waiting: BTreeMap::new(), arrivals: 0 };
        Cores { state: Mutex::new(state), least_waiting: AtomicU64::new(NONE_WAITS) }
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
            held_since: holds.then(Instant::now),
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
        let first = state.waiting.first_key_value().map(|(place, _)| place.attained);
        if !first.is_some_and(|least| gives_way(attained, least)) {
            return true;
        }
        let place = self.enqueue(&mut state, attained);
        // The first is not this job: it attained at least `QUANTUM` less.
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

    /// Puts the calling thread in the queue at its place for `attained`.
    fn enqueue(&self, state: &mut State, attained: Duration) -> Place {
        let place = Place { attained, arrival: state.arrivals };
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

    /// Publishes the first waiting job's attained service for [`take_turn`]'s unlocked read.
    fn publish(&self, state: &State) {
        let least = state.waiting.first_key_value().map_or(NONE_WAITS, |(place, _)| {
            u64::try_from(place.attained.as_nanos()).unwrap_or(NONE_WAITS - 1)
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
            && turn.held_since.is_some()
        {
            turn.cores.release();
        }
    }
}

/// At a budget check of the job on this lane thread (if any) that `paused` for the HTTP
/// workers since the last one: hands its permit to a waiting job that has computed at least
/// [`QUANTUM`] less, and waits for one again (see the module docs). Without a waiting job
/// it returns without reading the clock.
pub(super) fn take_turn(paused: Duration) {
    TURN.with(|turn| {
        // Borrowed already: called again from within (the turn's budget must carry no
        // pause hook); nothing to do.
        if let Ok(mut turn) = turn.try_borrow_mut()
            && let Some(turn) = turn.as_mut()
        {
            turn.take(paused);
        }
    });
}

impl Turn {
    fn take(&mut self, paused: Duration) {
        let Some(held_since) = self.held_since.as_mut() else { return };
        // A pause for the workers is no service.
        *held_since += paused;
        let least = self.cores.least_waiting.load(Ordering::Relaxed);
        if least == NONE_WAITS {
            return;
        }
        let attained = self.attained + held_since.elapsed();
        if !gives_way(attained, Duration::from_nanos(least)) {
            return;
        }
        self.attained = attained;
        let holds = self.cores.pass(attained, &self.budget);
        self.held_since = holds.then(Instant::now);
    }
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
    /// arrival.
    #[test]
    fn permits_go_to_the_least_attained_service_first() {
        let cores = Arc::new(Cores::new(1));
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
        assert_eq!(cores.least_waiting.load(Ordering::Relaxed), 10_000_000);
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
        let cores = Arc::new(Cores::new(2));
        let jobs: Vec<_> = (0..6)
            .map(|_| {
                let cores = Arc::clone(&cores);
                std::thread::spawn(move || {
                    let budget = Budget::unlimited();
                    cores.run(Duration::ZERO, &budget, || {
                        let budget = budget.with_pause(|| take_turn(Duration::ZERO));
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

    /// A job that waits behind a permit nobody hands over leaves the queue at its deadline
    /// and fails at its next budget check, naming the operation.
    #[test]
    fn a_waiting_job_stops_at_its_deadline() {
        let cores = Arc::new(Cores::new(1));
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
