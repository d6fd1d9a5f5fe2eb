//! The MAC keys of a service: one that signs, any number of older ones that still verify.
//!
//! # Overview
//! - [`Keyring`] holds HMAC-SHA256 keys. [`Keyring::new`] takes the signing key; every value
//!   is signed with it. [`Keyring::with_verifying_key`] adds an older key that is only
//!   accepted, so a key can be rotated without invalidating stored values: sign with the new
//!   key, keep verifying with the old one for as long as old values must decode, then drop it.
//! - [`Keyring::development`] uses [`DEVELOPMENT_KEY`], a fixed key printed in these docs, for
//!   tests and local runs. A server without a configured key uses it and warns
//!   ([`Keyring::is_development`]).
//! - [`KeyError`]: a key shorter than [`MIN_KEY_LEN`] bytes.
//!
//! # Invariants
//! - Every key has at least [`MIN_KEY_LEN`] bytes (HMAC-SHA256's output size; shorter keys
//!   weaken the MAC), except that nothing stops a caller from configuring a guessable one.
//! - `Debug` never prints key material.
//! - Deliberately absent: key identifiers in values. Verification tries the signing key, then
//!   the verifying keys in order; each attempt is a constant-time comparison, so values leak
//!   nothing about which key signed them.

use std::fmt;

use hmac::{KeyInit, Mac};

/// HMAC with SHA-256, the MAC of FAIR values.
pub(crate) type HmacSha256 = hmac::Hmac<sha2::Sha256>;

/// The shortest key accepted, in bytes: the output size of SHA-256.
pub const MIN_KEY_LEN: usize = 32;

/// The development key: public, fixed forever, and therefore **not a secret**. Values signed
/// with it prove nothing about who made them; configure a random key of at least
/// [`MIN_KEY_LEN`] bytes for any deployment that others can reach. The golden test values
/// of this crate are signed with it.
pub const DEVELOPMENT_KEY: &[u8] = b"relang FAIR development key: public, NOT a secret";

/// The keys that sign and verify FAIR values.
///
/// # Example
/// ```
/// use fair_codec::{DecodeErrorKind, FairCodec, Keyring};
/// use langcore::Dfa;
///
/// let old = Keyring::new(b"an old key of at least 32 bytes, from config")?;
/// let stored = FairCodec::new(old).encode(&Dfa::from_regex("a+")?.to_graph());
///
/// // Rotation: sign with the new key, still accept the old one.
/// let rotated = Keyring::new(b"the new key of at least 32 bytes, from config")?
///     .with_verifying_key(b"an old key of at least 32 bytes, from config")?;
/// assert!(FairCodec::new(rotated).decode(&stored).is_ok());
///
/// // Once the old key is dropped, its values no longer decode.
/// let new_only = Keyring::new(b"the new key of at least 32 bytes, from config")?;
/// let err = FairCodec::new(new_only).decode(&stored).unwrap_err();
/// assert_eq!(err.kind(), &DecodeErrorKind::MacMismatch);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Keyring {
    signing: HmacSha256,
    verifying: Vec<HmacSha256>,
    is_development: bool,
}

impl Keyring {
    /// A keyring that signs with `signing_key` and verifies with it alone.
    ///
    /// # Errors
    /// [`KeyError::TooShort`] when the key has fewer than [`MIN_KEY_LEN`] bytes.
    pub fn new(signing_key: &[u8]) -> Result<Keyring, KeyError> {
        let is_development = signing_key == DEVELOPMENT_KEY;
        Ok(Keyring { signing: keyed(signing_key)?, verifying: Vec::new(), is_development })
    }

    /// The keyring of [`DEVELOPMENT_KEY`], for tests and local runs only.
    pub fn development() -> Keyring {
        Keyring::new(DEVELOPMENT_KEY).expect("the development key is long enough")
    }

    /// Returns this keyring with `key` also accepted when verifying, after the signing key and
    /// the verifying keys added before it.
    ///
    /// # Errors
    /// [`KeyError::TooShort`] when the key has fewer than [`MIN_KEY_LEN`] bytes.
    pub fn with_verifying_key(mut self, key: &[u8]) -> Result<Keyring, KeyError> {
        self.verifying.push(keyed(key)?);
        Ok(self)
    }

    /// Whether values are signed with the public [`DEVELOPMENT_KEY`], however the keyring was
    /// made: a server warns when this is true.
    pub fn is_development(&self) -> bool {
        self.is_development
    }

    /// The number of keys that verify, the signing key included.
    pub fn n_keys(&self) -> usize {
        1 + self.verifying.len()
    }

    /// The MAC of `data` under the signing key.
    pub(crate) fn sign(&self, data: &[u8]) -> [u8; TAG_LEN] {
        let mut mac = self.signing.clone();
        mac.update(data);
        mac.finalize().into_bytes().into()
    }

    /// Whether `tag` is the MAC of `data` under any key, each compared in constant time.
    pub(crate) fn verify(&self, data: &[u8], tag: &[u8]) -> bool {
        std::iter::once(&self.signing).chain(&self.verifying).any(|key| {
            let mut mac = key.clone();
            mac.update(data);
            mac.verify_slice(tag).is_ok()
        })
    }
}

/// The length of a MAC tag in bytes: the whole HMAC-SHA256 output, not truncated.
pub(crate) const TAG_LEN: usize = 32;

fn keyed(key: &[u8]) -> Result<HmacSha256, KeyError> {
    if key.len() < MIN_KEY_LEN {
        return Err(KeyError::TooShort { len: key.len(), min: MIN_KEY_LEN });
    }
    Ok(HmacSha256::new_from_slice(key).expect("HMAC accepts keys of any length"))
}

impl fmt::Debug for Keyring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Keyring")
            .field("n_keys", &self.n_keys())
            .field("is_development", &self.is_development)
            .finish_non_exhaustive()
    }
}

/// A key that cannot be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum KeyError {
    /// The key is shorter than the minimum.
    TooShort {
        /// The key's length in bytes.
        len: usize,
        /// The minimum, [`MIN_KEY_LEN`].
        min: usize,
    },
}

impl fmt::Display for KeyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyError::TooShort { len, min } => {
                write!(f, "a FAIR key of {len} bytes is too short: at least {min} are needed")
            }
        }
    }
}

impl std::error::Error for KeyError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_keys_are_rejected() {
        assert_eq!(Keyring::new(&[7; 31]).unwrap_err(), KeyError::TooShort { len: 31, min: 32 });
        assert!(Keyring::new(&[7; 32]).is_ok());
        let err = Keyring::development().with_verifying_key(b"short").unwrap_err();
        assert_eq!(err.to_string(), "a FAIR key of 5 bytes is too short: at least 32 are needed");
        assert!(DEVELOPMENT_KEY.len() >= MIN_KEY_LEN);
    }

    #[test]
    fn every_key_verifies_and_only_the_first_signs() {
        let ring = Keyring::new(&[1; 32]).unwrap().with_verifying_key(&[2; 40]).unwrap();
        let by_old = Keyring::new(&[2; 40]).unwrap().sign(b"data");
        assert!(ring.verify(b"data", &ring.sign(b"data")));
        assert!(ring.verify(b"data", &by_old));
        assert!(!ring.verify(b"other", &by_old));
        assert!(!ring.verify(b"data", &by_old[..31]), "truncated tags never verify");
        assert_ne!(ring.sign(b"data"), by_old);
        assert_eq!(ring.n_keys(), 2);
    }

    #[test]
    fn debug_hides_the_keys() {
        let shown = format!("{:?}", Keyring::development());
        assert_eq!(shown, "Keyring { n_keys: 1, is_development: true, .. }");
        assert!(!format!("{:?}", Keyring::new(&[b'k'; 32]).unwrap()).contains("kkkk"));
    }
}
