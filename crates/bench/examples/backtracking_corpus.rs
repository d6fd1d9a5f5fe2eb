//! Backtracking analysis over the corpus of real patterns `bench/backtracking/corpus.jsonl`
//! and the advisories' patterns of `bench/backtracking/advisories.jsonl`:
//! each pattern's verdict and analysis time under the default budget, compared with
//! recheck's verdicts cached in `bench/backtracking/recheck.jsonl` (made by
//! `bench/backtracking/recheck.js`). Prints the summary of docs/benchmarks.md and writes
//! every verdict and every disagreement to `target/backtracking/`.
//!
//! Run with `cargo run --release -p relang-bench --example backtracking_corpus`.

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use langcore::{Backtracking, Budget, Complexity, Dialect, MatchMode};
use serde::Deserialize;

/// A pattern of the corpus.
#[derive(Deserialize)]
struct Entry {
    id: String,
    dialect: String,
    pattern: String,
    flags: String,
    source: String,
}

/// recheck's answer for a pattern.
#[derive(Deserialize)]
struct Recheck {
    id: String,
    status: String,
    complexity: Option<String>,
    attack: Option<String>,
}

/// Flags that change nothing in what a pattern matches from a given start.
const NEUTRAL_FLAGS: &str = "gyd";

/// An analysis slower than this is timed twice more, and the fastest time kept.
const RETIME_OVER: Duration = Duration::from_millis(20);

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let corpus = fs::read_to_string(root.join("bench/backtracking/corpus.jsonl"))?
        + &fs::read_to_string(root.join("bench/backtracking/advisories.jsonl"))?;
    let recheck: HashMap<String, Recheck> =
        match fs::read_to_string(root.join("bench/backtracking/recheck.jsonl")) {
            Ok(text) => text
                .lines()
                .map(serde_json::from_str::<Recheck>)
                .map(|res| res.map(|answer| (answer.id.clone(), answer)))
                .collect::<Result<_, _>>()?,
            Err(_) => HashMap::new(),
        };
    let out_dir = root.join("target/backtracking");
    fs::create_dir_all(&out_dir)?;
    let mut verdicts = String::new();
    let mut disagreements = String::new();
    let mut times = Vec::new();
    let mut counts: HashMap<(String, String), usize> = HashMap::new();
    let mut n_skipped = 0;
    // An optional argument: analyse only the first that many patterns.
    let limit: usize = std::env::args().nth(1).map_or(Ok(usize::MAX), |arg| arg.parse())?;
    for line in corpus.lines().take(limit) {
        let entry: Entry = serde_json::from_str(line)?;
        if !entry.flags.chars().all(|flag| NEUTRAL_FLAGS.contains(flag)) {
            n_skipped += 1;
            continue;
        }
        let dialect: Dialect = entry.dialect.parse()?;
        let start = Instant::now();
        let res =
            Backtracking::analyze(&entry.pattern, dialect, MatchMode::Search, &Budget::default());
        let mut elapsed = start.elapsed();
        // On a busy machine a slow time may be another process's turn: the fastest of
        // three runs, as the timing drivers take.
        for _ in 0..2 {
            if elapsed < RETIME_OVER {
                break;
            }
            let again = Instant::now();
            let _ = Backtracking::analyze(
                &entry.pattern,
                dialect,
                MatchMode::Search,
                &Budget::default(),
            );
            elapsed = elapsed.min(again.elapsed());
        }
        times.push(elapsed);
        if elapsed.as_millis() >= 100 {
            eprintln!("slow: {} {:?} {:?}", entry.id, elapsed, entry.pattern);
        }
        let (ours, detail) = match &res {
            Ok(risk) => match risk.complexity() {
                Complexity::Linear => ("safe", "linear".to_owned()),
                Complexity::Polynomial { degree } => ("vulnerable", format!("polynomial:{degree}")),
                Complexity::Exponential => ("vulnerable", "exponential".to_owned()),
                Complexity::Superlinear { at_least, at_most } => {
                    ("vulnerable", format!("superlinear:{at_least}..{at_most:?}"))
                }
                Complexity::Unknown { reason } => ("unknown", reason.clone()),
                _ => ("unknown", "new kind".to_owned()),
            },
            Err(err) => ("error", err.to_string()),
        };
        let parts = res.as_ref().ok().and_then(|risk| {
            risk.attack().map(|attack| [attack.prefix(), attack.pump(), attack.suffix()])
        });
        let attack = res.as_ref().ok().and_then(|risk| risk.attack().map(|at| at.string(20)));
        verdicts.push_str(&format!(
            "{}\n",
            serde_json::json!({"id": entry.id, "verdict": ours, "detail": detail,
                "attack": attack, "attack_parts": parts, "micros": elapsed.as_micros() as u64})
        ));
        let theirs = recheck.get(&entry.id);
        let their_status = theirs.map_or("missing", |answer| answer.status.as_str());
        *counts.entry((ours.to_owned(), their_status.to_owned())).or_default() += 1;
        if ours != their_status {
            disagreements.push_str(&format!(
                "{}\n",
                serde_json::json!({"id": entry.id, "pattern": entry.pattern, "flags": entry.flags,
                    "source": entry.source, "relang": ours, "relang_detail": detail,
                    "relang_attack": attack, "relang_attack_parts": parts,
                    "recheck": their_status,
                    "recheck_complexity": theirs.and_then(|t| t.complexity.clone()),
                    "recheck_attack": theirs.and_then(|t| t.attack.clone())})
            ));
        }
    }
    fs::write(out_dir.join("relang.jsonl"), verdicts)?;
    fs::write(out_dir.join("disagreements.jsonl"), disagreements)?;
    times.sort_unstable();
    let at = |q: f64| times[((times.len() as f64 - 1.0) * q).round() as usize];
    let n = times.len();
    println!(
        "patterns analysed: {n} (skipped for flags other than {NEUTRAL_FLAGS:?}: {n_skipped})"
    );
    println!(
        "analysis time: p50 {:?}, p90 {:?}, p99 {:?}, max {:?}",
        at(0.5),
        at(0.9),
        at(0.99),
        times[n - 1]
    );
    let mut rows: Vec<_> = counts.into_iter().collect();
    rows.sort();
    for ((ours, theirs), count) in &rows {
        println!("relang {ours:>10} / recheck {theirs:>10}: {count}");
    }
    let agree: usize = rows.iter().filter(|((o, t), _)| o == t).map(|(_, c)| c).sum();
    println!("same verdict: {agree} of {n} ({:.2}%)", 100.0 * agree as f64 / n as f64);
    Ok(())
}
