//! The files of `deploy/` against the tools that read them, and against each other.
//!
//! hadolint lints `deploy/image/Containerfile`; podman builds it from `scratch` with a
//! stand-in binary, and the image's configuration is the one the manifests expect
//! (`cargo xtask image` does the same with the release server); yamllint (strict) lints
//! every YAML file; `kubectl kustomize` renders the base and each overlay, and
//! kubernetes-validate checks every object strictly against each Kubernetes version in
//! [`SUPPORTED`]. The rendered objects are then read as JSON and checked for what the
//! schemas cannot say: probes, drain times, sizes and selectors that agree.
//!
//! The Python tools come from PyPI at the versions of `deploy/requirements.txt`, installed
//! once into a venv under `CARGO_TARGET_TMPDIR`; podman and kubectl come from the system.
//! A test whose tool is missing prints a `SKIPPED` line and passes, except under `CI=true`,
//! where it fails: `.ci/run` installs them.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use serde_json::Value;
use xtask::image::{self, BIND, PORT, USER};
use xtask::repo_root;

/// The Kubernetes versions the manifests are validated against: 1.30 is the first whose
/// kubelet runs a `preStop` sleep without a shell (on by default), 1.37 the newest
/// kubernetes-validate 1.37.0 knows.
const SUPPORTED: [&str; 8] =
    ["1.30.0", "1.31.0", "1.32.0", "1.33.0", "1.34.0", "1.35.0", "1.36.0", "1.37.0"];

/// The kustomizations a cluster is given, under `deploy/kubernetes/`.
const KUSTOMIZATIONS: [&str; 2] = ["base", "overlays/production"];

/// Kinds of the Prometheus Operator's CRDs, which kubernetes-validate has no schema for:
/// [`the_monitoring_objects_scrape_and_alert_on_the_service`] checks them instead.
const OPERATOR_KINDS: [&str; 2] = ["ServiceMonitor", "PrometheusRule"];

/// Whether this run is CI's, where a test may not skip.
fn is_ci() -> bool {
    matches!(std::env::var("CI").as_deref(), Ok("true" | "1"))
}

/// Says that the running test cannot do its work (`why`) and returns, so the test ends
/// early; fails the test under `CI=true`. The `SKIPPED` line goes to the terminal past
/// the harness's capture.
#[track_caller]
fn skip(why: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    assert!(!is_ci(), "{test} cannot run under CI=true: {why}");
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// `command`'s output when it ran and succeeded; otherwise a skip (naming `what`) and
/// `None`.
#[track_caller]
fn run_or_skip(what: &str, command: &mut Command) -> Option<Output> {
    match command.output() {
        Ok(output) if output.status.success() => Some(output),
        Ok(output) => {
            skip(&format!("{what} failed: {}", String::from_utf8_lossy(&output.stderr)));
            None
        }
        Err(err) => {
            skip(&format!("{what} cannot start: {err}"));
            None
        }
    }
}

/// The `bin/` of a venv with `deploy/requirements.txt`, or `None` (printed) when Python or
/// PyPI is out of reach. Made once per run, and kept for the next while the requirements
/// are the same.
fn tools() -> Option<&'static Path> {
    static TOOLS: OnceLock<Option<PathBuf>> = OnceLock::new();
    TOOLS.get_or_init(install_tools).as_deref()
}

fn install_tools() -> Option<PathBuf> {
    let venv = Path::new(env!("CARGO_TARGET_TMPDIR")).join("deploy-tools-venv");
    let requirements = repo_root().join("deploy/requirements.txt");
    let wanted = fs::read_to_string(&requirements).expect("deploy/requirements.txt");
    let stamp = venv.join("requirements.txt");
    if fs::read_to_string(&stamp).is_ok_and(|installed| installed == wanted) {
        return Some(venv.join("bin"));
    }
    let _ = fs::remove_dir_all(&venv);
    let mut create = Command::new("python3");
    create.args(["-m", "venv"]).arg(&venv);
    run_or_skip("python3 -m venv (needs python3 and python3-venv)", &mut create)?;
    let mut install = Command::new(venv.join("bin/pip"));
    install
        .args(["install", "--quiet", "--disable-pip-version-check", "--retries", "1"])
        .args(["--timeout", "20", "--requirement"])
        .arg(&requirements);
    run_or_skip("pip install -r deploy/requirements.txt (needs PyPI)", &mut install)?;
    fs::write(&stamp, wanted).expect("write the venv's stamp");
    Some(venv.join("bin"))
}

/// `kubectl kustomize` of `deploy/kubernetes/<path>`, or `None` (printed) without kubectl.
fn render(path: &str) -> Option<String> {
    let dir = repo_root().join("deploy/kubernetes").join(path);
    let output = Command::new("kubectl").arg("kustomize").arg(&dir).output();
    match output {
        Err(err) => {
            skip(&format!("kubectl (it renders the kustomizations) cannot start: {err}"));
            None
        }
        Ok(output) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(output.status.success(), "kubectl kustomize {path}: {stderr}");
            Some(String::from_utf8(output.stdout).expect("UTF-8 YAML"))
        }
    }
}

/// The objects of a rendered kustomization, read by the venv's PyYAML (yamllint's).
fn objects(tools: &Path, yaml: &str) -> Vec<Value> {
    let script =
        "import json, sys, yaml; json.dump(list(yaml.safe_load_all(sys.stdin)), sys.stdout)";
    let mut child = Command::new(tools.join("python"))
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the venv's python runs");
    child.stdin.take().expect("piped stdin").write_all(yaml.as_bytes()).expect("write YAML");
    let output = child.wait_with_output().expect("the venv's python ends");
    assert!(output.status.success(), "PyYAML cannot read the rendered YAML");
    serde_json::from_slice(&output.stdout).expect("JSON from PyYAML")
}

/// The one object of `kind` among `objects`.
fn find<'a>(objects: &'a [Value], kind: &str) -> &'a Value {
    let mut found = objects.iter().filter(|object| object["kind"] == kind);
    let object = found.next().unwrap_or_else(|| panic!("no {kind}"));
    assert!(found.next().is_none(), "more than one {kind}");
    object
}

#[test]
fn the_containerfile_passes_hadolint() {
    let Some(tools) = tools() else { return };
    let containerfile = repo_root().join("deploy/image/Containerfile");
    let output = Command::new(tools.join("hadolint")).arg(&containerfile).output().unwrap();
    let findings = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "hadolint:\n{findings}");
}

#[test]
fn the_yaml_files_pass_yamllint() {
    let Some(tools) = tools() else { return };
    let root = repo_root();
    let output = Command::new(tools.join("yamllint"))
        .args(["--strict", "--config-file"])
        .arg(root.join("deploy/.yamllint.yaml"))
        .arg(root.join("deploy"))
        .output()
        .unwrap();
    let findings = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "yamllint:\n{findings}");
}

/// Every object of every kustomization is valid, strictly (no field the API does not
/// know), in every supported version; only the operator's kinds lack a schema.
#[test]
fn the_kustomizations_validate_strictly_in_every_supported_version() {
    let Some(tools) = tools() else { return };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("deploy-rendered");
    fs::create_dir_all(&dir).unwrap();
    let mut files = Vec::new();
    for path in KUSTOMIZATIONS {
        let Some(yaml) = render(path) else { return };
        let file = dir.join(format!("{}.yaml", path.replace('/', "-")));
        fs::write(&file, yaml).unwrap();
        files.push(file);
    }
    // One process per version, all at once: each takes about a second to load its schemas.
    let checks: Vec<_> = SUPPORTED
        .map(|version| {
            let child = Command::new(tools.join("kubernetes-validate"))
                .args(["--strict", "--quiet", "--kubernetes-version", version])
                .args(&files)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("kubernetes-validate runs");
            (version, child)
        })
        .into_iter()
        .collect();
    for (version, child) in checks {
        let output = child.wait_with_output().unwrap();
        let report =
            String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "Kubernetes {version}:\n{report}");
        for line in report.lines().filter(|line| !line.trim().is_empty()) {
            let operator =
                OPERATOR_KINDS.iter().any(|kind| line.contains(&format!("kind {kind} ")));
            assert!(
                operator && line.contains("Couldn't find schema"),
                "Kubernetes {version}: {line}"
            );
        }
    }
}

/// The Deployment of a rendered kustomization and its one container.
struct Pod<'a> {
    deployment: &'a Value,
    container: &'a Value,
}

impl Pod<'_> {
    fn env(&self, name: &str) -> &Value {
        let env = self.container["env"].as_array().expect("an env list");
        let var = env.iter().find(|var| var["name"] == name);
        var.unwrap_or_else(|| panic!("no {name} in the container's env"))
    }

    fn env_number(&self, name: &str) -> u64 {
        let value = self.env(name)["value"].as_str().unwrap_or_else(|| panic!("{name} is set"));
        value.parse().unwrap_or_else(|_| panic!("{name}={value} is a number"))
    }
}

fn pod(objects: &[Value]) -> Pod<'_> {
    let deployment = find(objects, "Deployment");
    let containers = deployment["spec"]["template"]["spec"]["containers"].as_array().unwrap();
    assert_eq!(containers.len(), 1, "one container: relang-server");
    Pod { deployment, container: &containers[0] }
}

/// `1Gi`, `512Mi` in bytes.
fn quantity_bytes(quantity: &Value) -> u64 {
    let text = quantity.as_str().expect("a memory quantity");
    let (number, unit) =
        text.split_at(text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len()));
    let shift = match unit {
        "Gi" => 30,
        "Mi" => 20,
        _ => panic!("memory in Mi or Gi: {text}"),
    };
    number.parse::<u64>().unwrap() << shift
}

/// What the schemas cannot say: the pod runs as the image's user on its port, restricted,
/// with probes on the server's health routes; the drain fits in the grace period; a
/// rollout or a drained node never leaves fewer pods serving; secrets come from Secrets;
/// the selectors agree.
#[test]
fn the_deployment_runs_the_image_restricted_and_drains_within_its_grace_period() {
    let Some(tools) = tools() else { return };
    for path in KUSTOMIZATIONS {
        let Some(yaml) = render(path) else { return };
        let objects = objects(tools, &yaml);
        let pod = pod(&objects);
        let spec = &pod.deployment["spec"];
        let template = &spec["template"]["spec"];
        let context = format!("{path}: {}", pod.container);

        let (user, group) = USER.split_once(':').unwrap();
        assert_eq!(template["securityContext"]["runAsUser"].to_string(), user, "{context}");
        assert_eq!(template["securityContext"]["runAsGroup"].to_string(), group, "{context}");
        assert_eq!(template["securityContext"]["runAsNonRoot"], true, "{context}");
        let security = &pod.container["securityContext"];
        assert_eq!(security["readOnlyRootFilesystem"], true, "{context}");
        assert_eq!(security["allowPrivilegeEscalation"], false, "{context}");
        assert_eq!(security["capabilities"]["drop"], serde_json::json!(["ALL"]), "{context}");
        let http = pod.container["ports"].as_array().unwrap().iter().find(|p| p["name"] == "http");
        assert_eq!(http.unwrap()["containerPort"], PORT, "{context}");
        assert!(BIND.ends_with(&format!(":{PORT}")));

        for (probe, route) in
            [("startupProbe", "/livez"), ("livenessProbe", "/livez"), ("readinessProbe", "/readyz")]
        {
            assert_eq!(pod.container[probe]["httpGet"]["path"], route, "{probe}: {context}");
        }
        let pause = pod.container["lifecycle"]["preStop"]["sleep"]["seconds"].as_u64().unwrap();
        let drain = pod.env_number("RELANG_SHUTDOWN_GRACE_SECS");
        let grace = template["terminationGracePeriodSeconds"].as_u64().unwrap();
        assert!(pause > 0 && pause + drain < grace, "pause {pause} + drain {drain} < {grace}");
        // The drain outlasts the longest request the server admits (--max-timeout-ms).
        assert!(drain * 1000 > 30_000, "{context}");

        assert!(spec["replicas"].as_u64().unwrap() >= 2, "{path}");
        assert_eq!(spec["strategy"]["rollingUpdate"]["maxUnavailable"], 0, "{path}");
        let hpa = find(&objects, "HorizontalPodAutoscaler");
        assert!(hpa["spec"]["minReplicas"].as_u64().unwrap() >= 2, "{path}");
        assert_eq!(hpa["spec"]["scaleTargetRef"]["name"], pod.deployment["metadata"]["name"]);
        let labels = &spec["template"]["metadata"]["labels"];
        assert_eq!(spec["selector"]["matchLabels"], *labels, "{path}");
        let pdb = find(&objects, "PodDisruptionBudget");
        assert_eq!(pdb["spec"]["selector"]["matchLabels"], *labels, "{path}");
        assert_eq!(find(&objects, "Service")["spec"]["selector"], *labels, "{path}");

        for secret in ["RELANG_FAIR_KEY", "RELANG_FAIR_OLD_KEYS", "RELANG_REDIS_URL"] {
            let var = pod.env(secret);
            assert!(var["value"].is_null(), "{secret} is written in the manifest: {path}");
            assert!(var["valueFrom"]["secretKeyRef"]["name"].is_string(), "{secret}: {path}");
        }
    }
}

/// The sizes of docs/operations.md, "Capacity planning": one HTTP worker per core of the
/// request, the engine's lane on all but one, and a memory limit that holds the lane's
/// bounds (each running lane job's and two parked ones', at `--max-memory-mb` x 1.5 +
/// 64 MiB each: `Config::request_memory_bound` and the scheduler's `PARKED_BOUNDS`), the
/// term cache (within `--max-memory-mb`) and 64 MiB for the rest.
#[test]
fn the_resources_hold_the_lanes_memory_bound() {
    let Some(tools) = tools() else { return };
    for path in KUSTOMIZATIONS {
        let Some(yaml) = render(path) else { return };
        let objects = objects(tools, &yaml);
        let pod = pod(&objects);
        let resources = &pod.container["resources"];
        assert_eq!(resources["requests"], resources["limits"], "Guaranteed QoS: {path}");
        let cores: u64 = resources["limits"]["cpu"].as_str().unwrap().parse().unwrap();
        assert_eq!(pod.env_number("RELANG_WORKERS"), cores, "{path}");
        assert_eq!(pod.env_number("RELANG_ENGINE_THREADS"), (cores - 1).max(1), "{path}");

        let max_memory_mb = 128; // the default --max-memory-mb: the manifests leave it
        assert!(
            pod.container["env"]
                .as_array()
                .unwrap()
                .iter()
                .all(|var| var["name"] != "RELANG_MAX_MEMORY_MB")
        );
        let bound = (max_memory_mb << 20) * 3 / 2 + (64 << 20);
        let lane = (pod.env_number("RELANG_ENGINE_THREADS") + 2) * bound;
        let needed = lane + (max_memory_mb << 20) + (64 << 20);
        let limit = quantity_bytes(&resources["limits"]["memory"]);
        assert!(needed <= limit, "{path}: {needed} bytes needed, limit {limit}");
    }
}

/// The ServiceMonitor scrapes the Service's `metrics` port at `/metrics`, and each alert
/// has an expression, a severity and a summary.
#[test]
fn the_monitoring_objects_scrape_and_alert_on_the_service() {
    let Some(tools) = tools() else { return };
    let Some(yaml) = render("overlays/production") else { return };
    let objects = objects(tools, &yaml);
    let service = find(&objects, "Service");
    let monitor = find(&objects, "ServiceMonitor");
    assert_eq!(monitor["apiVersion"], "monitoring.coreos.com/v1");
    let labels = &service["metadata"]["labels"];
    for (name, value) in monitor["spec"]["selector"]["matchLabels"].as_object().unwrap() {
        assert_eq!(&labels[name], value, "the ServiceMonitor selects the Service by {name}");
    }
    let ports: Vec<&Value> = service["spec"]["ports"].as_array().unwrap().iter().collect();
    for endpoint in monitor["spec"]["endpoints"].as_array().unwrap() {
        assert!(ports.iter().any(|port| port["name"] == endpoint["port"]), "{endpoint}");
        assert_eq!(endpoint["path"], "/metrics");
    }

    let rule = find(&objects, "PrometheusRule");
    let rules: Vec<&Value> = rule["spec"]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|group| group["rules"].as_array().unwrap())
        .collect();
    assert!(rules.len() >= 5, "{rule}");
    for alert in rules {
        assert!(alert["alert"].is_string() && alert["expr"].is_string(), "{alert}");
        let severity = &alert["labels"]["severity"];
        assert!(severity == "critical" || severity == "warning", "{alert}");
        assert!(alert["annotations"]["summary"].is_string(), "{alert}");
    }
}

/// The base runs the image `cargo xtask image` builds, of this version; the production
/// overlay the same version from a registry.
#[test]
fn the_kustomizations_run_the_image_of_this_version() {
    let version = env!("CARGO_PKG_VERSION");
    let Some(base) = render("base") else { return };
    let local = format!("image: localhost/relang-server:{version}");
    assert!(base.contains(&local), "the base's image is not {local}");
    let Some(production) = render("overlays/production") else { return };
    let images: Vec<&str> =
        production.lines().filter_map(|line| line.trim().strip_prefix("image: ")).collect();
    assert_eq!(images.len(), 1, "{images:?}");
    let (name, tag) = images[0].rsplit_once(':').expect("a tagged image");
    assert!(!name.starts_with("localhost/"), "production runs {name}, a local image");
    assert!(name.ends_with("/relang-server") && tag == version, "production runs {}", images[0]);
}

/// podman builds the recipe from `scratch` with no registry, and the image's configuration
/// is what the manifests expect. A stand-in binary (this test's own) keeps the test quick;
/// `cargo xtask image` builds the same recipe around the release server.
#[test]
fn the_image_recipe_builds_from_scratch_with_podman() {
    if let Err(err) = Command::new("podman").arg("--version").output() {
        return skip(&format!("podman cannot start: {err}"));
    }
    let context = Path::new(env!("CARGO_TARGET_TMPDIR")).join("image-context");
    let stand_in = std::env::current_exe().unwrap();
    let staged = image::stage(&repo_root(), &stand_in, &context).unwrap();
    let tag = format!("localhost/relang-server-test:{}", std::process::id());
    image::build(&context, &tag, "test").unwrap();
    let config = image::inspect(&tag);
    let _ = Command::new("podman").args(["image", "rm", &tag]).output();
    let config = config.unwrap();
    // Nothing but the staged files: no base image, no shell.
    assert_eq!(config.problems(staged + (1 << 20)), Vec::<String>::new());
    assert_eq!(config.labels["org.opencontainers.image.revision"], "test");
    let version = &config.labels["org.opencontainers.image.version"];
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
}

/// The Grafana dashboard imports anywhere: its data source is a variable, every panel has
/// its own id and a place on the 24-column grid, every graph a query.
#[test]
fn the_dashboard_is_importable_json_with_a_query_per_graph() {
    let path = repo_root().join("deploy/grafana/relang.json");
    let dashboard: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(dashboard["uid"], "relang");
    let panels = dashboard["panels"].as_array().unwrap();
    let mut ids: Vec<u64> = panels.iter().map(|panel| panel["id"].as_u64().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), panels.len(), "panel ids repeat");
    for panel in panels {
        let grid = &panel["gridPos"];
        let right = grid["x"].as_u64().unwrap() + grid["w"].as_u64().unwrap();
        assert!(right <= 24, "{}", panel["title"]);
        if panel["type"] == "row" {
            continue;
        }
        assert_eq!(panel["datasource"]["uid"], "${datasource}", "{}", panel["title"]);
        let targets = panel["targets"].as_array().unwrap();
        assert!(!targets.is_empty(), "{}", panel["title"]);
        for target in targets {
            let expr = target["expr"].as_str().unwrap();
            assert!(expr.contains("namespace=\"$namespace\""), "{expr}");
        }
    }
}
