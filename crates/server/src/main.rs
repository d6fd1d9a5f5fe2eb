//! `relang-server`: parse the configuration, start the service, report fatal errors.

use clap::Parser;
use server::{Application, Config};

#[actix_web::main]
async fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let config = Config::parse();
    let app = Application::build(&config)?;
    log::info!("relang-server listening on http://{}", app.local_addr());
    app.run().await?;
    Ok(())
}
