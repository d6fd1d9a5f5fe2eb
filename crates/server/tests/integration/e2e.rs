//! The real binary on a free port, driven with requests as the RegexSolver clients send them.

use serde_json::json;

use crate::support::RunningServer;

#[test]
fn answers_requests_as_the_clients_send_them() {
    let server = RunningServer::start(&[]);

    // GET with a JSON content type and no body.
    let (status, body) =
        server.send("GET", "/v1/account/limits", "Content-Type: application/json\r\n", "");
    assert_eq!((status, &body["data"]["type"]), (200, &json!("accountLimits")));

    // The Python client always sends options with schemaVersion 1.
    let (status, body) = server.post(
        "/v1/analyze/length",
        r#"{"term": {"type": "regex", "value": "(abc)?d"}, "options": {"schemaVersion": 1}}"#,
    );
    assert_eq!(
        (status, body["data"].clone()),
        (200, json!({ "type": "length", "min": 1, "max": 4 }))
    );

    // Surrogate-pair escapes, as JSON encoders write astral characters.
    let (status, body) = server.post(
        "/v1/analyze/equivalent",
        r#"{"options": {"schemaVersion": 1}, "terms": [{"type": "regex", "value": "\ud83d\ude00+"}, {"type": "regex", "value": "\ud83d\ude00\ud83d\ude00*"}]}"#,
    );
    assert_eq!((status, body["data"]["value"].clone()), (200, json!(true)));

    // `"max": null` means unbounded.
    let (status, body) = server.post(
        "/v1/compute/repeat",
        r#"{"term": {"type": "regex", "value": "ab"}, "min": 1, "max": null, "options": {"schemaVersion": 1, "response": {"format": "regex"}}}"#,
    );
    assert_eq!((status, body["data"].clone()), (200, json!({ "type": "regex", "value": "(ab)+" })));

    // Errors keep the envelope over the wire too.
    let (status, body) =
        server.post("/v1/analyze/empty", r#"{"term": {"type": "regex", "value": "a(?|b)"}}"#);
    assert_eq!((status, body["errorCode"].clone()), (400, json!("RegexSyntaxError")));
}
