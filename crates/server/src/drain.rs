//! Draining: how a replica leaves without failing a request.
//!
//! # Overview
//! On SIGTERM (what Kubernetes and systemd send), [`stop_on_signals`]:
//! 1. marks the replica draining: `/readyz` answers 503 so load balancers stop sending it
//!    requests, and every answer closes its connection
//!    ([`close_while_draining`]), so clients stop reusing them;
//! 2. goes on serving for the drain delay (`--drain-delay-secs`), for the load balancers to
//!    notice;
//! 3. stops the servers: the listener closes, idle connections close at once, and requests
//!    in flight finish within what is left of the grace (`--shutdown-grace-secs`), after
//!    which actix drops them and the process exits.
//!
//! SIGINT (Ctrl-C) does the same without the drain delay. A second SIGTERM or SIGINT stops
//! the servers at once, cutting off requests in flight.
//!
//! # Invariants
//! Readiness fails before the listener closes, and a connection that was used during the
//! drain delay was told to close by its last answer.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use actix_web::dev::{ServerHandle, ServiceResponse};
use actix_web::http::ConnectionType;
use actix_web::web;
use tokio::signal::unix::Signal;

/// Whether the replica is draining.
#[derive(Debug, Default)]
pub(crate) struct Drain {
    draining: AtomicBool,
}

impl Drain {
    /// Whether a stop signal came.
    pub(crate) fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    fn start(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }
}

/// The signals that stop the server, registered before it logs its address.
pub(crate) struct StopSignals {
    pub(crate) terminate: Signal,
    pub(crate) interrupt: Signal,
}

/// Waits for SIGTERM or SIGINT, then drains and stops `servers` (see the module docs).
pub(crate) async fn stop_on_signals(
    mut signals: StopSignals,
    drain: web::Data<Drain>,
    delay: Duration,
    servers: Vec<ServerHandle>,
) {
    let delay = tokio::select! {
        _ = signals.terminate.recv() => delay,
        _ = signals.interrupt.recv() => Duration::ZERO,
    };
    drain.start();
    tracing::info!(
        drain_delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
        "stopping: /readyz answers 503; serving until the drain delay ends"
    );
    let again = tokio::select! {
        () = drain_then_stop(&servers, delay) => false,
        _ = signals.terminate.recv() => true,
        _ = signals.interrupt.recv() => true,
    };
    if again {
        tracing::warn!("a second stop signal: stopping now, requests in flight are cut off");
        for server in &servers {
            server.stop(false).await;
        }
    }
}

/// Serves for `delay`, then stops `servers`, letting requests in flight finish.
async fn drain_then_stop(servers: &[ServerHandle], delay: Duration) {
    actix_web::rt::time::sleep(delay).await;
    tracing::info!("stopping: the listener closes; requests in flight finish");
    for server in servers {
        server.stop(true).await;
    }
}

/// While draining, every answer closes its connection (`Connection: close`): the request
/// middleware (`startup.rs`) calls this on every answer of `drain`'s app.
pub(crate) fn close_while_draining<B>(drain: Option<&Drain>, res: &mut ServiceResponse<B>) {
    if drain.is_some_and(Drain::is_draining) {
        res.response_mut().head_mut().set_connection_type(ConnectionType::Close);
    }
}
