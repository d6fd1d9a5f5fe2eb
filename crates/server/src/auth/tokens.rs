//! The tokens file: SHA-256 digests of bearer tokens, each with its limits and rate limiter.
//!
//! # Overview
//! - [`TokenDigest`]: the SHA-256 of a token, the only form in which a token is kept.
//! - [`TokenTable`]: the parsed, checked file; [`TokenTable::find`] looks a digest up in
//!   constant time.
//! - [`TokenEntry`]: one token's limits and its `governor` rate limiter.
//!
//! # File format
//! ```toml
//! [[token]]
//! label = "ci"                 # optional, for logs
//! digest = "5e884898da28...42" # printf %s TOKEN | sha256sum, or relang-server hash-token
//! maxRequestsCount = 100000    # per quota period (--quota-period)
//! maxRequestsRate = 10         # per second; 0 = no rate limit
//! maxTermsCount = 10
//! maxTimeout = 30000           # milliseconds
//! maxStatesCount = 100000
//! ```
//!
//! # Invariants
//! Digests are unique; every limit is within the server's own (`--max-terms`,
//! `--max-timeout-ms`, `--max-states`), so a FAIR value the server returns to a token always
//! decodes again. Error messages name a token by position and label, never by digest, and
//! TOML errors are reported by line and column without the offending text (an operator who
//! pastes a token instead of its digest does not find it in the log).

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use api_types::ErrorCode;
use governor::clock::Clock;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use subtle::{ConditionallySelectable, ConstantTimeEq};

use crate::auth::limits::{CallerLimits, TokenLimits};
use crate::error::HttpError;
use crate::metrics::rate_limit_decision;

/// The SHA-256 digest of a bearer token.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct TokenDigest([u8; 32]);

impl TokenDigest {
    /// The digest of `token` (its UTF-8 bytes, as sent after `Bearer `).
    pub(crate) fn of(token: &str) -> TokenDigest {
        TokenDigest(Sha256::digest(token.as_bytes()).into())
    }

    /// 64 lower-case hexadecimal digits.
    pub(crate) fn to_hex(self) -> String {
        self.0.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    fn from_hex(text: &str) -> Option<TokenDigest> {
        if text.len() != 64 || !text.is_ascii() {
            return None;
        }
        let mut bytes = [0; 32];
        for (byte, pair) in bytes.iter_mut().zip(text.as_bytes().chunks_exact(2)) {
            *byte = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
        }
        Some(TokenDigest(bytes))
    }
}

/// Digests are not secrets, but there is no reason to print them either.
impl fmt::Debug for TokenDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenDigest(..)")
    }
}

/// One token of the file.
pub(crate) struct TokenEntry {
    pub(crate) digest: TokenDigest,
    pub(crate) limits: Arc<CallerLimits>,
    /// `None` when `maxRequestsRate` is 0.
    rate: Option<Arc<DefaultDirectRateLimiter>>,
}

impl TokenEntry {
    /// Takes one request from the token's rate.
    ///
    /// # Errors
    /// 429 `RateLimited` with `Retry-After`: the whole seconds until the next request fits.
    pub(crate) fn check_rate(&self) -> Result<(), HttpError> {
        let Some(limiter) = &self.rate else { return Ok(()) };
        match limiter.check() {
            Ok(()) => {
                rate_limit_decision("allowed");
                Ok(())
            }
            Err(not_until) => {
                rate_limit_decision("limited");
                let rate = u32::try_from(self.limits.report().max_requests_rate);
                let wait = not_until.wait_time_from(limiter.clock().now());
                Err(rate_limited(rate.unwrap_or(u32::MAX), wait))
            }
        }
    }
}

/// 429 `RateLimited` for a token over its rate of `rate` requests per second, which has to
/// wait `wait`: `Retry-After` in whole seconds (rounded up, at least 1) and the `RateLimit`
/// headers.
pub(crate) fn rate_limited(rate: u32, wait: Duration) -> HttpError {
    let seconds = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
    HttpError::new(
        ErrorCode::RateLimited,
        format!("over the token's rate of {rate} requests per second; retry in {seconds} s"),
    )
    .with_retry_after(seconds)
    .with_rate_limit(rate)
}

/// Every token of the file, checked.
pub(crate) struct TokenTable {
    entries: Vec<Arc<TokenEntry>>,
}

impl TokenTable {
    /// Reads and checks the file at `path`. Tokens of `previous` whose digest and rate are
    /// unchanged keep their rate limiter, so a reload does not reset anyone's rate.
    ///
    /// # Errors
    /// The file cannot be read, is not the format above, or breaks an invariant.
    pub(crate) fn load(
        path: &Path,
        server: &CallerLimits,
        previous: Option<&TokenTable>,
    ) -> Result<TokenTable, TokensError> {
        let error = |message: String| TokensError { path: path.to_owned(), message };
        let text = std::fs::read_to_string(path).map_err(|err| error(err.to_string()))?;
        let file: TokensFile =
            toml::from_str(&text).map_err(|err| error(toml_error(&text, &err)))?;
        let kept: HashMap<TokenDigest, &Arc<TokenEntry>> = previous
            .map(|table| table.entries.iter().map(|entry| (entry.digest, entry)).collect())
            .unwrap_or_default();
        let mut entries: Vec<Arc<TokenEntry>> = Vec::with_capacity(file.tokens.len());
        for (idx, record) in file.tokens.into_iter().enumerate() {
            let name = record.name(idx);
            let entry = record
                .into_entry(server, &kept)
                .map_err(|message| error(format!("{name}: {message}")))?;
            if entries.iter().any(|other| other.digest == entry.digest) {
                return Err(error(format!("{name}: the same digest appears twice")));
            }
            entries.push(Arc::new(entry));
        }
        Ok(TokenTable { entries })
    }

    /// The number of tokens.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// The entry of `digest`. Compares against every entry in constant time, so the time
    /// taken depends on the number of tokens only.
    pub(crate) fn find(&self, digest: &TokenDigest) -> Option<Arc<TokenEntry>> {
        let mut found = subtle::Choice::from(0);
        let mut position = 0u64;
        for (idx, entry) in self.entries.iter().enumerate() {
            let same = entry.digest.0.ct_eq(&digest.0);
            position.conditional_assign(&(idx as u64), same);
            found |= same;
        }
        let position = usize::try_from(position).ok()?;
        bool::from(found).then(|| Arc::clone(&self.entries[position]))
    }
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokensFile {
    #[serde(default, rename = "token")]
    tokens: Vec<TokenRecord>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TokenRecord {
    label: Option<String>,
    digest: String,
    max_requests_count: u64,
    max_requests_rate: u32,
    max_terms_count: u64,
    max_timeout: u64,
    max_states_count: u64,
}

impl TokenRecord {
    /// How messages name the record at `idx`: by position and label, never by digest.
    fn name(&self, idx: usize) -> String {
        match &self.label {
            Some(label) => format!("token {} ({label:?})", idx + 1),
            None => format!("token {}", idx + 1),
        }
    }

    /// The checked entry. The entry of the same digest in `kept` lends its rate limiter
    /// when the rate is unchanged.
    fn into_entry(
        self,
        server: &CallerLimits,
        kept: &HashMap<TokenDigest, &Arc<TokenEntry>>,
    ) -> Result<TokenEntry, String> {
        let digest = TokenDigest::from_hex(&self.digest)
            .ok_or("`digest` must be 64 hexadecimal digits (a SHA-256)")?;
        let limits = CallerLimits::for_token(
            TokenLimits {
                max_requests_count: self.max_requests_count,
                max_requests_rate: self.max_requests_rate,
                max_terms_count: self.max_terms_count,
                max_timeout: self.max_timeout,
                max_states_count: self.max_states_count,
            },
            server,
        )?;
        let rate = match kept.get(&digest) {
            Some(old)
                if old.limits.report().max_requests_rate == limits.report().max_requests_rate =>
            {
                old.rate.clone()
            }
            _ => NonZeroU32::new(self.max_requests_rate)
                .map(|rate| Arc::new(RateLimiter::direct(Quota::per_second(rate)))),
        };
        Ok(TokenEntry { digest, limits: Arc::new(limits), rate })
    }
}

/// A TOML error by position only: the offending text might be a pasted token.
fn toml_error(text: &str, err: &toml::de::Error) -> String {
    match err.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.chars().rev().take_while(|&c| c != '\n').count() + 1;
            format!("line {line}, column {column}: {}", err.message())
        }
        None => err.message().to_owned(),
    }
}

/// A tokens file that cannot be used.
#[derive(Debug)]
pub(crate) struct TokensError {
    path: PathBuf,
    message: String,
}

impl fmt::Display for TokensError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tokens file {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for TokensError {}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// A tokens file with `text` in a fresh temporary path.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(text: &str) -> TempFile {
            static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
            let idx = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let path = std::env::temp_dir()
                .join(format!("relang-tokens-unit-{}-{idx}.toml", std::process::id()));
            std::fs::File::create(&path).unwrap().write_all(text.as_bytes()).unwrap();
            TempFile(path)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    fn server() -> CallerLimits {
        CallerLimits::new(TokenLimits::unlimited(10, 30_000, 100_000), 5_000)
    }

    fn entry(digest: &str, rate: u32, terms: u64) -> String {
        format!(
            "[[token]]\ndigest = \"{digest}\"\nmaxRequestsCount = 5\nmaxRequestsRate = {rate}\n\
             maxTermsCount = {terms}\nmaxTimeout = 1000\nmaxStatesCount = 500\n"
        )
    }

    #[track_caller]
    fn load_err(text: &str) -> String {
        let file = TempFile::new(text);
        match TokenTable::load(&file.0, &server(), None) {
            Ok(_) => panic!("loaded: {text}"),
            Err(err) => err.to_string(),
        }
    }

    #[test]
    fn digests_are_sha256_in_hex() {
        let digest = TokenDigest::of("abc");
        assert_eq!(
            digest.to_hex(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(TokenDigest::from_hex(&digest.to_hex().to_uppercase()) == Some(digest));
        assert!(TokenDigest::from_hex("abc").is_none());
        assert!(TokenDigest::from_hex(&"g".repeat(64)).is_none());
        assert!(TokenDigest::from_hex(&"é".repeat(32)).is_none());
        assert_eq!(format!("{digest:?}"), "TokenDigest(..)");
    }

    /// The table of a file holding `entries`, loaded after `previous`.
    fn table(entries: &[String], previous: Option<&TokenTable>) -> TokenTable {
        let file = TempFile::new(&entries.concat());
        TokenTable::load(&file.0, &server(), previous).unwrap()
    }

    #[test]
    fn finds_tokens_by_digest() {
        let (alice, bob) = (TokenDigest::of("alice"), TokenDigest::of("bob"));
        let table = table(&[entry(&alice.to_hex(), 0, 2), entry(&bob.to_hex(), 3, 4)], None);
        assert_eq!(table.len(), 2);
        assert_eq!(table.find(&bob).unwrap().limits.report().max_terms_count, 4);
        assert_eq!(table.find(&alice).unwrap().limits.report().max_terms_count, 2);
        assert!(table.find(&TokenDigest::of("carol")).is_none());
    }

    #[test]
    fn reloading_keeps_the_rate_state_of_unchanged_tokens() {
        let (kept, changed) = (TokenDigest::of("kept"), TokenDigest::of("changed"));
        let old = table(&[entry(&kept.to_hex(), 1, 2), entry(&changed.to_hex(), 1, 2)], None);
        old.find(&kept).unwrap().check_rate().unwrap();
        old.find(&changed).unwrap().check_rate().unwrap();
        let new = table(&[entry(&kept.to_hex(), 1, 3), entry(&changed.to_hex(), 2, 2)], Some(&old));
        assert_eq!(new.find(&kept).unwrap().limits.report().max_terms_count, 3);
        // Same rate: the request above still counts. A new rate starts afresh.
        let err = new.find(&kept).unwrap().check_rate().unwrap_err();
        assert_eq!(err.retry_after(), Some(1));
        new.find(&changed).unwrap().check_rate().unwrap();
        // An empty file is no tokens.
        assert_eq!(table(&[], Some(&new)).len(), 0);
    }

    #[test]
    fn rejects_bad_files_without_echoing_them() {
        let digest = TokenDigest::of("t").to_hex();
        let pasted = "[[token]]\ndigest = \"0123\"\ntoken = \"s3cret-token\"\n";
        let message = load_err(pasted);
        assert!(message.contains("line 3, column 1: unknown field `token`"), "{message}");
        assert!(!message.contains("s3cret"), "{message}");
        let message = load_err(
            "[[token]]\ndigest = \"s3cret-token\"\nlabel = \"x\"\nmaxRequestsCount = 1\nmaxRequestsRate = 0\nmaxTermsCount = 2\nmaxTimeout = 1\nmaxStatesCount = 1\n",
        );
        assert!(message.contains("token 1 (\"x\"): `digest` must be 64 hexadecimal"), "{message}");
        assert!(!message.contains("s3cret"), "{message}");
        assert!(
            load_err(&format!("{}{}", entry(&digest, 0, 2), entry(&digest, 0, 2)))
                .contains("token 2: the same digest appears twice")
        );
        assert!(
            load_err(&entry(&digest, 0, 11))
                .contains("maxTermsCount 11 is above the server's --max-terms (10)")
        );
        assert!(load_err(&entry(&digest, 0, 1)).contains("maxTermsCount must be at least 2"));
        assert!(load_err("[[token]]\ndigest = \"x\"\n").contains("missing field"));
        let missing = TokenTable::load(Path::new("/nonexistent/tokens.toml"), &server(), None);
        assert!(
            missing
                .err()
                .unwrap()
                .to_string()
                .starts_with("tokens file /nonexistent/tokens.toml: ")
        );
    }
}
