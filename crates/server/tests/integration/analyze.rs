//! `/v1/analyze/*` answers and errors.

use serde_json::json;

use crate::support::{app, app_with, config, data, error, post, regex};

#[actix_web::test]
async fn one_term_questions() {
    let app = app().await;
    let ask = |path: &'static str, pattern: &'static str| {
        let app = &app;
        async move { data(post(app, path, json!({ "term": regex(pattern) })).await) }
    };
    assert_eq!(ask("/v1/analyze/empty", "[]").await, json!({ "type": "boolean", "value": true }));
    assert_eq!(ask("/v1/analyze/empty", "a").await, json!({ "type": "boolean", "value": false }));
    assert_eq!(
        ask("/v1/analyze/empty_string", "").await,
        json!({ "type": "boolean", "value": true })
    );
    assert_eq!(
        ask("/v1/analyze/empty_string", "a?").await,
        json!({ "type": "boolean", "value": false })
    );
    assert_eq!(ask("/v1/analyze/total", ".*").await, json!({ "type": "boolean", "value": true }));
    assert_eq!(ask("/v1/analyze/total", "a*").await, json!({ "type": "boolean", "value": false }));
    assert_eq!(
        ask("/v1/analyze/length", "(abc)?d").await,
        json!({ "type": "length", "min": 1, "max": 4 })
    );
    assert_eq!(
        ask("/v1/analyze/length", "a+").await,
        json!({ "type": "length", "min": 1, "max": null })
    );
    assert_eq!(
        ask("/v1/analyze/length", "[]").await,
        json!({ "type": "length", "min": null, "max": null })
    );
    assert_eq!(
        ask("/v1/analyze/cardinality", "[ab]{3}").await,
        json!({ "type": "integer", "value": 8 })
    );
    assert_eq!(ask("/v1/analyze/cardinality", "a*").await, json!({ "type": "infinite" }));
    assert_eq!(
        ask("/v1/analyze/cardinality", ".{3}").await,
        json!({ "type": "bigInteger", "value": "1375274358112518144" })
    );
}

#[actix_web::test]
async fn relations_carry_a_witness_when_false() {
    let app = app().await;
    let ask = |path: &'static str, left: &'static str, right: &'static str| {
        let app = &app;
        async move { data(post(app, path, json!({ "terms": [regex(left), regex(right)] })).await) }
    };
    assert_eq!(
        ask("/v1/analyze/equivalent", "(a|b)*", "(a*b*)*").await,
        json!({ "type": "boolean", "value": true })
    );
    assert_eq!(
        ask("/v1/analyze/equivalent", "a*", "a+").await,
        json!({ "type": "boolean", "value": false, "witness": "" })
    );
    assert_eq!(
        ask("/v1/analyze/subset", "abc", "[a-z]+").await,
        json!({ "type": "boolean", "value": true })
    );
    assert_eq!(
        ask("/v1/analyze/subset", "[a-z]+", "[a-y]*").await,
        json!({ "type": "boolean", "value": false, "witness": "z" })
    );
}

#[actix_web::test]
async fn engine_errors_map_to_contract_codes() {
    let app = app().await;
    let body = |pattern: &str, timeout: u64| json!({ "term": regex(pattern), "options": { "execution": { "timeout": timeout } } });
    error(post(&app, "/v1/analyze/empty", body("a(?|b)", 1000)).await, 400, "RegexSyntaxError");
    error(
        post(&app, "/v1/compute/determinize", body("(a|b)*a(a|b){30}", 1)).await,
        400,
        "TimeoutExceeded",
    );
    let small = app_with(config(&["--max-states", "1000"])).await;
    let blowup = body("(a|b)*a(a|b){20}", 5000);
    error(post(&small, "/v1/compute/determinize", blowup).await, 400, "AutomatonTooManyStates");
    error(post(&app, "/v1/analyze/empty", body("a", 30_001)).await, 400, "TimeoutTooLarge");
    let terms = json!({ "terms": [regex("a")] });
    error(post(&app, "/v1/analyze/equivalent", terms).await, 400, "TooFewTerms");
    let eleven = json!({ "terms": vec![regex("a"); 11] });
    error(post(&app, "/v1/compute/union", eleven).await, 400, "TooManyTerms");
    let three = json!({ "terms": vec![regex("a"); 3] });
    error(post(&app, "/v1/compute/difference", three).await, 400, "TooManyTerms");
}

/// Pattern output is as short as our dialect allows, a pattern comes back no longer than it
/// was sent, and `options.response.dialect` asks for another engine's syntax (issue 23).
#[actix_web::test]
async fn patterns_come_back_short_and_in_the_dialect_asked_for() {
    let app = app().await;
    let pattern = |term: &str, dialect: Option<&str>| {
        let options = match dialect {
            Some(dialect) => json!({ "response": { "dialect": dialect } }),
            None => json!({}),
        };
        json!({ "term": regex(term), "options": options })
    };
    let text = |value: &str| json!({ "type": "string", "value": value });
    let ask = |body| {
        let app = &app;
        async move { data(post(app, "/v1/analyze/pattern", body).await) }
    };
    assert_eq!(ask(pattern(r"\w+@\w+", None)).await, text(r"\w+@\w+"));
    assert_eq!(ask(pattern(r"[^\s>]+", Some("rust"))).await, text(r"[^\s>]+"));
    assert_eq!(ask(pattern("(?s:.)*x", None)).await, text(".*x"));
    assert_eq!(ask(pattern("[0-9]{3}", Some("js"))).await, text(r"\d{3}"));
    // Python's `\s` also holds for the information separators U+001C to U+001F.
    assert_eq!(ask(pattern(r"[0-9]\s", Some("python"))).await, text(r"[0-9][^\S\x1C-\x1F]"));
    assert_eq!(ask(pattern("(?s:.)", Some("python"))).await, text(r"[\s\S]"));
    let literal = "0123456789".repeat(400);
    assert_eq!(ask(pattern(&literal, None)).await, text(&literal));
    error(post(&app, "/v1/analyze/pattern", pattern("a", Some("perl"))).await, 400, "BadRequest");
    // format: regex outputs of the compute endpoints follow the same option.
    let union = json!({
        "terms": [regex("[0-9]+"), regex("x")],
        "options": { "response": { "format": "regex", "dialect": "java" } },
    });
    assert_eq!(
        data(post(&app, "/v1/compute/union", union).await),
        json!({ "type": "regex", "value": r"\d+|x" })
    );
    // "Contains both", in a dialect with lookaround: a lookahead reading the whole string,
    // exact there (issue 35); the default dialect writes the product out.
    let both = |dialect: Option<&str>| {
        let mut response = json!({ "format": "regex" });
        if let Some(dialect) = dialect {
            response["dialect"] = json!(dialect);
        }
        json!({ "terms": [regex(".*ab.*"), regex(".*c[0-9]{3}.*")], "options": { "response": response } })
    };
    let looked = data(post(&app, "/v1/compute/intersection", both(Some("python"))).await);
    let looked = looked["value"].as_str().unwrap().to_owned();
    assert!(looked.starts_with("(?=") && looked.contains(r"\Z)"), "{looked}");
    let budget = langcore::Budget::default();
    let read = langcore::Language::from_regex_in(&looked, langcore::Dialect::Python, &budget);
    let product = langcore::Language::from_regex(".*ab.*")
        .unwrap()
        .intersection(&langcore::Language::from_regex(".*c[0-9]{3}.*").unwrap(), &budget)
        .unwrap();
    assert!(read.unwrap().is_equivalent(&product, &budget).unwrap(), "{looked}");
    let plain = data(post(&app, "/v1/compute/intersection", both(None)).await);
    assert!(!plain["value"].as_str().unwrap().contains("(?"), "{plain}");
}

/// `POST /v1/analyze/match`: a verdict per string, and where each one fails, in code
/// points; the strings' count is checked and budgets apply.
#[actix_web::test]
async fn match_says_where_each_string_fails() {
    let app = app().await;
    let strings = ["abcde", "dex", "ab", "", "é😀x"];
    let body = json!({ "term": regex("(abc|de){2}|é😀"), "strings": strings });
    let answer = data(post(&app, "/v1/analyze/match", body).await);
    let verdict = |matches, viable| json!({ "matches": matches, "viablePrefixLength": viable });
    let expected = [
        verdict(true, 5),
        verdict(false, 2),
        verdict(false, 2),
        verdict(false, 0),
        // Code points, not UTF-8 bytes (6) nor UTF-16 units (3).
        verdict(false, 2),
    ];
    assert_eq!(answer, json!({ "type": "matches", "results": expected }));

    let strings: Vec<String> = (0..100).map(|n| "a".repeat(n)).collect();
    let body = json!({ "term": regex("(aa)*"), "strings": strings });
    let answer = data(post(&app, "/v1/analyze/match", body).await);
    let results = answer["results"].as_array().expect("results");
    assert_eq!(results.len(), 100);
    for (n, result) in results.iter().enumerate() {
        assert_eq!(*result, verdict(n % 2 == 0, n), "{n}");
    }

    let too_many: Vec<&str> = vec!["a"; 101];
    let body = json!({ "term": regex("a"), "strings": too_many });
    error(post(&app, "/v1/analyze/match", body).await, 400, "BadRequest");
    let none: Vec<&str> = Vec::new();
    error(
        post(&app, "/v1/analyze/match", json!({ "term": regex("a"), "strings": none })).await,
        400,
        "BadRequest",
    );
    error(post(&app, "/v1/analyze/match", json!({ "term": regex("a") })).await, 400, "InvalidJson");
    let body = json!({ "term": regex("a("), "strings": ["a"] });
    error(post(&app, "/v1/analyze/match", body).await, 400, "RegexSyntaxError");
    let app = app_with(config(&["--max-states", "100"])).await;
    let body = json!({ "term": regex("(a|b)*a(a|b){10}"), "strings": ["ab"] });
    error(post(&app, "/v1/analyze/match", body).await, 400, "AutomatonTooManyStates");
}

/// `POST /v1/analyze/count_by_length`: exact counts per length, big ones as decimal text,
/// checked against brute force on a small language; the range is capped with a clear 400.
#[actix_web::test]
async fn count_by_length() {
    let app = app().await;
    let body = json!({ "term": regex("[ab]{2,}|c"), "minLength": 0, "maxLength": 3 });
    let answer = data(post(&app, "/v1/analyze/count_by_length", body).await);
    let count = |length: u64, value: u64| json!({ "length": length, "count": { "type": "integer", "value": value } });
    let expected = json!({ "type": "lengthCounts", "counts": [count(0, 0), count(1, 1), count(2, 4), count(3, 8)] });
    assert_eq!(answer, expected);

    // Brute force: every string over a, b, c up to length 4, matched by the regex crate.
    let pattern = "(ab|c)*a?";
    let oracle = regex::Regex::new(&format!("^(?:{pattern})$")).unwrap();
    let mut strings = vec![String::new()];
    let mut brute = Vec::new();
    for _ in 0..=4 {
        brute.push(strings.iter().filter(|s| oracle.is_match(s)).count() as u64);
        strings = strings.iter().flat_map(|s| ["a", "b", "c"].map(|c| format!("{s}{c}"))).collect();
    }
    let body = json!({ "term": regex(pattern), "maxLength": 4 });
    let answer = data(post(&app, "/v1/analyze/count_by_length", body).await);
    let counts: Vec<u64> = answer["counts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["count"]["value"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, brute);

    // Above 2^53 - 1, the decimal digits.
    let body = json!({ "term": regex(".*"), "minLength": 3, "maxLength": 3 });
    let answer = data(post(&app, "/v1/analyze/count_by_length", body).await);
    let big = json!({ "type": "bigInteger", "value": "1375274358112518144" });
    assert_eq!(answer["counts"], json!([{ "length": 3, "count": big }]));

    let bad = [
        json!({ "term": regex("a"), "minLength": 5, "maxLength": 4 }),
        json!({ "term": regex("a"), "minLength": 0, "maxLength": 1_000 }),
        json!({ "term": regex("a"), "maxLength": 10_001 }),
        json!({ "term": regex("a"), "minLength": -1, "maxLength": 3 }),
    ];
    for body in bad {
        error(post(&app, "/v1/analyze/count_by_length", body).await, 400, "BadRequest");
    }
    let body = json!({ "term": regex("a") });
    error(post(&app, "/v1/analyze/count_by_length", body).await, 400, "InvalidJson");
    let body = json!({ "term": regex("a("), "maxLength": 3 });
    error(post(&app, "/v1/analyze/count_by_length", body).await, 400, "RegexSyntaxError");
}
