//! Building and running the HTTP server.

use std::net::{SocketAddr, TcpListener};

use actix_web::dev::Server;
use actix_web::{App, HttpServer, web};

use crate::config::Config;
use crate::routes;

/// A bound, not yet running server.
pub struct Application {
    server: Server,
    local_addr: SocketAddr,
}

impl Application {
    /// Binds the configured address (port 0 picks a free port) and prepares the server.
    ///
    /// # Errors
    /// When the address cannot be bound.
    pub fn build(config: &Config) -> std::io::Result<Application> {
        let listener = TcpListener::bind(config.bind)?;
        let local_addr = listener.local_addr()?;
        let server =
            HttpServer::new(|| App::new().configure(configure_app)).listen(listener)?.run();
        Ok(Application { server, local_addr })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// Serves requests until the server is stopped.
    ///
    /// # Errors
    /// When the server fails while running.
    pub async fn run(self) -> std::io::Result<()> {
        self.server.await
    }
}

/// Registers every route of the service; shared by the server and in-process tests.
pub fn configure_app(cfg: &mut web::ServiceConfig) {
    routes::health::configure(cfg);
    cfg.default_service(web::to(routes::not_found::not_found));
}
