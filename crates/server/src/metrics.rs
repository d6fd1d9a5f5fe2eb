//! Prometheus metrics: the process's recorder, every name and label the service records,
//! and the middleware that times requests.
//!
//! # Overview
//! - [`Exporter::install`]: the recorder (`metrics-exporter-prometheus`, once per process:
//!   the in-process tests build many apps and share it), the buckets of its histograms,
//!   `relang_build_info`, and the `process_*` collector; [`Exporter::render`] writes the
//!   text that `GET /metrics` serves.
//! - [`RequestTimer`]: what the request middleware (`startup.rs`) records of every request,
//!   `http_server_request_duration_seconds` and `http_server_active_requests`, under
//!   OpenTelemetry's HTTP names.
//! - one function per event that the rest of the server reports ([`budget_exhausted`],
//!   [`term_cache_lookup`], ...): the names and labels are written here only, so
//!   docs/operations.md can list them from one file.
//!
//! # Invariants
//! Every label value comes from a closed set written in this file: a method outside the
//! standard ones is `_OTHER`, a route is the template it matched (the server has no
//! parameters in its paths) or `unmatched`, a status is one the server answers. So no
//! request creates a series: never a raw path, a token, a digest or a pattern. Histograms
//! are drained into their buckets by an upkeep thread every [`UPKEEP`], so their memory
//! does not grow between scrapes, or without any.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::Duration;

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode};
use langcore::{BudgetError, Operation};
use metrics::{Counter, Gauge, Histogram, counter, gauge, histogram};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// How often histograms are folded into their buckets.
const UPKEEP: Duration = Duration::from_secs(5);

/// Seconds; OpenTelemetry's advice for HTTP durations with sub-millisecond buckets in front
/// (most answers take less than a millisecond) and the largest `--max-timeout-ms` behind.
const DURATION_BUCKETS: [f64; 17] = [
    0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1.0,
    2.5, 5.0, 30.0,
];
/// Seconds; a Redis round trip on a healthy network, up to its timeout.
const REDIS_BUCKETS: [f64; 10] =
    [0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.1, 0.5];

const REQUEST_DURATION: &str = "http_server_request_duration_seconds";
const ACTIVE_REQUESTS: &str = "http_server_active_requests";
const ENGINE_QUEUE_DEPTH: &str = "relang_engine_queue_depth";
const ENGINE_QUEUE_WAIT: &str = "relang_engine_queue_wait_seconds";
const BUDGET_EXHAUSTED: &str = "relang_budget_exhausted_total";
const TERM_CACHE: &str = "relang_term_cache_requests_total";
const ANSWER_CACHE: &str = "relang_answer_cache_requests_total";
const RATE_LIMIT: &str = "relang_rate_limit_decisions_total";
const QUOTA: &str = "relang_quota_decisions_total";
const REDIS_ERRORS: &str = "relang_redis_errors_total";
const REDIS_DURATION: &str = "relang_redis_duration_seconds";
const BUILD_INFO: &str = "relang_build_info";

/// The recorder's handle and the process collector, shared by every app of the process.
pub(crate) struct Exporter {
    handle: PrometheusHandle,
    process: metrics_process::Collector,
    /// `http_server_active_requests` by method (as [`METHODS`]), looked up once.
    active: [Gauge; METHODS.len()],
    /// The lookups of the term cache and of the answer cache, miss then hit, looked up once.
    term_cache: [Counter; 2],
    answer_cache: [Counter; 2],
}

impl Exporter {
    /// The process's exporter, installed as the global recorder on the first call.
    pub(crate) fn install() -> &'static Exporter {
        static EXPORTER: OnceLock<Exporter> = OnceLock::new();
        EXPORTER.get_or_init(|| {
            let builder = PrometheusBuilder::new();
            let builder = [REQUEST_DURATION, ENGINE_QUEUE_WAIT]
                .into_iter()
                .try_fold(builder, |builder, name| {
                    builder
                        .set_buckets_for_metric(Matcher::Full(name.to_owned()), &DURATION_BUCKETS)
                })
                .and_then(|builder| {
                    builder.set_buckets_for_metric(
                        Matcher::Full(REDIS_DURATION.to_owned()),
                        &REDIS_BUCKETS,
                    )
                })
                .expect("the bucket lists are not empty");
            let recorder = builder.build_recorder();
            let handle = recorder.handle();
            // Fails only when another recorder was installed first: none is, in this crate.
            if metrics::set_global_recorder(recorder).is_err() {
                tracing::error!("another metrics recorder is installed; /metrics stays empty");
            }
            let upkeep = handle.clone();
            let started =
                std::thread::Builder::new().name("metrics-upkeep".to_owned()).spawn(move || {
                    loop {
                        std::thread::sleep(UPKEEP);
                        upkeep.run_upkeep();
                    }
                });
            if let Err(err) = started {
                tracing::error!(%err, "the metrics upkeep thread did not start");
            }
            describe();
            let process = metrics_process::Collector::default();
            process.describe();
            let active =
                METHODS.map(|method| gauge!(ACTIVE_REQUESTS, "http_request_method" => method));
            Exporter {
                handle,
                process,
                active,
                term_cache: lookup_counters(TERM_CACHE),
                answer_cache: lookup_counters(ANSWER_CACHE),
            }
        })
    }

    /// Everything recorded, in Prometheus' text format, process metrics read now.
    pub(crate) fn render(&self) -> String {
        self.process.collect();
        self.handle.render()
    }
}

/// The help text of every metric recorded here, and the constant `relang_build_info`.
fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_histogram!(REQUEST_DURATION, Unit::Seconds, "Time to answer an HTTP request.");
    describe_gauge!(ACTIVE_REQUESTS, "HTTP requests being answered.");
    describe_gauge!(
        ENGINE_QUEUE_DEPTH,
        "Requests in the engine lane, computing or waiting for a core (at most \
         --engine-threads plus --engine-queue-depth; past it, 503 Overloaded)."
    );
    describe_histogram!(
        ENGINE_QUEUE_WAIT,
        Unit::Seconds,
        "Time a request waited in the engine lane before it first computed there."
    );
    describe_counter!(
        BUDGET_EXHAUSTED,
        "Requests answered with an exhausted budget, by limit and engine operation."
    );
    describe_counter!(TERM_CACHE, "Lookups in the cache of compiled terms, by result.");
    describe_counter!(RATE_LIMIT, "Decisions of the per-token rate limit.");
    describe_counter!(QUOTA, "Decisions of the per-token quota.");
    describe_counter!(REDIS_ERRORS, "Redis calls that failed or timed out, by operation.");
    describe_histogram!(REDIS_DURATION, Unit::Seconds, "Time of Redis calls, by operation.");
    describe_gauge!(BUILD_INFO, "Always 1; the labels name this build.");
    gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION"), "service" => "relang-server")
        .set(1.0);
}

/// One request's `http_server_request_duration_seconds` and `http_server_active_requests`:
/// started when the request reaches the app, finished when it is answered (the request
/// middleware, `startup.rs`).
pub(crate) struct RequestTimer {
    /// The index in [`METHODS`] of the request's method.
    method: usize,
    route: Rc<RouteDurations>,
    active: Active<'static>,
}

impl RequestTimer {
    /// Counts `req` as active, and finds its route now: an error answered later carries no
    /// request.
    pub(crate) fn start(req: &ServiceRequest) -> RequestTimer {
        let method = method_index(req.method());
        let route = RouteDurations::of(req);
        RequestTimer { method, route, active: Active::start(&Exporter::install().active[method]) }
    }

    /// Records that the request took `took` to be answered `res`.
    pub(crate) fn finish<B>(
        self,
        res: &Result<ServiceResponse<B>, actix_web::Error>,
        took: Duration,
    ) {
        drop(self.active);
        let status = match res {
            Ok(res) => res.status(),
            Err(err) => err.as_response_error().status_code(),
        };
        self.route.histogram(self.method, status).record(took);
    }
}

/// The duration histograms of one route, by method and status, registered on first use.
///
/// Matching a path against the route table and registering a labelled histogram cost more
/// than the rest of a cached answer's middleware together, so each HTTP worker keeps the
/// handles of the routes it has answered ([`RouteDurations::of`]), by path. Only a path
/// that is its own route template is kept: the server's routes have no parameters, so the
/// kept paths are the route table's, a closed set, never a raw path a client chose.
struct RouteDurations {
    /// The `http_route` label.
    route: String,
    /// `(method index, status, histogram)`, a few per route.
    histograms: RefCell<Vec<(usize, StatusCode, Histogram)>>,
}

/// Routes kept by one worker thread, and the route table (its address) they come from.
type RouteTable = RefCell<(usize, HashMap<String, Rc<RouteDurations>>)>;

impl RouteDurations {
    /// The histograms of the route `req` matches (`unmatched` when none).
    fn of(req: &ServiceRequest) -> Rc<RouteDurations> {
        thread_local! {
            static ROUTES: RouteTable = RefCell::default();
        }
        // Each worker builds its own app; a thread that serves another app (the in-process
        // tests) starts again.
        let table = std::ptr::from_ref(req.resource_map()) as usize;
        ROUTES.with(|routes| {
            let mut routes = routes.borrow_mut();
            if routes.0 != table {
                *routes = (table, HashMap::new());
            }
            if let Some(found) = routes.1.get(req.path()) {
                return Rc::clone(found);
            }
            let route = req.match_pattern();
            let kept = route.as_deref() == Some(req.path());
            let durations = Rc::new(RouteDurations {
                route: route.unwrap_or_else(|| "unmatched".to_owned()),
                histograms: RefCell::default(),
            });
            if kept {
                routes.1.insert(durations.route.clone(), Rc::clone(&durations));
            }
            durations
        })
    }

    /// The histogram of requests of `method` (an index in [`METHODS`]) answered `status`.
    fn histogram(&self, method: usize, status: StatusCode) -> Histogram {
        let mut histograms = self.histograms.borrow_mut();
        if let Some((_, _, histogram)) =
            histograms.iter().find(|(m, s, _)| *m == method && *s == status)
        {
            return histogram.clone();
        }
        let histogram = histogram!(
            REQUEST_DURATION,
            "http_request_method" => METHODS[method],
            "http_route" => self.route.clone(),
            "http_response_status_code" => status.as_str().to_owned(),
        );
        histograms.push((method, status, histogram.clone()));
        histogram
    }
}

/// One request counted in `http_server_active_requests` until dropped (answered, or
/// dropped with its connection).
struct Active<'a>(&'a Gauge);

impl Active<'_> {
    fn start(gauge: &Gauge) -> Active<'_> {
        gauge.increment(1.0);
        Active(gauge)
    }
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.0.decrement(1.0);
    }
}

/// OpenTelemetry's `http.request.method` values: the standard methods, then `_OTHER` for
/// the rest.
const METHODS: [&str; 10] =
    ["GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "_OTHER"];

/// The index in [`METHODS`] of `method`'s label.
fn method_index(method: &Method) -> usize {
    const KNOWN: [Method; 9] = [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::CONNECT,
        Method::OPTIONS,
        Method::TRACE,
        Method::PATCH,
    ];
    KNOWN.iter().position(|known| known == method).unwrap_or(KNOWN.len())
}

/// A request answered with an exhausted budget: its `limit` (`time`, `states`, `memory`,
/// `depth`) and the engine operation that ran out, when known.
pub(crate) fn budget_exhausted(limit: &'static str, op: Option<Operation>) {
    let operation = op.map_or("unknown", operation_label);
    counter!(BUDGET_EXHAUSTED, "limit" => limit, "operation" => operation).increment(1);
}

/// The `limit` label of a budget error.
pub(crate) fn budget_limit(err: &BudgetError) -> &'static str {
    match err {
        BudgetError::Timeout { .. } => "time",
        BudgetError::TooManyStates { .. } => "states",
        BudgetError::TooMuchMemory { .. } => "memory",
        BudgetError::TooDeep { .. } => "depth",
        BudgetError::PatternTooLong { .. } => "pattern",
        _ => "other",
    }
}

fn operation_label(op: Operation) -> &'static str {
    match op {
        Operation::Parse => "parse",
        Operation::BuildNfa => "build_nfa",
        Operation::Partition => "partition",
        Operation::Determinize => "determinize",
        Operation::Minimize => "minimize",
        Operation::Product => "product",
        Operation::Concat => "concat",
        Operation::Repeat => "repeat",
        Operation::Cardinality => "cardinality",
        Operation::EpsilonRemoval => "epsilon_removal",
        Operation::ToRegex => "to_regex",
        Operation::Generate => "generate",
        Operation::Dot => "dot",
        Operation::Match => "match",
        Operation::Derive => "derive",
        Operation::Backtracking => "backtracking",
        _ => "other",
    }
}

/// A lookup in the term cache (when it is on), a hit or a miss.
pub(crate) fn term_cache_lookup(hit: bool) {
    Exporter::install().term_cache[usize::from(hit)].increment(1);
}

/// A lookup in the answer cache (when it is on), a hit or a miss.
pub(crate) fn answer_cache_lookup(hit: bool) {
    Exporter::install().answer_cache[usize::from(hit)].increment(1);
}

/// The counters of `name` by `result`, miss then hit: a cache is looked up on every request.
fn lookup_counters(name: &'static str) -> [Counter; 2] {
    ["miss", "hit"].map(|result| counter!(name, "result" => result))
}

/// A decision of the rate limit: `allowed`, `limited`, or while its Redis is unreachable
/// `outage_allowed` / `outage_refused` (`--rate-limit-redis-outage open` / `closed`).
pub(crate) fn rate_limit_decision(decision: &'static str) {
    counter!(RATE_LIMIT, "decision" => decision).increment(1);
}

/// A decision of the quota: `allowed`, `exceeded`, or `error` (its store did not answer).
pub(crate) fn quota_decision(decision: &'static str) {
    counter!(QUOTA, "decision" => decision).increment(1);
}

/// A Redis call for `op` that took `took`, and whether it failed.
pub(crate) fn redis_call(op: &'static str, took: Duration, failed: bool) {
    histogram!(REDIS_DURATION, "op" => op).record(took);
    if failed {
        counter!(REDIS_ERRORS, "op" => op).increment(1);
    }
}

/// A request entered (`1.0`) or left (`-1.0`) the engine lane.
pub(crate) fn engine_queue_moved(delta: f64) {
    gauge!(ENGINE_QUEUE_DEPTH).increment(delta);
}

/// A request waited `took` in the engine lane before it first computed there.
pub(crate) fn engine_queue_waited(took: Duration) {
    histogram!(ENGINE_QUEUE_WAIT).record(took);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_standard_methods_are_labels() {
        let label = |method: &Method| METHODS[method_index(method)];
        assert_eq!(label(&Method::GET), "GET");
        assert_eq!(label(&Method::PATCH), "PATCH");
        assert_eq!(label(&Method::from_bytes(b"BREW").unwrap()), "_OTHER");
    }
}
