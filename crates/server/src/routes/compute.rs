//! `/v1/compute/*`: new terms from existing ones, returned in the requested form.

use actix_web::{HttpResponse, web};
use api_types::request::{MultiTermsRequest, Options, RepeatRequest, TermRequest, TwoTermsRequest};
use fair_codec::FairCodec;
use langcore::{Budget, Language};

use crate::auth::Caller;
use crate::error::HttpError;
use crate::routes::{answer_term, register};
use crate::state::AppState;
use crate::terms::{compile, fair, output};

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, "/v1/compute/complement", web::post().to(complement));
    register(cfg, "/v1/compute/concat", web::post().to(concat));
    register(cfg, "/v1/compute/determinize", web::post().to(determinize));
    register(cfg, "/v1/compute/difference", web::post().to(difference));
    register(cfg, "/v1/compute/intersection", web::post().to(intersection));
    register(cfg, "/v1/compute/repeat", web::post().to(repeat));
    register(cfg, "/v1/compute/union", web::post().to(union));
}

/// Runs `build` on an engine thread and returns its language in the form `options` ask for.
async fn compute<F>(
    state: web::Data<AppState>,
    caller: Caller,
    options: Options,
    build: F,
) -> Result<HttpResponse, HttpError>
where
    F: Fn(&FairCodec, &Budget) -> Result<Language, HttpError> + Send + Sync + 'static,
{
    let codec = state.codec.clone();
    let answer = state
        .engine
        .run(caller.budget(&options), move |budget| {
            output(&build(&codec, budget)?, &options, &codec, budget)
        })
        .await?;
    state.respond(answer)
}

/// Combines all the terms of a multi-term request with `combine` (union, intersection or
/// concatenation of the list).
async fn combine_all(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<MultiTermsRequest>,
    combine: fn(&[&Language], &Budget) -> Result<Language, langcore::Error>,
) -> Result<HttpResponse, HttpError> {
    let (terms, options) = body.into_inner().validate(caller.limits())?;
    compute(state, caller, options, move |codec, budget| {
        let languages =
            terms.iter().map(|term| compile(term, codec, budget)).collect::<Result<Vec<_>, _>>()?;
        Ok(combine(&languages.iter().collect::<Vec<_>>(), budget)?)
    })
    .await
}

async fn union(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<MultiTermsRequest>,
) -> Result<HttpResponse, HttpError> {
    combine_all(state, caller, body, Language::union_all).await
}

async fn intersection(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<MultiTermsRequest>,
) -> Result<HttpResponse, HttpError> {
    combine_all(state, caller, body, Language::intersection_all).await
}

async fn concat(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<MultiTermsRequest>,
) -> Result<HttpResponse, HttpError> {
    combine_all(state, caller, body, Language::concat_all).await
}

async fn difference(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TwoTermsRequest>,
) -> Result<HttpResponse, HttpError> {
    let ([left, right], options) = body.into_inner().validate(caller.limits())?;
    compute(state, caller, options, move |codec, budget| {
        Ok(compile(&left, codec, budget)?.difference(&compile(&right, codec, budget)?, budget)?)
    })
    .await
}

async fn complement(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    let (term, options) = body.into_inner().validate(caller.limits())?;
    compute(state, caller, options, move |codec, budget| {
        Ok(compile(&term, codec, budget)?.complement(budget)?)
    })
    .await
}

async fn repeat(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<RepeatRequest>,
) -> Result<HttpResponse, HttpError> {
    let (term, range, options) = body.into_inner().validate(caller.limits())?;
    compute(state, caller, options, move |codec, budget| {
        Ok(compile(&term, codec, budget)?.repeat(range.min, range.max, budget)?)
    })
    .await
}

/// Always a deterministic FAIR, whatever the requested format: that is what determinize is for.
async fn determinize(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    answer_term(state, caller, body, |term, codec, budget| {
        Ok(fair(compile(term, codec, budget)?.to_dfa(budget)?, codec))
    })
    .await
}
