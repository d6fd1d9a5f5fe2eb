//! fair-codec integration tests.
