//! `cargo xtask openapi`: `docs/openapi.json` from the api-types, and `docs/api.html` from
//! that file.
//!
//! Both are generated and committed; `tests/generated.rs` fails when either differs from
//! what this module would write, so a type change without regenerating fails CI.

use std::fs;
use std::path::Path;

use anyhow::Context;

use crate::api_html;

/// The OpenAPI document, relative to the workspace root.
pub const OPENAPI_JSON: &str = "docs/openapi.json";
/// The API reference page, relative to the workspace root.
pub const API_HTML: &str = "docs/api.html";

/// Every generated file: its path relative to the root and its content.
///
/// # Errors
/// When the document cannot be rendered (a reference to a missing schema, say).
pub fn generated() -> anyhow::Result<Vec<(&'static str, String)>> {
    let doc = serde_json::to_value(api_types::openapi()).context("serialize the OpenAPI")?;
    let json = serde_json::to_string_pretty(&doc).context("serialize the OpenAPI")? + "\n";
    let html = api_html::render(&doc)?;
    Ok(vec![(OPENAPI_JSON, json), (API_HTML, html)])
}

/// Writes every generated file under `root`.
///
/// # Errors
/// When a file cannot be written.
pub fn write(root: &Path) -> anyhow::Result<()> {
    for (path, text) in generated()? {
        fs::write(root.join(path), text).with_context(|| format!("write {path}"))?;
        println!("wrote {path}");
    }
    Ok(())
}

/// The generated files under `root` that are missing or differ from what [`write()`] would
/// write.
///
/// # Errors
/// When the files cannot be generated.
pub fn stale(root: &Path) -> anyhow::Result<Vec<&'static str>> {
    Ok(generated()?
        .into_iter()
        .filter(|(path, text)| fs::read_to_string(root.join(path)).ok().as_ref() != Some(text))
        .map(|(path, _)| path)
        .collect())
}
