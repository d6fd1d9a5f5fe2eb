//! Style rules as tests, so `cargo test --workspace` is the gate.

use std::fs;
use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the repo root").into()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|err| panic!("{}: {err}", dir.display())) {
        let path = entry.expect("readable directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "target") {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// Every Rust file says what it is in a `//!` header on its first line.
#[test]
fn every_rust_file_starts_with_a_module_doc() {
    let root = repo_root();
    let mut files = Vec::new();
    rust_files(&root.join("crates"), &mut files);
    rust_files(&root.join("xtask"), &mut files);
    assert!(files.len() > 10, "found only {} files", files.len());
    let missing: Vec<_> = files
        .iter()
        .filter(|path| !fs::read_to_string(path).unwrap_or_default().starts_with("//!"))
        .map(|path| path.strip_prefix(&root).unwrap_or(path).display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a `//!` module doc: {missing:?}");
}

/// Every path that docs/ARCHITECTURE.md names exists (langcore module paths are relative to
/// `crates/langcore/src`).
#[test]
fn architecture_names_only_existing_paths() {
    let root = repo_root();
    let text = fs::read_to_string(root.join("docs/ARCHITECTURE.md")).expect("docs/ARCHITECTURE.md");
    let named: Vec<&str> = text
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|token| !token.contains(' '))
        .filter(|token| token.ends_with(".rs") || token.ends_with(".md") || token.ends_with('/'))
        .collect();
    assert!(named.len() > 10, "found only {} paths", named.len());
    let missing: Vec<_> = named
        .into_iter()
        .filter(|path| {
            !root.join(path).exists() && !root.join("crates/langcore/src").join(path).exists()
        })
        .collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names missing paths: {missing:?}");
}
