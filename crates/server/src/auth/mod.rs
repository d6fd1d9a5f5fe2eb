//! Who is calling, and with which limits, as an actix extractor.
//!
//! # Overview
//! - [`Caller`]: the extractor every `/v1` handler takes; handlers read the caller's
//!   limits (for validation and the request's budget) from it.
//! - [`UnmeteredCaller`]: the same for `/v1/account/limits`, which will cost no quota.
//! - [`Auth`]: the shared part: today the server's limits, which every caller has.

mod limits;

use std::future::{Ready, ready};
use std::sync::Arc;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest, web};
use api_types::ErrorCode;
use api_types::request::{Limits, Options};
use api_types::response::AccountLimits;
use langcore::Budget;

pub(crate) use self::limits::CallerLimits;
use crate::config::Config;
use crate::error::HttpError;
use crate::state::AppState;

/// Authentication shared by all requests.
pub(crate) struct Auth {
    server: Arc<CallerLimits>,
}

impl Auth {
    pub(crate) fn new(config: &Config) -> Auth {
        Auth { server: Arc::new(CallerLimits::server(config)) }
    }
}

/// The caller of a `/v1` request; see the module docs.
pub(crate) struct Caller(Arc<CallerLimits>);

impl Caller {
    /// What request validation enforces for this caller.
    pub(crate) fn limits(&self) -> &Limits {
        self.0.request()
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

/// The caller of a request that will cost no quota (`/v1/account/limits`).
pub(crate) struct UnmeteredCaller(pub(crate) Caller);

fn admit(req: &HttpRequest) -> Result<Caller, HttpError> {
    let state = req.app_data::<web::Data<AppState>>().ok_or_else(|| {
        HttpError::new(ErrorCode::InternalError, "the route has no application state")
    })?;
    Ok(Caller(Arc::clone(&state.auth.server)))
}

impl FromRequest for Caller {
    type Error = HttpError;
    type Future = Ready<Result<Caller, HttpError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admit(req))
    }
}

impl FromRequest for UnmeteredCaller {
    type Error = HttpError;
    type Future = Ready<Result<UnmeteredCaller, HttpError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(admit(req).map(UnmeteredCaller))
    }
}
