//! `GET /metrics`: every metric of the process in Prometheus' text format
//! (`crate::metrics`), on the main address unless `--metrics-addr` gives it one of its own.

use actix_web::http::header::CONTENT_TYPE;
use actix_web::{HttpResponse, web};

use crate::metrics::Exporter;

/// Prometheus' text exposition format, version 0.0.4.
const TEXT_FORMAT: &str = "text/plain; version=0.0.4; charset=utf-8";

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/metrics", web::get().to(metrics));
}

async fn metrics() -> HttpResponse {
    let text = Exporter::install().render();
    HttpResponse::Ok().insert_header((CONTENT_TYPE, TEXT_FORMAT)).body(text)
}
