//! The documents' examples against the real app (issue 30): every curl command of README.md
//! and docs/getting-started.md is sent, its answer compared with the text printed under it,
//! and every flag, variable, package and task the README names exists.
//!
//! # The format read
//!
//! In a fenced code block, a command line starting with `curl` is an example; the line under
//! it is `# ` and the JSON answer, as `curl -s` prints it. The command is read as the shell
//! would (quotes, `\` line continuations, `;`), with the variables the block assigns
//! (`B=http://127.0.0.1:8080/v1; J='content-type: application/json'`). Only `-s`, `-H` and
//! `-d` are read, and the URL must be the server's default address: anything else, or a
//! command without an answer, fails the test rather than being skipped. Answers are compared
//! as JSON values, exactly; none of them varies with the run (FAIR values are signed with the
//! development key a default server uses, and the README says so).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use actix_web::test;
use serde_json::Value;

use crate::support::{app, config, read};

/// The documents whose examples are checked, relative to the repository root.
const DOCUMENTS: &[&str] = &["README.md", "docs/getting-started.md"];

/// Flags of other tools that the README names, with the tool: every other `--flag` it names
/// must be one of `relang-server`'s.
const OTHER_TOOLS_FLAGS: &[(&str, &str)] = &[
    ("--release", "cargo"),
    ("--workspace", "cargo"),
    ("--features", "cargo"),
    ("--open", "cargo doc"),
    ("--check", "cargo fmt"),
    ("--write", "cargo xtask bench"),
];

fn repo_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.ancestors().nth(2).expect("crates/server sits two levels down").into()
}

fn document(name: &str) -> String {
    let path = repo_root().join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

/// One HTTP example: a curl command and the answer the document shows for it.
#[derive(Debug)]
struct Example {
    /// Where the command starts, as `file:line`.
    place: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    answer: Value,
}

/// Every example of the document `name`; panics, naming the line, on a curl command it cannot
/// read or that has no answer under it.
fn examples(name: &str) -> Vec<Example> {
    let text = document(name);
    let origin = format!("http://{}", config(&[]).bind);
    let mut examples = Vec::new();
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut block: Option<&str> = None;
    let mut lines = text.lines().enumerate();
    while let Some((idx, line)) = lines.next() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            block = if block.is_some() { None } else { Some(info.trim()) };
            continue;
        }
        // Only shell blocks, and in them only curl commands and assignments: the other
        // commands are for people (and `the_readme_names_only_...` checks what they name).
        let first = line.split_whitespace().next().unwrap_or_default();
        let is_shell = block.is_some_and(|info| ["sh", "bash", "shell"].contains(&info));
        if !is_shell || !(first == "curl" || is_assignment(first)) {
            continue;
        }
        let place = format!("{name}:{}", idx + 1);
        // A command continues on the next line after a final `\`.
        let mut command = line.to_owned();
        while command.ends_with('\\') {
            command.pop();
            let (_, next) =
                lines.next().unwrap_or_else(|| panic!("{place}: a `\\` ends the block"));
            command.push_str(next);
        }
        let words = shell_words(&command, &vars).unwrap_or_else(|why| panic!("{place}: {why}"));
        for words in words.split(|word| word == ";") {
            match words.first().map(String::as_str) {
                Some("curl") => {
                    let (_, next) = lines.next().unwrap_or_else(|| panic!("{place}: no answer"));
                    let answer = next.strip_prefix("# ").unwrap_or_else(|| {
                        panic!("{place}: the line under a curl command is not `# ANSWER`")
                    });
                    let answer = serde_json::from_str(answer)
                        .unwrap_or_else(|err| panic!("{place}: the answer is not JSON: {err}"));
                    let example = curl(&words[1..], &origin, place.clone(), answer);
                    examples.push(example.unwrap_or_else(|why| panic!("{place}: {why}")));
                }
                Some(_) if words.iter().all(|word| is_assignment(word)) => {
                    for word in words {
                        let (var, value) = word.split_once('=').expect("an assignment");
                        vars.insert(var.to_owned(), value.to_owned());
                    }
                }
                _ => {}
            }
        }
    }
    assert!(block.is_none(), "{name}: a code block is not closed");
    let curl_lines = text.lines().filter(|line| line.trim_start().starts_with("curl ")).count();
    assert_eq!(examples.len(), curl_lines, "{name}: a curl command outside a code block?");
    examples
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(var, _)| {
        var.starts_with(|ch: char| ch.is_ascii_uppercase())
            && var.chars().all(|ch| ch.is_ascii_uppercase() || ch.is_ascii_digit() || ch == '_')
    })
}

/// The words of a shell command line as the shell reads them: `'...'` literal, `"..."` and
/// bare words with `$VAR` replaced, `;` a word of its own, `#` at a word's start a comment.
/// Assignments are kept as words, unexpanded names are an error.
fn shell_words(line: &str, vars: &HashMap<String, String>) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match ch {
            ' ' | '\t' => words.extend(word.take()),
            ';' => {
                words.extend(word.take());
                words.push(";".to_owned());
            }
            '#' if word.is_none() => break,
            '\'' => loop {
                match chars.next() {
                    Some('\'') => break,
                    Some(ch) => word.get_or_insert_default().push(ch),
                    None => return Err("an unclosed `'`".to_owned()),
                }
            },
            '"' => loop {
                match chars.next() {
                    Some('"') => {
                        word.get_or_insert_default();
                        break;
                    }
                    Some('$') => word.get_or_insert_default().push_str(&var(&mut chars, vars)?),
                    Some('\\' | '`') => return Err("escapes in `\"...\"` are not read".to_owned()),
                    Some(ch) => word.get_or_insert_default().push(ch),
                    None => return Err("an unclosed `\"`".to_owned()),
                }
            },
            '$' => word.get_or_insert_default().push_str(&var(&mut chars, vars)?),
            '\\' | '`' | '|' | '&' | '<' | '>' | '(' | ')' => {
                return Err(format!("`{ch}` is not read in a command"));
            }
            ch => word.get_or_insert_default().push(ch),
        }
    }
    words.extend(word);
    Ok(words)
}

/// The value of the variable whose name follows a `$`.
fn var(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    vars: &HashMap<String, String>,
) -> Result<String, String> {
    let mut name = String::new();
    while let Some(&ch) = chars.peek().filter(|ch| ch.is_ascii_alphanumeric() || **ch == '_') {
        name.push(ch);
        chars.next();
    }
    vars.get(&name).cloned().ok_or_else(|| format!("`${name}` is not assigned in the block"))
}

/// The example of the curl command with the arguments `args` and the answer `answer`.
fn curl(args: &[String], origin: &str, place: String, answer: Value) -> Result<Example, String> {
    let mut url = None;
    let mut headers = Vec::new();
    let mut body = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("`{arg}` without its value"));
        match arg.as_str() {
            "-s" | "--silent" => {}
            "-H" | "--header" => {
                let header = value()?;
                let (name, value) = header.split_once(':').ok_or("a header without `:`")?;
                headers.push((name.trim().to_owned(), value.trim().to_owned()));
            }
            "-d" | "--data" => body = Some(value()?.clone()),
            flag if flag.starts_with('-') => return Err(format!("curl's `{flag}` is not read")),
            _ if url.is_some() => return Err(format!("a second URL `{arg}`")),
            _ => url = Some(arg),
        }
    }
    let url = url.ok_or("no URL")?;
    let path = url.strip_prefix(origin).ok_or(format!("`{url}` is not under {origin}"))?;
    Ok(Example { place, path: path.to_owned(), headers, body, answer })
}

/// Sends `example` to `app` as curl would: a POST with the body as given when there is one.
async fn answer(
    app: &impl actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse,
        Error = actix_web::Error,
    >,
    example: &Example,
) -> (u16, Value) {
    let req = match &example.body {
        Some(body) => test::TestRequest::post().set_payload(body.clone()),
        None => test::TestRequest::get(),
    };
    let req = example.headers.iter().fold(req.uri(&example.path), |req, (name, value)| {
        req.insert_header((name.as_str(), value.as_str()))
    });
    read(test::call_service(app, req.to_request()).await).await
}

/// Every curl example of the documents gets, from the real app with the default
/// configuration, exactly the answer printed under it (and a status that fits it: 200 for a
/// success, 4xx for an error envelope).
#[actix_web::test]
async fn every_http_example_gets_the_answer_it_shows() {
    let app = app().await;
    let mut wrong = Vec::new();
    let mut n_examples = 0;
    for name in DOCUMENTS {
        for example in examples(name) {
            n_examples += 1;
            let (status, body) = answer(&app, &example).await;
            let status_fits = match body.get("success") {
                Some(Value::Bool(false)) => (400..500).contains(&status),
                _ => status == 200,
            };
            if body != example.answer || !status_fits {
                let place = &example.place;
                wrong.push(format!(
                    "{place}: {status}\n  shown: {}\n  real:  {body}",
                    example.answer
                ));
            }
        }
    }
    assert!(n_examples > 20, "found only {n_examples} examples");
    assert!(wrong.is_empty(), "examples whose real answer differs:\n{}", wrong.join("\n"));
}

/// The example reader refuses what it cannot read, rather than skipping it.
#[std::prelude::v1::test]
fn examples_are_read_as_the_shell_reads_them() {
    let vars = HashMap::from([("B".to_owned(), "http://h/v1".to_owned())]);
    let words = shell_words(r#"curl -s $B/x -d '{"a":"$B"}' # "$B""#, &vars);
    assert_eq!(words.unwrap_or_default(), ["curl", "-s", "http://h/v1/x", "-d", r#"{"a":"$B"}"#]);
    let words = shell_words("B=x; J='a b' ", &vars).unwrap_or_default();
    assert_eq!(words, ["B=x", ";", "J=a b"]);
    assert!(shell_words("curl $C/x", &vars).is_err());
    assert!(shell_words("curl '$B/x", &vars).is_err());
    assert!(shell_words("curl $B | jq", &vars).is_err());
    let args = |args: &[&str]| args.iter().map(|arg| (*arg).to_owned()).collect::<Vec<_>>();
    let example = |args: &[String]| curl(args, "http://h", String::new(), Value::Null);
    assert_eq!(example(&args(&["-s", "http://h/v1/x"])).map(|it| it.path), Ok("/v1/x".into()));
    assert!(example(&args(&["-X", "PUT", "http://h/v1/x"])).is_err());
    assert!(example(&args(&["http://elsewhere/v1/x"])).is_err());
    assert!(example(&args(&["-s", "http://h/v1/x", "-d"])).is_err());
}

/// Every `--flag` of the README is a flag of `relang-server` (or of a tool in
/// [`OTHER_TOOLS_FLAGS`]), every `RELANG_*` variable one of its variables, every `-p PACKAGE`
/// a package of the workspace, every `cargo xtask TASK` a task, every example it names one of
/// langcore's.
#[std::prelude::v1::test]
fn the_readme_names_only_flags_variables_and_commands_that_exist() {
    let readme = document("README.md");
    let mut command = <server::Config as clap::CommandFactory>::command();
    command.build();
    let flags: BTreeSet<String> = command
        .get_arguments()
        .filter_map(|arg| Some(format!("--{}", arg.get_long()?)))
        .chain(OTHER_TOOLS_FLAGS.iter().map(|(flag, _)| (*flag).to_owned()))
        .collect();
    let variables: BTreeSet<String> = command
        .get_arguments()
        .filter_map(|arg| Some(arg.get_env()?.to_string_lossy().into_owned()))
        .collect();
    let words: Vec<&str> = readme
        .split(|ch: char| !(ch.is_ascii_alphanumeric() || "-_".contains(ch)))
        .filter(|word| !word.is_empty())
        .collect();
    let named_flags: BTreeSet<&str> = words
        .iter()
        .copied()
        .filter(|word| word.starts_with("--") && word[2..].starts_with(char::is_alphabetic))
        .collect();
    assert!(named_flags.contains("--tokens-file"), "found {named_flags:?}");
    let unknown: Vec<_> = named_flags.iter().filter(|flag| !flags.contains(**flag)).collect();
    assert!(unknown.is_empty(), "README names flags that do not exist: {unknown:?}");
    let named_variables: BTreeSet<&str> = words
        .iter()
        .copied()
        .filter(|word| word.starts_with("RELANG_") && word.len() > 7)
        .collect();
    assert!(!named_variables.is_empty());
    let unknown: Vec<_> = named_variables.iter().filter(|var| !variables.contains(**var)).collect();
    assert!(unknown.is_empty(), "README names variables that do not exist: {unknown:?}");

    let root = repo_root();
    let after = |command: &[&str]| -> Vec<&str> {
        let windows = words.windows(command.len() + 1);
        let windows = windows.filter(|window| window.starts_with(command));
        windows.map(|window| window[command.len()]).collect()
    };
    let packages: Vec<String> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .filter_map(|entry| std::fs::read_to_string(entry.ok()?.path().join("Cargo.toml")).ok())
        .filter_map(|manifest| {
            let manifest: toml::Table = manifest.parse().ok()?;
            Some(manifest.get("package")?.get("name")?.as_str()?.to_owned())
        })
        .collect();
    let named: Vec<&str> = after(&["-p"]);
    assert!(named.contains(&"server") && named.contains(&"langcore"), "found {named:?}");
    for package in named {
        assert!(packages.iter().any(|it| it == package), "no package {package}: {packages:?}");
    }
    // `cargo xtask`'s tasks are the variants of its `Task` enum, lowercased (each is one word).
    let xtask = document("xtask/src/main.rs");
    let tasks = xtask.split("enum Task {").nth(1).expect("xtask's `enum Task`");
    let tasks = tasks.split('}').next().unwrap_or_default().to_lowercase();
    // The tasks named after `cargo xtask`, and as words in backquotes in xtask's row of the
    // tour (`openapi`, `release`, ...).
    let row = readme.lines().find(|line| line.starts_with("| `xtask` |")).expect("xtask's row");
    let in_row = row.split('`').skip(1).step_by(2);
    let in_row =
        in_row.filter(|word| *word != "xtask" && word.chars().all(|ch| ch.is_ascii_lowercase()));
    let named: BTreeSet<&str> = after(&["cargo", "xtask"]).into_iter().chain(in_row).collect();
    assert!(named.contains("doc") && named.contains("bench"), "found {named:?}");
    for task in named {
        let variant = |end: &str| format!("\n    {task}{end}");
        assert!(
            tasks.contains(&variant(",")) || tasks.contains(&variant("(")),
            "README names `cargo xtask {task}`, which xtask/src/main.rs does not have"
        );
    }
    // The programs named in the sentence about `crates/langcore/examples/`.
    let sentence = readme.split("`crates/langcore/examples/`").nth(1).expect("the examples");
    let sentence = sentence.split('.').next().unwrap_or_default();
    let named: Vec<&str> = sentence.split('`').skip(1).step_by(2).collect();
    assert!(named.len() >= 3, "found {named:?}");
    for example in named {
        let path = root.join("crates/langcore/examples").join(format!("{example}.rs"));
        assert!(path.exists(), "README names the example {example}: no {}", path.display());
    }
}
