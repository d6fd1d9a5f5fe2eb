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
    let body = json!({ "term": { "type": "regex", "value": "(a+)\\1", "dialect": "python" } });
    let (status, answer) = post(&app, "/v1/analyze/empty", body).await;
    assert!(answer["error"].as_str().unwrap_or_default().contains("not regular"), "{answer}");
    error((status, answer), 400, "RegexSyntaxError");
}
