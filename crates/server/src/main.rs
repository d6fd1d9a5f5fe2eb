//! `relang-server`: parse the configuration, start the service (or hash a token), report
//! fatal errors as one line on standard error, with a non-zero exit code and no backtrace.

use std::process::ExitCode;

use clap::Parser;
use server::{Application, Command, Config};

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
    server::init_logging(config.log_format);
    let app = Application::build(&config)?;
    let (address, playground) = (app.local_addr(), app.playground_url());
    tracing::info!(%address, %playground, "relang-server listening");
    Ok(app.run().await?)
}
