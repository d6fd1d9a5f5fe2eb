//! Who is calling: bearer tokens, their limits, rates and quotas, as an actix extractor.
//!
//! # Overview
//! - [`Caller`]: the extractor every `/v1` handler takes. It admits the request (below) and
//!   counts it against the token's quota; handlers read the caller's limits from it.
//! - [`UnmeteredCaller`]: the same without the quota, for `/v1/account/limits`.
//! - [`Auth`]: the shared part: the server's limits, and with a tokens file the
//!   [`TokenTable`] (swapped whole on reload) and the [`QuotaCounter`].
//! - [`hash_token`]: the digest of a token, for the `hash-token` subcommand.
//!
//! Without a tokens file auth is off: every request, with any `Authorization` header or
//! none, is a caller with the server's limits, no quota and no rate limit.
//!
//! # Admission, in order
//! 1. `Authorization: Bearer <token>` present and well formed, else 401
//!    `MissingOrMalformedToken`;
//! 2. the token's digest is in the table, else 401 `InvalidToken`;
//! 3. the token's rate (`maxRequestsRate` per second) has room, else 429 `RateLimited` with
//!    `Retry-After` and `RateLimit`: in this replica's memory, or with `--redis-url` in Redis
//!    for all replicas ([`SharedRate`]);
//! 4. (`Caller` only) the request fits in the token's quota for the period, else 403
//!    `QuotaExceeded`.
//!
//! # Invariants
//! The token is hashed as soon as it is read and never stored, logged or put in a message;
//! the table is searched in constant time. A reload swaps the table atomically: requests
//! already admitted keep the limits they were admitted with, and nothing is refused
//! while the file is read.

mod limits;
mod quota;
mod shared_rate;
mod tokens;

use std::future::{Future, Ready, ready};
use std::io::Read;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::http::header::{AUTHORIZATION, HeaderValue};
use actix_web::{FromRequest, HttpRequest, web};
use api_types::ErrorCode;
use api_types::request::{Options, RequestLimits};
use api_types::response::AccountLimits;
use arc_swap::ArcSwap;
use langcore::Budget;

pub(crate) use self::limits::CallerLimits;
use self::quota::QuotaCounter;
use self::shared_rate::SharedRate;
pub(crate) use self::tokens::TokensError;
use self::tokens::{TokenDigest, TokenTable};
use crate::config::{Config, ConfigError};
use crate::error::HttpError;
use crate::redis_link::RedisLink;

/// Authentication and accounting shared by all requests.
pub(crate) struct Auth {
    server: Arc<CallerLimits>,
    tokens: Option<Tokens>,
}

/// Auth on: the tokens file, its table, the quota counters and, with Redis, the rate limit
/// shared by the replicas.
struct Tokens {
    path: PathBuf,
    table: ArcSwap<TokenTable>,
    quota: QuotaCounter,
    shared_rate: Option<SharedRate>,
}

/// Whether admitting a request counts against the token's quota.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Metering {
    Counted,
    Free,
}

impl Auth {
    /// Auth as `config` sets it up: off without a tokens file, on with one, counting in
    /// `redis` when there is one.
    ///
    /// # Errors
    /// When the tokens file cannot be used.
    pub(crate) fn new(
        config: &Config,
        redis: Option<&Arc<RedisLink>>,
    ) -> Result<Auth, ConfigError> {
        let server = Arc::new(CallerLimits::server(config));
        let Some(path) = &config.tokens_file else { return Ok(Auth { server, tokens: None }) };
        let table = TokenTable::load(path, &server, None).map_err(ConfigError::new)?;
        let quota = match redis {
            Some(link) => QuotaCounter::in_redis(config.quota_period, Arc::clone(link)),
            None => QuotaCounter::in_memory(config.quota_period),
        };
        let shared_rate =
            redis.map(|link| SharedRate::new(Arc::clone(link), config.rate_limit_redis_outage));
        tracing::info!(
            tokens = table.len(),
            quota_period = %config.quota_period,
            quota_store = if redis.is_some() { "redis" } else { "memory" },
            rate_limit_redis_outage = config.rate_limit_redis_outage.as_str(),
            "auth on"
        );
        let table = ArcSwap::from_pointee(table);
        let tokens = Tokens { path: path.clone(), table, quota, shared_rate };
        Ok(Auth { server, tokens: Some(tokens) })
    }

    /// Reads the tokens file again and swaps the new table in; on error the old table stays.
    /// Returns the number of tokens, or `None` when auth is off.
    ///
    /// # Errors
    /// When the file cannot be used.
    pub(crate) fn reload(&self) -> Result<Option<usize>, TokensError> {
        let Some(tokens) = &self.tokens else { return Ok(None) };
        let table = TokenTable::load(&tokens.path, &self.server, Some(&tokens.table.load()))?;
        let len = table.len();
        tokens.table.store(Arc::new(table));
        Ok(Some(len))
    }

    /// Admits a request carrying `header` (see the module docs for the order of checks).
    async fn admit(
        &self,
        header: Option<&HeaderValue>,
        metering: Metering,
    ) -> Result<Caller, HttpError> {
        let Some(tokens) = &self.tokens else { return Ok(Caller(Arc::clone(&self.server))) };
        let digest = bearer_digest(header)?;
        let entry = tokens.table.load().find(&digest).ok_or_else(|| {
            HttpError::new(ErrorCode::InvalidToken, "the bearer token is not known to this server")
        })?;
        match &tokens.shared_rate {
            Some(shared) => shared.check(&entry).await?,
            None => entry.check_rate()?,
        }
        if metering == Metering::Counted {
            tokens.quota.charge(&entry.digest, entry.limits.report().max_requests_count).await?;
        }
        Ok(Caller(Arc::clone(&entry.limits)))
    }
}

/// The digest of the token in an `Authorization: Bearer <token>` header. The scheme is
/// case-insensitive; the token is RFC 6750's `b64token` (letters, digits, `-._~+/`, then
/// `=` padding).
fn bearer_digest(header: Option<&HeaderValue>) -> Result<TokenDigest, HttpError> {
    let malformed = |problem: &str| {
        HttpError::new(
            ErrorCode::MissingOrMalformedToken,
            format!("{problem}: send `Authorization: Bearer <token>`"),
        )
    };
    let header = header.ok_or_else(|| malformed("no Authorization header"))?;
    let value = header.to_str().map_err(|_| malformed("the Authorization header is not ASCII"))?;
    let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(malformed("the Authorization header is not a bearer token"));
    }
    if !is_b64token(token) {
        return Err(malformed("the bearer token is empty or has characters a token cannot have"));
    }
    Ok(TokenDigest::of(token))
}

fn is_b64token(token: &str) -> bool {
    let body = token.trim_end_matches('=');
    !body.is_empty()
        && body.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"-._~+/".contains(&byte))
}

/// The SHA-256 digest, in hex, of the token read from `input` (one line; a final newline is
/// not part of the token), for the tokens file.
///
/// # Errors
/// When `input` cannot be read or is not one bearer token.
pub fn hash_token(mut input: impl Read) -> std::io::Result<String> {
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let token = text.strip_suffix('\n').unwrap_or(&text);
    let token = token.strip_suffix('\r').unwrap_or(token);
    if !is_b64token(token) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "expected one bearer token on standard input: letters, digits and -._~+/ then \
             optional = padding",
        ));
    }
    Ok(TokenDigest::of(token).to_hex())
}

/// The caller of a `/v1` request, admitted and counted; see the module docs.
pub(crate) struct Caller(Arc<CallerLimits>);

impl Caller {
    /// What request validation enforces for this caller.
    pub(crate) fn limits(&self) -> &RequestLimits {
        self.0.request()
    }

    /// The time budget of this caller's request with `options`.
    pub(crate) fn timeout(&self, options: &Options) -> Duration {
        self.0.timeout(options)
    }

    /// The budget of this caller's request with `options`; its deadline counts from now.
    pub(crate) fn budget(&self, options: &Options) -> Budget {
        self.0.budget(options)
    }

    /// The caller's limits as `/v1/account/limits` reports them.
    pub(crate) fn report(&self) -> &AccountLimits {
        self.0.report()
    }
}

/// The caller of a request that costs no quota (`/v1/account/limits`): authenticated and
/// rate limited only.
pub(crate) struct UnmeteredCaller(pub(crate) Caller);

type CallerFuture<T> = Pin<Box<dyn Future<Output = Result<T, HttpError>>>>;

/// What admitting a request gives: decided at once (auth off: every caller has the
/// server's limits), or the checks of a token, which may wait on the quota store.
pub(crate) enum Admission<T> {
    /// Decided without waiting: no allocation, no copy of the header or of [`Auth`].
    Decided(Ready<Result<T, HttpError>>),
    /// The token's checks.
    Checking(CallerFuture<T>),
}

impl<T: 'static> Admission<T> {
    /// The admitted caller made into `f` of it, when admitted.
    fn map<U: 'static>(self, f: fn(T) -> U) -> Admission<U> {
        match self {
            Admission::Decided(result) => Admission::Decided(ready(result.into_inner().map(f))),
            Admission::Checking(checks) => {
                Admission::Checking(Box::pin(async move { checks.await.map(f) }))
            }
        }
    }
}

impl<T: Unpin> Future for Admission<T> {
    type Output = Result<T, HttpError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Admission::Decided(result) => Pin::new(result).poll(cx),
            Admission::Checking(checks) => checks.as_mut().poll(cx),
        }
    }
}

/// Admits `req` with `metering`: at once when auth is off, else on its own copy of
/// [`Auth`] and the header.
fn admit(req: &HttpRequest, metering: Metering) -> Admission<Caller> {
    let Some(auth) = req.app_data::<web::Data<Auth>>() else {
        let err = HttpError::new(ErrorCode::InternalError, "the route has no authentication");
        return Admission::Decided(ready(Err(err)));
    };
    if auth.tokens.is_none() {
        return Admission::Decided(ready(Ok(Caller(Arc::clone(&auth.server)))));
    }
    let auth = auth.clone();
    let header = req.headers().get(AUTHORIZATION).cloned();
    Admission::Checking(Box::pin(async move { auth.admit(header.as_ref(), metering).await }))
}

impl FromRequest for Caller {
    type Error = HttpError;
    type Future = Admission<Caller>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        admit(req, Metering::Counted)
    }
}

impl FromRequest for UnmeteredCaller {
    type Error = HttpError;
    type Future = Admission<UnmeteredCaller>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        admit(req, Metering::Free).map(UnmeteredCaller)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(header: Option<&str>, expected: Result<&str, &str>) {
        let header = header.map(|value| HeaderValue::from_str(value).unwrap());
        let result = bearer_digest(header.as_ref()).map(TokenDigest::to_hex);
        match (result, expected) {
            (Ok(digest), Ok(token)) => assert_eq!(digest, TokenDigest::of(token).to_hex()),
            (Err(err), Err(problem)) => {
                assert_eq!(err.code(), ErrorCode::MissingOrMalformedToken);
                assert!(err.to_string().contains(problem), "{err}");
            }
            (result, expected) => panic!("{header:?}: {result:?}, expected {expected:?}"),
        }
    }

    #[test]
    fn reads_bearer_tokens() {
        check(Some("Bearer abc"), Ok("abc"));
        check(Some("bearer a-b.c~d+e/f=="), Ok("a-b.c~d+e/f=="));
        check(None, Err("no Authorization header"));
        check(Some("Basic YWxhZGRpbjpvcGVu"), Err("not a bearer token"));
        check(Some("Bearer"), Err("empty"));
        check(Some("Bearer "), Err("empty"));
        check(Some("Bearer a b"), Err("characters a token cannot have"));
        check(Some("Bearer =="), Err("empty"));
        check(Some("Bearer a=b"), Err("characters a token cannot have"));
    }

    #[test]
    fn hashes_the_token_on_standard_input() {
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assert_eq!(hash_token("abc".as_bytes()).unwrap(), abc);
        assert_eq!(hash_token("abc\n".as_bytes()).unwrap(), abc);
        assert_eq!(hash_token("abc\r\n".as_bytes()).unwrap(), abc);
        for bad in ["", "\n", "a b\n", "abc\n\n"] {
            assert!(hash_token(bad.as_bytes()).is_err(), "{bad:?}");
        }
    }
}
