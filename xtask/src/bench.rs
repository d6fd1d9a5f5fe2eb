//! `cargo xtask bench`: runs the benchmark suites and rewrites the tables of
//! `docs/benchmarks.md` from criterion's results.
//!
//! Only the text between `<!-- xtask-bench:TABLE:begin -->` and
//! `<!-- xtask-bench:TABLE:end -->` is rewritten; the prose around it is left alone. Times
//! are criterion's median point estimates (`target/criterion/<group>/<id>/new/
//! estimates.json`); rows follow the workload files (`bench/workloads.toml`,
//! `bench/generate_workloads.toml`), so a table names every workload or the task fails.
//! `--from-existing` renders the tables without running anything.
//!
//! The document changes only with `--write`: a run on another machine prints its tables
//! and leaves the committed numbers alone. While the suites run, each finished benchmark
//! prints `benchmark K of N` (N counted beforehand with criterion's `--list`).

use std::fmt::Write;
use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use anyhow::{Context, bail};
use serde::Deserialize;
use serde_json::Value;

use crate::{cargo, run, target_dir};

/// The benchmarks document, relative to the workspace root.
pub const DOCUMENT: &str = "docs/benchmarks.md";

/// Flags of `cargo xtask bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only these suites (repeatable; default: all).
    #[arg(long, value_enum)]
    only: Vec<Suite>,
    /// Build the benches without running them; the tables are left alone.
    #[arg(long, conflicts_with = "from_existing")]
    no_run: bool,
    /// Run nothing: render the tables from the results criterion already has.
    #[arg(long)]
    from_existing: bool,
    /// Rewrite the tables of docs/benchmarks.md (without it they are only printed).
    #[arg(long, conflicts_with = "no_run")]
    write: bool,
    /// Passed on to criterion, after `--` (a filter, `--measurement-time 1`, ...).
    #[arg(last = true)]
    criterion_args: Vec<String>,
}

/// A benchmark suite: one `cargo bench` command and the tables it refreshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Suite {
    /// relang against regexsolver on `bench/workloads.toml`.
    Algebra,
    /// String generation against regexsolver on `bench/generate_workloads.toml`.
    Generate,
    /// langcore's pattern-to-DFA and determinization benchmarks.
    Build,
}

impl Suite {
    const ALL: [Suite; 3] = [Suite::Algebra, Suite::Generate, Suite::Build];

    fn cargo_args(self) -> &'static [&'static str] {
        match self {
            Suite::Algebra => {
                &["bench", "-p", "relang-bench", "--features", "peer", "--bench", "algebra"]
            }
            Suite::Generate => {
                &["bench", "-p", "relang-bench", "--features", "peer", "--bench", "generate"]
            }
            Suite::Build => &["bench", "-p", "langcore", "--bench", "build"],
        }
    }

    /// The marked tables of the document this suite's results fill.
    fn tables(self) -> &'static [Table] {
        match self {
            Suite::Algebra => &[Table::Algebra],
            Suite::Generate => &[Table::Generate],
            Suite::Build => &[Table::Group("from_regex"), Table::Group("determinize")],
        }
    }
}

/// A marked table of the document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Table {
    /// One row per algebra workload: relang, regexsolver, their ratio, the operation alone.
    Algebra,
    /// One row per generation workload: end to end and prebuilt, on both engines.
    Generate,
    /// Every benchmark of one criterion group, with its time.
    Group(&'static str),
}

impl Table {
    fn marker(self) -> &'static str {
        match self {
            Table::Algebra => "algebra",
            Table::Generate => "generate",
            Table::Group(group) => group,
        }
    }
}

/// Runs the chosen suites (unless `--from-existing`), then prints their tables, or with
/// `--write` rewrites them in the document.
///
/// # Errors
/// When a bench fails, a result is missing or the document lacks a table's markers.
pub fn bench(root: &Path, args: &Args) -> anyhow::Result<()> {
    let suites = if args.only.is_empty() { Suite::ALL.to_vec() } else { args.only.clone() };
    if args.no_run {
        for suite in &suites {
            run(cargo().current_dir(root).args(suite.cargo_args()).arg("--no-run"))?;
        }
        return Ok(());
    }
    if !args.from_existing {
        run_with_progress(root, &suites, &args.criterion_args)?;
    }
    let estimates = Estimates { dir: target_dir(root).join("criterion") };
    let path = root.join(DOCUMENT);
    let mut document = fs::read_to_string(&path).with_context(|| format!("read {DOCUMENT}"))?;
    for table in suites.iter().flat_map(|suite| suite.tables()) {
        let content = render(root, *table, &estimates)?;
        if args.write {
            document = replace_table(&document, table.marker(), &content)?;
            println!("{DOCUMENT}: rewrote the {} table", table.marker());
        } else {
            println!("\n## {}\n\n{content}", table.marker());
        }
    }
    if !args.write {
        println!("{DOCUMENT} left alone: pass --write to put these tables in it");
        return Ok(());
    }
    fs::write(&path, document).with_context(|| format!("write {DOCUMENT}"))
}

/// Runs `suites` one after the other, echoing criterion's output and printing
/// `benchmark K of N` after each finished benchmark.
fn run_with_progress(
    root: &Path,
    suites: &[Suite],
    criterion_args: &[String],
) -> anyhow::Result<()> {
    let bench_command = |suite: Suite, extra: &[&str]| {
        let mut command = cargo();
        command.current_dir(root).args(suite.cargo_args()).arg("--").args(criterion_args);
        command.args(extra);
        command
    };
    let mut total = 0;
    for suite in suites {
        let output = bench_command(*suite, &["--list"])
            .stderr(Stdio::inherit())
            .output()
            .context("cargo bench --list")?;
        if !output.status.success() {
            bail!("cargo bench -- --list of {suite:?} failed: {}", output.status);
        }
        total += count_listed(&String::from_utf8_lossy(&output.stdout));
    }
    let mut done = 0;
    for suite in suites {
        let mut command = bench_command(*suite, &[]);
        let mut child = command.stdout(Stdio::piped()).spawn().context("start cargo bench")?;
        let stdout = child.stdout.take().context("cargo bench's stdout")?;
        for line in BufReader::new(stdout).lines() {
            let line = line.context("read cargo bench's output")?;
            println!("{line}");
            if is_finished_benchmark(&line) {
                done += 1;
                println!("benchmark {done} of {total}");
            }
        }
        let status = child.wait().context("wait for cargo bench")?;
        if !status.success() {
            bail!("{command:?} failed: {status}");
        }
    }
    Ok(())
}

/// How many benchmarks criterion's `--list` output names (`ID: benchmark` lines).
fn count_listed(listing: &str) -> usize {
    listing.lines().filter(|line| line.ends_with(": benchmark")).count()
}

/// Whether `line` of criterion's output reports a finished benchmark: its `time:` line,
/// after the id on the same line or alone (when the id was too long).
fn is_finished_benchmark(line: &str) -> bool {
    line.split_whitespace().any(|word| word == "time:") && line.contains('[')
}

fn render(root: &Path, table: Table, estimates: &Estimates) -> anyhow::Result<String> {
    let read =
        |file: &str| fs::read_to_string(root.join(file)).with_context(|| format!("read {file}"));
    match table {
        Table::Algebra => algebra_table(&read("bench/workloads.toml")?, estimates),
        Table::Generate => generate_table(&read("bench/generate_workloads.toml")?, estimates),
        Table::Group(group) => group_table(group, estimates),
    }
}

/// Criterion's results directory.
struct Estimates {
    dir: PathBuf,
}

impl Estimates {
    /// The median time of benchmark `id` (`group/function[/parameter]`), in nanoseconds.
    fn median_ns(&self, id: &str) -> anyhow::Result<f64> {
        let path = self.dir.join(id).join("new/estimates.json");
        let text = fs::read_to_string(&path).with_context(|| {
            format!("no criterion result for `{id}` ({}): run its bench first", path.display())
        })?;
        let json: Value = serde_json::from_str(&text)
            .with_context(|| format!("{} is not JSON", path.display()))?;
        json.pointer("/median/point_estimate")
            .and_then(Value::as_f64)
            .with_context(|| format!("{}: no median.point_estimate", path.display()))
    }

    /// The ids of every benchmark with a result under `group`, sorted.
    fn ids_under(&self, group: &str) -> anyhow::Result<Vec<String>> {
        let mut ids = Vec::new();
        let mut pending = vec![group.to_owned()];
        while let Some(id) = pending.pop() {
            let dir = self.dir.join(&id);
            if dir.join("new/estimates.json").is_file() {
                ids.push(id);
                continue;
            }
            let entries = fs::read_dir(&dir)
                .with_context(|| format!("no criterion results in {}", dir.display()))?;
            for entry in entries {
                let entry = entry.with_context(|| format!("read {}", dir.display()))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.path().is_dir() && name != "report" {
                    pending.push(format!("{id}/{name}"));
                }
            }
        }
        ids.sort_unstable();
        Ok(ids)
    }
}

/// A row of `bench/workloads.toml`.
#[derive(Deserialize)]
struct AlgebraWorkload {
    name: String,
    operation: String,
}

/// A row of `bench/generate_workloads.toml`.
#[derive(Deserialize)]
struct GenerateWorkload {
    name: String,
    term: String,
    path_order: String,
    char_order: String,
    #[serde(default)]
    offset: u64,
    max_length: Option<u64>,
}

#[derive(Deserialize)]
struct Workloads<T> {
    workload: Vec<T>,
}

fn algebra_table(workloads: &str, estimates: &Estimates) -> anyhow::Result<String> {
    let workloads: Workloads<AlgebraWorkload> = toml::from_str(workloads)?;
    let mut out = String::from(
        "| Workload | Operation | relang | regexsolver | regexsolver / relang | relang: operation alone |\n\
         |---|---|---|---|---|---|\n",
    );
    let mut ratios = Vec::new();
    for workload in &workloads.workload {
        let name = &workload.name;
        let relang = estimates.median_ns(&format!("{name}/relang"))?;
        let peer = estimates.median_ns(&format!("{name}/regexsolver"))?;
        let operation = estimates.median_ns(&format!("{name}/relang_operation"))?;
        ratios.push(peer / relang);
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {:.2} | {} |",
            workload.operation,
            format_ns(relang),
            format_ns(peer),
            peer / relang,
            format_ns(operation)
        );
    }
    let _ = write!(out, "\nGeometric mean of the ratios: {}.\n", summary(&ratios, "workloads"));
    Ok(out)
}

fn generate_table(workloads: &str, estimates: &Estimates) -> anyhow::Result<String> {
    let workloads: Workloads<GenerateWorkload> = toml::from_str(workloads)?;
    let mut out = String::from(
        "| Workload | Pattern | Order | Offset | relang | regexsolver | regexsolver / relang \
         | relang prebuilt | regexsolver prebuilt | ratio prebuilt |\n\
         |---|---|---|---|---|---|---|---|---|---|\n",
    );
    let (mut ratios, mut prebuilt_ratios) = (Vec::new(), Vec::new());
    for workload in &workloads.workload {
        let name = &workload.name;
        let time = |function: &str| estimates.median_ns(&format!("{name}/{function}"));
        let (relang, peer) = (time("relang")?, time("regexsolver")?);
        let (relang_pre, peer_pre) = (time("relang_prebuilt")?, time("regexsolver_prebuilt")?);
        ratios.push(peer / relang);
        prebuilt_ratios.push(peer_pre / relang_pre);
        let mut pattern = format!("`{}`", workload.term.replace('|', "\\|"));
        if let Some(max_length) = workload.max_length {
            let _ = write!(pattern, ", max {max_length}");
        }
        let _ = writeln!(
            out,
            "| {name} | {pattern} | {}, {} | {} | {} | {} | {:.2} | {} | {} | {:.2} |",
            workload.path_order,
            workload.char_order,
            format_count(workload.offset),
            format_ns(relang),
            format_ns(peer),
            peer / relang,
            format_ns(relang_pre),
            format_ns(peer_pre),
            peer_pre / relang_pre
        );
    }
    let _ = write!(
        out,
        "\nGeometric mean of the ratios: {} end to end; {} prebuilt.\n",
        summary(&ratios, "workloads"),
        summary(&prebuilt_ratios, "workloads")
    );
    Ok(out)
}

fn group_table(group: &str, estimates: &Estimates) -> anyhow::Result<String> {
    let ids = estimates.ids_under(group)?;
    if ids.is_empty() {
        bail!("no criterion results under `{group}`: run its bench first");
    }
    let mut out = String::from("| Benchmark | Time |\n|---|---|\n");
    for id in ids {
        let _ = writeln!(out, "| {id} | {} |", format_ns(estimates.median_ns(&id)?));
    }
    Ok(out)
}

/// `**G**, relang faster on K of N WHAT`: the geometric mean of regexsolver / relang ratios.
fn summary(ratios: &[f64], what: &str) -> String {
    let n_ratios = ratios.len();
    let mean = (ratios.iter().map(|ratio| ratio.ln()).sum::<f64>() / n_ratios as f64).exp();
    let n_faster = ratios.iter().filter(|&&ratio| ratio > 1.0).count();
    format!("**{mean:.2}**, relang faster on {n_faster} of {n_ratios} {what}")
}

/// A time in nanoseconds with three significant digits and a unit: `75.5 µs`, `1.47 ms`.
fn format_ns(ns: f64) -> String {
    let (scale, unit) = [(1e9, "s"), (1e6, "ms"), (1e3, "µs")]
        .into_iter()
        .find(|&(scale, _)| ns >= scale)
        .unwrap_or((1.0, "ns"));
    let value = ns / scale;
    let decimals = if value >= 99.95 {
        0
    } else if value >= 9.995 {
        1
    } else {
        2
    };
    format!("{value:.decimals$} {unit}")
}

/// A count as written in the document: powers of ten from 1,000 on as `10^k`.
fn format_count(count: u64) -> String {
    let mut power = 0;
    let mut rest = count;
    while rest >= 10 && rest.is_multiple_of(10) {
        rest /= 10;
        power += 1;
    }
    if rest == 1 && power >= 3 { format!("10^{power}") } else { count.to_string() }
}

/// `document` with the text between `table`'s markers replaced by `content`.
fn replace_table(document: &str, table: &str, content: &str) -> anyhow::Result<String> {
    let begin = format!("<!-- xtask-bench:{table}:begin -->\n");
    let end = format!("<!-- xtask-bench:{table}:end -->");
    let (Some(start), Some(stop)) = (document.find(&begin), document.find(&end)) else {
        bail!("{DOCUMENT} has no `{begin}` ... `{end}` markers: add them where the table goes");
    };
    if stop < start {
        bail!("{DOCUMENT}: the end marker of `{table}` comes before its begin marker");
    }
    let content_start = start + begin.len();
    Ok(format!("{}{content}{}", &document[..content_start], &document[stop..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A criterion results tree with `median` nanoseconds for each id.
    fn fixture(name: &str, results: &[(&str, f64)]) -> Estimates {
        let dir = std::env::temp_dir().join(format!("xtask-bench-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for &(id, median) in results {
            let new = dir.join(id).join("new");
            fs::create_dir_all(&new).unwrap();
            let json = serde_json::json!({
                "mean": {"point_estimate": median * 2.0},
                "median": {"point_estimate": median},
            });
            fs::write(new.join("estimates.json"), json.to_string()).unwrap();
        }
        Estimates { dir }
    }

    const ALGEBRA: &str = r#"
        [[workload]]
        name = "union_x"
        operation = "union"
        terms = ["a", "b"]

        [[workload]]
        name = "concat_y"
        operation = "concat"
        terms = ["a", "b"]
    "#;

    #[test]
    fn algebra_table_has_medians_ratios_and_their_summary() {
        let estimates = fixture(
            "algebra",
            &[
                ("union_x/relang", 75_512.0),
                ("union_x/regexsolver", 183_240.0),
                ("union_x/relang_operation", 28_490.0),
                ("concat_y/relang", 44_900.0),
                ("concat_y/regexsolver", 10_900.0),
                ("concat_y/relang_operation", 950.0),
            ],
        );
        let table = algebra_table(ALGEBRA, &estimates).unwrap();
        assert_eq!(
            table,
            "| Workload | Operation | relang | regexsolver | regexsolver / relang | relang: operation alone |\n\
             |---|---|---|---|---|---|\n\
             | union_x | union | 75.5 µs | 183 µs | 2.43 | 28.5 µs |\n\
             | concat_y | concat | 44.9 µs | 10.9 µs | 0.24 | 950 ns |\n\
             \n\
             Geometric mean of the ratios: **0.77**, relang faster on 1 of 2 workloads.\n"
        );
        fs::remove_dir_all(&estimates.dir).unwrap();
    }

    #[test]
    fn generate_table_names_pattern_order_and_offset() {
        let workloads = r#"
            [[workload]]
            name = "deep"
            term = 'a|b'
            limit = 100
            offset = 10_000_000
            path_order = "sweep"
            char_order = "shuffled"
            max_length = 20
        "#;
        let estimates = fixture(
            "generate",
            &[
                ("deep/relang", 2_000.0),
                ("deep/regexsolver", 4_000.0),
                ("deep/relang_prebuilt", 1_000.0),
                ("deep/regexsolver_prebuilt", 500.0),
            ],
        );
        let table = generate_table(workloads, &estimates).unwrap();
        let row = table.lines().nth(2).unwrap();
        assert_eq!(
            row,
            "| deep | `a\\|b`, max 20 | sweep, shuffled | 10^7 | 2.00 µs | 4.00 µs | 2.00 | 1.00 µs | 500 ns | 0.50 |"
        );
        assert!(table.ends_with(
            "**2.00**, relang faster on 1 of 1 workloads end to end; \
             **0.50**, relang faster on 0 of 1 workloads prebuilt.\n"
        ));
        fs::remove_dir_all(&estimates.dir).unwrap();
    }

    #[test]
    fn a_missing_result_is_named() {
        let estimates = fixture("missing", &[("union_x/relang", 1.0)]);
        let err = algebra_table(ALGEBRA, &estimates).unwrap_err().to_string();
        assert!(err.contains("`union_x/regexsolver`"), "{err}");
        fs::remove_dir_all(&estimates.dir).unwrap();
    }

    #[test]
    fn group_table_lists_every_benchmark_of_the_group() {
        let estimates = fixture(
            "group",
            &[("g/b/14", 42_000_000.0), ("g/b/10", 1_010_000.0), ("g/a", 8_800.0), ("h/x", 1.0)],
        );
        assert_eq!(
            group_table("g", &estimates).unwrap(),
            "| Benchmark | Time |\n|---|---|\n| g/a | 8.80 µs |\n| g/b/10 | 1.01 ms |\n| g/b/14 | 42.0 ms |\n"
        );
        fs::remove_dir_all(&estimates.dir).unwrap();
    }

    #[test]
    fn only_the_marked_table_is_rewritten() {
        let document = "# B\nprose\n<!-- xtask-bench:algebra:begin -->\nold\n<!-- xtask-bench:algebra:end -->\nmore prose\n";
        assert_eq!(
            replace_table(document, "algebra", "new\n").unwrap(),
            "# B\nprose\n<!-- xtask-bench:algebra:begin -->\nnew\n<!-- xtask-bench:algebra:end -->\nmore prose\n"
        );
        assert!(replace_table(document, "generate", "x").is_err());
    }

    #[test]
    fn progress_counts_listed_and_finished_benchmarks() {
        let listing = "algebra/relang/union: benchmark\nalgebra/peer/union: benchmark\n\nWarning\n";
        assert_eq!(count_listed(listing), 2);
        let output = [
            "algebra/relang/union    time:   [1.0 us 1.1 us 1.2 us]",
            "algebra/a_very_long_benchmark_identifier_that_criterion_puts_on_its_own_line",
            "                        time:   [3.0 ms 3.1 ms 3.2 ms]",
            "                        change: [-1.0% +0.5% +2.0%] (p = 0.50 > 0.05)",
            "Found 2 outliers among 100 measurements (2.00%)",
            "Benchmarking algebra/relang/union: Analyzing",
        ];
        assert_eq!(output.iter().filter(|line| is_finished_benchmark(line)).count(), 2);
    }

    #[test]
    fn numbers_read_like_the_document() {
        let formatted: Vec<String> =
            [999.4, 9_994.0, 99_960.0, 1_470_000.0, 2.5e9].into_iter().map(format_ns).collect();
        assert_eq!(formatted, ["999 ns", "9.99 µs", "100 µs", "1.47 ms", "2.50 s"]);
        assert_eq!(format_count(10_000_000_000), "10^10");
        assert_eq!(
            (format_count(0), format_count(100), format_count(12_000)),
            ("0".into(), "100".into(), "12000".into())
        );
    }
}
