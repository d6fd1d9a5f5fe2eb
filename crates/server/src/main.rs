//! `relang-server`: parse the configuration, start the service (or hash a token), report
//! fatal errors.

use std::io::IsTerminal;

use clap::Parser;
use server::{Application, Command, Config};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

/// The log filter without `RUST_LOG`: the service's own events at `info`, no line per request.
const DEFAULT_LOG_FILTER: &str = "info,tracing_actix_web=warn";

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    if config.command == Some(Command::HashToken) {
        println!("{}", server::hash_token(std::io::stdin().lock())?);
        return Ok(());
    }
    // With `RUST_LOG=info` (or `tracing_actix_web=info`), one line per request when its span
    // closes: method, path, status and latency. Not by default: at thousands of requests a
    // second behind a load balancer that logs them already, formatting and writing those
    // lines is a large share of a small request's cost (docs/benchmarks.md, issue 18).
    tracing_subscriber::fmt()
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(std::io::stdout().is_terminal())
        .with_env_filter(
            EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new(DEFAULT_LOG_FILTER)),
        )
        .init();
    let app = Application::build(&config)?;
    tracing::info!(address = %app.local_addr(), "relang-server listening");
    app.run().await?;
    Ok(())
}
