//! Helpers that build FAIR values by hand, from the format as the crate docs specify it.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use fair_codec::{DEVELOPMENT_KEY, FairCodec, Keyring};
use hmac::{KeyInit, Mac};

/// The length of the MAC tag.
pub(crate) const TAG_LEN: usize = 32;

pub(crate) fn codec() -> FairCodec {
    FairCodec::new(Keyring::development())
}

/// The parts of a value: version, flags, payload (the tag is dropped).
pub(crate) fn open(text: &str) -> (u8, u8, Vec<u8>) {
    let bytes = URL_SAFE_NO_PAD.decode(text).expect("a value from the encoder");
    (bytes[0], bytes[1], bytes[2..bytes.len() - TAG_LEN].to_vec())
}

/// A value with the given parts, signed with `key` as the format specifies.
pub(crate) fn seal_with(key: &[u8], version: u8, flags: u8, payload: &[u8]) -> String {
    let mut bytes = vec![version, flags];
    bytes.extend_from_slice(payload);
    let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(key).expect("any key length");
    mac.update(&bytes);
    bytes.extend_from_slice(&mac.finalize().into_bytes());
    URL_SAFE_NO_PAD.encode(bytes)
}

/// A value with the given parts, signed with the development key.
pub(crate) fn seal(version: u8, flags: u8, payload: &[u8]) -> String {
    seal_with(DEVELOPMENT_KEY, version, flags, payload)
}
