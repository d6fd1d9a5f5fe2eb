//! `cargo xtask release`: the release server packed with README and licences into
//! `target/dist/relang-<version>-<target>.tar.gz`, with a SHA-256 checksum beside it.
//!
//! The tarball holds one directory of the same name, so unpacking never spills files. It
//! is made by the system `tar` (see docs/decisions.md); the checksum file reads like
//! `sha256sum`'s output, so `sha256sum -c` verifies it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use sha2::{Digest, Sha256};

use crate::{cargo, run, target_dir};

/// The server binary's name.
pub const BINARY: &str = "relang-server";
/// The files of the workspace root that ship beside the binary.
pub const DOCUMENTS: [&str; 3] = ["README.md", "LICENSE-MIT", "LICENSE-APACHE"];

/// What [`package`] wrote.
#[derive(Debug)]
pub struct Artifacts {
    /// `<name>.tar.gz`.
    pub tarball: PathBuf,
    /// `<name>.tar.gz.sha256`, one line in `sha256sum` format.
    pub checksum: PathBuf,
}

/// Builds the release binary and packs it with [`DOCUMENTS`] under `target/dist/`.
///
/// # Errors
/// When the build, `rustc -vV`, `tar` or a file operation fails.
pub fn release(root: &Path) -> anyhow::Result<()> {
    run(cargo().current_dir(root).args(["build", "--release", "-p", "server", "--bin", BINARY]))?;
    let target = target_dir(root);
    let name = format!("relang-{}-{}", env!("CARGO_PKG_VERSION"), host_triple()?);
    let mut files = vec![target.join("release").join(BINARY)];
    files.extend(DOCUMENTS.map(|document| root.join(document)));
    let artifacts = package(&name, &files, &target.join("dist"))?;
    println!("{}\n{}", artifacts.tarball.display(), artifacts.checksum.display());
    Ok(())
}

/// The target triple of the host, from `rustc -vV`.
fn host_triple() -> anyhow::Result<String> {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_owned());
    let output = Command::new(&rustc).arg("-vV").output().context("run rustc -vV")?;
    let text = String::from_utf8(output.stdout).context("rustc -vV output is UTF-8")?;
    let host = text.lines().find_map(|line| line.strip_prefix("host: "));
    host.map(str::to_owned).context("no `host:` line in rustc -vV")
}

/// Packs `files` into `dist/<name>.tar.gz` (inside a directory `<name>/`) and writes its
/// checksum to `dist/<name>.tar.gz.sha256`. Permissions are kept, so the binary stays
/// executable.
///
/// # Errors
/// When a file is missing, or `tar` or a file operation fails.
pub fn package(name: &str, files: &[PathBuf], dist: &Path) -> anyhow::Result<Artifacts> {
    let staging = dist.join(name);
    if staging.exists() {
        fs::remove_dir_all(&staging).with_context(|| format!("remove {}", staging.display()))?;
    }
    fs::create_dir_all(&staging).with_context(|| format!("create {}", staging.display()))?;
    for file in files {
        let Some(file_name) = file.file_name() else { bail!("{} is not a file", file.display()) };
        fs::copy(file, staging.join(file_name))
            .with_context(|| format!("copy {}", file.display()))?;
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

    #[test]
    fn package_holds_the_files_in_one_directory_with_a_matching_checksum() {
        let dir = std::env::temp_dir().join(format!("xtask-release-{}", std::process::id()));
        let inputs = dir.join("in");
        fs::create_dir_all(&inputs).unwrap();
        let binary = inputs.join("relang-server");
        fs::write(&binary, "#!/bin/sh\necho hi\n").unwrap();
        fs::set_permissions(&binary, fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(inputs.join("README.md"), "# readme\n").unwrap();

        let files = [binary, inputs.join("README.md")];
        let artifacts = package("relang-9.9.9-test", &files, &dir.join("dist")).unwrap();

        let listing = Command::new("tar").arg("-tvzf").arg(&artifacts.tarball).output().unwrap();
        let listing = String::from_utf8(listing.stdout).unwrap();
        let mut names: Vec<&str> =
            listing.lines().filter_map(|line| line.split_whitespace().last()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "relang-9.9.9-test/",
                "relang-9.9.9-test/README.md",
                "relang-9.9.9-test/relang-server"
            ]
        );
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

    #[test]
    fn sha256_hex_is_the_standard_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
