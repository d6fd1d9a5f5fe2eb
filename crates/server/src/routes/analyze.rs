//! `/v1/analyze/*`: questions about one or two terms.

use actix_web::{HttpResponse, web};
use api_types::request::{TermRequest, TwoTermsRequest};
use api_types::response::{Boolean, Cardinality, Length, Text};
use langcore::{Budget, Language};
use serde::Serialize;

use crate::auth::Caller;
use crate::error::HttpError;
use crate::routes::{answer_term, register};
use crate::state::AppState;
use crate::terms::{compile, is_deterministic};
use crate::transport::text_within;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, "/v1/analyze/cardinality", web::post().to(cardinality));
    register(cfg, "/v1/analyze/deterministic", web::post().to(deterministic));
    register(cfg, "/v1/analyze/dot", web::post().to(dot));
    register(cfg, "/v1/analyze/empty", web::post().to(empty));
    register(cfg, "/v1/analyze/empty_string", web::post().to(empty_string));
    register(cfg, "/v1/analyze/equivalent", web::post().to(equivalent));
    register(cfg, "/v1/analyze/length", web::post().to(length));
    register(cfg, "/v1/analyze/pattern", web::post().to(pattern));
    register(cfg, "/v1/analyze/subset", web::post().to(subset));
    register(cfg, "/v1/analyze/total", web::post().to(total));
}

/// Answers a question about the language of one term, on an engine thread.
async fn about_one<T: Serialize + Send + 'static>(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
    question: fn(&Language, &Budget) -> Result<T, HttpError>,
) -> Result<HttpResponse, HttpError> {
    answer_term(state, caller, body, move |term, codec, budget| {
        question(&compile(term, codec, budget)?, budget)
    })
    .await
}

/// Answers a question about the languages of two terms, on an engine thread.
async fn about_two<T: Serialize + Send + 'static>(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TwoTermsRequest>,
    question: fn(&Language, &Language, &Budget) -> Result<T, HttpError>,
) -> Result<HttpResponse, HttpError> {
    let ([left, right], options) = body.into_inner().validate(caller.limits())?;
    let codec = state.codec.clone();
    let answer = state
        .engine
        .run(caller.budget(&options), move |budget| {
            question(&compile(&left, &codec, budget)?, &compile(&right, &codec, budget)?, budget)
        })
        .await?;
    state.respond(answer)
}

async fn cardinality(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    about_one(state, caller, body, |language, budget| {
        Ok(match language.cardinality(budget)? {
            langcore::Cardinality::Finite(count) => Cardinality::finite(count.to_string()),
            langcore::Cardinality::Infinite => Cardinality::Infinite,
        })
    })
    .await
}

async fn deterministic(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    answer_term(state, caller, body, |term, codec, budget| {
        Ok(Boolean::new(is_deterministic(term, codec, budget)?))
    })
    .await
}

/// The DOT text stops growing at the response limit: a 52-byte request may not make the
/// engine write 126 MB that would only be refused.
async fn dot(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    let limit = state.response_limit;
    answer_term(state, caller, body, move |term, codec, budget| {
        let language = compile(term, codec, budget)?;
        let dfa = language.to_dfa(budget)?;
        Ok(Text::new(text_within(limit, budget, |budget| dfa.to_dot(budget))?))
    })
    .await
}

async fn pattern(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    about_one(state, caller, body, |language, budget| Ok(Text::new(language.to_pattern(budget)?)))
        .await
}

async fn empty(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    about_one(state, caller, body, |language, budget| Ok(Boolean::new(language.is_empty(budget)?)))
        .await
}

async fn empty_string(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    about_one(state, caller, body, |language, budget| {
        Ok(Boolean::new(language.is_empty_string(budget)?))
    })
    .await
}

async fn total(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    about_one(state, caller, body, |language, budget| Ok(Boolean::new(language.is_total(budget)?)))
        .await
}

async fn length(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TermRequest>,
) -> Result<HttpResponse, HttpError> {
    about_one(state, caller, body, |language, budget| {
        let (min, max) = language.length(budget)?;
        Ok(Length::new(min.map(|len| len as u64), max.map(|len| len as u64)))
    })
    .await
}

async fn equivalent(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TwoTermsRequest>,
) -> Result<HttpResponse, HttpError> {
    about_two(state, caller, body, |left, right, budget| {
        Ok(Boolean::from_witness(left.equivalence_witness(right, budget)?))
    })
    .await
}

async fn subset(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<TwoTermsRequest>,
) -> Result<HttpResponse, HttpError> {
    about_two(state, caller, body, |left, right, budget| {
        Ok(Boolean::from_witness(left.subset_witness(right, budget)?))
    })
    .await
}
