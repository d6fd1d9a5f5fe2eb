//! Typed helpers: build the real app or run the real binary, send JSON, read the envelope,
//! write tokens files.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::{App, test};
use clap::Parser;
use serde_json::{Value, json};
use server::{Config, service};

/// Held by the tests that time explosive requests, so that they do not run at once and
/// compete for the cores: their bounds are about the engine, not the test runner's load.
pub(crate) async fn timed_alone() -> tokio::sync::MutexGuard<'static, ()> {
    static TIMED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    TIMED.lock().await
}

/// The server's configuration with `args` added to the defaults.
pub(crate) fn config(args: &[&str]) -> Config {
    Config::try_parse_from(["relang-server"].iter().chain(args)).expect("valid test flags")
}

/// The real application, in process, with default configuration.
pub(crate) async fn app()
-> impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error> {
    app_with(config(&[])).await
}

/// The real application, in process, with `config`.
pub(crate) async fn app_with(
    config: Config,
) -> impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error> {
    test::init_service(App::new().configure(service(&config).expect("a valid configuration"))).await
}

/// The real application with auth on: `tokens` (see [`token`]) as its tokens file, and
/// `args` added to the defaults.
pub(crate) async fn app_with_tokens(
    tokens: &[String],
    args: &[&str],
) -> impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error> + use<>
{
    let dir = TempDir::new("tokens");
    let path = dir.write("tokens.toml", &tokens.concat());
    let path = path.to_str().expect("a UTF-8 temporary path");
    app_with(config(&[&["--tokens-file", path], args].concat())).await
}

/// A `[[token]]` entry of a tokens file for the bearer token `token`: every limit is
/// generous (1,000 requests, no rate limit, the server's default compute limits) unless
/// `limits` sets it by its contract name (`maxRequestsRate`, ...).
pub(crate) fn token(token: &str, limits: &[(&str, u64)]) -> String {
    let mut fields = [
        ("maxRequestsCount", 1_000),
        ("maxRequestsRate", 0),
        ("maxTermsCount", 10),
        ("maxTimeout", 30_000),
        ("maxStatesCount", 100_000),
    ];
    for &(name, value) in limits {
        let field = fields.iter_mut().find(|field| field.0 == name);
        field.unwrap_or_else(|| panic!("no limit named {name}")).1 = value;
    }
    let digest = server::hash_token(token.as_bytes()).expect("a valid test token");
    let lines: String = fields.iter().map(|(name, value)| format!("{name} = {value}\n")).collect();
    format!("[[token]]\nlabel = \"{token}\"\ndigest = \"{digest}\"\n{lines}\n")
}

/// A request to `path` with `token` as its bearer token, if any.
pub(crate) fn request(method: &str, path: &str, token: Option<&str>) -> test::TestRequest {
    let req = match method {
        "GET" => test::TestRequest::get(),
        "POST" => test::TestRequest::post(),
        other => panic!("no test requests for {other}"),
    };
    let req = req.uri(path);
    match token {
        Some(token) => req.insert_header((header::AUTHORIZATION, format!("Bearer {token}"))),
        None => req,
    }
}

/// Sends `req` and returns the status, the `Retry-After` header and the JSON body.
pub(crate) async fn send(
    app: &impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    req: test::TestRequest,
) -> (u16, Option<String>, Value) {
    let res = test::call_service(app, req.to_request()).await;
    let retry_after = res
        .headers()
        .get(header::RETRY_AFTER)
        .map(|value| value.to_str().expect("an ASCII Retry-After").to_owned());
    let (status, body) = read(res).await;
    (status, retry_after, body)
}

/// Sends `body` to `POST path` as the caller with `token`.
pub(crate) async fn post_as(
    app: &impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    token: &str,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let (status, _, body) = send(app, request("POST", path, Some(token)).set_json(body)).await;
    (status, body)
}

/// Sends `body` to `POST path` and returns the status and the JSON body.
pub(crate) async fn post(
    app: &impl Service<actix_http::Request, Response = ServiceResponse, Error = actix_web::Error>,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let req = test::TestRequest::post().uri(path).set_json(body).to_request();
    read(test::call_service(app, req).await).await
}

/// Reads the status and JSON body of a response.
pub(crate) async fn read(res: ServiceResponse) -> (u16, Value) {
    let status = res.status().as_u16();
    let bytes = test::read_body(res).await;
    let body = serde_json::from_slice(&bytes)
        .unwrap_or_else(|err| panic!("not JSON ({err}): {}", String::from_utf8_lossy(&bytes)));
    (status, body)
}

/// A regex term.
pub(crate) fn regex(pattern: &str) -> Value {
    json!({ "type": "regex", "value": pattern })
}

/// Asserts a success envelope and returns its `data`.
#[track_caller]
pub(crate) fn data((status, body): (u16, Value)) -> Value {
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["success"], true, "{body}");
    body["data"].clone()
}

/// Asserts an error envelope with `status` and `code`.
#[track_caller]
pub(crate) fn error((status, body): (u16, Value), expected_status: u16, code: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["errorCode"], code, "{body}");
    assert!(body["error"].as_str().is_some_and(|message| !message.is_empty()), "{body}");
}

/// Runs `command` to set up a test that needs an outside tool; `None` when it cannot start
/// or fails, after [`skip`] says why.
pub(crate) fn run_or_skip(what: &str, command: &mut Command) -> Option<Output> {
    match command.output() {
        Ok(output) if output.status.success() => Some(output),
        Ok(output) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let tail: Vec<&str> = stderr.lines().rev().take(5).collect();
            skip(&format!("{what} failed ({}): {}", output.status, tail.join(" | ")));
            None
        }
        Err(err) => {
            skip(&format!("{what} could not run: {err}"));
            None
        }
    }
}

/// The Python of a venv under `CARGO_TARGET_TMPDIR` with `package==version` from PyPI,
/// reused when it has it, made again otherwise; `None` (printed, a failure under CI) when
/// Python, venv or PyPI is out of reach.
pub(crate) fn pypi_venv(package: &str, version: &str) -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{package}-{version}-venv"));
    let python = venv.join("bin/python");
    let check =
        format!("import importlib.metadata as m; assert m.version('{package}') == '{version}'");
    let installed = Command::new(&python)
        .args(["-c", &check])
        .output()
        .is_ok_and(|output| output.status.success());
    if installed {
        return Some(python);
    }
    let _ = std::fs::remove_dir_all(&venv);
    let mut create = Command::new("python3");
    create.args(["-m", "venv"]).arg(&venv);
    run_or_skip("python3 -m venv (needs python3 and python3-venv)", &mut create)?;
    let requirement = format!("{package}=={version}");
    let mut install = Command::new(venv.join("bin/pip"));
    install.args(["install", "--quiet", "--disable-pip-version-check"]).args([
        "--retries",
        "1",
        "--timeout",
        "20",
        &requirement,
    ]);
    run_or_skip(&format!("pip install {requirement} (needs PyPI)"), &mut install)?;
    Some(python)
}

/// Whether this run is CI's (`CI=true`, as CI services and `.ci/run` set it), where a test
/// may not skip.
pub(crate) fn is_ci() -> bool {
    is_ci_value(std::env::var("CI").ok().as_deref())
}

fn is_ci_value(value: Option<&str>) -> bool {
    matches!(value, Some("true" | "1"))
}

/// Says that the running test cannot do its work because a tool is missing (`why`), then
/// returns so the test can end early. Under `CI=true` it fails the test instead. Elsewhere
/// the `SKIPPED` line goes straight to the terminal, past the test harness's capture, so it
/// shows in the output a person reads and not only with `--nocapture`.
#[track_caller]
pub(crate) fn skip(why: &str) {
    skip_unless(is_ci(), why);
}

#[track_caller]
fn skip_unless(ci: bool, why: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(!ci, "{test} cannot run under CI=true: {why}");
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// A skip is a failure in CI, and only there. (`test` here is actix's, hence the path.)
#[std::prelude::v1::test]
fn a_skip_fails_only_under_ci() {
    assert!(is_ci_value(Some("true")) && is_ci_value(Some("1")));
    assert!(!is_ci_value(None) && !is_ci_value(Some("false")) && !is_ci_value(Some("")));
    let failed = std::panic::catch_unwind(|| skip_unless(true, "a tool is missing"));
    assert!(failed.is_err(), "under CI a skip fails the test");
}

/// A directory of its own under the system's temporary directory; removed on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(purpose: &str) -> TempDir {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let idx = NEXT.fetch_add(1, Ordering::Relaxed);
        let name = format!("relang-{purpose}-{}-{idx}", std::process::id());
        let path = std::env::temp_dir().join(name);
        std::fs::create_dir_all(&path).expect("a temporary directory");
        TempDir(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `text` to the file `name` in the directory (replacing it whole, as an editor
    /// does: written aside, then renamed over).
    pub(crate) fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        let aside = self.0.join(format!(".{name}.new"));
        std::fs::write(&aside, text).expect("a writable temporary file");
        std::fs::rename(&aside, &path).expect("rename in a temporary directory");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `relang-server` running as a child process; killed on drop.
pub(crate) struct RunningServer {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

impl RunningServer {
    /// Starts the binary on a free port with `args` and waits until it listens.
    pub(crate) fn start(args: &[&str]) -> RunningServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_relang-server"))
            .args(["--bind", "127.0.0.1:0"])
            .args(args)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server binary starts");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut lines = BufReader::new(stdout).lines();
        let (addr, start_up) = lines
            .by_ref()
            .map_while(Result::ok)
            .find_map(|line| Some((listening_address(&line)?, line)))
            .expect("the server logs its address");
        // Keep reading the log, so the server never blocks on a full pipe and tests can
        // look at it.
        let log = Arc::new(Mutex::new(vec![start_up]));
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                sink.lock().expect("log lock").push(line);
            }
        });
        RunningServer { child, addr, log }
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends SIGTERM and returns how long the server took to exit (at most 20 s, then it
    /// is killed and the test fails).
    pub(crate) fn terminate(&mut self) -> Duration {
        let started = std::time::Instant::now();
        let status = Command::new("kill").args(["-TERM", &self.pid().to_string()]).status();
        assert!(status.expect("kill runs").success());
        while self.child.try_wait().expect("the server's status").is_none() {
            assert!(started.elapsed() < Duration::from_secs(20), "the server did not stop");
            std::thread::sleep(Duration::from_millis(20));
        }
        started.elapsed()
    }

    /// The log lines printed since the server listened that contain `needle`.
    pub(crate) fn log_lines(&self, needle: &str) -> Vec<String> {
        let log = self.log.lock().expect("log lock");
        log.iter().filter(|line| line.contains(needle)).cloned().collect()
    }

    /// The log lines that contain `needle`, waiting up to 10 s for the first one.
    pub(crate) fn wait_for_log(&self, needle: &str) -> Vec<String> {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let lines = self.log_lines(needle);
            if !lines.is_empty() {
                return lines;
            }
            assert!(std::time::Instant::now() < deadline, "no {needle:?} in the log");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends a raw request and returns the status and the JSON body.
    pub(crate) fn send(&self, method: &str, path: &str, headers: &str, body: &str) -> (u16, Value) {
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

    /// `GET path` on a connection of its own: the whole answer, whatever its body.
    pub(crate) fn get(&self, path: &str) -> Answer {
        let mut connection = KeptAlive::connect(self.addr).expect("connect");
        connection.exchange("GET", path, "", "").expect("an answer")
    }

    /// Where the server serves `/metrics`, as its start-up line says.
    pub(crate) fn metrics_addr(&self) -> SocketAddr {
        let line = self.log_lines("relang-server listening").remove(0);
        let (_, rest) = line.split_once("metrics=\"http://").expect("a metrics URL");
        rest.split('/').next().and_then(|address| address.parse().ok()).expect("an address")
    }

    /// Posts `body` as the Python client does: JSON with its content type.
    pub(crate) fn post(&self, path: &str, body: &str) -> (u16, Value) {
        self.post_as(None, path, body)
    }

    /// Posts `body` as the Python client does, with `token` as the bearer token, if any.
    pub(crate) fn post_as(&self, token: Option<&str>, path: &str, body: &str) -> (u16, Value) {
        let auth = token.map(|token| format!("Authorization: Bearer {token}\r\n"));
        let headers = format!(
            "Content-Type: application/json\r\nAccept: application/json\r\n{}",
            auth.unwrap_or_default()
        );
        self.send("POST", path, &headers, body)
    }
}

/// An answer read off a connection: status, headers (names in lower case) and body.
#[derive(Debug)]
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Answer {
    /// The value of the header `name` (lower case), if the answer has it.
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(key, _)| key == name).map(|(_, value)| value.as_str())
    }

    /// Whether the server closes the connection after this answer.
    pub(crate) fn closes(&self) -> bool {
        self.header("connection").is_some_and(|value| value.eq_ignore_ascii_case("close"))
    }
}

/// An HTTP/1.1 connection kept alive from one request to the next, as a pooling client or a
/// load balancer keeps it.
pub(crate) struct KeptAlive {
    reader: BufReader<TcpStream>,
    addr: SocketAddr,
}

impl KeptAlive {
    /// Connects to `addr`.
    pub(crate) fn connect(addr: SocketAddr) -> std::io::Result<KeptAlive> {
        let stream = TcpStream::connect(addr)?;
        stream.set_read_timeout(Some(Duration::from_secs(30)))?;
        Ok(KeptAlive { reader: BufReader::new(stream), addr })
    }

    /// Sends a request and reads its answer (which must have a `Content-Length`). An error is
    /// what a client sees of a reset or closed connection.
    pub(crate) fn exchange(
        &mut self,
        method: &str,
        path: &str,
        headers: &str,
        body: &str,
    ) -> std::io::Result<Answer> {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\n{headers}Content-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        self.reader.get_mut().write_all(request.as_bytes())?;
        let mut status_line = String::new();
        if self.reader.read_line(&mut status_line)? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let status = status_line.split_whitespace().nth(1).and_then(|code| code.parse().ok());
        let status = status.ok_or_else(|| std::io::Error::other(status_line.clone()))?;
        let mut headers = Vec::new();
        loop {
            let mut line = String::new();
            self.reader.read_line(&mut line)?;
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let (name, value) = line.split_once(':').unwrap_or((line, ""));
            headers.push((name.to_ascii_lowercase(), value.trim().to_owned()));
        }
        let length = headers.iter().find(|(name, _)| name == "content-length");
        let length = length.and_then(|(_, value)| value.parse().ok()).unwrap_or(0);
        let mut body = vec![0; length];
        self.reader.read_exact(&mut body)?;
        let body = String::from_utf8(body).map_err(std::io::Error::other)?;
        Ok(Answer { status, headers, body })
    }
}

/// `redis-server` on a free port, without persistence; killed on drop.
pub(crate) struct RedisServer {
    child: Child,
    port: u16,
}

impl RedisServer {
    /// `None` (printed) when `redis-server` is not installed; `what` says what is then not
    /// tested.
    pub(crate) fn start(dir: &TempDir, what: &str) -> Option<RedisServer> {
        if Command::new("redis-server").arg("--version").output().is_err() {
            skip(&format!(
                "redis-server is not installed (apt-get install redis-server), so {what} was \
                 not tested"
            ));
            return None;
        }
        // Ask the OS for a free port; Redis needs it as a number.
        let port = TcpListener::bind("127.0.0.1:0").ok()?.local_addr().ok()?.port();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir.path())
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        let redis = RedisServer { child, port };
        redis.wait_until_ready();
        Some(redis)
    }

    fn wait_until_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", self.port)) {
                let mut reply = [0; 5];
                if stream.write_all(b"PING\r\n").is_ok()
                    && stream.read_exact(&mut reply).is_ok()
                    && &reply == b"+PONG"
                {
                    return;
                }
            }
            assert!(Instant::now() < deadline, "redis-server did not answer PING");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// Kills the server (SIGKILL) and waits for it to be gone.
    pub(crate) fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The address of the start-up line `relang-server listening`, in either log format.
fn listening_address(line: &str) -> Option<SocketAddr> {
    if !line.contains("relang-server listening") {
        return None;
    }
    if line.starts_with('{') {
        let line: Value = serde_json::from_str(line).ok()?;
        return line["address"].as_str()?.parse().ok();
    }
    let (_, rest) = line.split_once(" address=\"")?;
    rest.split('"').next()?.parse().ok()
}

impl Drop for RunningServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
