//! `relang-server`: parse the configuration, start the service (or hash a token), report
//! fatal errors as one line on standard error, with a non-zero exit code and no backtrace.
//!
//! # Allocator policy
//! glibc's malloc raises its mmap threshold each time a large block is freed, up to 32 MiB,
//! after which blocks up to that size come from heaps it does not give back: after six DOT
//! requests the process kept 100 MB it no longer used (issue 17). A fixed threshold
//! ([`MALLOC_POLICY`]) turns that off, so large tables go back to the system when freed.
//! glibc reads it only when a process starts, from `GLIBC_TUNABLES`: the server adds it there
//! and starts itself again, once, unless the environment already sets a threshold.

use std::os::unix::process::CommandExt;
use std::process::ExitCode;

use clap::Parser;
use server::{Application, Command, Config};

/// The glibc tunable of the allocator policy (see the module docs): blocks of 256 KiB and
/// more are mapped on their own and unmapped when freed.
const MALLOC_POLICY: &str = "glibc.malloc.mmap_threshold=262144";

/// Starts this program again with [`MALLOC_POLICY`] in `GLIBC_TUNABLES`, unless a threshold
/// is set there already; returns only when it does not (or cannot) start again.
fn apply_malloc_policy() {
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    if tunables.contains("glibc.malloc.mmap_threshold") {
        return;
    }
    let tunables = match tunables.as_str() {
        "" => MALLOC_POLICY.to_owned(),
        other => format!("{other}:{MALLOC_POLICY}"),
    };
    let err = match std::env::current_exe() {
        Ok(exe) => std::process::Command::new(exe)
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", tunables)
            .exec(),
        Err(err) => err,
    };
    eprintln!("relang-server: running without the allocator policy ({MALLOC_POLICY}): {err}");
}

fn main() -> ExitCode {
    apply_malloc_policy();
    serve()
}

#[actix_web::main]
async fn serve() -> ExitCode {
    match run(Config::parse()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("relang-server: {err:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> anyhow::Result<()> {
    if config.command == Some(Command::HashToken) {
        println!("{}", server::hash_token(std::io::stdin().lock())?);
        return Ok(());
    }
    // Held until the server stops, so that its last lines are written out.
    let _log = server::init_logging(config.log_format);
    let app = Application::build(&config)?;
    let (address, playground) = (app.local_addr(), app.playground_url());
    tracing::info!(%address, %playground, "relang-server listening");
    Ok(app.run().await?)
}
