//! The HTTP workers as lane jobs see them: whether one waits for the core a lane job computes
//! on, so that the job yields it.
//!
//! A worker woken by a request runs only once the kernel preempts whatever holds its core.
//! Where that is a lane job, Linux's EEVDF scheduler lets the job finish its slice first
//! (milliseconds), and the request waits that long before its first byte is read: under the
//! load test's mix, with the server on one core, that wait was most of small requests' p50
//! and p99 (issue 18, docs/benchmarks.md). The kernel does not say who waits for a core, but
//! `/proc` says what each thread is doing: each worker opens its own `/proc/thread-self/stat`
//! on its first request ([`Workers::register`]), and a lane job, at its budget checks and at
//! most every [`PEEK_EVERY`] per worker, reads their state and CPU (fields 3 and 39): a
//! worker runnable (`R`) on the job's own CPU is waiting for that CPU, since the job is
//! running there ([`Workers::one_waits_here`]), and the job yields (`sched_yield`).
//!
//! The job yields only then, so the lane keeps its fair share beside other processes of the
//! host (a yield also gives the core to them, and this kernel moves the yielding thread's
//! virtual runtime forward: yielding at every check took the lane below two busy loops).
//! Where `/proc` cannot be read (off Linux), no worker registers and jobs never yield.

use std::cell::Cell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{PoisonError, RwLock};
use std::time::Duration;

/// How often at most a lane job reads each worker's state: with `n` workers, every `n`
/// times this (a read costs a system call of about 2 µs, about 2% of the job's time), so a
/// waiting worker gets the core within that much of a budget check.
pub(super) const PEEK_EVERY: Duration = Duration::from_micros(125);

/// Where a thread reads its own scheduling state.
pub(super) const OWN_STAT: &str = "/proc/thread-self/stat";

/// The field of `stat` that holds the thread's state (`R`: running or runnable).
const STATE_FIELD: usize = 3;
/// The field of `stat` that holds the CPU the thread runs or waits on (`processor`).
const PROCESSOR_FIELD: usize = 39;

/// Tells [`Workers`] registries apart, so a thread registers once with each.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The registry this thread registered with last (0: none).
    static REGISTERED_WITH: Cell<u64> = const { Cell::new(0) };
}

/// The HTTP workers that computed a slice: each one's own `stat`, opened by itself.
pub(super) struct Workers {
    id: u64,
    stats: RwLock<Vec<Stat>>,
}

/// A worker's `/proc/thread-self/stat`, kept open, and its thread id.
struct Stat {
    tid: rustix::process::Pid,
    file: File,
}

impl Workers {
    pub(super) fn new() -> Workers {
        Workers { id: NEXT_ID.fetch_add(1, Ordering::Relaxed), stats: RwLock::new(Vec::new()) }
    }

    /// Registers the calling HTTP worker thread, once: afterwards a thread-local check.
    pub(super) fn register(&self) {
        if REGISTERED_WITH.get() == self.id {
            return;
        }
        REGISTERED_WITH.set(self.id);
        let tid = rustix::thread::gettid();
        let mut stats = self.stats.write().unwrap_or_else(PoisonError::into_inner);
        if stats.iter().any(|stat| stat.tid == tid) {
            return;
        }
        match File::open(OWN_STAT) {
            Ok(file) => stats.push(Stat { tid, file }),
            Err(err) => tracing::debug!(%err, "lane jobs will not see this worker wait"),
        }
    }

    /// How often at most a lane job calls [`Workers::one_waits_here`] (see [`PEEK_EVERY`]);
    /// `None` while no worker registered.
    pub(super) fn peek_every(&self) -> Option<Duration> {
        let workers = self.stats.read().unwrap_or_else(PoisonError::into_inner).len();
        let workers = u32::try_from(workers).ok().filter(|&workers| workers > 0)?;
        Some(PEEK_EVERY * workers)
    }

    /// Whether a worker is runnable on the CPU the calling thread runs on, and so waits for
    /// it.
    pub(super) fn one_waits_here(&self) -> bool {
        let cpu = rustix::thread::sched_getcpu();
        let stats = self.stats.read().unwrap_or_else(PoisonError::into_inner);
        let mut buf = [0; 1024];
        stats
            .iter()
            .any(|stat| stat.file.read_at(&mut buf, 0).is_ok_and(|n| waits_on(&buf[..n], cpu)))
    }
}

/// Whether the thread whose `stat` line this is is runnable (state `R`) on `cpu`.
fn waits_on(stat: &[u8], cpu: usize) -> bool {
    let Ok(stat) = std::str::from_utf8(stat) else { return false };
    let mut fields = stat_fields(stat);
    let state = fields.next();
    let processor = fields.nth(PROCESSOR_FIELD - STATE_FIELD - 1);
    state == Some("R") && processor.and_then(|cpu| cpu.parse::<usize>().ok()) == Some(cpu)
}

/// The fields of a `stat` line from the state (field 3) on: field `k` is `nth(k - 3)`.
/// Nothing when the line is cut before the command name ends.
pub(super) fn stat_fields(stat: &str) -> impl Iterator<Item = &str> {
    // The command name, in parentheses, may hold anything: the fields start after the last `)`.
    let after_name = stat.rsplit_once(')').map_or("", |(_, fields)| fields);
    after_name.split_ascii_whitespace()
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::mpsc;

    use super::*;

    /// A `stat` line with `state` and `processor` and a command name with spaces and
    /// parentheses.
    fn line(state: &str, processor: usize) -> String {
        let between: Vec<String> = (5..PROCESSOR_FIELD).map(|field| field.to_string()).collect();
        format!("42 (a (b) c) {state} 1 {} {processor} 0 0 0", between.join(" "))
    }

    #[test]
    fn a_worker_waits_when_runnable_on_this_cpu() {
        assert!(waits_on(line("R", 3).as_bytes(), 3));
        assert!(!waits_on(line("R", 3).as_bytes(), 2));
        assert!(!waits_on(line("S", 3).as_bytes(), 3));
        assert!(!waits_on(b"42 (truncated", 3));
        assert!(!waits_on(b"", 0));
    }

    /// Read from the kernel: the calling thread runs, so it is `R` on its own CPU; a thread
    /// blocked on a channel is not; nothing registered, nothing is read.
    #[test]
    fn the_kernel_says_who_waits() {
        let workers = Arc::new(Workers::new());
        assert_eq!(workers.peek_every(), None);
        assert!(!workers.one_waits_here());
        if !cfg!(target_os = "linux") {
            return;
        }
        workers.register();
        workers.register();
        assert_eq!(workers.peek_every(), Some(PEEK_EVERY));
        let cpu = rustix::thread::sched_getcpu();
        let mut own = [0; 1024];
        let n = File::open(OWN_STAT).unwrap().read_at(&mut own, 0).unwrap();
        // Between the read and `sched_getcpu` the kernel may move the thread: retry once.
        assert!(waits_on(&own[..n], cpu) || waits_on(&own[..n], rustix::thread::sched_getcpu()));

        let (registered, blocked) = (mpsc::channel(), mpsc::channel::<()>());
        let other = Arc::new(Workers::new());
        let (registered_tx, blocked_rx) = (registered.0, blocked.1);
        let thread = std::thread::spawn({
            let other = Arc::clone(&other);
            move || {
                other.register();
                registered_tx.send(()).unwrap();
                blocked_rx.recv().ok();
            }
        });
        registered.1.recv().unwrap();
        // The thread sleeps on the channel (give it a moment to get there).
        let sleeps = (0..100).any(|_| {
            std::thread::sleep(Duration::from_millis(5));
            !other.one_waits_here()
        });
        assert!(sleeps);
        drop(blocked.0);
        thread.join().unwrap();
    }
}
