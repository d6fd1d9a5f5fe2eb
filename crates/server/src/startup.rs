//! Building and running the HTTP server.

use std::net::{SocketAddr, TcpListener};

use actix_web::dev::Server;
use actix_web::error::JsonPayloadError;
use actix_web::{App, HttpRequest, HttpServer, web};
use api_types::ErrorCode;
use fair_codec::KeyError;

use crate::config::Config;
use crate::error::HttpError;
use crate::routes;
use crate::state::AppState;

/// A bound, not yet running server.
pub struct Application {
    server: Server,
    local_addr: SocketAddr,
}

impl Application {
    /// Binds the configured address (port 0 picks a free port) and prepares the server.
    ///
    /// # Errors
    /// When the configuration is inconsistent or the address cannot be bound.
    pub fn build(config: &Config) -> std::io::Result<Application> {
        config.check().map_err(std::io::Error::other)?;
        let service = service(config).map_err(std::io::Error::other)?;
        if config.fair_key.is_none() {
            tracing::warn!(
                "no FAIR key configured (--fair-key / RELANG_FAIR_KEY): signing with the public \
                 development key; anyone can forge FAIR values for this server"
            );
        }
        let listener = TcpListener::bind(config.bind)?;
        let local_addr = listener.local_addr()?;
        let mut server = HttpServer::new(move || {
            App::new().wrap(tracing_actix_web::TracingLogger::default()).configure(service.clone())
        });
        if config.workers > 0 {
            server = server.workers(config.workers);
        }
        let server = server.listen(listener)?.run();
        Ok(Application { server, local_addr })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves requests until the server is stopped (SIGTERM and SIGINT stop it gracefully).
    ///
    /// # Errors
    /// When the server fails while running.
    pub async fn run(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// The service for `App::configure`: every route with its shared state. The server and the
/// in-process tests use the same.
///
/// # Errors
/// When a configured FAIR key is too short.
pub fn service(
    config: &Config,
) -> Result<impl Fn(&mut web::ServiceConfig) + Clone + Send + 'static, KeyError> {
    let state = web::Data::new(AppState::new(config)?);
    let body_limit = config.body_limit;
    Ok(move |cfg: &mut web::ServiceConfig| configure_app(cfg, state.clone(), body_limit))
}

fn configure_app(cfg: &mut web::ServiceConfig, state: web::Data<AppState>, body_limit: usize) {
    let json = web::JsonConfig::default()
        .limit(body_limit)
        .content_type_required(false)
        .error_handler(json_error);
    cfg.app_data(state).app_data(json);
    routes::health::configure(cfg);
    routes::account::configure(cfg);
    routes::analyze::configure(cfg);
    routes::compute::configure(cfg);
    routes::generate::configure(cfg);
    cfg.default_service(web::to(routes::not_found::not_found));
}

/// Bad bodies get the contract's envelope: 413 when too large, `InvalidJson` otherwise.
fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let code = match &err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ErrorCode::PayloadTooLarge
        }
        _ => ErrorCode::InvalidJson,
    };
    HttpError::new(code, err.to_string()).into()
}
