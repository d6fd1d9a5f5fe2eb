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
