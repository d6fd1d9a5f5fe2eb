//! Pattern lengths of relang and regexsolver 1.1.0 on the real-world corpus
//! (`bench/real_patterns.toml`, issue 23; with the argument `combined`,
//! `bench/combined_patterns.toml`, issue 35): each pattern as given, and the languages
//! derived from them. Prints the summary table of docs/benchmarks.md and relang's
//! conversion times (median, p99, max: wall clock, and the converting thread's CPU time),
//! then one `STALE` line per entry whose recorded `regexsolver_length` differs from the
//! measured one, and one `LONGER` line per entry whose output is longer than its recorded
//! `relang_length` (and exits with status 1 if any).
//! With `--no-peer`, regexsolver is not run: relang against the recorded lengths; with
//! `--from N`, only the derived languages from the N-th on (a run resumed); with
//! `--only NAME`, only the language of that name (to profile one conversion); with
//! `--dialect NAME`, relang's output is in that dialect (`options.response.dialect`), read
//! back in it to be checked (except JavaScript's with surrogate escapes, which relang does
//! not read: reported unchecked).
//!
//! Run with `cargo run --release -p relang-bench --features peer --example
//! real_pattern_lengths [combined]` (lengths do not depend on the build profile, times do).
//!
//! regexsolver's best output is the shorter of `Term::to_pattern()` of the term as built
//! and of its `minimize()`d automaton; relang's is `Language::to_pattern` under the default
//! budget's state and memory limits without its deadline (so that lengths do not depend on
//! the machine; the times go to stderr): a conversion that runs out is reported as its
//! error, in the table's `errors` column, instead of taking the machine's memory. Both must
//! denote the language (checked on relang's canonical DFAs).

use std::time::{Duration, Instant};

use langcore::{Budget, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES, Dfa, Dialect, Language, Nfa};
use regexsolver::Term;

// The corpus loader of langcore's tests, so that the file has one reader.
#[path = "../../langcore/tests/integration/real_corpus.rs"]
mod real_corpus;

/// relang's outputs longer than this (bytes) are not read back to be checked.
const UNCHECKED_LENGTH: usize = 1 << 20;

/// One language converted by both engines.
struct Row {
    name: String,
    original: Option<usize>,
    /// The length of relang's output, or its error.
    ours: Result<usize, String>,
    theirs: usize,
    recorded: usize,
    /// The recorded length of relang's output, where the corpus has one.
    recorded_ours: Option<usize>,
}

/// How long each of regexsolver's two conversions may take: past it, it is left out (its
/// thread runs on until the process ends) and reported on stderr.
const PEER_TIMEOUT: Duration = Duration::from_secs(30);

/// regexsolver's shortest pattern for `term`: as built, or of its minimal automaton; `None`
/// when neither finished within [`PEER_TIMEOUT`].
fn peer_best(name: &str, term: &Term, dfa: &Dfa) -> Option<usize> {
    let as_built = term.clone();
    let minimal = term.clone();
    let candidates = [
        within(name, move || as_built.to_pattern().ok()),
        within(name, move || minimal.minimize().and_then(|min| min.to_pattern()).ok()),
    ];
    candidates
        .into_iter()
        .flatten()
        .flatten()
        .filter(|pattern| {
            Dfa::from_regex_with(pattern, &Budget::unlimited()).is_ok_and(|back| back == *dfa)
        })
        .map(|pattern| pattern.chars().count())
        .min()
}

/// What `run` returns, unless it takes longer than [`PEER_TIMEOUT`].
fn within<T: Send + 'static>(name: &str, run: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || send.send(run()));
    let answer = receive.recv_timeout(PEER_TIMEOUT).ok();
    if answer.is_none() {
        eprintln!("{name}: regexsolver took over {PEER_TIMEOUT:?}, left out");
    }
    answer
}

/// The budget of relang's conversions: the default limits on states and memory, no
/// deadline.
fn conversion_budget() -> Budget {
    Budget::unlimited().with_max_states(DEFAULT_MAX_STATES).with_max_memory(DEFAULT_MAX_MEMORY)
}

/// The CPU time the calling thread has used so far: on a loaded machine it moves far less
/// than the wall clock.
fn thread_cpu_time() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::try_from(now).unwrap_or_default()
}

/// The wall-clock and CPU times of the conversions.
#[derive(Default)]
struct Times {
    wall: Vec<Duration>,
    cpu: Vec<Duration>,
}

/// The length of relang's pattern for `language` in `dialect`, checked against `dfa`, or
/// the conversion's error; its conversion times go to `times`.
fn ours(
    name: &str,
    language: &Language,
    dfa: &Dfa,
    dialect: Dialect,
    times: &mut Times,
) -> Result<usize, String> {
    let started = Instant::now();
    let cpu_started = thread_cpu_time();
    let converted = language.to_pattern_in(dialect, &conversion_budget());
    let (wall, cpu) = (started.elapsed(), thread_cpu_time().saturating_sub(cpu_started));
    times.wall.push(wall);
    times.cpu.push(cpu);
    let pattern = match converted {
        Ok(pattern) => pattern,
        Err(err) => {
            eprintln!("{name}: {err} after {wall:.1?} (CPU {cpu:.1?})");
            return Err(err.to_string());
        }
    };
    eprintln!("{name}: {} characters in {wall:.1?} (CPU {cpu:.1?})", pattern.chars().count());
    let budget = Budget::unlimited();
    // Reading back a pattern of megabytes takes minutes: it is reported unchecked.
    if pattern.len() > UNCHECKED_LENGTH {
        eprintln!("{name}: not checked, over {UNCHECKED_LENGTH} bytes");
    } else {
        // `[]` is the empty language in every dialect, which Python's reading refuses.
        let reading = if pattern == "[]" { Dialect::Rust } else { dialect };
        match Nfa::from_regex_in(&pattern, reading, &budget) {
            Ok(nfa) => {
                let back = Dfa::from_nfa(&nfa, &budget).expect("no budget to run out");
                assert!(back == *dfa, "{name}: relang's {pattern} is another language");
            }
            Err(err) if dialect == Dialect::Js && err.to_string().contains("surrogate") => {
                eprintln!("{name}: not checked, JavaScript surrogate escapes");
            }
            Err(err) => panic!("{name}: relang's {pattern} does not parse back: {err}"),
        }
    }
    Ok(pattern.chars().count())
}

/// Median, 90th percentile, the shares shorter / equal / longer / over 2x of the rows
/// with an output, and how many rows have an error instead.
fn summary(rows: &[Row]) -> String {
    let answered: Vec<(&Row, usize)> =
        rows.iter().filter_map(|row| row.ours.as_ref().ok().map(|&ours| (row, ours))).collect();
    let mut ratios: Vec<f64> =
        answered.iter().map(|(row, ours)| *ours as f64 / row.theirs.max(1) as f64).collect();
    ratios.sort_by(f64::total_cmp);
    let at = |share: usize| ratios.get(ratios.len() * share / 10).copied().unwrap_or(f64::NAN);
    let share = |keep: &dyn Fn(&Row, usize) -> bool| {
        let kept = answered.iter().filter(|(row, ours)| keep(row, *ours)).count();
        100.0 * kept as f64 / answered.len().max(1) as f64
    };
    let longer_than_original = share(&|row, ours| row.original.is_some_and(|len| ours > len));
    format!(
        "{} | {:.2} / {:.2} | {:.1} / {:.1} / {:.1} % | {:.1} % | {:.1} % | {} |",
        answered.len(),
        at(5),
        at(9),
        share(&|row, ours| ours < row.theirs),
        share(&|row, ours| ours == row.theirs),
        share(&|row, ours| ours > row.theirs),
        share(&|row, ours| ours > 2 * row.theirs),
        longer_than_original,
        rows.len() - answered.len(),
    )
}

/// relang's length or error, for the report lines.
fn shown(ours: &Result<usize, String>) -> String {
    match ours {
        Ok(len) => len.to_string(),
        Err(err) => format!("error ({err})"),
    }
}

/// The median, 99th percentile and maximum of `times`.
fn percentiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let at = |share: usize| times[(times.len() * share / 100).min(times.len() - 1)];
    format!("median {:.1?}, p99 {:.1?}, max {:.1?}", at(50), at(99), times[times.len() - 1])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let combined = args.iter().any(|arg| arg == "combined");
    // `--no-peer`: relang's lengths and times against the recorded peer lengths.
    let peer = !args.iter().any(|arg| arg == "--no-peer");
    // `--from N`: only the derived languages from the N-th (0-based) on, to resume a run.
    let from = args.iter().position(|arg| arg == "--from").map_or(0, |at| {
        args.get(at + 1).and_then(|n| n.parse().ok()).expect("--from takes a number")
    });
    let dialect: Dialect =
        args.iter().position(|arg| arg == "--dialect").map_or(Dialect::Rust, |at| {
            args.get(at + 1).and_then(|name| name.parse().ok()).expect("--dialect takes a dialect")
        });
    // `--only NAME`: only the language of that name, as the report lines name it.
    let only = args
        .iter()
        .position(|arg| arg == "--only")
        .map(|at| args.get(at + 1).cloned().expect("--only takes a name"));
    let wanted = |name: &str| only.as_deref().is_none_or(|only| only == name);
    let corpus = if combined { real_corpus::load_combined() } else { real_corpus::load() };
    let mut times = Times::default();
    let budget = Budget::unlimited();
    let mut given = Vec::new();
    for entry in corpus.pattern.iter().filter(|entry| wanted(&entry.name)) {
        let language = Language::from_regex(&entry.pattern).unwrap();
        let dfa = language.to_dfa(&budget).unwrap().clone();
        let term = Term::from_pattern(&entry.pattern).expect("regexsolver parses the corpus");
        given.push(Row {
            name: entry.name.clone(),
            original: Some(entry.pattern.chars().count()),
            ours: ours(&entry.name, &language, &dfa, dialect, &mut times),
            theirs: peer
                .then(|| peer_best(&entry.name, &term, &dfa))
                .flatten()
                .unwrap_or(entry.regexsolver_length),
            recorded: entry.regexsolver_length,
            recorded_ours: None,
        });
        let row = &given[given.len() - 1];
        eprintln!("{}: relang {} regexsolver {}", row.name, shown(&row.ours), row.theirs);
    }
    let mut derived = Vec::new();
    for item in corpus.derived.iter().skip(from) {
        let name = item.name();
        if !wanted(&name) {
            continue;
        }
        let language = item.language(&corpus, &budget);
        let dfa = language.to_dfa(&budget).unwrap().clone();
        let left = Term::from_pattern(corpus.text(&item.left)).unwrap();
        let right = Term::from_pattern(item.right(&corpus)).unwrap();
        let term = match item.operation.as_str() {
            "complement" => left.complement(),
            "union" => left.union([&right]),
            "intersection" => left.intersection([&right]),
            _ => left.difference(&right),
        }
        .expect("regexsolver computes the corpus");
        derived.push(Row {
            ours: ours(&name, &language, &dfa, dialect, &mut times),
            theirs: peer
                .then(|| peer_best(&name, &term, &dfa))
                .flatten()
                .unwrap_or(item.regexsolver_length),
            original: None,
            recorded: item.regexsolver_length,
            // Recorded in the default dialect (others spell `.` longer, as `[\s\S]`).
            recorded_ours: item.relang_length.filter(|_| dialect == Dialect::Rust),
            name,
        });
        let row = &derived[derived.len() - 1];
        eprintln!("{}: relang {} regexsolver {}", row.name, shown(&row.ours), row.theirs);
    }
    println!(
        "| | languages | relang / peer, median / p90 | shorter / equal / longer | over 2x | longer than the original | errors |"
    );
    println!("|---|---|---|---|---|---|---|");
    println!("| real patterns as given | {}", summary(&given));
    println!("| derived (∪, ∩, −) | {}", summary(&derived));
    println!("relang's conversion times: {}", percentiles(times.wall));
    println!("relang's conversion CPU times: {}", percentiles(times.cpu));
    let mut stale = false;
    for row in given.iter().chain(&derived) {
        println!("{}: relang {} regexsolver {}", row.name, shown(&row.ours), row.theirs);
        if row.recorded != row.theirs {
            println!("STALE {}: recorded {} measured {}", row.name, row.recorded, row.theirs);
            stale = true;
        }
        if let (Some(recorded), Ok(ours)) = (row.recorded_ours, &row.ours)
            && ours > &recorded
        {
            println!("LONGER {}: recorded {recorded} measured {ours}", row.name);
            stale = true;
        }
    }
    if stale {
        std::process::exit(1);
    }
}
