//! The real binary on a free port, driven with requests as the RegexSolver clients send them.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// `relang-server` running as a child process; killed on drop.
struct RunningServer {
    child: Child,
    addr: SocketAddr,
}

impl RunningServer {
    fn start() -> RunningServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_relang-server"))
            .args(["--bind", "127.0.0.1:0"])
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let addr = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| {
                let (_, rest) = line.split_once("relang-server listening address=")?;
                rest.split_whitespace().next()?.parse().ok()
            })
            .expect("the server logs its address");
        // Keep draining the log so the server never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        RunningServer { child, addr }
    }

    /// Sends a raw request and returns the status and the JSON body.
    fn send(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, Value) {
        let mut stream = TcpStream::connect(self.addr).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        stream.write_all(request.as_bytes()).expect("write");
        let mut response = String::new();
        stream.read_to_string(&mut response).expect("read");
        let (head, body) = response.split_once("\r\n\r\n").expect("a complete response");
        let status =
            head.split_whitespace().nth(1).and_then(|code| code.parse().ok()).expect("status");
        (status, serde_json::from_str(body).unwrap_or_else(|err| panic!("{err}: {body}")))
    }

    /// Posts `body` as the Python client does: JSON with its content type.
    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        self.send(
            "POST",
            path,
            "Content-Type: application/json\r\nAccept: application/json\r\n",
            body,
        )
    }
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn answers_requests_as_the_clients_send_them() {
    let server = RunningServer::start();

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
        server.post("/v1/analyze/empty", r#"{"term": {"type": "regex", "value": "a\\b"}}"#);
    assert_eq!((status, body["errorCode"].clone()), (400, json!("RegexSyntaxError")));
}
