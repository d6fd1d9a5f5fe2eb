//! `cargo xtask image`: the release server as an OCI image, built by podman from `scratch`
//! with no registry and no network.
//!
//! `deploy/image/Containerfile` is the recipe. [`stage`] lays out its build context under
//! `target/image/`: the Containerfile and a `rootfs/` holding the binary as
//! `/relang-server` and the shared libraries `ldd` says it loads, each at the path the
//! dynamic loader looks for it ([`shared_libraries`]). [`build`] runs `podman build`;
//! [`inspect`] reads the image's configuration back and [`ImageConfig::problems`] compares
//! it with what the Kubernetes manifests rely on ([`USER`], [`PORT`], [`BIND`]), and
//! [`version_inside`] runs the binary in the image's files. Running a container is left to
//! the operator (docs/operations.md, "Container image").

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::release::{BINARY, build_binary};
use crate::{run, target_dir};

/// The image's numeric user and group: no account of the image's (it has no /etc/passwd),
/// so `runAsNonRoot` holds; the Deployment's `runAsUser` and `runAsGroup` say the same.
pub const USER: &str = "65532:65532";
/// The port the server listens on inside the image; the Deployment's `http` port.
pub const PORT: u16 = 8080;
/// The `RELANG_BIND` the image sets: every interface, [`PORT`].
pub const BIND: &str = "0.0.0.0:8080";
/// The OCI labels every image carries (`org.opencontainers.image.*`).
pub const LABELS: [&str; 5] = ["title", "description", "version", "revision", "licenses"];
/// The largest image `cargo xtask image` accepts, in bytes: the binary and glibc's four
/// files come to about 12 MB, so anything near this means something else got in.
pub const MAX_SIZE: u64 = 40 << 20;

/// Flags of `cargo xtask image`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The image's name and tag.
    #[arg(long, default_value_t = format!("localhost/relang-server:{}", env!("CARGO_PKG_VERSION")))]
    pub tag: String,
    /// Put this binary in the image instead of building the release server.
    #[arg(long)]
    pub binary: Option<PathBuf>,
}

/// Builds the release server (unless `--binary`), stages it, builds the image with podman,
/// then checks the image's configuration and prints it.
///
/// # Errors
/// When the build, staging, podman or a check fails.
pub fn image(root: &Path, args: &Args) -> anyhow::Result<()> {
    let binary = match &args.binary {
        Some(binary) => binary.clone(),
        None => build_binary(root)?,
    };
    let context = target_dir(root).join("image");
    let staged = stage(root, &binary, &context)?;
    build(&context, &args.tag, &revision(root))?;
    let config = inspect(&args.tag)?;
    let problems = config.problems(MAX_SIZE);
    if !problems.is_empty() {
        bail!("the image {} is not as the manifests expect:\n{}", args.tag, problems.join("\n"));
    }
    let expected = format!("{BINARY} {}", env!("CARGO_PKG_VERSION"));
    match version_inside(&args.tag)? {
        Some(version) if version == expected => println!("{version}, run inside the image"),
        Some(version) => bail!("/{BINARY} --version inside the image says {version:?}"),
        None => println!("not run inside the image: podman image mount and chroot need root"),
    }
    println!("{}: {} bytes ({staged} staged)", args.tag, config.size);
    println!("user {}, entrypoint {:?}, ports {:?}", config.user, config.entrypoint, config.ports);
    for (name, value) in &config.labels {
        println!("label {name}={value}");
    }
    Ok(())
}

/// Lays out the build context in `context` (emptied first): `Containerfile` from
/// `deploy/image/`, and `rootfs/` with `binary` as `/relang-server` (mode 755) and each of
/// its shared libraries at its own absolute path. Returns the bytes under `rootfs/`.
///
/// # Errors
/// When `ldd` fails or a file operation does.
pub fn stage(root: &Path, binary: &Path, context: &Path) -> anyhow::Result<u64> {
    if context.exists() {
        fs::remove_dir_all(context).with_context(|| format!("remove {}", context.display()))?;
    }
    let rootfs = context.join("rootfs");
    fs::create_dir_all(&rootfs).with_context(|| format!("create {}", rootfs.display()))?;
    fs::copy(root.join("deploy/image/Containerfile"), context.join("Containerfile"))
        .context("copy deploy/image/Containerfile")?;

    let entrypoint = rootfs.join(BINARY);
    let mut staged =
        fs::copy(binary, &entrypoint).with_context(|| format!("copy {}", binary.display()))?;
    fs::set_permissions(&entrypoint, fs::Permissions::from_mode(0o755))?;
    for library in shared_libraries(binary)? {
        let inside = rootfs.join(library.strip_prefix("/").unwrap_or(&library));
        if let Some(parent) = inside.parent() {
            fs::create_dir_all(parent).with_context(|| format!("create {}", parent.display()))?;
        }
        // `fs::copy` follows symbolic links: the image gets the file, under the name asked for.
        staged +=
            fs::copy(&library, &inside).with_context(|| format!("copy {}", library.display()))?;
    }
    Ok(staged)
}

/// The absolute paths of the shared libraries `binary` loads, its dynamic loader included,
/// as `ldd` lists them; none for a static binary.
///
/// # Errors
/// When `ldd` cannot run, or a library is not found.
pub fn shared_libraries(binary: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let output = Command::new("ldd").arg(binary).output().context("run ldd (from libc-bin)")?;
    let text = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        if text.contains("not a dynamic executable") {
            return Ok(Vec::new());
        }
        bail!("ldd {} failed: {}", binary.display(), String::from_utf8_lossy(&output.stderr));
    }
    parse_ldd(&text)
}

/// The library paths in `ldd`'s output: `name => /path (0x...)` and `/path (0x...)` lines;
/// `linux-vdso.so.1 (0x...)` is the kernel's and has no file.
fn parse_ldd(text: &str) -> anyhow::Result<Vec<PathBuf>> {
    let mut libraries = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if line.contains("not found") {
            bail!("ldd: {line}");
        }
        let path = line.split_once("=>").map_or(line, |(_, path)| path).trim();
        let path = path.split_once(" (").map_or(path, |(path, _)| path);
        if path.starts_with('/') {
            libraries.push(PathBuf::from(path));
        }
    }
    Ok(libraries)
}

/// The git commit of `root`, or `unknown` outside a git checkout (a source tarball).
fn revision(root: &Path) -> String {
    Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map_or_else(
            || "unknown".to_owned(),
            |output| String::from_utf8_lossy(&output.stdout).trim().to_owned(),
        )
}

/// `podman build` of the staged `context` as `tag`, with the version and `revision` labels.
///
/// # Errors
/// When podman cannot run or the build fails.
pub fn build(context: &Path, tag: &str, revision: &str) -> anyhow::Result<()> {
    run(Command::new("podman")
        .args(["build", "--quiet", "--layers=false"])
        .arg("--file")
        .arg(context.join("Containerfile"))
        .args(["--tag", tag])
        .args(["--build-arg", &format!("VERSION={}", env!("CARGO_PKG_VERSION"))])
        .args(["--build-arg", &format!("REVISION={revision}")])
        .arg(context))
}

/// What `/relang-server --version` prints when run in the files of the image `tag`, as its
/// user ([`USER`]): the image is mounted (`podman image mount`) and the binary run under
/// `chroot`, since the sandbox CI runs in refuses to start containers. So the libraries
/// staged are all the binary needs. `None` unless root, the only user both commands serve.
///
/// # Errors
/// When podman or chroot fails, or the binary does not run.
pub fn version_inside(tag: &str) -> anyhow::Result<Option<String>> {
    let uid = Command::new("id").arg("-u").output().context("run id -u")?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Ok(None);
    }
    let mount = Command::new("podman").args(["image", "mount", tag]).output()?;
    if !mount.status.success() {
        bail!("podman image mount {tag}: {}", String::from_utf8_lossy(&mount.stderr));
    }
    let files = String::from_utf8_lossy(&mount.stdout).trim().to_owned();
    let run = Command::new("chroot")
        .arg(format!("--userspec={USER}"))
        .arg(&files)
        .args([format!("/{BINARY}").as_str(), "--version"])
        .output();
    run_quietly(Command::new("podman").args(["image", "unmount", tag]))?;
    let run = run.context("run chroot")?;
    if !run.status.success() {
        bail!("/{BINARY} --version in the image: {}", String::from_utf8_lossy(&run.stderr));
    }
    Ok(Some(String::from_utf8_lossy(&run.stdout).trim().to_owned()))
}

/// Runs `command` with its output captured, failing unless it succeeds.
fn run_quietly(command: &mut Command) -> anyhow::Result<()> {
    let output = command.output().with_context(|| format!("cannot start {command:?}"))?;
    if !output.status.success() {
        bail!("{command:?} failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    Ok(())
}

/// What `podman image inspect` says of an image, as far as running it depends on.
#[derive(Debug)]
pub struct ImageConfig {
    /// `USER`.
    pub user: String,
    /// `ENTRYPOINT`.
    pub entrypoint: Vec<String>,
    /// `EXPOSE`d ports, as `8080/tcp`.
    pub ports: Vec<String>,
    /// `ENV`, as `NAME=value`.
    pub env: Vec<String>,
    /// `LABEL`s, podman's own among them.
    pub labels: BTreeMap<String, String>,
    /// The image's size in bytes.
    pub size: u64,
}

impl ImageConfig {
    /// What differs from the image the manifests expect: [`USER`], the binary as the whole
    /// entrypoint, only [`PORT`] exposed, `RELANG_BIND` = [`BIND`], every one of [`LABELS`]
    /// set, and at most `max_size` bytes. Empty when all hold.
    pub fn problems(&self, max_size: u64) -> Vec<String> {
        let mut problems = Vec::new();
        if self.user != USER {
            problems.push(format!("user {:?}, expected {USER:?}", self.user));
        }
        if self.entrypoint != [format!("/{BINARY}")] {
            problems.push(format!("entrypoint {:?}, expected [\"/{BINARY}\"]", self.entrypoint));
        }
        if self.ports != [format!("{PORT}/tcp")] {
            problems.push(format!("exposed ports {:?}, expected [\"{PORT}/tcp\"]", self.ports));
        }
        let bind = format!("RELANG_BIND={BIND}");
        if !self.env.contains(&bind) {
            problems.push(format!("environment {:?} lacks {bind}", self.env));
        }
        for label in LABELS.map(|name| format!("org.opencontainers.image.{name}")) {
            if self.labels.get(&label).is_none_or(|value| value.is_empty()) {
                problems.push(format!("no label {label}"));
            }
        }
        if self.size > max_size {
            problems.push(format!("{} bytes, more than {max_size}", self.size));
        }
        problems
    }
}

/// Reads `tag`'s configuration with `podman image inspect`.
///
/// # Errors
/// When podman cannot run, has no such image, or answers something unexpected.
pub fn inspect(tag: &str) -> anyhow::Result<ImageConfig> {
    let output = Command::new("podman")
        .args(["image", "inspect", tag])
        .output()
        .context("run podman image inspect")?;
    if !output.status.success() {
        bail!("podman image inspect {tag}: {}", String::from_utf8_lossy(&output.stderr));
    }
    let images: serde_json::Value =
        serde_json::from_slice(&output.stdout).context("podman image inspect answers JSON")?;
    parse_inspect(&images[0]).with_context(|| format!("podman image inspect {tag}"))
}

/// An [`ImageConfig`] from one image of `podman image inspect`'s answer.
fn parse_inspect(image: &serde_json::Value) -> anyhow::Result<ImageConfig> {
    let config = &image["Config"];
    let strings = |value: &serde_json::Value| -> Vec<String> {
        value
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    let keys = |value: &serde_json::Value| -> Vec<String> {
        value.as_object().into_iter().flatten().map(|(key, _)| key.clone()).collect()
    };
    let labels = config["Labels"].as_object().into_iter().flatten();
    Ok(ImageConfig {
        user: config["User"].as_str().unwrap_or_default().to_owned(),
        entrypoint: strings(&config["Entrypoint"]),
        ports: keys(&config["ExposedPorts"]),
        env: strings(&config["Env"]),
        labels: labels
            .map(|(name, value)| (name.clone(), value.as_str().unwrap_or_default().to_owned()))
            .collect(),
        size: image["Size"].as_u64().context("no Size")?,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn ldd_output_gives_the_library_files_and_the_loader() {
        let text = "\tlinux-vdso.so.1 (0x00007ffd)\n\
                    \tlibgcc_s.so.1 => /lib/x86_64-linux-gnu/libgcc_s.so.1 (0x00007f01)\n\
                    \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f02)\n\
                    \t/lib64/ld-linux-x86-64.so.2 (0x00007f03)\n";
        let expected = [
            "/lib/x86_64-linux-gnu/libgcc_s.so.1",
            "/lib/x86_64-linux-gnu/libc.so.6",
            "/lib64/ld-linux-x86-64.so.2",
        ];
        assert_eq!(parse_ldd(text).unwrap(), expected.map(PathBuf::from));
        let missing = parse_ldd("\tlibfoo.so.1 => not found\n").unwrap_err();
        assert!(missing.to_string().contains("libfoo.so.1"), "{missing}");
    }

    /// An image as `podman image inspect` shows it, with `changes` applied to its config.
    fn image(changes: serde_json::Value) -> ImageConfig {
        let mut config = json!({
            "User": USER,
            "Entrypoint": ["/relang-server"],
            "ExposedPorts": {"8080/tcp": {}},
            "Env": ["PATH=/usr/bin", "RELANG_BIND=0.0.0.0:8080"],
            "Labels": LABELS
                .iter()
                .map(|name| (format!("org.opencontainers.image.{name}"), json!("x")))
                .collect::<serde_json::Map<_, _>>(),
        });
        for (key, value) in changes.as_object().unwrap() {
            config[key] = value.clone();
        }
        parse_inspect(&json!({"Config": config, "Size": 1000})).unwrap()
    }

    #[test]
    fn an_image_as_expected_has_no_problems_and_each_difference_is_named() {
        assert_eq!(image(json!({})).problems(1000), Vec::<String>::new());
        assert_eq!(image(json!({})).problems(999), ["1000 bytes, more than 999"]);
        let root = image(json!({"User": ""})).problems(1000);
        assert_eq!(root, ["user \"\", expected \"65532:65532\""]);
        let shell = image(json!({"Entrypoint": ["/bin/sh", "-c"]})).problems(1000);
        assert!(shell[0].starts_with("entrypoint"), "{shell:?}");
        let loopback = image(json!({"Env": ["RELANG_BIND=127.0.0.1:8080"]})).problems(1000);
        assert!(loopback[0].contains("lacks RELANG_BIND=0.0.0.0:8080"), "{loopback:?}");
        let unlabelled = image(json!({"Labels": null})).problems(1000);
        assert_eq!(unlabelled.len(), LABELS.len(), "{unlabelled:?}");
    }
}
