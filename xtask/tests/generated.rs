//! Generated files are fresh: what `cargo xtask openapi` would write is what is committed.

/// Fails when an api-types change was not followed by `cargo xtask openapi`.
#[test]
fn openapi_and_api_reference_are_fresh() {
    let stale = xtask::openapi::stale(&xtask::repo_root()).expect("the document renders");
    assert!(
        stale.is_empty(),
        "{stale:?} are stale: the api-types changed; run `cargo xtask openapi` and commit the result"
    );
}
