//! A caller's limits: what validation enforces, the budget of its requests, and the
//! `AccountLimits` it is told about.
//!
//! # Invariants
//! A token's limits never exceed the server's (`--max-terms`, `--max-timeout-ms`,
//! `--max-states`): the flags are the ceiling for every caller and the limits of everyone
//! when auth is off. A caller's default timeout is the server's, cut to the caller's
//! `maxTimeout`, so a request without `execution.timeout` never runs longer than allowed.

use std::time::Duration;

use api_types::request::{Options, RequestLimits};
use api_types::response::{AccountLimits, AccountLimitsTag, MAX_SAFE_INTEGER};
use langcore::Budget;

use crate::config::Config;

/// A caller's limits as the tokens file writes them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TokenLimits {
    /// Requests per quota period.
    pub(crate) max_requests_count: u64,
    /// Requests per second; 0 for no rate limit.
    pub(crate) max_requests_rate: u32,
    pub(crate) max_terms_count: u64,
    /// Milliseconds.
    pub(crate) max_timeout: u64,
    pub(crate) max_states_count: u64,
}

impl TokenLimits {
    /// No quota and no rate limit, with the given compute limits.
    pub(crate) fn unlimited(max_terms: u64, max_timeout: u64, max_states: u64) -> TokenLimits {
        TokenLimits {
            // The largest count every JSON client reads exactly.
            max_requests_count: MAX_SAFE_INTEGER,
            max_requests_rate: 0,
            max_terms_count: max_terms,
            max_timeout,
            max_states_count: max_states,
        }
    }
}

/// The limits that apply to one caller's requests.
#[derive(Clone, Debug)]
pub(crate) struct CallerLimits {
    request: RequestLimits,
    max_states: usize,
    /// Bytes for the large tables of one engine step; the server's for every caller.
    max_memory: usize,
    /// The longest pattern an answer may carry, in bytes; the server's for every caller.
    max_pattern: usize,
    default_timeout: Duration,
    report: AccountLimits,
}

impl CallerLimits {
    /// `limits`, with requests that give no timeout running for at most `default_timeout_ms`.
    pub(crate) fn new(limits: TokenLimits, default_timeout_ms: u64) -> CallerLimits {
        CallerLimits {
            request: RequestLimits {
                max_terms: usize::try_from(limits.max_terms_count).unwrap_or(usize::MAX),
                max_timeout_ms: limits.max_timeout,
            },
            max_states: usize::try_from(limits.max_states_count).unwrap_or(usize::MAX),
            max_memory: langcore::DEFAULT_MAX_MEMORY,
            max_pattern: usize::MAX,
            default_timeout: Duration::from_millis(default_timeout_ms.min(limits.max_timeout)),
            report: AccountLimits {
                kind: AccountLimitsTag::Tag,
                max_requests_count: limits.max_requests_count,
                max_requests_rate: u64::from(limits.max_requests_rate),
                max_terms_count: limits.max_terms_count,
                max_timeout: limits.max_timeout,
                max_states_count: limits.max_states_count,
            },
        }
    }

    /// The server's own limits: every caller's when auth is off, the ceiling of every token.
    pub(crate) fn server(config: &Config) -> CallerLimits {
        let limits =
            TokenLimits::unlimited(config.max_terms, config.max_timeout_ms, config.max_states);
        let (max_memory, max_pattern) = (config.max_memory_bytes(), config.max_pattern_bytes());
        CallerLimits {
            max_memory,
            max_pattern,
            ..CallerLimits::new(limits, config.default_timeout_ms)
        }
    }

    /// A token's limits, checked against the `server`'s.
    ///
    /// # Errors
    /// A message naming the first limit out of range.
    pub(crate) fn for_token(
        limits: TokenLimits,
        server: &CallerLimits,
    ) -> Result<CallerLimits, String> {
        let ceiling = &server.report;
        let exact = "the largest count every JSON client reads exactly";
        check("maxRequestsCount", limits.max_requests_count, 0, MAX_SAFE_INTEGER, exact)?;
        let terms = "the server's --max-terms";
        check("maxTermsCount", limits.max_terms_count, 2, ceiling.max_terms_count, terms)?;
        let timeout = "the server's --max-timeout-ms";
        check("maxTimeout", limits.max_timeout, 1, ceiling.max_timeout, timeout)?;
        let states = "the server's --max-states";
        check("maxStatesCount", limits.max_states_count, 1, ceiling.max_states_count, states)?;
        let default_timeout_ms = server.default_timeout.as_millis().try_into().unwrap_or(u64::MAX);
        Ok(CallerLimits {
            max_memory: server.max_memory,
            max_pattern: server.max_pattern,
            ..CallerLimits::new(limits, default_timeout_ms)
        })
    }

    /// What request validation enforces: terms and timeout.
    pub(crate) fn request(&self) -> &RequestLimits {
        &self.request
    }

    /// The time budget of a request with `options`.
    pub(crate) fn timeout(&self, options: &Options) -> Duration {
        options.timeout_ms.map_or(self.default_timeout, Duration::from_millis)
    }

    /// The budget of a request with `options`; its deadline counts from now.
    pub(crate) fn budget(&self, options: &Options) -> Budget {
        Budget::new(self.timeout(options))
            .with_max_states(self.max_states)
            .with_max_memory(self.max_memory)
            .with_max_pattern(self.max_pattern)
    }

    /// What `/v1/account/limits` reports.
    pub(crate) fn report(&self) -> &AccountLimits {
        &self.report
    }
}

/// Checks that `value` of the field `name` is within `min..=max`, `max` being `ceiling`.
fn check(name: &str, value: u64, min: u64, max: u64, ceiling: &str) -> Result<(), String> {
    if value < min {
        return Err(format!("{name} must be at least {min}, got {value}"));
    }
    if value > max {
        return Err(format!("{name} {value} is above {ceiling} ({max})"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_defaults_to_its_own_max_timeout_when_shorter() {
        let server = CallerLimits::new(TokenLimits::unlimited(10, 30_000, 1_000), 5_000);
        let token = TokenLimits { max_timeout: 200, ..TokenLimits::unlimited(3, 0, 1_000) };
        let limits = CallerLimits::for_token(token, &server).unwrap();
        assert_eq!(limits.default_timeout, Duration::from_millis(200));
        assert_eq!(limits.request(), &RequestLimits { max_terms: 3, max_timeout_ms: 200 });
        assert_eq!(limits.budget(&Options::default()).max_states(), 1_000);
        let patient = TokenLimits { max_timeout: 20_000, ..token };
        let limits = CallerLimits::for_token(patient, &server).unwrap();
        assert_eq!(limits.default_timeout, Duration::from_millis(5_000));
    }

    #[test]
    fn every_caller_gets_the_servers_memory_limit() {
        use clap::Parser;
        let config = Config::try_parse_from(["relang-server", "--max-memory-mb", "7"]).unwrap();
        let server = CallerLimits::server(&config);
        assert_eq!(server.budget(&Options::default()).max_memory(), 7 << 20);
        let token = CallerLimits::for_token(TokenLimits::unlimited(3, 100, 10), &server).unwrap();
        assert_eq!(token.budget(&Options::default()).max_memory(), 7 << 20);
    }

    #[test]
    fn token_limits_stay_within_the_servers() {
        let server = CallerLimits::new(TokenLimits::unlimited(10, 30_000, 1_000), 5_000);
        let token = TokenLimits::unlimited(10, 30_000, 1_000);
        assert!(CallerLimits::for_token(token, &server).is_ok());
        let err = |token| CallerLimits::for_token(token, &server).unwrap_err();
        assert_eq!(
            err(TokenLimits { max_states_count: 1_001, ..token }),
            "maxStatesCount 1001 is above the server's --max-states (1000)"
        );
        assert_eq!(
            err(TokenLimits { max_timeout: 0, ..token }),
            "maxTimeout must be at least 1, got 0"
        );
        assert_eq!(
            err(TokenLimits { max_requests_count: MAX_SAFE_INTEGER + 1, ..token }),
            "maxRequestsCount 9007199254740992 is above the largest count every JSON client reads \
             exactly (9007199254740991)"
        );
    }
}
