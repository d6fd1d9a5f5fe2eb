//! `/v1/generate/strings`.

use serde_json::{Value, json};

use crate::support::{app, data, error, post, regex};

fn strings(answer: Value) -> Vec<String> {
    assert_eq!(answer["type"], "generatedStrings", "{answer}");
    assert_eq!(answer["strings"]["type"], "strings", "{answer}");
    serde_json::from_value(answer["strings"]["value"].clone()).unwrap()
}

#[actix_web::test]
async fn pages_are_consecutive_and_options_apply() {
    let app = app().await;
    let page = |offset: u64| {
        let app = &app;
        async move {
            let body = json!({ "term": regex("[a-c]{2}"), "limit": 4, "offset": offset, "options": { "schemaVersion": 1 } });
            strings(data(post(app, "/v1/generate/strings", body).await))
        }
    };
    assert_eq!(page(0).await, ["aa", "ab", "ac", "ba"]);
    assert_eq!(page(4).await, ["bb", "bc", "ca", "cb"]);
    assert_eq!(page(8).await, ["cc"]);
    assert!(page(9).await.is_empty());

    let body = json!({
        "term": regex("[a-z]+"), "limit": 3, "minLength": 2, "maxLength": 3,
        "charset": "[x-z]", "pathOrder": "interleave", "characterOrder": "shuffled", "seed": 7,
    });
    let generated = strings(data(post(&app, "/v1/generate/strings", body.clone()).await));
    assert_eq!(generated.len(), 3);
    for string in &generated {
        assert!(
            (2..=3).contains(&string.chars().count())
                && string.chars().all(|c| ('x'..='z').contains(&c)),
            "{string}"
        );
    }
    assert_eq!(
        strings(data(post(&app, "/v1/generate/strings", body).await)),
        generated,
        "same request, same answer"
    );
}

#[actix_web::test]
async fn generate_errors() {
    let app = app().await;
    for limit in [0, 101] {
        let body = json!({ "term": regex("a"), "limit": limit });
        error(
            post(&app, "/v1/generate/strings", body).await,
            400,
            "InvalidNumberOfStringsToGenerate",
        );
    }
    let body = json!({ "term": regex("a"), "limit": 1, "pathOrder": "zigzag" });
    error(post(&app, "/v1/generate/strings", body).await, 400, "BadRequest");
    let body = json!({ "term": regex("a"), "limit": 1, "charset": "a|b" });
    error(post(&app, "/v1/generate/strings", body).await, 400, "RegexSyntaxError");
    let body = json!({ "term": regex("a"), "limit": 1, "maxLength": 0 });
    error(post(&app, "/v1/generate/strings", body).await, 400, "BadRequest");
}

/// The examples: shuffled characters move every position from one string to the
/// next, and both orders shuffled give a uniform permutation of the band that pages tile.
#[actix_web::test]
async fn shuffled_orders_look_random_and_page_exactly() {
    let app = app().await;
    let generate = |body: Value| {
        let app = &app;
        async move { strings(data(post(app, "/v1/generate/strings", body).await)) }
    };
    for (length, seed) in [(8, 0), (20, 5)] {
        let body = json!({
            "term": regex(&format!("[a-z]{{{length}}}")), "limit": 100,
            "characterOrder": "shuffled", "seed": seed,
        });
        let page = generate(body).await;
        assert_eq!(page.len(), 100);
        for position in 0..length {
            let letters: std::collections::BTreeSet<u8> =
                page.iter().map(|s| s.as_bytes()[position]).collect();
            assert!(letters.len() >= 15, "position {position}: {letters:?}");
        }
    }
    let uniform = |offset: u64, limit: u64| {
        json!({
            "term": regex("[a-z]{3}"), "limit": limit, "offset": offset,
            "pathOrder": "shuffled", "characterOrder": "shuffled", "seed": 7,
        })
    };
    let mut whole = Vec::new();
    for offset in (0..17_576).step_by(100) {
        whole.extend(generate(uniform(offset, 100)).await);
    }
    assert_eq!(whole.len(), 17_576);
    let first_five = generate(uniform(0, 5)).await;
    assert_eq!(first_five, whole[..5]);
    // Not a mixed-radix count: the first strings share no prefix.
    assert!(first_five.windows(2).any(|pair| pair[0][..2] != pair[1][..2]), "{first_five:?}");
    assert_eq!(generate(uniform(9_000, 3)).await, whole[9_000..9_003]);
    whole.sort();
    whole.dedup();
    assert_eq!(whole.len(), 17_576, "every string of [a-z]{{3}} once");
}

/// `POST /v1/generate/samples`: seeded uniform draws with replacement, in the band and the
/// charset, over `regex` (any dialect) and FAIR terms; a chi-square test of uniformity on a
/// language of 12 strings; the errors of generation.
#[actix_web::test]
async fn samples_are_uniform_seeded_and_checked() {
    let app = app().await;
    let draw = |body: Value| {
        let app = &app;
        async move { strings(data(post(app, "/v1/generate/samples", body).await)) }
    };
    let body = json!({ "term": regex("[a-z]{2,}"), "count": 100, "minLength": 2, "maxLength": 3,
        "seed": 4, "charset": "[a-c]" });
    let first = draw(body.clone()).await;
    assert_eq!(first.len(), 100);
    assert!(first.iter().all(|s| (2..=3).contains(&s.len()) && s.chars().all(|c| c <= 'c')));
    assert_eq!(first, draw(body).await, "seeded");

    // 8 strings: 2 of length 1, 6 of length 2 (a lookahead in JavaScript, read exactly).
    let term = json!({ "type": "regex", "value": "(?=[ab])[abc]{1,2}", "dialect": "js" });
    let mut counts = std::collections::HashMap::<String, usize>::new();
    for seed in 0..48 {
        let body = json!({ "term": term, "count": 100, "seed": seed });
        for string in draw(body).await {
            *counts.entry(string).or_default() += 1;
        }
    }
    assert_eq!(counts.len(), 8, "{counts:?}");
    let expected = 4_800.0 / 8.0;
    let statistic: f64 = counts.values().map(|&n| (n as f64 - expected).powi(2) / expected).sum();
    // The critical value of chi-square with 7 degrees of freedom at p = 10^-4.
    assert!(statistic < 29.88, "chi-square {statistic}: {counts:?}");

    // Lengths first: lengths 1 and 2 alike, though 2 has three times the strings.
    let body = json!({ "term": regex("[ab]{1,2}"), "count": 100, "distribution": "lengths" });
    let short = draw(body).await.iter().filter(|s| s.len() == 1).count();
    assert!((30..=70).contains(&short), "{short} of 100");

    let fair = data(post(&app, "/v1/compute/determinize", json!({ "term": regex("x|y") })).await);
    let both = draw(json!({ "term": fair, "count": 10 })).await;
    assert!(both.iter().all(|s| s == "x" || s == "y"));
    assert!(draw(json!({ "term": regex("abc"), "count": 5, "maxLength": 2 })).await.is_empty());

    let path = "/v1/generate/samples";
    for count in [0, 101] {
        let body = json!({ "term": regex("a"), "count": count });
        error(post(&app, path, body).await, 400, "InvalidNumberOfStringsToGenerate");
    }
    let body = json!({ "term": regex("a"), "count": 1, "distribution": "normal" });
    error(post(&app, path, body).await, 400, "BadRequest");
    let body = json!({ "term": regex("a"), "count": 1, "maxLength": 101 });
    error(post(&app, path, body).await, 400, "BadRequest");
    error(post(&app, path, json!({ "term": regex("a") })).await, 400, "InvalidJson");
    let body = json!({ "term": regex("a"), "count": 1, "charset": "[a" });
    error(post(&app, path, body).await, 400, "RegexSyntaxError");
}
