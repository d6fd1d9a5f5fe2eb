//! The playground's files as HTTP serves them: types, security headers, and a page that
//! offers every endpoint and loads nothing from elsewhere.

use actix_web::http::header;
use actix_web::test;
use api_types::{ENDPOINTS, Method};

use serde_json::json;

use crate::support::{app, data, error, post, read};

/// `GET path`: the status, the content type, the CSP header and the body as text.
async fn get(path: &str) -> (u16, String, String, String) {
    let app = app().await;
    let res = test::call_service(&app, test::TestRequest::get().uri(path).to_request()).await;
    let header =
        |name| res.headers().get(name).map(|value| value.to_str().expect("ASCII").to_owned());
    let content_type = header(header::CONTENT_TYPE).unwrap_or_default();
    let policy = header(header::CONTENT_SECURITY_POLICY).unwrap_or_default();
    let status = res.status().as_u16();
    let body = String::from_utf8(test::read_body(res).await.to_vec()).expect("UTF-8 text");
    (status, content_type, policy, body)
}

#[actix_web::test]
async fn the_page_and_its_assets_are_served_with_their_types() {
    for (path, expected_type, marker) in [
        ("/", "text/html; charset=utf-8", "<title>relang playground</title>"),
        ("/playground.css", "text/css; charset=utf-8", ".drawing"),
        ("/playground.js", "text/javascript; charset=utf-8", "function drawAutomaton"),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let (status, content_type, policy, body) = get(path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(content_type, expected_type, "{path}");
        assert!(body.contains(marker), "{path} lacks {marker}");
        assert!(policy.contains("default-src 'none'"), "{path}: {policy}");
        assert!(policy.contains("script-src 'self'"), "{path}: {policy}");
    }
}

/// The hint about Unicode-wide classes gives the counts the API answers.
#[actix_web::test]
async fn the_class_hint_counts_what_the_engine_counts() {
    let (_, _, _, html) = get("/").await;
    let text = html.split_whitespace().collect::<Vec<_>>().join(" ");
    let app = app().await;
    let hints = [("\\d", "<code>\\d</code> is every Unicode digit ("), ("\\w", "every script (")];
    for (class, before) in hints {
        let body = json!({ "term": { "type": "regex", "value": class } });
        let count = data(post(&app, "/v1/analyze/cardinality", body).await)["value"].clone();
        let (_, after) = text.split_once(before).unwrap_or_else(|| panic!("no hint for {class}"));
        let shown: String = after.chars().take_while(|c| c.is_ascii_digit() || *c == ',').collect();
        assert_eq!(shown.replace(',', ""), count.to_string(), "{class}");
    }
}

/// The page's "v1 API" link leads to the readable reference, served as generated.
#[actix_web::test]
async fn the_api_reference_is_served_under_a_policy_without_scripts() {
    let (_, _, _, html) = get("/").await;
    assert!(html.contains("<a href=\"api.html\">v1 API</a>"), "the page links the reference");
    let (status, content_type, policy, body) = get("/api.html").await;
    assert_eq!((status, content_type.as_str()), (200, "text/html; charset=utf-8"));
    assert_eq!(body, include_str!("../../../../docs/api.html"));
    assert!(policy.starts_with("default-src 'none'"), "{policy}");
    assert!(!policy.contains("script-src") && !body.contains("<script"), "{policy}");
}

#[actix_web::test]
async fn the_page_loads_only_its_own_files() {
    let (_, _, _, html) = get("/").await;
    for asset in ["href=\"playground.css\"", "src=\"playground.js\"", "href=\"favicon.svg\""] {
        assert!(html.contains(asset), "the page does not load {asset}");
    }
    for path in ["/", "/playground.css", "/playground.js"] {
        let (_, _, _, body) = get(path).await;
        // The only absolute URL is the SVG namespace, a name that is never fetched.
        let without_namespace = body.replace("\"http://www.w3.org/2000/svg\"", "");
        assert!(!without_namespace.contains("://"), "{path} names another site");
        // No inline script or style: the policy would block them.
        assert!(!body.contains("<script>") && !body.contains("style="), "{path} inlines code");
    }
}

#[actix_web::test]
async fn the_script_offers_every_endpoint_with_its_request_shape() {
    let (_, _, _, script) = get("/playground.js").await;
    let operations = ENDPOINTS.iter().filter(|endpoint| endpoint.method == Method::Post);
    let mut count = 0;
    for endpoint in operations {
        let request = endpoint.request.expect("a POST endpoint has a body");
        let row = format!("[\"{}\", \"{request}\"", endpoint.path);
        assert!(script.contains(&row), "the playground lacks {row}");
        count += 1;
    }
    assert_eq!(count, 28, "every analyze, compute and generate endpoint");
}

#[actix_web::test]
async fn other_methods_and_paths_keep_the_json_envelope() {
    let app = app().await;
    let post = test::TestRequest::post().uri("/").to_request();
    error(read(test::call_service(&app, post).await).await, 405, "MethodNotAllowed");
    let unknown = test::TestRequest::get().uri("/playground.html").to_request();
    error(read(test::call_service(&app, unknown).await).await, 404, "NotFound");
    let api = test::TestRequest::get().uri("/v1/").to_request();
    error(read(test::call_service(&app, api).await).await, 404, "NotFound");
}
