//! `GET /`: the playground, a page to try every operation in a browser.
//!
//! The page, its style sheet and its script are files of this crate (`static/`), embedded in
//! the binary, so the server needs nothing beside itself to serve them. They load nothing
//! from elsewhere: the Content-Security-Policy allows only this origin, which also means
//! no inline script or style.

use actix_web::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use actix_web::{HttpResponse, web};

use crate::routes::register;

/// One embedded file: where it is served and as what.
#[derive(Clone, Copy)]
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const ASSETS: [Asset; 4] = [
    Asset::new("/", "text/html; charset=utf-8", include_str!("../../static/index.html")),
    Asset::new(
        "/playground.css",
        "text/css; charset=utf-8",
        include_str!("../../static/playground.css"),
    ),
    Asset::new(
        "/playground.js",
        "text/javascript; charset=utf-8",
        include_str!("../../static/playground.js"),
    ),
    Asset::new("/favicon.svg", "image/svg+xml", include_str!("../../static/favicon.svg")),
];

impl Asset {
    const fn new(path: &'static str, content_type: &'static str, body: &'static str) -> Asset {
        Asset { path, content_type, body }
    }
}

/// Same-origin only: the page calls `/v1` on the server that served it.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
                      connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; \
                      frame-ancestors 'none'";

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    for asset in ASSETS {
        register(cfg, asset.path, web::get().to(move || serve(asset)));
    }
}

async fn serve(asset: Asset) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(asset.content_type)
        .insert_header((CONTENT_SECURITY_POLICY, POLICY))
        .insert_header((X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((REFERRER_POLICY, "no-referrer"))
        // Revalidate, so a new binary's page is never mixed with an old cached script.
        .insert_header((CACHE_CONTROL, "no-cache"))
        .body(asset.body)
}
