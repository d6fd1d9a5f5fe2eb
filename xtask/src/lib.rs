//! The tasks behind `cargo xtask`, as a library so the tests can check what they generate.
//!
//! # Overview
//! - [`openapi`]: `docs/openapi.json` from the api-types, and `docs/api.html` from it
//!   ([`api_html`]); a test fails when the committed files are stale.
//! - [`release`]: the release tarball and its checksum under `target/dist/`.
//! - [`image`]: the container image of the release server, built by podman and checked.
//! - [`bench`](mod@bench): runs the benchmark suites and rewrites the tables of `docs/benchmarks.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

pub mod api_html;
pub mod bench;
pub mod image;
pub mod openapi;
pub mod release;

/// The workspace root (xtask sits in it).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the repo root").into()
}

/// The target directory: `CARGO_TARGET_DIR`, or `target/` in the workspace root.
pub fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

/// The cargo that runs us, so `cargo +toolchain xtask` keeps its toolchain.
pub fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned()))
}

/// Runs `command` and fails unless it succeeds.
///
/// # Errors
/// When the command cannot start or exits with a failure.
pub fn run(command: &mut Command) -> anyhow::Result<()> {
    let status = command.status().with_context(|| format!("cannot start {command:?}"))?;
    if !status.success() {
        bail!("{command:?} failed: {status}");
    }
    Ok(())
}
