//! `cargo xtask`: project automation that would otherwise live in shell scripts.

use std::process::Command;

use anyhow::{Context, bail};
use clap::Parser;

/// Project tasks.
#[derive(Parser)]
#[command(name = "cargo xtask")]
enum Task {
    /// Builds the API docs of every crate and fails on any rustdoc warning.
    Doc,
}

fn main() -> anyhow::Result<()> {
    match Task::parse() {
        Task::Doc => run(Command::new(cargo())
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings")),
    }
}

fn cargo() -> String {
    std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned())
}

fn run(command: &mut Command) -> anyhow::Result<()> {
    let status = command.status().with_context(|| format!("cannot start {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(())
}
