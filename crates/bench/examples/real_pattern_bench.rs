//! The real-pattern benchmark (issue 32): relang, regexsolver 1.1.0 and RE#
//! (`resharp-algebra` 0.7.6 with `resharp-parser`) in one process, on the patterns of
//! `bench/real_corpus.toml`, each question timed from the pattern text (parsing included).
//!
//! Questions, for each pattern p and q the next pattern of the corpus (the last one's is the
//! first): the cardinality of p, its minimal DFA, whether p ∩ q is empty, whether p ⊆ p|q
//! (true), whether p|q ⊆ p (false unless q ⊆ p), and whether p ≡ p|q. RE# answers the
//! emptiness and the inclusions (`is_empty_lang`, `subsumes`), and the equivalence as two
//! inclusions. Each engine gets 5 s and 100,000 states per question (RE# takes no limits:
//! its own give-ups count as unanswered). Each time is the best of 3 to 50 runs (more for
//! fast questions). Prints the tables of docs/benchmarks.md: per question and peer, the
//! geomean, median, p10 and p90 of the ratio peer time / relang time over the pairs both
//! answer, total times, who answers what, disagreements, and the worst cases for relang.
//!
//! Run with `cargo run --release -p relang-bench --features peer --example
//! real_pattern_bench [-- LIMIT]` (the first LIMIT patterns only; `REAL_CORPUS=FILE` reads
//! another corpus of the same form). With `filter FILE...`
//! instead, reads candidate `[[pattern]]` tables (`source`, `pattern`, as written by
//! `bench/extract/`) and prints those that all three engines read, for the corpus file.
//! With `relang QUESTION [ROUNDS]` (QUESTION from 0 to 5 in the order above), runs only
//! relang's side of one question over the whole corpus ROUNDS times, for a profiler
//! (`perf record`). With `built [unbuilt]`, times relang's inclusion of each pattern in the
//! next with the languages' DFAs built first (a server's cached terms), or not.

use std::time::{Duration, Instant};

use langcore::{Budget, Cardinality, Language};
use regexsolver::Term;
use regexsolver::execution_profile::{ExecutionProfile, ExecutionProfileBuilder};
use serde::Deserialize;

const TIMEOUT: Duration = Duration::from_secs(5);
const MAX_STATES: usize = 100_000;
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../bench/real_corpus.toml");

#[derive(Deserialize)]
struct Corpus {
    pattern: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    source: String,
    pattern: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Engine {
    Relang,
    Regexsolver,
    Resharp,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Question {
    Cardinality,
    MinimalDfa,
    Empty,
    SubsetTrue,
    SubsetFalse,
    Equivalent,
}

impl Question {
    const ALL: [Question; 6] = [
        Question::Cardinality,
        Question::MinimalDfa,
        Question::Empty,
        Question::SubsetTrue,
        Question::SubsetFalse,
        Question::Equivalent,
    ];

    fn label(self) -> &'static str {
        match self {
            Question::Cardinality => "cardinality of p",
            Question::MinimalDfa => "minimal DFA of p",
            Question::Empty => "is p ∩ q empty",
            Question::SubsetTrue => "is p ⊆ p\\|q (true)",
            Question::SubsetFalse => "is p\\|q ⊆ p",
            Question::Equivalent => "is p ≡ p\\|q",
        }
    }

    fn peers(self) -> &'static [Engine] {
        match self {
            Question::Cardinality | Question::MinimalDfa => &[Engine::Regexsolver],
            _ => &[Engine::Regexsolver, Engine::Resharp],
        }
    }
}

/// What an engine answered: a yes/no, a count (as text), or a number of states (compared
/// only between engines that count the same way, so never).
#[derive(Clone, PartialEq, Eq, Debug)]
enum Answer {
    Bool(bool),
    Count(String),
    States,
}

type Outcome = Result<Answer, String>;

/// One engine's best time on one question, and its answer.
#[derive(Clone, Debug)]
struct Timed {
    outcome: Outcome,
    time: Duration,
}

fn relang(question: Question, p: &str, q: &str) -> Outcome {
    let budget = Budget::new(TIMEOUT).with_max_states(MAX_STATES);
    let run = || -> Result<Answer, langcore::Error> {
        let p = Language::from_regex(p)?;
        let either = |p: &Language| -> Result<Language, langcore::Error> {
            p.union(&Language::from_regex(q)?, &budget)
        };
        Ok(match question {
            Question::Cardinality => Answer::Count(match p.cardinality(&budget)? {
                Cardinality::Finite(number) => number.to_string(),
                Cardinality::Infinite => "infinite".into(),
            }),
            Question::MinimalDfa => {
                p.to_dfa(&budget)?;
                Answer::States
            }
            Question::Empty => Answer::Bool(p.is_disjoint(&Language::from_regex(q)?, &budget)?),
            Question::SubsetTrue => Answer::Bool(p.is_subset(&either(&p)?, &budget)?),
            Question::SubsetFalse => Answer::Bool(either(&p)?.is_subset(&p, &budget)?),
            Question::Equivalent => Answer::Bool(p.is_equivalent(&either(&p)?, &budget)?),
        })
    };
    run().map_err(|err| short(&err.to_string()))
}

fn regexsolver(profile: &ExecutionProfile, question: Question, p: &str, q: &str) -> Outcome {
    let run = || -> Result<Answer, regexsolver::error::EngineError> {
        let p = Term::from_pattern(p)?;
        let either = |p: &Term| p.union(&[Term::from_pattern(q)?]);
        Ok(match question {
            Question::Cardinality => Answer::Count(match p.cardinality()? {
                regexsolver::cardinality::Cardinality::Integer(number) => number.to_string(),
                regexsolver::cardinality::Cardinality::BigInteger => "big".into(),
                regexsolver::cardinality::Cardinality::Infinite => "infinite".into(),
            }),
            Question::MinimalDfa => {
                p.minimize()?.to_automaton()?;
                Answer::States
            }
            Question::Empty => Answer::Bool(p.intersection(&[Term::from_pattern(q)?])?.is_empty()?),
            Question::SubsetTrue => Answer::Bool(p.subset(&either(&p)?)?),
            Question::SubsetFalse => Answer::Bool(either(&p)?.subset(&p)?),
            Question::Equivalent => Answer::Bool(p.equivalent(&either(&p)?)?),
        })
    };
    profile.run(run).map_err(|err| short(&err.to_string()))
}

/// RE#'s reading of a pattern of the common dialect: `_`, `&` and `~` are operators of
/// RE# outside classes (any character, intersection, complement), so they are escaped there;
/// `.` matches every character (`dot_matches_new_line`), as in the common dialect.
fn resharp_pattern(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let (mut escaped, mut class_depth) = (false, 0usize);
    for char in pattern.chars() {
        if escaped {
            escaped = false;
        } else if char == '\\' {
            escaped = true;
        } else if char == '[' {
            class_depth += 1;
        } else if char == ']' && class_depth > 0 {
            class_depth -= 1;
        } else if class_depth == 0 && matches!(char, '_' | '&' | '~') {
            out.push('\\');
        }
        out.push(char);
    }
    out
}

/// RE#'s flags: `.` matches every character, and with full Unicode (the default unless
/// `RESHARP_DEFAULT_UNICODE` is set in the environment) `\w` and `.` cover every scalar
/// value, as in relang and regexsolver; RE#'s default reads `.` as any byte but a line
/// feed and `\w` without its 3- and 4-byte members, a different language.
fn resharp_flags() -> resharp_parser::PatternFlags {
    resharp_parser::PatternFlags {
        dot_matches_new_line: true,
        full_unicode: std::env::var_os("RESHARP_DEFAULT_UNICODE").is_none(),
        ..Default::default()
    }
}

fn resharp(question: Question, p: &str, q: &str) -> Outcome {
    use resharp_algebra::RegexBuilder;
    let mut builder = RegexBuilder::new();
    let flags = resharp_flags();
    let (p, q) = (resharp_pattern(p), resharp_pattern(q));
    let parse = |builder: &mut RegexBuilder, text: &str| {
        resharp_parser::parse_ast_with(builder, text, &flags).map_err(|err| short(&err.to_string()))
    };
    let p = parse(&mut builder, &p)?;
    let q = parse(&mut builder, &q)?;
    let answer = match question {
        Question::Cardinality | Question::MinimalDfa => unreachable!("not asked of RE#"),
        Question::Empty => {
            let both = builder.mk_inter(p, q);
            builder.is_empty_lang(both)
        }
        Question::SubsetTrue => {
            let either = builder.mk_union(p, q);
            builder.subsumes(either, p)
        }
        Question::SubsetFalse => {
            let either = builder.mk_union(p, q);
            builder.subsumes(p, either)
        }
        Question::Equivalent => {
            let either = builder.mk_union(p, q);
            match builder.subsumes(either, p) {
                Some(true) => builder.subsumes(p, either),
                other => other,
            }
        }
    };
    answer.map(Answer::Bool).ok_or_else(|| "gave up".to_owned())
}

fn short(message: &str) -> String {
    message.chars().take(60).collect()
}

/// The best time of `run` over 3 to 50 runs: more while the runs are fast, none more once
/// one fails (an answer over budget is not retried).
fn best_of(mut run: impl FnMut() -> Outcome) -> Timed {
    let mut best = Duration::MAX;
    let mut outcome = Err(String::new());
    let started = Instant::now();
    for round in 0..50 {
        let start = Instant::now();
        outcome = run();
        best = best.min(start.elapsed());
        let spent = started.elapsed();
        if outcome.is_err() || (round >= 2 && spent > Duration::from_millis(10)) {
            break;
        }
    }
    Timed { outcome, time: best }
}

/// The three engines' times on one question for one pair.
struct Row {
    index: usize,
    question: Question,
    relang: Timed,
    regexsolver: Timed,
    resharp: Option<Timed>,
}

impl Row {
    fn peer(&self, engine: Engine) -> &Timed {
        match engine {
            Engine::Regexsolver => &self.regexsolver,
            Engine::Resharp => self.resharp.as_ref().expect("RE# asked"),
            Engine::Relang => &self.relang,
        }
    }
}

fn measure(patterns: &[Entry], profile: &ExecutionProfile) -> Vec<Row> {
    let mut rows = Vec::new();
    for (index, entry) in patterns.iter().enumerate() {
        let (p, q) = (&entry.pattern, &patterns[(index + 1) % patterns.len()].pattern);
        for question in Question::ALL {
            let relang = best_of(|| relang(question, p, q));
            let regexsolver = best_of(|| regexsolver(profile, question, p, q));
            let resharp = question
                .peers()
                .contains(&Engine::Resharp)
                .then(|| best_of(|| resharp(question, p, q)));
            rows.push(Row { index, question, relang, regexsolver, resharp });
        }
        if index % 100 == 99 {
            eprintln!("{} patterns", index + 1);
        }
    }
    rows
}

/// The `share` quantile of `sorted` (NaN, printed as such, when no pair was answered).
fn quantile(sorted: &[f64], share: f64) -> f64 {
    let last = sorted.len().saturating_sub(1);
    sorted.get((last as f64 * share).round() as usize).copied().unwrap_or(f64::NAN)
}

fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

fn report(patterns: &[Entry], rows: &[Row]) {
    println!(
        "| question | peer | pairs both answer | geomean | median | p10 | p90 | total relang / peer (ms) | relang slower on | over 1 ms and 10x slower | only relang answers | only peer answers | neither | disagree |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut worst = Vec::new();
    for question in Question::ALL {
        for &peer in question.peers() {
            let asked: Vec<&Row> = rows.iter().filter(|row| row.question == question).collect();
            let both: Vec<&&Row> = asked
                .iter()
                .filter(|row| row.relang.outcome.is_ok() && row.peer(peer).outcome.is_ok())
                .collect();
            let mut ratios: Vec<f64> = both
                .iter()
                .map(|row| {
                    row.peer(peer).time.as_secs_f64() / row.relang.time.as_secs_f64().max(1e-9)
                })
                .collect();
            ratios.sort_by(f64::total_cmp);
            let geomean = (ratios.iter().map(|ratio| ratio.ln()).sum::<f64>()
                / ratios.len().max(1) as f64)
                .exp();
            let total =
                |engine: Engine| -> f64 { both.iter().map(|row| ms(row.peer(engine).time)).sum() };
            let count = |keep: &dyn Fn(&Row) -> bool| asked.iter().filter(|row| keep(row)).count();
            let slower = count(&|row| {
                row.relang.outcome.is_ok()
                    && row.peer(peer).outcome.is_ok()
                    && row.relang.time > row.peer(peer).time
            });
            let tail = |row: &Row| {
                row.relang.outcome.is_ok()
                    && row.peer(peer).outcome.is_ok()
                    && row.relang.time > Duration::from_millis(1)
                    && row.relang.time > row.peer(peer).time * 10
            };
            let disagree = count(&|row| match (&row.relang.outcome, &row.peer(peer).outcome) {
                (Ok(Answer::Bool(ours)), Ok(Answer::Bool(theirs))) => ours != theirs,
                (Ok(Answer::Count(ours)), Ok(Answer::Count(theirs))) => {
                    ours != theirs && theirs != "big"
                }
                _ => false,
            });
            println!(
                "| {} | {:?} | {} | {:.2} | {:.2} | {:.2} | {:.2} | {:.1} / {:.1} | {} | {} | {} | {} | {} | {} |",
                question.label(),
                peer,
                both.len(),
                geomean,
                quantile(&ratios, 0.5),
                quantile(&ratios, 0.1),
                quantile(&ratios, 0.9),
                total(Engine::Relang),
                total(peer),
                slower,
                count(&tail),
                count(&|row| row.relang.outcome.is_ok() && row.peer(peer).outcome.is_err()),
                count(&|row| row.relang.outcome.is_err() && row.peer(peer).outcome.is_ok()),
                count(&|row| row.relang.outcome.is_err() && row.peer(peer).outcome.is_err()),
                disagree,
            );
            worst.extend(both.iter().map(|row| (**row, peer)));
        }
    }
    // The worst cases for relang: the smallest ratios among pairs where relang takes over
    // 0.1 ms (below that, a ratio says more about the clock than about the engines).
    let ratio = |row: &Row, peer: Engine| {
        row.peer(peer).time.as_secs_f64() / row.relang.time.as_secs_f64().max(1e-9)
    };
    worst.retain(|(row, _)| row.relang.time > Duration::from_micros(100));
    worst.sort_by(|(a, a_peer), (b, b_peer)| ratio(a, *a_peer).total_cmp(&ratio(b, *b_peer)));
    println!();
    println!("| question | peer | relang (ms) | peer (ms) | p | q |");
    println!("|---|---|---|---|---|---|");
    for (row, peer) in worst.iter().take(15) {
        let next = &patterns[(row.index + 1) % patterns.len()];
        println!(
            "| {} | {:?} | {:.2} | {:.3} | `{}` | `{}` |",
            row.question.label(),
            peer,
            ms(row.relang.time),
            ms(row.peer(*peer).time),
            cell(&patterns[row.index].pattern),
            cell(&next.pattern),
        );
    }
    println!();
    println!("relang errors:");
    for row in rows.iter().filter(|row| row.relang.outcome.is_err()) {
        println!(
            "- {} #{} `{}`: {}",
            row.question.label(),
            row.index,
            cell(&patterns[row.index].pattern),
            row.relang.outcome.as_ref().unwrap_err()
        );
    }
}

/// A pattern shortened for a table cell.
fn cell(pattern: &str) -> String {
    let short: String = pattern.chars().take(70).collect();
    let short = short.replace('|', "\\|").replace('`', "'");
    if pattern.chars().count() > 70 { format!("{short}…") } else { short }
}

/// Runs relang's side of `question` on every pair `rounds` times; prints the sum and the
/// median of each pair's best time.
fn relang_only(patterns: &[Entry], question: Question, rounds: usize) {
    let mut best = vec![Duration::MAX; patterns.len()];
    for _ in 0..rounds {
        for (index, entry) in patterns.iter().enumerate() {
            let next = &patterns[(index + 1) % patterns.len()].pattern;
            let started = Instant::now();
            std::hint::black_box(relang(question, &entry.pattern, next)).ok();
            best[index] = best[index].min(started.elapsed());
        }
    }
    let total: Duration = best.iter().sum();
    best.sort();
    println!(
        "{}: best of {rounds}: total {:.1?}, median {:.1?}, p90 {:.1?}",
        question.label(),
        total,
        best[best.len() / 2],
        best[best.len() * 9 / 10]
    );
}

/// Times relang's inclusion of each pattern in the next between languages whose minimal
/// DFAs are `built` first (as a server's cached terms are once asked about), or not (each
/// answered on the NFAs): the corpus's best of 10 rounds.
fn built_inclusions(patterns: &[Entry], built: bool) {
    let budget = Budget::default();
    let languages: Vec<Language> =
        patterns.iter().filter_map(|entry| Language::from_regex(&entry.pattern).ok()).collect();
    if built {
        for language in &languages {
            language.to_dfa(&budget).expect("the corpus's DFAs fit the default budget");
        }
    }
    let best = (0..10)
        .map(|_| {
            let started = Instant::now();
            for (p, q) in languages.iter().zip(languages.iter().cycle().skip(1)) {
                std::hint::black_box(p.is_subset(q, &budget).ok());
            }
            started.elapsed()
        })
        .min()
        .unwrap_or(Duration::ZERO);
    let n = languages.len();
    println!(
        "{} DFAs: {n} inclusions in {best:.1?}, {:.2} µs each",
        if built { "built" } else { "unbuilt" },
        best.as_secs_f64() * 1e6 / n as f64
    );
}

/// Prints the candidates of `files` that relang, regexsolver and RE# all read.
fn filter(files: &[String]) {
    let mut kept = 0;
    let mut refused = [0usize; 3];
    for file in files {
        let text = std::fs::read_to_string(file).expect("readable candidates");
        let candidates: Corpus = toml::from_str(&text).expect("candidate tables");
        for entry in candidates.pattern {
            let reads = [
                Language::from_regex(&entry.pattern).is_ok(),
                Term::from_pattern(&entry.pattern).is_ok(),
                resharp_parser::parse_ast_with(
                    &mut resharp_algebra::RegexBuilder::new(),
                    &resharp_pattern(&entry.pattern),
                    &resharp_flags(),
                )
                .is_ok(),
            ];
            for (count, read) in refused.iter_mut().zip(reads) {
                *count += usize::from(!read);
            }
            if reads.iter().all(|read| *read) {
                kept += 1;
                println!("[[pattern]]");
                println!("source = {}", toml_string(&entry.source));
                println!("pattern = {}", toml_string(&entry.pattern));
                println!();
            }
        }
    }
    eprintln!(
        "kept {kept}; refused by relang {}, regexsolver {}, RE# {}",
        refused[0], refused[1], refused[2]
    );
}

/// `text` as a TOML basic string.
fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for char in text.chars() {
        match char {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            char if char.is_control() => out.push_str(&format!("\\u{:04X}", char as u32)),
            char => out.push(char),
        }
    }
    out.push('"');
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("filter") {
        return filter(&args[1..]);
    }
    let path = std::env::var("REAL_CORPUS").unwrap_or_else(|_| CORPUS.to_owned());
    let corpus: Corpus =
        toml::from_str(&std::fs::read_to_string(&path).expect("a corpus file")).expect("tables");
    if args.first().map(String::as_str) == Some("built") {
        return built_inclusions(
            &corpus.pattern,
            args.get(1).map(String::as_str) != Some("unbuilt"),
        );
    }
    if args.first().map(String::as_str) == Some("relang") {
        let question = Question::ALL[args[1].parse::<usize>().expect("a question number")];
        let rounds = args.get(2).map_or(1, |rounds| rounds.parse().expect("a number"));
        return relang_only(&corpus.pattern, question, rounds);
    }
    let limit = args.first().map_or(usize::MAX, |limit| limit.parse().expect("a number"));
    let patterns: Vec<Entry> = corpus.pattern.into_iter().take(limit).collect();
    let profile = ExecutionProfileBuilder::new()
        .execution_timeout(TIMEOUT.as_millis() as u64)
        .max_number_of_states(MAX_STATES)
        .build();
    let rows = measure(&patterns, &profile);
    println!("{} patterns, {} questions each\n", patterns.len(), Question::ALL.len());
    report(&patterns, &rows);
}
