//! fair-codec's integration tests: round trips, tampering, keys, crafted payloads, golden values.

mod crafted;
mod fuzz_regressions;
mod golden;
mod keys;
mod patterns;
mod roundtrip;
mod support;
mod tamper;
