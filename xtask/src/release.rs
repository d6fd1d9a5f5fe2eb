//! `cargo xtask release`: the release server packed with what an operator needs into
//! `target/dist/relang-<version>-<target>.tar.gz`, with a SHA-256 checksum beside it.
//!
//! The tarball holds one directory of the same name, so unpacking never spills files:
//! the binary (built with its debug info stripped), `dist/README.md` (how to run the
//! binary: it names only files of the tarball), the licences, the changelog, the
//! operator's docs (configuration, operations, the API reference) and `dist/`'s example
//! tokens file and systemd unit; [`manifest`] lists them. It is made by the system `tar`
//! (see docs/decisions.md); the checksum file reads like `sha256sum`'s output, so
//! `sha256sum -c` verifies it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use crate::{cargo, run, target_dir};

/// The server binary's name.
pub const BINARY: &str = "relang-server";

/// The files of the workspace that ship beside the binary: (path in the workspace, path in
/// the tarball's directory).
pub const DOCUMENTS: [(&str, &str); 10] = [
    ("dist/README.md", "README.md"),
    ("LICENSE-MIT", "LICENSE-MIT"),
    ("LICENSE-APACHE", "LICENSE-APACHE"),
    ("CHANGELOG.md", "CHANGELOG.md"),
    ("dist/tokens.example.toml", "tokens.example.toml"),
    ("dist/relang-server.service", "relang-server.service"),
    ("docs/configuration.md", "docs/configuration.md"),
    ("docs/operations.md", "docs/operations.md"),
    ("docs/api.html", "docs/api.html"),
    ("docs/openapi.json", "docs/openapi.json"),
];

/// What [`package`] wrote.
#[derive(Debug)]
pub struct Artifacts {
    /// `<name>.tar.gz`.
    pub tarball: PathBuf,
    /// `<name>.tar.gz.sha256`, one line in `sha256sum` format.
    pub checksum: PathBuf,
}

/// Builds the release binary without debug info and packs it with [`manifest`]'s files
/// under `target/dist/`.
///
/// # Errors
/// When the build, `rustc -vV`, `tar` or a file operation fails.
pub fn release(root: &Path) -> anyhow::Result<()> {
    let binary = build_binary(root)?;
    let name = format!("relang-{}-{}", env!("CARGO_PKG_VERSION"), host_triple()?);
    let files = manifest(root, &binary);
    let artifacts = package(&name, &files, &target_dir(root).join("dist"))?;
    println!("{}\n{}", artifacts.tarball.display(), artifacts.checksum.display());
    Ok(())
}

/// Builds the shipped server binary (release profile, no debug info) and returns its path.
/// The tarball and the container image (`cargo xtask image`) hold this same binary.
///
/// # Errors
/// When the build fails.
pub fn build_binary(root: &Path) -> anyhow::Result<PathBuf> {
    // The release profile keeps line tables for profiling; the shipped binary does not.
    run(cargo()
        .current_dir(root)
        .args(["build", "--release", "-p", "server", "--bin", BINARY])
        .env("CARGO_PROFILE_RELEASE_DEBUG", "false")
        .env("CARGO_PROFILE_RELEASE_STRIP", "debuginfo"))?;
    Ok(target_dir(root).join("release").join(BINARY))
}

/// Every file of the tarball: its source and its path inside the tarball's directory,
/// the `binary` first, then [`DOCUMENTS`] from the workspace `root`.
pub fn manifest(root: &Path, binary: &Path) -> Vec<(PathBuf, String)> {
    let mut files = vec![(binary.to_owned(), BINARY.to_owned())];
    files.extend(DOCUMENTS.map(|(source, name)| (root.join(source), name.to_owned())));
    files
}

/// The target triple of the host, from `rustc -vV`.
fn host_triple() -> anyhow::Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(&rustc).arg("-vV").output().context("run rustc -vV")?;
    let text = String::from_utf8(output.stdout).context("rustc -vV output is UTF-8")?;
    let host = text.lines().find_map(|line| line.strip_prefix("host: "));
    host.map(str::to_owned).context("no `host:` line in rustc -vV")
}

/// Packs `files` (source, path inside) into `dist/<name>.tar.gz` (inside a directory
/// `<name>/`) and writes its checksum to `dist/<name>.tar.gz.sha256`. Permissions are
/// kept, so the binary stays executable.
///
/// # Errors
/// When a file is missing, or `tar` or a file operation fails.
pub fn package(name: &str, files: &[(PathBuf, String)], dist: &Path) -> anyhow::Result<Artifacts> {
    let staging = dist.join(name);
    if staging.exists() {
        fs::remove_dir_all(&staging).with_context(|| format!("remove {}", staging.display()))?;
    }
    fs::create_dir_all(&staging).with_context(|| format!("create {}", staging.display()))?;
    for (source, inside) in files {
        let destination = staging.join(inside);
        if !destination.starts_with(&staging) || Path::new(inside).is_absolute() {
            bail!("{inside} is not a path inside the tarball");
        }
        if let Some(parent) = destination.parent() {
            fs::create_dir_all(parent).with_context(|| format!("create {}", parent.display()))?;
        }
        fs::copy(source, &destination).with_context(|| format!("copy {}", source.display()))?;
    }
    let tarball = dist.join(format!("{name}.tar.gz"));
    run(Command::new("tar").arg("-czf").arg(&tarball).arg("-C").arg(dist).arg(name))?;
    fs::remove_dir_all(&staging).with_context(|| format!("remove {}", staging.display()))?;

    let bytes = fs::read(&tarball).with_context(|| format!("read {}", tarball.display()))?;
    let digest = sha256_hex(&bytes);
    let checksum = dist.join(format!("{name}.tar.gz.sha256"));
    fs::write(&checksum, format!("{digest}  {name}.tar.gz\n"))
        .with_context(|| format!("write {}", checksum.display()))?;
    Ok(Artifacts { tarball, checksum })
}

/// The SHA-256 digest of `bytes` in lower-case hex.
fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    /// The names `tar -tvzf` lists and the listing itself.
    fn listing(tarball: &Path) -> (Vec<String>, String) {
        let listing = Command::new("tar").arg("-tvzf").arg(tarball).output().unwrap();
        let listing = String::from_utf8(listing.stdout).unwrap();
        let mut names: Vec<String> = listing
            .lines()
            .filter_map(|line| line.split_whitespace().last())
            .map(str::to_owned)
            .collect();
        names.sort_unstable();
        (names, listing)
    }

    #[test]
    fn the_tarball_holds_the_manifest_in_one_directory_with_a_matching_checksum() {
        let dir = std::env::temp_dir().join(format!("xtask-release-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let binary = dir.join("relang-server");
        fs::write(&binary, "#!/bin/sh\necho hi\n").unwrap();
        fs::set_permissions(&binary, fs::Permissions::from_mode(0o755)).unwrap();

        let files = manifest(&crate::repo_root(), &binary);
        let artifacts = package("relang-9.9.9-test", &files, &dir.join("dist")).unwrap();

        let (names, listing) = listing(&artifacts.tarball);
        let prefix = "relang-9.9.9-test/";
        let expected = [
            "",
            "CHANGELOG.md",
            "LICENSE-APACHE",
            "LICENSE-MIT",
            "README.md",
            "docs/",
            "docs/api.html",
            "docs/configuration.md",
            "docs/openapi.json",
            "docs/operations.md",
            "relang-server",
            "relang-server.service",
            "tokens.example.toml",
        ];
        assert_eq!(names, expected.map(|name| format!("{prefix}{name}")));
        let binary_line = listing.lines().find(|line| line.ends_with("/relang-server")).unwrap();
        assert!(binary_line.starts_with("-rwx"), "{binary_line}");

        // The checksum file is what `sha256sum -c` verifies.
        let check = Command::new("sha256sum")
            .arg("-c")
            .arg(artifacts.checksum.file_name().unwrap())
            .current_dir(dir.join("dist"))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&check.stdout), "relang-9.9.9-test.tar.gz: OK\n");
        assert!(!dir.join("dist/relang-9.9.9-test").exists(), "the staging directory is gone");
        fs::remove_dir_all(&dir).unwrap();
    }

    /// The shipped README is about the binary: it names only files of the tarball and
    /// never sends the reader to cargo or to the repository.
    #[test]
    fn the_shipped_readme_names_only_what_ships() {
        let root = crate::repo_root();
        let readme = fs::read_to_string(root.join("dist/README.md")).unwrap();
        assert!(!readme.contains("cargo"), "the tarball has no cargo");
        assert!(readme.contains("./relang-server"), "how to run the binary");
        let shipped: Vec<String> =
            manifest(&root, Path::new(BINARY)).into_iter().map(|(_, inside)| inside).collect();
        let named = readme.split('`').skip(1).step_by(2);
        let files = named.filter(|word| {
            word.starts_with("docs/") || word.ends_with(".md") || word.ends_with(".toml")
        });
        for file in files.map(|word| word.split_whitespace().next().unwrap_or(word)) {
            assert!(shipped.iter().any(|inside| inside == file), "README names {file}");
        }
        for (source, inside) in manifest(&root, Path::new(BINARY)).into_iter().skip(1) {
            assert!(source.is_file(), "{} is missing", source.display());
            let listed = format!("`{inside}`");
            let in_table = readme.contains(&listed) || inside == "README.md";
            assert!(in_table || inside.starts_with("LICENSE"), "README does not list {inside}");
        }
    }

    #[test]
    fn sha256_hex_is_the_standard_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
