//! Work budgets: the four limits that every growing engine loop checks.
//!
//! # Overview
//! - [`Budget`] is a small `Copy` value of four limits: an optional deadline, an optional
//!   interrupt (stops work like the deadline, but is not time an operation may plan with),
//!   a maximum number of automaton states and a maximum number of bytes of tables. Every
//!   operation that can grow takes `&Budget` and checks it inside its loops, so an
//!   exponential blow-up stops with a [`BudgetError`] instead of a hang or OOM.
//! - [`Operation`] names the engine step that ran out, for error messages.
//! - [`Cancellation`] stops the work of every budget made with it
//!   ([`Budget::with_cancellation`]) once it is cancelled or dropped: a server drops it when
//!   the request is answered, so an engine thread never goes on computing an answer nobody
//!   waits for.
//!
//! # Invariants
//! - Checking is cheap (a clock read or a comparison), so loops check the state limit for
//!   every state they create and the deadline at least once per bounded batch of work
//!   (a [`Ticker`] counts it where single steps are too small to pay a clock read each).
//! - The default budget is bounded (5 s, 100,000 states, 256 MiB of tables): a caller has
//!   to ask for
//!   [`Budget::unlimited`] explicitly.
//! - States bound the work, the memory limit bounds the large tables: a DFA's table has one
//!   4-byte entry per state and character class, and counting tables hold big integers.
//!
//! # Example
//! ```
//! use std::time::Duration;
//! use langcore::{Budget, Dfa, Error};
//!
//! let budget = Budget::new(Duration::from_secs(1)).with_max_states(1_000);
//! let err = Dfa::from_regex_with("(a|b)*a(a|b){20}", &budget).unwrap_err();
//! assert!(matches!(err, Error::Budget(_)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The default deadline of [`Budget::default`].
///
/// # Example
/// ```
/// use std::time::Instant;
/// use langcore::{Budget, DEFAULT_TIMEOUT};
///
/// let deadline = Budget::default().deadline().expect("the default budget has a deadline");
/// assert!(deadline <= Instant::now() + DEFAULT_TIMEOUT);
/// ```
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);
/// The default state limit of [`Budget::default`].
///
/// # Example
/// ```
/// use langcore::{Budget, DEFAULT_MAX_STATES};
///
/// assert_eq!(Budget::default().max_states(), DEFAULT_MAX_STATES);
/// ```
pub const DEFAULT_MAX_STATES: usize = 100_000;
/// The default memory limit of [`Budget::default`]: 256 MiB for the tables of one operation.
///
/// # Example
/// ```
/// use langcore::{Budget, DEFAULT_MAX_MEMORY};
///
/// assert_eq!(Budget::default().max_memory(), DEFAULT_MAX_MEMORY);
/// ```
pub const DEFAULT_MAX_MEMORY: usize = 256 << 20;

/// Limits on the work of one engine call: a deadline, an interrupt, a maximum automaton
/// size and a maximum memory for tables.
///
/// # Example
/// ```
/// use std::time::Duration;
/// use langcore::{Budget, Language};
///
/// let budget = Budget::new(Duration::from_secs(2)).with_max_states(10_000);
/// let language = Language::from_regex("[a-z]+@[a-z]+\\.org")?;
/// assert!(language.matches("ann@example.org", &budget)?);
/// // 2^21 states are far beyond this budget: a typed error, not a hang.
/// let blowup = Language::from_regex("(a|b)*a(a|b){20}")?;
/// assert!(blowup.to_dfa(&budget).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    deadline: Option<Instant>,
    /// Stops work like the deadline, but is not time the operation may plan with.
    interrupt: Option<Instant>,
    /// Stops work like the deadline once its [`Cancellation`] is cancelled or dropped.
    cancel: Option<CancelToken>,
    /// Called at every time check: lets a caller give the CPU to more urgent work.
    pause: Option<Pause>,
    max_states: usize,
    max_memory: usize,
    /// The longest pattern a conversion to a pattern may return, in bytes.
    max_pattern: usize,
}

/// The hook of [`Budget::with_pause`]; equal when it is the same function.
#[derive(Clone, Copy, Debug)]
struct Pause(fn());

impl PartialEq for Pause {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

impl Eq for Pause {}

impl Default for Budget {
    /// A bounded budget: [`DEFAULT_TIMEOUT`] from now and [`DEFAULT_MAX_STATES`] states.
    fn default() -> Self {
        Budget::new(DEFAULT_TIMEOUT)
    }
}

impl Budget {
    /// A budget whose deadline is `timeout` from now, with [`DEFAULT_MAX_STATES`] states.
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use langcore::{Budget, DEFAULT_MAX_STATES};
    ///
    /// let budget = Budget::new(Duration::from_millis(500));
    /// assert!(budget.deadline().is_some());
    /// assert_eq!(budget.max_states(), DEFAULT_MAX_STATES);
    /// ```
    pub fn new(timeout: Duration) -> Self {
        Budget {
            deadline: Instant::now().checked_add(timeout),
            interrupt: None,
            cancel: None,
            pause: None,
            max_states: DEFAULT_MAX_STATES,
            max_memory: DEFAULT_MAX_MEMORY,
            max_pattern: usize::MAX,
        }
    }

    /// A budget with no deadline, no interrupt, no state limit and no memory limit, for
    /// trusted input only.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    ///
    /// let budget = Budget::unlimited();
    /// assert_eq!(budget.deadline(), None);
    /// assert_eq!(budget.max_states(), usize::MAX);
    /// ```
    pub fn unlimited() -> Self {
        Budget {
            deadline: None,
            interrupt: None,
            cancel: None,
            pause: None,
            max_states: usize::MAX,
            max_memory: usize::MAX,
            max_pattern: usize::MAX,
        }
    }

    /// Returns this budget with the deadline replaced by `deadline`.
    ///
    /// # Example
    /// ```
    /// use std::time::{Duration, Instant};
    /// use langcore::Budget;
    ///
    /// let at = Instant::now() + Duration::from_secs(1);
    /// assert_eq!(Budget::unlimited().with_deadline(at).deadline(), Some(at));
    /// ```
    pub fn with_deadline(self, deadline: Instant) -> Self {
        Budget { deadline: Some(deadline), ..self }
    }

    /// Returns this budget, also stopping at `at` as if it were the deadline, without
    /// changing [`deadline`](Budget::deadline), the time operations plan with (to_pattern
    /// gives an optional step a share of the time left). A caller that retries an interrupted
    /// operation with the whole budget gets, from a run that finished in time, the same
    /// result as from a run without the interrupt.
    pub fn with_interrupt(self, at: Instant) -> Self {
        Budget { interrupt: Some(at), ..self }
    }

    /// Returns this budget, also stopping (as if its deadline had passed) once
    /// `cancellation` is cancelled or dropped.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Cancellation, Operation};
    ///
    /// let cancellation = Cancellation::new();
    /// let budget = Budget::unlimited().with_cancellation(&cancellation);
    /// assert_eq!(budget.check_time(Operation::Minimize), Ok(()));
    /// drop(cancellation);
    /// let err = budget.check_time(Operation::Minimize);
    /// assert_eq!(err, Err(BudgetError::Timeout { op: Operation::Minimize }));
    /// ```
    pub fn with_cancellation(self, cancellation: &Cancellation) -> Self {
        Budget { cancel: Some(cancellation.token()), ..self }
    }

    /// Returns this budget, calling `pause` at every time check before it reads the clock.
    /// A caller that runs this operation beside more urgent work gives that work the CPU
    /// there: `pause` returns at once when nothing waits, or yields or sleeps the thread
    /// briefly (langcore knows no more of threads). Time spent in `pause` counts against
    /// the deadline like any other.
    ///
    /// # Example
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use langcore::{Budget, Operation};
    ///
    /// static PAUSES: AtomicUsize = AtomicUsize::new(0);
    /// let budget = Budget::default().with_pause(|| {
    ///     PAUSES.fetch_add(1, Ordering::Relaxed);
    /// });
    /// assert_eq!(budget.check_time(Operation::Parse), Ok(()));
    /// assert_eq!(PAUSES.load(Ordering::Relaxed), 1);
    /// ```
    pub fn with_pause(self, pause: fn()) -> Self {
        Budget { pause: Some(Pause(pause)), ..self }
    }

    /// Returns this budget with at most `max_states` states per automaton.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Dfa, Error};
    ///
    /// let budget = Budget::default().with_max_states(1_000);
    /// assert!(Dfa::from_regex_with("(a|b)*a(a|b){5}", &budget).is_ok());
    /// let err = Dfa::from_regex_with("(a|b)*a(a|b){20}", &budget).unwrap_err();
    /// assert!(matches!(err, Error::Budget(BudgetError::TooManyStates { limit: 1_000, .. })));
    /// ```
    pub fn with_max_states(self, max_states: usize) -> Self {
        Budget { max_states, ..self }
    }

    /// Returns this budget with at most `max_memory` bytes for the large tables of one
    /// operation: a DFA's transition table (4 bytes per state and character class, which
    /// matters when a pattern has many distinct classes) or a table of big counts.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Dfa, Error};
    ///
    /// let budget = Budget::default().with_max_memory(1 << 10);
    /// assert_eq!(budget.max_memory(), 1024);
    /// let err = Dfa::from_regex_with("[a-z]{300}", &budget).unwrap_err();
    /// assert!(matches!(err, Error::Budget(BudgetError::TooMuchMemory { limit: 1024, .. })));
    /// ```
    pub fn with_max_memory(self, max_memory: usize) -> Self {
        Budget { max_memory, ..self }
    }

    /// Returns this budget with patterns written by a conversion (`to_pattern`) at most
    /// `max_pattern` bytes long: a longer one is not returned, and the conversion stops
    /// once its expressions grow past it, with [`BudgetError::PatternTooLong`]. No limit by
    /// default.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Error, Language};
    ///
    /// let budget = Budget::default().with_max_pattern(8);
    /// assert_eq!(budget.max_pattern(), 8);
    /// let cats = Language::from_regex("cat|dog")?;
    /// assert_eq!(cats.to_pattern(&budget)?, "cat|dog");
    /// let long = Language::from_regex("(elephant|giraffe)*")?;
    /// let err = long.to_pattern(&budget).unwrap_err();
    /// assert!(matches!(err, Error::Budget(BudgetError::PatternTooLong { limit: 8, .. })));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_max_pattern(self, max_pattern: usize) -> Self {
        Budget { max_pattern, ..self }
    }

    /// The longest pattern a conversion may return, in bytes (see
    /// [`with_max_pattern`](Budget::with_max_pattern)).
    pub fn max_pattern(&self) -> usize {
        self.max_pattern
    }

    /// Fails with [`BudgetError::PatternTooLong`] when a pattern of `n_bytes` is longer than
    /// the limit.
    pub(crate) fn check_pattern(&self, op: Operation, n_bytes: usize) -> Result<(), BudgetError> {
        if n_bytes > self.max_pattern {
            return Err(BudgetError::PatternTooLong { op, limit: self.max_pattern });
        }
        Ok(())
    }

    /// The deadline, if any.
    ///
    /// # Example
    /// ```
    /// use std::time::Instant;
    /// use langcore::Budget;
    ///
    /// assert!(Budget::default().deadline().is_some_and(|deadline| deadline > Instant::now()));
    /// assert_eq!(Budget::unlimited().deadline(), None);
    /// ```
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The maximum number of states one automaton may have.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    ///
    /// assert_eq!(Budget::default().with_max_states(500).max_states(), 500);
    /// ```
    pub fn max_states(&self) -> usize {
        self.max_states
    }

    /// Fails with [`BudgetError::Timeout`] once the deadline has passed.
    ///
    /// # Errors
    /// When the deadline has passed.
    ///
    /// # Example
    /// ```
    /// use std::time::Instant;
    /// use langcore::{Budget, BudgetError, Operation};
    ///
    /// assert_eq!(Budget::default().check_time(Operation::Parse), Ok(()));
    /// let expired = Budget::unlimited().with_deadline(Instant::now());
    /// let err = expired.check_time(Operation::Parse);
    /// assert_eq!(err, Err(BudgetError::Timeout { op: Operation::Parse }));
    /// ```
    pub fn check_time(&self, op: Operation) -> Result<(), BudgetError> {
        if self.cancel.is_some_and(|token| token.is_cancelled()) {
            return Err(BudgetError::Timeout { op });
        }
        if let Some(Pause(pause)) = self.pause {
            pause();
        }
        match self.deadline.into_iter().chain(self.interrupt).min() {
            Some(stop) if Instant::now() >= stop => Err(BudgetError::Timeout { op }),
            _ => Ok(()),
        }
    }

    /// The memory limit in bytes for the tables of one operation.
    ///
    /// # Example
    /// ```
    /// use langcore::Budget;
    ///
    /// assert_eq!(Budget::default().with_max_memory(4096).max_memory(), 4096);
    /// ```
    pub fn max_memory(&self) -> usize {
        self.max_memory
    }

    /// Fails with [`BudgetError::TooMuchMemory`] when `n_bytes` exceeds the memory limit.
    ///
    /// # Errors
    /// When the memory limit is exceeded.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Operation};
    ///
    /// let budget = Budget::default().with_max_memory(1024);
    /// assert_eq!(budget.check_memory(Operation::Generate, 1024), Ok(()));
    /// let err = budget.check_memory(Operation::Generate, 1025);
    /// assert_eq!(err, Err(BudgetError::TooMuchMemory { op: Operation::Generate, limit: 1024 }));
    /// ```
    pub fn check_memory(&self, op: Operation, n_bytes: usize) -> Result<(), BudgetError> {
        if n_bytes > self.max_memory {
            return Err(BudgetError::TooMuchMemory { op, limit: self.max_memory });
        }
        Ok(())
    }

    /// Fails with [`BudgetError::TooManyStates`] when `n_states` exceeds the limit, and with
    /// [`BudgetError::Timeout`] once the deadline has passed.
    ///
    /// # Errors
    /// When either limit is exceeded.
    ///
    /// # Example
    /// ```
    /// use langcore::{Budget, BudgetError, Operation};
    ///
    /// let budget = Budget::default().with_max_states(10);
    /// assert_eq!(budget.check_states(Operation::Determinize, 10), Ok(()));
    /// let err = budget.check_states(Operation::Determinize, 11);
    /// assert_eq!(err, Err(BudgetError::TooManyStates { op: Operation::Determinize, limit: 10 }));
    /// ```
    pub fn check_states(&self, op: Operation, n_states: usize) -> Result<(), BudgetError> {
        if n_states > self.max_states {
            return Err(BudgetError::TooManyStates { op, limit: self.max_states });
        }
        self.check_time(op)
    }

    /// Fails with [`BudgetError::TooManyStates`] when `n_states` is over the state limit,
    /// without reading the clock: for loops that check the deadline through a [`Ticker`].
    pub(crate) fn check_state_count(
        &self,
        op: Operation,
        n_states: usize,
    ) -> Result<(), BudgetError> {
        if n_states > self.max_states {
            return Err(BudgetError::TooManyStates { op, limit: self.max_states });
        }
        Ok(())
    }
}

/// Checks a budget's deadline once per batch of work rather than at every step.
///
/// A clock read costs tens of nanoseconds, as much as a step of a small automaton (a state
/// of an NFA, a row of a DFA), so steps that check it one by one spend a tenth of a small
/// query on the clock. A ticker is charged with units of work and reads the clock when
/// they reach its interval, and on its first charge, so that an expired budget still stops
/// every operation that does any work.
pub(crate) struct Ticker<'a> {
    budget: &'a Budget,
    op: Operation,
    interval: usize,
    /// Units of work left before the next clock read.
    credit: usize,
}

impl<'a> Ticker<'a> {
    /// A ticker for `op` that reads the clock once per `interval` units of work.
    pub(crate) fn new(budget: &'a Budget, op: Operation, interval: usize) -> Self {
        Ticker { budget, op, interval, credit: 0 }
    }

    /// Charges `units` of work, checking the deadline when they use up the credit.
    ///
    /// # Errors
    /// [`BudgetError::Timeout`] when the clock is read and the deadline has passed.
    pub(crate) fn tick(&mut self, units: usize) -> Result<(), BudgetError> {
        if units >= self.credit {
            self.credit = self.interval;
            self.budget.check_time(self.op)
        } else {
            self.credit -= units;
            Ok(())
        }
    }
}

/// Cancels the work of every [`Budget`] made with it ([`Budget::with_cancellation`]) when
/// [`cancel`](Cancellation::cancel) is called or when it is dropped: their next
/// [`check_time`](Budget::check_time) fails with [`BudgetError::Timeout`].
///
/// A budget stays `Copy`: it holds a slot shared with the cancellation and the slot's
/// generation at the time. Cancelling moves the slot to a new generation, never back, so a
/// slot can serve a later cancellation once this one is dropped (slots are kept for reuse:
/// as many exist as cancellations were ever alive at once).
///
/// # Example
/// ```
/// use langcore::{Budget, Cancellation, Error, Language};
///
/// let cancellation = Cancellation::new();
/// let budget = Budget::default().with_cancellation(&cancellation);
/// let language = Language::from_regex("(a|b)*a(a|b){12}")?;
/// cancellation.cancel();
/// assert!(matches!(language.cardinality(&budget), Err(Error::Budget(_))));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Cancellation {
    token: CancelToken,
}

/// Slots of dropped cancellations, ready for reuse.
static FREE_SLOTS: Mutex<Vec<&'static AtomicU64>> = Mutex::new(Vec::new());

impl Cancellation {
    /// A cancellation not cancelled yet.
    pub fn new() -> Self {
        let free = FREE_SLOTS.lock().unwrap_or_else(PoisonError::into_inner).pop();
        // A slot lives as long as the process, since budgets may outlive their cancellation;
        // dropped cancellations give theirs back, so the slots number at most the peak of
        // cancellations alive at once.
        let slot = free.unwrap_or_else(|| Box::leak(Box::new(AtomicU64::new(0))));
        Cancellation { token: CancelToken { slot, generation: slot.load(Ordering::Acquire) } }
    }

    /// Cancels every budget made with this cancellation.
    pub fn cancel(&self) {
        if !self.token.is_cancelled() {
            self.token.slot.fetch_add(1, Ordering::Release);
        }
    }

    fn token(&self) -> CancelToken {
        self.token
    }
}

impl Default for Cancellation {
    fn default() -> Self {
        Cancellation::new()
    }
}

impl Drop for Cancellation {
    fn drop(&mut self) {
        self.cancel();
        FREE_SLOTS.lock().unwrap_or_else(PoisonError::into_inner).push(self.token.slot);
    }
}

/// What a budget holds of a [`Cancellation`]: its slot and the generation it started at.
#[derive(Clone, Copy, Debug)]
struct CancelToken {
    slot: &'static AtomicU64,
    generation: u64,
}

impl CancelToken {
    fn is_cancelled(self) -> bool {
        self.slot.load(Ordering::Acquire) != self.generation
    }
}

/// Tokens are equal when they stop together: the same slot and generation.
impl PartialEq for CancelToken {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.slot, other.slot) && self.generation == other.generation
    }
}

impl Eq for CancelToken {}

/// The engine step that was running when a budget ran out.
///
/// # Example
/// ```
/// use langcore::{Budget, Dfa, Error, Operation};
///
/// let budget = Budget::default().with_max_states(1_000);
/// let Err(Error::Budget(err)) = Dfa::from_regex_with("(a|b)*a(a|b){20}", &budget) else {
///     panic!("2^21 states fit in 1,000")
/// };
/// assert_eq!(err.operation(), Operation::Determinize);
/// assert_eq!(err.operation().to_string(), "determinization");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Operation {
    /// Parsing a pattern.
    Parse,
    /// Building an NFA from a parsed pattern.
    BuildNfa,
    /// Splitting transition labels into disjoint character classes.
    Partition,
    /// Subset construction.
    Determinize,
    /// State minimization.
    Minimize,
    /// A product of two automata (boolean operations, subset and equivalence).
    Product,
    /// Building the automaton of a concatenation of languages.
    Concat,
    /// Building the automaton of a repeated language.
    Repeat,
    /// Counting the strings of a language.
    Cardinality,
    /// Removing the ε-moves of an NFA to export it as a graph.
    EpsilonRemoval,
    /// Turning an automaton into a pattern.
    ToRegex,
    /// Generating the strings of a language: count tables and paging.
    Generate,
    /// Writing an automaton as Graphviz DOT text.
    Dot,
    /// Running strings through an automaton (membership and viable prefixes).
    Match,
    /// Building a language derived from another's automaton: reversal, prefix and suffix
    /// closure, quotients.
    Derive,
    /// Analysing how a backtracking engine runs a pattern (`Backtracking::analyze`).
    Backtracking,
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Operation::Parse => "parse",
            Operation::BuildNfa => "NFA construction",
            Operation::Partition => "alphabet partition",
            Operation::Determinize => "determinization",
            Operation::Minimize => "minimization",
            Operation::Product => "product construction",
            Operation::Concat => "concatenation",
            Operation::Repeat => "repetition",
            Operation::Cardinality => "counting",
            Operation::EpsilonRemoval => "ε-move removal",
            Operation::ToRegex => "conversion to a pattern",
            Operation::Generate => "string generation",
            Operation::Dot => "DOT rendering",
            Operation::Match => "matching",
            Operation::Derive => "derivation",
            Operation::Backtracking => "backtracking analysis",
        })
    }
}

/// A budget ran out: which limit, during which operation.
///
/// # Example
/// ```
/// use langcore::{Budget, BudgetError, Error, Language};
///
/// let budget = Budget::default().with_max_states(1_000);
/// let language = Language::from_regex("(a|b)*a(a|b){20}")?;
/// match language.to_dfa(&budget) {
///     Err(Error::Budget(BudgetError::TooManyStates { limit, .. })) => assert_eq!(limit, 1_000),
///     other => panic!("expected the state limit, got {other:?}"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BudgetError {
    /// The deadline passed during `op`.
    Timeout {
        /// The operation that was running.
        op: Operation,
    },
    /// `op` would have built an automaton with more than `limit` states.
    TooManyStates {
        /// The operation that was running.
        op: Operation,
        /// The state limit of the budget.
        limit: usize,
    },
    /// `op` would have needed tables of more than `limit` bytes.
    TooMuchMemory {
        /// The operation that was running.
        op: Operation,
        /// The memory limit of the budget, in bytes.
        limit: usize,
    },
    /// `op` would have written a pattern nested deeper than `limit`, the nesting limit of
    /// the dialect ([`NEST_LIMIT`](crate::NEST_LIMIT)), so that it could not be read back.
    TooDeep {
        /// The operation that was running.
        op: Operation,
        /// The nesting limit.
        limit: u32,
    },
    /// `op` would have written a pattern longer than `limit` bytes, the pattern limit of the
    /// budget ([`Budget::with_max_pattern`]).
    PatternTooLong {
        /// The operation that was running.
        op: Operation,
        /// The pattern limit, in bytes.
        limit: usize,
    },
}

impl BudgetError {
    /// The operation that ran out of budget.
    ///
    /// # Example
    /// ```
    /// use langcore::{BudgetError, Operation};
    ///
    /// let err = BudgetError::TooManyStates { op: Operation::Product, limit: 10 };
    /// assert_eq!(err.operation(), Operation::Product);
    /// ```
    pub fn operation(&self) -> Operation {
        match *self {
            BudgetError::Timeout { op }
            | BudgetError::TooManyStates { op, .. }
            | BudgetError::TooMuchMemory { op, .. }
            | BudgetError::TooDeep { op, .. }
            | BudgetError::PatternTooLong { op, .. } => op,
        }
    }
}

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BudgetError::Timeout { op } => write!(f, "the time budget ran out during {op}"),
            BudgetError::TooManyStates { op, limit } => {
                write!(f, "{op} would exceed the limit of {limit} states")
            }
            BudgetError::TooMuchMemory { op, limit } => {
                write!(f, "{op} would exceed the memory limit of {limit} bytes")
            }
            BudgetError::TooDeep { op, limit } => {
                write!(f, "{op} would exceed the nesting limit of {limit}")
            }
            BudgetError::PatternTooLong { op, limit } => {
                write!(f, "{op} would write a pattern longer than the limit of {limit} bytes")
            }
        }
    }
}

impl std::error::Error for BudgetError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticker_reads_the_clock_first_then_once_per_interval() {
        let expired = Budget::unlimited().with_deadline(Instant::now());
        let timeout = Err(BudgetError::Timeout { op: Operation::Minimize });
        let mut ticker = Ticker::new(&expired, Operation::Minimize, 10);
        assert_eq!(ticker.tick(0), timeout, "the first charge reads the clock");
        assert_eq!(ticker.tick(9), Ok(()));
        assert_eq!(ticker.tick(1), timeout, "the interval's last unit reads it again");
        assert_eq!(ticker.tick(25), timeout, "a large charge reads it at once");
        let unlimited = Budget::unlimited();
        let mut roomy = Ticker::new(&unlimited, Operation::Minimize, 10);
        assert!((0..100).all(|_| roomy.tick(3).is_ok()));
    }

    #[test]
    fn state_limit_is_inclusive() {
        let budget = Budget::unlimited().with_max_states(10);
        assert_eq!(budget.check_states(Operation::Determinize, 10), Ok(()));
        assert_eq!(
            budget.check_states(Operation::Determinize, 11),
            Err(BudgetError::TooManyStates { op: Operation::Determinize, limit: 10 })
        );
    }

    #[test]
    fn passed_deadline_times_out() {
        let budget = Budget::unlimited().with_deadline(Instant::now());
        assert_eq!(
            budget.check_time(Operation::Minimize),
            Err(BudgetError::Timeout { op: Operation::Minimize })
        );
        assert_eq!(Budget::unlimited().check_time(Operation::Minimize), Ok(()));
    }

    #[test]
    fn interrupt_stops_without_moving_the_deadline() {
        let deadline = Instant::now() + Duration::from_secs(60);
        let budget = Budget::unlimited().with_deadline(deadline).with_interrupt(Instant::now());
        assert_eq!(budget.deadline(), Some(deadline));
        assert_eq!(
            budget.check_time(Operation::Product),
            Err(BudgetError::Timeout { op: Operation::Product })
        );
    }

    /// Issue 17: work went on for seconds after its request was answered. A dropped
    /// cancellation stops its budgets; a later one reusing the slot stops neither the old
    /// budgets from stopping nor its own from running.
    #[test]
    fn r17_cancelled_budgets_stop_and_slots_are_reused_safely() {
        let first = Cancellation::new();
        let old = Budget::unlimited().with_cancellation(&first);
        assert_eq!(old.check_time(Operation::Determinize), Ok(()));
        drop(first);
        let timeout = Err(BudgetError::Timeout { op: Operation::Determinize });
        assert_eq!(old.check_time(Operation::Determinize), timeout);
        let second = Cancellation::new();
        let new = Budget::unlimited().with_cancellation(&second);
        assert_eq!(new.check_time(Operation::Determinize), Ok(()));
        assert_eq!(old.check_time(Operation::Determinize), timeout);
        second.cancel();
        second.cancel();
        assert_eq!(new.check_time(Operation::Determinize), timeout);
        assert_ne!(old, new);
    }

    #[test]
    fn pause_runs_at_every_time_check_and_counts_in_equality() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static PAUSES: AtomicUsize = AtomicUsize::new(0);
        fn pause() {
            PAUSES.fetch_add(1, Ordering::Relaxed);
        }
        let budget = Budget::unlimited().with_max_states(1).with_pause(pause);
        assert_ne!(budget, Budget::unlimited().with_max_states(1));
        assert_eq!(budget, Budget::unlimited().with_max_states(1).with_pause(pause));
        assert_eq!(budget.check_time(Operation::Minimize), Ok(()));
        assert_eq!(budget.check_states(Operation::Minimize, 1), Ok(()));
        // A state check over the limit fails before the clock is read: no pause.
        assert!(budget.check_states(Operation::Minimize, 2).is_err());
        assert_eq!(PAUSES.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn messages_name_the_operation() {
        let err = BudgetError::TooManyStates { op: Operation::Determinize, limit: 5 };
        assert_eq!(err.to_string(), "determinization would exceed the limit of 5 states");
    }
}
