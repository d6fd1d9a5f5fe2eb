//! The log's writer: each thread appends its lines to a buffer of its own, and one thread
//! writes every buffer out a few milliseconds later, so logging a request takes no shared
//! lock and no system call on the thread that answered it.
//!
//! # Overview
//! - [`LogWriter`]: the `MakeWriter` the log subscriber writes through; [`LogWriter::new`]
//!   starts the flushing thread over any output (standard output in the server).
//! - [`LogFlush`]: returned with it; dropping it (when the server stops) writes out every
//!   line still buffered and stops the flushing thread.
//!
//! # Invariants
//! Every line is written whole, once: a thread's line goes into its buffer in one piece,
//! and the flushing thread takes a whole buffer at a time. Lines of one thread keep their
//! order; lines of different threads written within one flush interval (`FLUSH_EVERY`) may
//! come out grouped by thread (each carries its time). A buffer holds at most
//! `MAX_BUFFERED` bytes: a thread that would pass it writes its buffer and the line itself,
//! so memory stays bounded however fast lines come. A line reaches the output at most
//! `FLUSH_EVERY` (plus the time to write) after it was logged, or when [`LogFlush`] drops.

use std::cell::RefCell;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;

/// How often the flushing thread writes the buffered lines out.
const FLUSH_EVERY: Duration = Duration::from_millis(10);
/// The most bytes one thread's buffer holds before the thread writes it out itself.
const MAX_BUFFERED: usize = 256 << 10;

/// One thread's buffered lines.
type Buffer = Arc<Mutex<Vec<u8>>>;

/// Locks `mutex`, whatever panicked while it was held: a buffer of bytes stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What the threads that log and the flushing thread share.
struct Shared {
    /// Tells the thread-local registrations of different writers apart.
    id: u64,
    /// Every thread's buffer, registered at its first line.
    buffers: Mutex<Vec<Buffer>>,
    /// Where lines go.
    output: Mutex<Box<dyn Write + Send>>,
    /// Set when the flushing thread is to write everything out and stop.
    stopping: Mutex<bool>,
    wake: Condvar,
    /// Set once the flushing thread stops (or never started): lines are written at once.
    unbuffered: AtomicBool,
}

impl Shared {
    /// Writes `bytes` to the output.
    fn write_out(&self, bytes: &[u8]) {
        let mut output = lock(&self.output);
        // Nowhere to report a failed log write: the line is lost, as with a direct write.
        let _ = output.write_all(bytes).and_then(|()| output.flush());
    }

    /// Writes out every thread's buffered lines, swapping each buffer with `spare` so that
    /// no lock is held while writing; forgets the buffers of threads that have ended.
    fn flush(&self, spare: &mut Vec<u8>) {
        let buffers: Vec<Buffer> = {
            let mut registered = lock(&self.buffers);
            registered.retain(|buffer| Arc::strong_count(buffer) > 1 || !lock(buffer).is_empty());
            registered.clone()
        };
        let mut output = lock(&self.output);
        for buffer in &buffers {
            std::mem::swap(&mut *lock(buffer), spare);
            if !spare.is_empty() {
                let _ = output.write_all(spare);
                spare.clear();
            }
        }
        let _ = output.flush();
    }

    /// The flushing thread's life: write the buffers out every [`FLUSH_EVERY`] until told
    /// to stop, then once more.
    fn run(&self) {
        let mut spare = Vec::new();
        let mut stopping = lock(&self.stopping);
        while !*stopping {
            stopping = self
                .wake
                .wait_timeout(stopping, FLUSH_EVERY)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            drop(stopping);
            self.flush(&mut spare);
            stopping = lock(&self.stopping);
        }
    }
}

thread_local! {
    /// This thread's buffer, per writer (by [`Shared::id`]).
    static BUFFERS: RefCell<Vec<(u64, Buffer)>> = const { RefCell::new(Vec::new()) };
}

/// Buffers each thread's log lines and has them written out by a thread of its own; see the
/// module docs.
#[derive(Clone)]
pub(crate) struct LogWriter {
    shared: Arc<Shared>,
}

/// Writes out what is still buffered, and stops the flushing thread, when dropped.
#[must_use = "dropping it at once stops the flushing of log lines"]
pub struct LogFlush {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl LogWriter {
    /// A writer to `output`, and the guard that flushes it when dropped. Without a flushing
    /// thread (it could not start), every line is written at once.
    pub(crate) fn new(output: impl Write + Send + 'static) -> (LogWriter, LogFlush) {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        let shared = Arc::new(Shared {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            buffers: Mutex::new(Vec::new()),
            output: Mutex::new(Box::new(output)),
            stopping: Mutex::new(false),
            wake: Condvar::new(),
            unbuffered: AtomicBool::new(false),
        });
        let flushing = Arc::clone(&shared);
        let thread =
            std::thread::Builder::new().name("log-flush".to_owned()).spawn(move || flushing.run());
        if let Err(err) = &thread {
            eprintln!("relang-server: log lines are written unbuffered ({err})");
            shared.unbuffered.store(true, Ordering::Relaxed);
        }
        (LogWriter { shared: Arc::clone(&shared) }, LogFlush { shared, thread: thread.ok() })
    }

    /// Buffers `line`, one whole line or more, on this thread (written out at once when
    /// unbuffered).
    pub(crate) fn write_line(&self, line: &[u8]) {
        if self.shared.unbuffered.load(Ordering::Relaxed) {
            self.shared.write_out(line);
            return;
        }
        let buffer = self.buffer();
        let mut buffered = lock(&buffer);
        if buffered.len() + line.len() > MAX_BUFFERED {
            let mut output = lock(&self.shared.output);
            let _ = output.write_all(&buffered).and_then(|()| output.write_all(line));
            let _ = output.flush();
            buffered.clear();
        } else {
            buffered.extend_from_slice(line);
        }
    }

    /// This thread's buffer for this writer, registered on first use.
    fn buffer(&self) -> Buffer {
        BUFFERS.with_borrow_mut(|buffers| {
            if let Some((_, buffer)) = buffers.iter().find(|(id, _)| *id == self.shared.id) {
                return Arc::clone(buffer);
            }
            let buffer = Buffer::default();
            lock(&self.shared.buffers).push(Arc::clone(&buffer));
            buffers.push((self.shared.id, Arc::clone(&buffer)));
            buffer
        })
    }
}

impl<'a> MakeWriter<'a> for LogWriter {
    type Writer = &'a LogWriter;

    fn make_writer(&'a self) -> &'a LogWriter {
        self
    }
}

impl Write for &LogWriter {
    /// Takes `line` whole (the subscriber writes each event in one call).
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        self.write_line(line);
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for LogFlush {
    fn drop(&mut self) {
        self.shared.unbuffered.store(true, Ordering::Relaxed);
        *lock(&self.shared.stopping) = true;
        self.shared.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // Lines logged while the thread stopped.
        self.shared.flush(&mut Vec::new());
    }
}

/// An output the tests can read: a writer, and a subscriber's `MakeWriter`, whose clones
/// share one buffer.
#[cfg(test)]
#[derive(Clone, Default)]
pub(crate) struct Captured(Arc<Mutex<Vec<u8>>>);

#[cfg(test)]
impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        lock(&self.0).extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Captured {
    type Writer = Captured;

    fn make_writer(&'a self) -> Captured {
        self.clone()
    }
}

#[cfg(test)]
impl Captured {
    /// Everything written so far.
    pub(crate) fn text(&self) -> String {
        String::from_utf8(lock(&self.0).clone()).unwrap()
    }

    /// Everything written so far, line by line.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.text().lines().map(str::to_owned).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::*;

    fn log(writer: &LogWriter, line: &str) {
        writer.make_writer().write_all(line.as_bytes()).unwrap();
    }

    #[test]
    fn lines_are_written_out_soon_whole_and_in_each_threads_order() {
        let captured = Captured::default();
        let (writer, flush) = LogWriter::new(captured.clone());
        let threads: Vec<_> = (0..4)
            .map(|thread| {
                let writer = writer.clone();
                std::thread::spawn(move || {
                    for idx in 0..500 {
                        log(&writer, &format!("thread {thread} line {idx}\n"));
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        // Written out by the flushing thread, without the guard's help.
        let started = Instant::now();
        while captured.lines().len() < 2_000 {
            assert!(started.elapsed() < Duration::from_secs(10), "{}", captured.lines().len());
            std::thread::sleep(FLUSH_EVERY);
        }
        let lines = captured.lines();
        assert_eq!(lines.len(), 2_000);
        for thread in 0..4 {
            let own: Vec<_> = lines
                .iter()
                .filter_map(|line| line.strip_prefix(&format!("thread {thread} line ")))
                .map(|idx| idx.parse::<usize>().unwrap())
                .collect();
            assert_eq!(own, (0..500).collect::<Vec<_>>());
        }
        // The threads have ended: their buffers are forgotten at the next flush.
        flush.shared.flush(&mut Vec::new());
        assert!(lock(&flush.shared.buffers).is_empty());
    }

    #[test]
    fn dropping_the_guard_writes_out_what_is_buffered() {
        let captured = Captured::default();
        let (writer, flush) = LogWriter::new(captured.clone());
        log(&writer, "one\n");
        drop(flush);
        assert_eq!(captured.lines(), ["one"]);
        // After the guard, lines are written at once.
        log(&writer, "two\n");
        assert_eq!(captured.lines(), ["one", "two"]);
    }

    #[test]
    fn a_full_buffer_is_written_by_its_thread() {
        let captured = Captured::default();
        let (writer, _flush) = LogWriter::new(captured.clone());
        let line = format!("{}\n", "x".repeat(1_000));
        let n_lines = MAX_BUFFERED / line.len() + 1;
        // The flushing thread might take the buffer meanwhile; hold its output so it cannot.
        let output = lock(&writer.shared.output);
        let writing = {
            let writer = writer.clone();
            let line = line.clone();
            std::thread::spawn(move || (0..n_lines).for_each(|_| log(&writer, &line)))
        };
        std::thread::sleep(Duration::from_millis(100));
        // Blocked on the output: the last line found the buffer full.
        assert!(!writing.is_finished());
        drop(output);
        writing.join().unwrap();
        assert_eq!(captured.lines().len(), n_lines);
    }
}
