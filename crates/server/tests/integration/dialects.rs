//! Regex terms in their dialect (issue 16): the `dialect` field, its default and errors.

use serde_json::json;

use crate::support::{app, data, error, post};

#[actix_web::test]
async fn r16_terms_are_read_in_the_dialect_they_name() {
    let app = app().await;
    let term = |pattern: &str, dialect: Option<&str>| match dialect {
        Some(dialect) => json!({ "type": "regex", "value": pattern, "dialect": dialect }),
        None => json!({ "type": "regex", "value": pattern }),
    };
    let equivalent = |left: serde_json::Value, right: serde_json::Value| {
        let app = &app;
        async move { data(post(app, "/v1/analyze/equivalent", json!({ "terms": [left, right] })).await) }
    };
    // `\d` is ASCII in JavaScript, every Unicode digit by default.
    assert_eq!(
        equivalent(term("\\d", Some("js")), term("[0-9]", None)).await["value"],
        json!(true)
    );
    let unicode = equivalent(term("\\d", Some("rust")), term("[0-9]", None)).await;
    assert_eq!(unicode["value"], json!(false), "{unicode}");
    // `$` before a final newline in Python only.
    let python = term("a$\\n", Some("python"));
    assert_eq!(equivalent(python, term("a\\n", None)).await["value"], json!(true));
    let js = term("a$\\n", Some("js"));
    assert_eq!(equivalent(js, term("[]", None)).await["value"], json!(true));
    // Lookarounds and word boundaries, in the default dialect too.
    let count = |pattern: &str| {
        let app = &app;
        let body = json!({ "term": term(pattern, None) });
        async move { data(post(app, "/v1/analyze/cardinality", body).await) }
    };
    assert_eq!(count("(?=.*[0-9])[a01]{2}").await, json!({ "type": "integer", "value": 8 }));
    assert_eq!(count("\\bab\\b|a\\Bc").await, json!({ "type": "integer", "value": 2 }));
}

#[actix_web::test]
async fn r16_unknown_dialects_and_unread_constructs_are_4xx() {
    let app = app().await;
    let body = json!({ "term": { "type": "regex", "value": "a", "dialect": "perl" } });
    error(post(&app, "/v1/analyze/empty", body).await, 400, "BadRequest");
    // The README's examples.
    let body =
        json!({ "term": { "type": "regex", "value": "(?=.*\\d)[ab\\d]{2}", "dialect": "js" } });
    assert_eq!(data(post(&app, "/v1/analyze/cardinality", body).await)["value"], json!(140));
    let body = json!({ "term": { "type": "regex", "value": "([ab]+)\\1" } });
    let (_, answer) = post(&app, "/v1/analyze/empty", body).await;
    let message = "a backreference to a group with infinitely many strings is not supported: not \
                   regular in general (at 7..9: `\\1`)";
    assert_eq!(answer["error"], json!(message), "{answer}");
    let body = json!({ "term": { "type": "regex", "value": "(a+)\\1", "dialect": "python" } });
    let (status, answer) = post(&app, "/v1/analyze/empty", body).await;
    assert!(answer["error"].as_str().unwrap_or_default().contains("not regular"), "{answer}");
    error((status, answer), 400, "RegexSyntaxError");
}

#[actix_web::test]
async fn r16_the_playground_offers_every_dialect() {
    use actix_web::test;
    let app = app().await;
    let res = test::call_service(&app, test::TestRequest::get().uri("/").to_request()).await;
    let page = String::from_utf8(test::read_body(res).await.to_vec()).expect("UTF-8 text");
    assert!(page.contains(r#"<select id="dialect">"#));
    for (name, _) in api_types::request::Dialect::NAMES {
        assert!(page.contains(&format!(r#"<option value="{name}">"#)), "no option for {name}");
    }
}

#[actix_web::test]
async fn r16_atomic_groups_are_exact_or_refused_with_the_reason() {
    let app = app().await;
    let term = |pattern: &str| json!({ "type": "regex", "value": pattern, "dialect": "java" });
    let equivalent = |left: &str, right: &str| {
        let app = &app;
        let body = json!({ "terms": [term(left), term(right)] });
        async move { data(post(app, "/v1/analyze/equivalent", body).await)["value"].clone() }
    };
    // The first branch that lets the group match wins: `abc` is not in the language.
    assert_eq!(equivalent("a(?>bc|b)c", "abcc").await, json!(true));
    // A possessive star never gives back: `a*+a` is empty, `[a-z]*+[0-9]` is `[a-z]*[0-9]`.
    let empty = data(post(&app, "/v1/analyze/empty", json!({ "term": term("a*+a") })).await);
    assert_eq!(empty["value"], json!(true), "{empty}");
    assert_eq!(equivalent("[a-z]*+[0-9]", "[a-z]*[0-9]").await, json!(true));
    let body = json!({ "term": term("(?>(|a|ab)*b)") });
    let (status, answer) = post(&app, "/v1/analyze/empty", body).await;
    let message = answer["error"].as_str().unwrap_or_default();
    assert!(message.contains("atomic group not supported yet"), "{answer}");
    error((status, answer), 400, "RegexSyntaxError");
    // JavaScript has no atomic groups.
    let body = json!({ "term": { "type": "regex", "value": "(?>a)", "dialect": "js" } });
    error(post(&app, "/v1/analyze/empty", body).await, 400, "RegexSyntaxError");
}
