//! Hostile bodies: over 10,000 seeded malformed requests, each a 4xx in the contract envelope.
//!
//! Every body starts as a valid request for its endpoint (`valid_body`, checked to succeed)
//! and gets exactly one defect (`Defect`), so the error code it must get is known: truncated
//! JSON, wrong types and missing fields, numbers too large or out of range, invalid UTF-8,
//! deep nesting (up to 100,000 levels), invalid patterns and mutated FAIR values. The
//! generator is a `Pcg64` with a fixed seed, so a failure names a body that replays.

use actix_web::dev::{Service, ServiceResponse};
use actix_web::test;
use api_types::{ENDPOINTS, ErrorCode, Method};
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::{Value, json};

use crate::support::{app, data, post, regex};

/// Bodies per POST endpoint: 27 endpoints give 15,120 bodies.
const BODIES_PER_ENDPOINT: usize = 560;

/// The generator's seed; change it to explore, keep it to replay.
const SEED: u64 = 9;

/// Patterns that are not in the dialect, whatever else a body holds.
const BAD_PATTERNS: [&str; 12] = [
    "(",
    "a)",
    "[z-a]",
    "a{2,1}",
    "(?|a)",
    "a(?(1)b)",
    "a\\",
    "*",
    "(?P<x",
    "[a",
    "\\p{Nope}",
    "a{99999999999}",
];

/// The one thing wrong with a body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Defect {
    Truncated,
    WrongType,
    HugeNumber,
    InvalidUtf8,
    DeepNesting,
    InvalidRegex,
    MutatedFair,
}

impl Defect {
    const ALL: [Defect; 7] = [
        Defect::Truncated,
        Defect::WrongType,
        Defect::HugeNumber,
        Defect::InvalidUtf8,
        Defect::DeepNesting,
        Defect::InvalidRegex,
        Defect::MutatedFair,
    ];
}

/// A malformed body and the error code it must get.
struct BadBody {
    bytes: Vec<u8>,
    expected: ErrorCode,
}

/// Fields a request cannot do without: removing one is a shape error.
const REQUIRED: [&str; 8] = ["term", "terms", "limit", "count", "min", "strings", "type", "value"];

/// A valid body of the request type `request` (as named in `ENDPOINTS`), with every optional
/// field present so that each can be damaged.
fn valid_body(request: &str) -> Value {
    let options = json!({
        "schemaVersion": 1,
        "response": { "format": "any", "fair": { "deterministic": true } },
        "execution": { "timeout": 2000 },
    });
    let term = regex("(a|b)*c");
    match request {
        "TermRequest" => json!({ "term": term, "options": options }),
        "TwoTermsRequest" => json!({ "terms": [term, regex("[abc]*")], "options": options }),
        "MultiTermsRequest" => {
            json!({ "terms": [term, regex("[abc]*"), regex("a*c")], "options": options })
        }
        "RepeatRequest" => json!({ "term": term, "min": 1, "max": 3, "options": options }),
        "MatchRequest" => json!({ "term": term, "strings": ["abc", ""], "options": options }),
        "BacktrackingRequest" => json!({
            "term": { "type": "regex", "value": "(a|b)*c", "dialect": "python" },
            "mode": "search", "options": options,
        }),
        // Lengths above 101, so that the out-of-range values of generation's maxLength
        // (0, 101) fall below minLength here.
        "CountByLengthRequest" => {
            json!({ "term": term, "minLength": 200, "maxLength": 300, "options": options })
        }
        "GenerateStringsRequest" => json!({
            "term": term, "limit": 5, "offset": 2, "minLength": 1, "maxLength": 10,
            "pathOrder": "interleave", "characterOrder": "shuffled", "seed": 7,
            "charset": "[a-c]", "options": options,
        }),
        "SampleRequest" => json!({
            "term": term, "count": 5, "minLength": 1, "maxLength": 10, "distribution": "lengths",
            "seed": 7, "charset": "[a-c]", "options": options,
        }),
        other => panic!("no valid body for {other}"),
    }
}

/// The JSON pointers of every value inside `value` (not the root).
fn pointers(value: &Value, prefix: &str, out: &mut Vec<String>) {
    let children: Vec<(String, &Value)> = match value {
        Value::Object(fields) => fields.iter().map(|(key, child)| (key.clone(), child)).collect(),
        Value::Array(items) => {
            items.iter().enumerate().map(|(idx, it)| (idx.to_string(), it)).collect()
        }
        _ => return,
    };
    for (key, child) in children {
        let pointer = format!("{prefix}/{key}");
        out.push(pointer.clone());
        pointers(child, &pointer, out);
    }
}

/// A value of another JSON type than `value`, never `null` (which optional fields accept)
/// and never an array for an object (serde reads a struct from a sequence).
fn wrong_type(rng: &mut Pcg64, value: &Value) -> Value {
    let candidates = match value {
        Value::String(_) => vec![json!(7), json!(true), json!([]), json!({})],
        Value::Number(_) => vec![json!("7"), json!(1.5), json!(true), json!([]), json!({})],
        Value::Bool(_) => vec![json!(1), json!("true"), json!({})],
        Value::Object(_) => vec![json!(7), json!("x"), json!(false)],
        Value::Array(_) => vec![json!({}), json!("x"), json!(3)],
        Value::Null => unreachable!("valid bodies hold no null"),
    };
    pick(rng, &candidates).clone()
}

fn pick<'a, T>(rng: &mut Pcg64, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// `body` with the value at `pointer` replaced by the raw JSON text `raw`.
fn with_raw(body: &Value, pointer: &str, raw: &str) -> Vec<u8> {
    const MARK: &str = "@@placeholder@@";
    let mut body = body.clone();
    *body.pointer_mut(pointer).expect("an existing pointer") = json!(MARK);
    serde_json::to_string(&body).unwrap().replace(&format!("\"{MARK}\""), raw).into_bytes()
}

/// A number that is not an `i64` (too large, too small, or not an integer), as JSON text.
fn huge_number(rng: &mut Pcg64) -> String {
    let digits: String = (0..rng.random_range(20..400))
        .map(|_| char::from(b'0' + rng.random_range(0..10u8)))
        .collect();
    let candidates = [
        format!("9{digits}"),
        format!("-9{digits}"),
        "1e400".to_owned(),
        "-1e400".to_owned(),
        "18446744073709551616".to_owned(),
        "9223372036854775808".to_owned(),
        format!("1.{digits}"),
        "1E+30".to_owned(),
    ];
    pick(rng, &candidates).clone()
}

/// An `i64` that the contract rejects for the integer field at `pointer`, and its code.
fn out_of_range(rng: &mut Pcg64, pointer: &str) -> (i64, ErrorCode) {
    let negative = -rng.random_range(1..=i64::MAX);
    let large = rng.random_range(i64::from(u32::MAX) + 1..=i64::MAX);
    match pointer {
        "/limit" | "/count" => {
            let value = *pick(rng, &[0, negative, 101, large]);
            (value, ErrorCode::InvalidNumberOfStringsToGenerate)
        }
        "/maxLength" => (*pick(rng, &[0, negative, 101, large]), ErrorCode::BadRequest),
        "/options/execution/timeout" => match rng.random_bool(0.5) {
            true => (large, ErrorCode::TimeoutTooLarge),
            false => (*pick(rng, &[0, negative]), ErrorCode::BadRequest),
        },
        "/options/schemaVersion" => (*pick(rng, &[0, 2, negative, large]), ErrorCode::BadRequest),
        "/min" | "/max" | "/minLength" => (*pick(rng, &[negative, large]), ErrorCode::BadRequest),
        "/offset" | "/seed" => (negative, ErrorCode::BadRequest),
        other => panic!("no range for {other}"),
    }
}

/// Invalid UTF-8 sequences: a stray byte, an overlong encoding, a surrogate, a cut sequence.
const BAD_UTF8: [&[u8]; 6] =
    [b"\xff", b"\x80", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82", b"\xf4\x90\x80\x80"];

/// JSON nested `depth` levels deep, in one of several shapes, some closed and some not.
fn deep(rng: &mut Pcg64, body: &Value, depth: usize) -> Vec<u8> {
    match rng.random_range(0..4) {
        0 => "[".repeat(depth).into_bytes(),
        1 => format!("{}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes(),
        2 => format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth)).into_bytes(),
        // An unknown field is skipped, but it is still parsed, depth limit included.
        _ => with_raw(
            &json!({ "extra": 0, "rest": body }),
            "/extra",
            &format!("{}{}", "[".repeat(depth), "]".repeat(depth)),
        ),
    }
}

/// A pattern the dialect rejects: a known bad one, or a valid one with a character inserted;
/// either way checked to fail parsing in langcore.
fn bad_pattern(rng: &mut Pcg64) -> String {
    loop {
        let pattern = if rng.random_bool(0.5) {
            (*pick(rng, &BAD_PATTERNS)).to_owned()
        } else {
            let mut chars: Vec<char> =
                pick(rng, &["(a|b)*c", "[a-z]{2,5}", "x(yz)+\\d"]).chars().collect();
            let at = rng.random_range(0..=chars.len());
            chars.insert(at, *pick(rng, &['(', ')', '[', ']', '{', '\\', '*', '?', '+']));
            chars.into_iter().collect()
        };
        if matches!(langcore::Nfa::from_regex(&pattern), Err(langcore::Error::Parse(_))) {
            return pattern;
        }
    }
}

/// `fair` with one random edit: a character changed, dropped, inserted or swapped, the end
/// cut, or a character outside URL-safe base64.
fn mutated_fair(rng: &mut Pcg64, fair: &str) -> String {
    const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut chars: Vec<char> = fair.chars().collect();
    let at = rng.random_range(0..chars.len());
    let other = char::from(*pick(rng, BASE64));
    match rng.random_range(0..6) {
        0 if chars[at] != other => chars[at] = other,
        1 => drop(chars.remove(at)),
        2 => chars.insert(at, other),
        3 if at + 1 < chars.len() && chars[at] != chars[at + 1] => chars.swap(at, at + 1),
        4 => chars.truncate(at),
        _ => chars.insert(at, *pick(rng, &['+', '/', '=', ' ', '!', 'é', '\n'])),
    }
    chars.into_iter().collect()
}

/// The body of one term with `value` (of `kind`) in place of the request's first term.
fn with_term(body: &Value, kind: &str, value: &str) -> Vec<u8> {
    let mut body = body.clone();
    let pointer = if body.get("term").is_some() { "/term" } else { "/terms/0" };
    let term = body.pointer_mut(pointer).unwrap();
    // A pattern keeps the dialect it was written in.
    let dialect = term.get("dialect").cloned().filter(|_| kind == "regex");
    *term = json!({ "type": kind, "value": value });
    if let Some(dialect) = dialect {
        term["dialect"] = dialect;
    }
    serde_json::to_vec(&body).unwrap()
}

/// Whether the endpoint asks about a pattern as an engine runs it, so that any FAIR term
/// is refused before it is decoded.
fn takes_patterns_only(path: &str) -> bool {
    path == "/v1/analyze/backtracking"
}

/// One malformed body for a request whose valid form is `body`.
fn bad_body(rng: &mut Pcg64, defect: Defect, body: &Value, fair: &str) -> BadBody {
    let text = serde_json::to_vec(body).unwrap();
    let mut fields = Vec::new();
    pointers(body, "", &mut fields);
    let (bytes, expected) = match defect {
        Defect::Truncated => {
            (text[..rng.random_range(0..text.len())].to_vec(), ErrorCode::InvalidJson)
        }
        Defect::WrongType => {
            let pointer = pick(rng, &fields);
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            let mut body = body.clone();
            match body.pointer_mut(parent).unwrap() {
                Value::Object(parent) if REQUIRED.contains(&key) && rng.random_bool(0.2) => {
                    parent.remove(key);
                }
                _ => {
                    let slot = body.pointer_mut(pointer).unwrap();
                    *slot = wrong_type(rng, slot);
                }
            }
            (serde_json::to_vec(&body).unwrap(), ErrorCode::InvalidJson)
        }
        Defect::HugeNumber => {
            let numbers: Vec<&String> =
                fields.iter().filter(|pointer| body.pointer(pointer).unwrap().is_i64()).collect();
            let pointer = *pick(rng, &numbers);
            if rng.random_bool(0.5) {
                (with_raw(body, pointer, &huge_number(rng)), ErrorCode::InvalidJson)
            } else {
                let (value, code) = out_of_range(rng, pointer);
                (with_raw(body, pointer, &value.to_string()), code)
            }
        }
        Defect::InvalidUtf8 => {
            let mut bytes = text;
            let at = rng.random_range(0..=bytes.len());
            bytes.splice(at..at, pick(rng, &BAD_UTF8).iter().copied());
            (bytes, ErrorCode::InvalidJson)
        }
        Defect::DeepNesting => {
            let depth = if rng.random_bool(0.05) { 100_000 } else { rng.random_range(129..20_000) };
            (deep(rng, body, depth), ErrorCode::InvalidJson)
        }
        Defect::InvalidRegex => {
            (with_term(body, "regex", &bad_pattern(rng)), ErrorCode::RegexSyntaxError)
        }
        Defect::MutatedFair => {
            (with_term(body, "fair", &mutated_fair(rng, fair)), ErrorCode::FairSyntaxError)
        }
    };
    BadBody { bytes, expected }
}

/// Why the response to `bad` breaks the contract, if it does.
async fn check(
    app: &impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    path: &str,
    bad: &BadBody,
) -> Option<String> {
    let req = test::TestRequest::post()
        .uri(path)
        .insert_header(("content-type", "application/json"))
        .set_payload(bad.bytes.clone())
        .to_request();
    let res = test::call_service(app, req).await;
    let status = res.status().as_u16();
    let body: Value = match serde_json::from_slice(&test::read_body(res).await) {
        Ok(body) => body,
        Err(err) => return Some(format!("{status} with a body that is not JSON: {err}")),
    };
    let code = &body["errorCode"];
    let is_envelope = body.as_object().is_some_and(|fields| fields.len() == 3)
        && body["success"] == false
        && body["error"].as_str().is_some_and(|message| !message.is_empty());
    if is_envelope && *code == json!(bad.expected) && status == bad.expected.status() {
        return None;
    }
    Some(format!("{status} {body}, expected {:?}", bad.expected))
}

#[actix_web::test]
async fn every_malformed_body_gets_a_4xx_envelope() {
    let app = app().await;
    let fair =
        data(post(&app, "/v1/compute/determinize", json!({ "term": regex("(a|b)*abb") })).await);
    let fair = fair["value"].as_str().expect("a FAIR value").to_owned();
    let mut rng = Pcg64::seed_from_u64(SEED);
    let mut sent = 0;
    let mut failures = Vec::new();
    for endpoint in ENDPOINTS.iter().filter(|endpoint| endpoint.method == Method::Post) {
        let body = valid_body(endpoint.request.expect("POST endpoints take a body"));
        data(post(&app, endpoint.path, body.clone()).await);
        for idx in 0..BODIES_PER_ENDPOINT {
            let defect = Defect::ALL[idx % Defect::ALL.len()];
            let mut bad = bad_body(&mut rng, defect, &body, &fair);
            if defect == Defect::MutatedFair && takes_patterns_only(endpoint.path) {
                bad.expected = ErrorCode::BadRequest;
            }
            if let Some(why) = check(&app, endpoint.path, &bad).await {
                let shown =
                    String::from_utf8_lossy(&bad.bytes[..bad.bytes.len().min(300)]).into_owned();
                failures
                    .push(format!("{} #{idx} {defect:?}: {why}\n  body: {shown}", endpoint.path));
            }
            sent += 1;
        }
    }
    assert!(sent >= 10_000, "only {sent} bodies");
    assert!(
        failures.is_empty(),
        "{} of {sent} malformed bodies broke the contract; the first ones:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
