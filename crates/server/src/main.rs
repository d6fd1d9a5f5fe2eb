//! `relang-server`: parse the configuration, start the service (or hash a token), report
//! fatal errors as one line on standard error, with a non-zero exit code and no backtrace.
//!
//! # Allocator policy
//! The server allocates through jemalloc, which gives freed pages back to the system at once
//! (`dirty_decay_ms:0,muzzy_decay_ms:0`, built in by `.cargo/config.toml`; ten seconds
//! without it), as glibc does for its large blocks: resident memory then follows live
//! memory, which the engine lane reads to decide whether jobs may wait with their tables
//! (`scheduler/cores.rs`). glibc's malloc gave back only the top of each thread's heap: after
//! a burst of 500 connections, the free pages of their buffers stayed resident below the
//! objects that outlived them, about 10 KB a connection (issue 17); its moving mmap
//! threshold also kept large freed tables, up to 32 MiB each. Pages are purged by the thread
//! that frees them, without jemalloc's background threads: with nothing to decay, they were
//! only signalled at every large free, about a thousand times a second under the load
//! test's mix, and preempted the HTTP workers to purge (issue 18).

use std::process::ExitCode;

use clap::Parser;
use server::{Application, Command, Config};

/// See the module docs.
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

#[actix_web::main]
async fn main() -> ExitCode {
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
    let (address, playground, metrics) =
        (app.local_addr(), app.playground_url(), app.metrics_url());
    tracing::info!(%address, %playground, %metrics, "relang-server listening");
    Ok(app.run().await?)
}
