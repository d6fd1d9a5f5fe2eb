//! Building and running the HTTP server (and `--metrics-addr`'s), reloading the tokens file
//! on SIGHUP, draining on SIGTERM ([`crate::drain`]).

use std::future::ready;
use std::io::ErrorKind;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};
use std::time::{Duration, Instant};

use actix_http::error::DispatchError;
use actix_http::{HttpService, Request};
use actix_service::{
    IntoServiceFactory, Service, ServiceFactoryExt, apply_fn_factory, fn_service, map_config,
};
use actix_web::HttpServer;
use actix_web::body::MessageBody;
use actix_web::dev::{AppConfig, Server, ServiceRequest, ServiceResponse};
use actix_web::error::JsonPayloadError;
use actix_web::middleware::{Next, from_fn};
use actix_web::rt::net::TcpStream;
use actix_web::{App, HttpRequest, web};
use api_types::ErrorCode;
use tokio::signal::unix::{Signal, SignalKind, signal};

use crate::config::{Config, ConfigError};
use crate::connection::{Enveloped, detach_headers};
use crate::drain::{Drain, StopSignals, close_while_draining, stop_on_signals};
use crate::error::HttpError;
use crate::metrics::RequestTimer;
use crate::request_log::RequestLog;
use crate::routes;
use crate::state::AppState;
use crate::transport::body_error;

/// How long a client has to close its side after the server closed its own, as
/// `HttpServer` sets it.
const CLIENT_DISCONNECT_TIMEOUT: Duration = Duration::from_secs(1);

/// A bound, not yet running server.
pub struct Application {
    server: Server,
    local_addr: SocketAddr,
    /// `--metrics-addr`'s server and address, when it is set.
    metrics: Option<(Server, SocketAddr)>,
    state: web::Data<AppState>,
    /// Registered while building, so a SIGHUP never kills a server that logged its address.
    hangups: Signal,
    /// Registered while building too, so a SIGTERM right after the address is logged
    /// drains.
    stop_signals: StopSignals,
    drain_delay: Duration,
}

impl Application {
    /// Binds the configured address (port 0 picks a free port) and prepares the server.
    ///
    /// # Errors
    /// When the configuration is inconsistent or the address cannot be bound.
    pub fn build(config: &Config) -> std::io::Result<Application> {
        config.check().map_err(std::io::Error::other)?;
        let state = web::Data::new(AppState::new(config).map_err(std::io::Error::other)?);
        if config.fair_key.is_none() {
            tracing::warn!(
                "no FAIR key configured (--fair-key / RELANG_FAIR_KEY): signing with the public \
                 development key; anyone can forge FAIR values for this server"
            );
        }
        let listener =
            TcpListener::bind(config.bind).map_err(|err| bind_error("--bind", config.bind, err))?;
        let local_addr = listener.local_addr()?;
        let service = configure_with(state.clone(), config.body_limit);
        let head_timeout = config.client_request_timeout();
        let workers = match config.workers {
            0 => std::thread::available_parallelism().map_or(1, usize::from),
            workers => workers,
        };
        // actix bounds connections per worker; the flag bounds them for the whole server.
        let max_connections = usize::try_from(config.max_connections).unwrap_or(usize::MAX);
        // What `HttpServer::listen` builds, but for the stream: every accepted connection is
        // `Enveloped`, so actix-http's own error answers get the envelope too.
        let builder = Server::build();
        // So that idle kept-alive connections close at once when the server stops.
        let shutdown = builder.graceful_shutdown_signal();
        let (drain_delay, finish) = config.drain();
        let server = builder
            // Stop signals are ours (`drain.rs`): readiness fails before the listener closes.
            .disable_signals()
            .shutdown_timeout(finish.as_secs())
            .workers(workers)
            .max_concurrent_connections(max_connections.div_ceil(workers).max(1))
            .listen("relang", listener, move || {
                let app = App::new().wrap(from_fn(every_request)).configure(service.clone());
                let app = app.into_factory().map_err(|err| err.error_response());
                let shutdown = shutdown.clone();
                let http = HttpService::build()
                    .graceful_shutdown_signal(move || {
                        let shutdown = shutdown.clone();
                        async move { shutdown.notified().await }
                    })
                    .client_request_timeout(head_timeout)
                    .client_disconnect_timeout(CLIENT_DISCONNECT_TIMEOUT)
                    .local_addr(local_addr)
                    // The application reads no host name or address from its config.
                    .h1(apply_fn_factory(
                        map_config(app, |()| AppConfig::default()),
                        |mut req: Request, app| {
                            detach_headers(req.head_mut());
                            app.call(req)
                        },
                    ));
                fn_service(|io: TcpStream| {
                    let peer_addr = io.peer_addr().ok();
                    ready(Ok::<_, DispatchError>((Enveloped::new(io), peer_addr)))
                })
                .and_then(http)
            })?
            .run();
        let metrics = config.metrics_addr.map(metrics_server).transpose()?;
        let hangups = signal(SignalKind::hangup())?;
        let stop_signals = StopSignals {
            terminate: signal(SignalKind::terminate())?,
            interrupt: signal(SignalKind::interrupt())?,
        };
        Ok(Application { server, local_addr, metrics, state, hangups, stop_signals, drain_delay })
    }

    /// The address the server listens on.
    pub fn local_addr(&self) -> SocketAddr {
        self.local_addr
    }

    /// The playground's URL: the listening address, or the loopback address when the
    /// server listens on every interface (`0.0.0.0`, `::`), which a browser cannot open.
    pub fn playground_url(&self) -> String {
        playground_url(self.local_addr)
    }

    /// Where `GET /metrics` is served: on `--metrics-addr` when set, else beside the API.
    pub fn metrics_url(&self) -> String {
        let address = self.metrics.as_ref().map_or(self.local_addr, |(_, address)| *address);
        format!("{}metrics", playground_url(address))
    }

    /// Serves requests until the server is stopped: SIGTERM drains it, then stops it
    /// gracefully, SIGINT stops it gracefully at once (`drain.rs`); SIGHUP reloads
    /// the tokens file.
    ///
    /// # Errors
    /// When the server fails while running.
    pub async fn run(self) -> std::io::Result<()> {
        let reloader =
            actix_web::rt::spawn(reload_tokens_on_hangup(self.state.clone(), self.hangups));
        // A server starts when first polled: this one on a task of its own.
        let metrics =
            self.metrics.map(|(server, _)| (server.handle(), actix_web::rt::spawn(server)));
        let mut handles = vec![self.server.handle()];
        handles.extend(metrics.as_ref().map(|(handle, _)| handle.clone()));
        let stopper = actix_web::rt::spawn(stop_on_signals(
            self.stop_signals,
            self.state.drain.clone(),
            self.drain_delay,
            handles,
        ));
        let result = self.server.await;
        if let Some((handle, task)) = metrics {
            handle.stop(false).await;
            task.await.map_err(std::io::Error::other)??;
        }
        reloader.abort();
        stopper.abort();
        result
    }
}

/// The middleware of every request of the API: its duration and the active gauge
/// ([`RequestTimer`]), its log line and id ([`RequestLog`]), and `Connection: close` on
/// its answer while draining ([`close_while_draining`]). One layer for the three: each
/// layer boxes the future of the rest of the request, a cost a small request feels.
async fn every_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let timer = RequestTimer::start(&req);
    let log = RequestLog::start(&req);
    let drain = req.app_data::<web::Data<Drain>>().cloned();
    let mut res = next.call(req).await;
    let took = started.elapsed();
    if let Ok(res) = &mut res {
        close_while_draining(drain.as_deref().map(|drain| &**drain), res);
    }
    timer.finish(&res, took);
    log.finish(res, took)
}

/// `--metrics-addr`'s server: `GET /metrics` only, on one worker.
fn metrics_server(address: SocketAddr) -> std::io::Result<(Server, SocketAddr)> {
    let listener =
        TcpListener::bind(address).map_err(|err| bind_error("--metrics-addr", address, err))?;
    let local_addr = listener.local_addr()?;
    let server = HttpServer::new(|| App::new().configure(routes::metrics::configure))
        .workers(1)
        .disable_signals()
        .listen(listener)?
        .run();
    Ok((server, local_addr))
}

fn playground_url(mut address: SocketAddr) -> String {
    if address.ip().is_unspecified() {
        address.set_ip(match address {
            SocketAddr::V4(_) => Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => Ipv6Addr::LOCALHOST.into(),
        });
    }
    format!("http://{address}/")
}

/// The address in the error, and what to do about the common causes with `flag`.
fn bind_error(flag: &str, address: SocketAddr, err: std::io::Error) -> std::io::Error {
    let hint = match err.kind() {
        ErrorKind::AddrInUse => format!(
            ": another process listens there; choose another port with {flag} ADDRESS:PORT \
             (or RELANG_{})",
            flag.trim_start_matches("--").replace('-', "_").to_uppercase()
        ),
        ErrorKind::AddrNotAvailable => format!(
            ": this machine has no such address; choose one of its own with {flag} (0.0.0.0 \
             for every interface)"
        ),
        ErrorKind::PermissionDenied => {
            format!(
                ": ports below 1024 need privileges; choose a higher one with {flag} ADDRESS:PORT"
            )
        }
        _ => String::new(),
    };
    std::io::Error::new(err.kind(), format!("cannot listen on {address} ({err}){hint}"))
}

/// Reloads the tokens file at every SIGHUP. Requests keep being served meanwhile; a file
/// that cannot be used is logged and the previous tokens stay.
async fn reload_tokens_on_hangup(state: web::Data<AppState>, mut hangups: Signal) {
    while hangups.recv().await.is_some() {
        match state.auth.reload() {
            Ok(Some(tokens)) => tracing::info!(tokens, "SIGHUP: tokens file reloaded"),
            Ok(None) => tracing::info!("SIGHUP: no tokens file to reload (auth is off)"),
            Err(err) => tracing::error!(%err, "SIGHUP: keeping the previous tokens"),
        }
    }
}

/// The service for `App::configure`: every route with its shared state. The in-process
/// tests use it; [`Application`] does the same with a state it keeps for reloads.
///
/// # Errors
/// When a configured FAIR key is too short, or the tokens file or Redis URL is unusable.
pub fn service(
    config: &Config,
) -> Result<impl Fn(&mut web::ServiceConfig) + Clone + Send + 'static, ConfigError> {
    Ok(configure_with(web::Data::new(AppState::new(config)?), config.body_limit))
}

fn configure_with(
    state: web::Data<AppState>,
    body_limit: usize,
) -> impl Fn(&mut web::ServiceConfig) + Clone + Send + 'static {
    move |cfg: &mut web::ServiceConfig| configure_app(cfg, state.clone(), body_limit)
}

fn configure_app(cfg: &mut web::ServiceConfig, state: web::Data<AppState>, body_limit: usize) {
    let json = web::JsonConfig::default()
        .limit(body_limit)
        .content_type_required(false)
        .error_handler(json_error);
    let metrics_beside_api = state.metrics_beside_api;
    cfg.app_data(state.auth.clone()).app_data(state.drain.clone()).app_data(state).app_data(json);
    routes::health::configure(cfg);
    routes::probes::configure(cfg);
    if metrics_beside_api {
        routes::metrics::configure(cfg);
    }
    routes::account::configure(cfg);
    routes::analyze::configure(cfg);
    routes::compute::configure(cfg);
    routes::generate::configure(cfg);
    routes::playground::configure(cfg);
    cfg.default_service(web::to(routes::not_found::not_found));
}

/// Bad bodies get the contract's envelope: 413 when too large, 408 `RequestTimeout` when
/// late, `InvalidJson` otherwise (see [`body_error`]).
fn json_error(err: JsonPayloadError, _req: &HttpRequest) -> actix_web::Error {
    let code = match &err {
        JsonPayloadError::Overflow { .. } | JsonPayloadError::OverflowKnownLength { .. } => {
            ErrorCode::PayloadTooLarge
        }
        JsonPayloadError::Payload(payload) => match body_error(payload) {
            Some(err) => return err.into(),
            None => ErrorCode::InvalidJson,
        },
        _ => ErrorCode::InvalidJson,
    };
    HttpError::new(code, err.to_string()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_playground_url_is_one_a_browser_opens() {
        let url = |address: &str| playground_url(address.parse().unwrap());
        assert_eq!(url("127.0.0.1:8080"), "http://127.0.0.1:8080/");
        assert_eq!(url("0.0.0.0:9000"), "http://127.0.0.1:9000/");
        assert_eq!(url("[::]:9000"), "http://[::1]:9000/");
        assert_eq!(url("10.1.2.3:80"), "http://10.1.2.3:80/");
    }
}
