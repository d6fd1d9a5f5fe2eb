//! The real-world corpus (`bench/real_patterns.toml`) through HTTP: every pattern the server
//! returns, for a pattern as given and for the union, intersection and difference of two,
//! is answered when sent back under the default configuration (within the body limit,
//! parsed and decided under the default budget) and denotes the same language (issue 23).

#[path = "../../../langcore/tests/integration/real_corpus.rs"]
mod real_corpus;

use actix_web::dev::{Service, ServiceResponse};
use langcore::{Budget, Dfa};
use serde_json::{Value, json};

use crate::support::{app, app_with, config, data, error, post, regex};

/// Sends `output`, the server's pattern for `term`, back: `/analyze/empty` answers, the
/// server finds it equivalent to `term`, and it denotes `expected` (langcore's canonical
/// DFA of the language). `peer_length` is regexsolver 1.1.0's best length for it.
async fn send_back(
    app: &impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    name: &str,
    term: Value,
    output: &str,
    expected: &Dfa,
    peer_length: usize,
) {
    let empty = data(post(app, "/v1/analyze/empty", json!({ "term": regex(output) })).await);
    assert_eq!(empty["value"], expected.is_empty(), "{name}: {output}");
    let same = post(app, "/v1/analyze/equivalent", json!({ "terms": [term, regex(output)] }));
    assert_eq!(data(same.await)["value"], true, "{name}: {output}");
    let back = Dfa::from_regex_with(output, &Budget::unlimited()).unwrap();
    assert!(back == *expected, "{name}: {output} denotes another language");
    assert!(output.chars().count() <= 2 * peer_length.max(1), "{name}: {output} is over 2x");
}

/// The value of a pattern answer.
fn pattern_of(answer: &Value) -> String {
    answer["value"].as_str().expect("a pattern").to_owned()
}

#[actix_web::test]
async fn every_returned_pattern_of_the_corpus_is_answered_when_sent_back() {
    let app = app().await;
    let corpus = real_corpus::load();
    let budget = Budget::unlimited();
    for entry in &corpus.pattern {
        let term = regex(&entry.pattern);
        let answer = data(post(&app, "/v1/analyze/pattern", json!({ "term": term })).await);
        let expected = langcore::Language::from_regex(&entry.pattern).unwrap();
        let expected = expected.to_dfa(&budget).unwrap();
        let output = pattern_of(&answer);
        send_back(&app, &entry.name, term, &output, expected, entry.regexsolver_length).await;
    }
    for derived in &corpus.derived {
        let name = derived.name();
        let terms = [regex(corpus.text(&derived.left)), regex(derived.right(&corpus))];
        let path = format!("/v1/compute/{}", derived.operation);
        let ask = |format: &str| {
            let options = json!({ "response": { "format": format } });
            post(&app, &path, json!({ "terms": terms, "options": options }))
        };
        let output = pattern_of(&data(ask("regex").await));
        let fair = data(ask("fair").await);
        let language = derived.language(&corpus, &budget);
        let expected = language.to_dfa(&budget).unwrap();
        send_back(&app, &name, fair, &output, expected, derived.regexsolver_length).await;
    }
}

/// A pattern over `--max-pattern-bytes` is not sent (issue 35: 15.6 MB for an intersection
/// of two log filters): 400 `ResponseTooLarge` naming the limit and `fair`, which answers.
#[actix_web::test]
async fn patterns_past_the_pattern_limit_are_refused_with_the_way_out() {
    let app = app_with(config(&["--max-pattern-bytes", "40"])).await;
    let terms = [regex(".*Kein.*Kunde.*"), regex(".*foo.*bar.*")];
    let ask = |format: &str| {
        let options = json!({ "response": { "format": format } });
        post(&app, "/v1/compute/intersection", json!({ "terms": terms, "options": options }))
    };
    let (status, body) = ask("regex").await;
    let message = body["error"].as_str().unwrap_or_default().to_owned();
    error((status, body), 400, "ResponseTooLarge");
    assert!(message.contains("40 bytes") && message.contains("\"fair\""), "{message}");
    assert_eq!(data(ask("fair").await)["type"], "fair");
    // Within the limit, the pattern comes back; past it, `/analyze/pattern` is refused too.
    let pattern = |text: &str| post(&app, "/v1/analyze/pattern", json!({ "term": regex(text) }));
    assert_eq!(pattern_of(&data(pattern("(cat|dog)+").await)), "(cat|dog)+");
    let long = "0123456789".repeat(5);
    error(pattern(&long).await, 400, "ResponseTooLarge");
}
