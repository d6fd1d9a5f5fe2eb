//! `relang-server`: parse the configuration, start the service (or hash a token), report
//! fatal errors.

use std::io::IsTerminal;

use clap::Parser;
use server::{Application, Command, Config};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    let config = Config::parse();
    if config.command == Some(Command::HashToken) {
        println!("{}", server::hash_token(std::io::stdin().lock())?);
        return Ok(());
    }
    // One line per request when its span closes: method, path, status and latency.
    tracing_subscriber::fmt()
        .with_span_events(FmtSpan::CLOSE)
        .with_ansi(std::io::stdout().is_terminal())
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let app = Application::build(&config)?;
    tracing::info!(address = %app.local_addr(), "relang-server listening");
    app.run().await?;
    Ok(())
}
