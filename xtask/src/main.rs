//! `cargo xtask`: project automation that would otherwise live in shell scripts.

use clap::Parser;
use xtask::{bench, cargo, image, openapi, release, repo_root, run};

/// Project tasks.
#[derive(Parser)]
#[command(name = "cargo xtask")]
enum Task {
    /// Builds the API docs of every crate and fails on any rustdoc warning.
    Doc,
    /// Writes docs/openapi.json from the api-types, and docs/api.html from it.
    Openapi,
    /// Builds the release server and packs it with README and licences into
    /// target/dist/relang-<version>-<target>.tar.gz, with a .sha256 beside it.
    Release,
    /// Builds the container image of the release server with podman (deploy/image/Containerfile)
    /// and checks its user, entrypoint, port, labels and size.
    Image(image::Args),
    /// Runs the benchmark suites and prints their tables (--write: into docs/benchmarks.md).
    Bench(bench::Args),
}

fn main() -> anyhow::Result<()> {
    let root = repo_root();
    match Task::parse() {
        Task::Doc => run(cargo()
            .current_dir(&root)
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings")),
        Task::Openapi => openapi::write(&root),
        Task::Release => release::release(&root),
        Task::Image(args) => image::image(&root, &args),
        Task::Bench(args) => bench::bench(&root, &args),
    }
}
