//! `/v1/compute/*`: new terms from existing ones, returned in the requested form.

use actix_web::web;
use api_types::request::{MultiTermsRequest, RepeatRequest, TermRequest, TwoTermsRequest};
use langcore::Language;

use crate::auth::Caller;
use crate::routes::register;
use crate::runner::{Answer, run};
use crate::state::AppState;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, "/v1/compute/complement", web::post().to(complement));
    register(cfg, "/v1/compute/concat", web::post().to(concat));
    register(cfg, "/v1/compute/determinize", web::post().to(determinize));
    register(cfg, "/v1/compute/difference", web::post().to(difference));
    register(cfg, "/v1/compute/intersection", web::post().to(intersection));
    register(cfg, "/v1/compute/left_quotient", web::post().to(left_quotient));
    register(cfg, "/v1/compute/prefix_closure", web::post().to(prefix_closure));
    register(cfg, "/v1/compute/repeat", web::post().to(repeat));
    register(cfg, "/v1/compute/reverse", web::post().to(reverse));
    register(cfg, "/v1/compute/right_quotient", web::post().to(right_quotient));
    register(cfg, "/v1/compute/suffix_closure", web::post().to(suffix_closure));
    register(cfg, "/v1/compute/union", web::post().to(union));
}

type State = web::Data<AppState>;
type Many = web::Json<MultiTermsRequest>;

/// The languages of the terms as a list of references, for the `*_all` operations.
fn refs(languages: &[Language]) -> Vec<&Language> {
    languages.iter().collect()
}

async fn union(state: State, caller: Caller, body: Many) -> Answer {
    run(state, caller, body, |terms, job| {
        job.output(&Language::union_all(&refs(&job.languages(terms)?), job.budget)?)
    })
    .await
}

async fn intersection(state: State, caller: Caller, body: Many) -> Answer {
    run(state, caller, body, |terms, job| {
        job.output(&Language::intersection_all(&refs(&job.languages(terms)?), job.budget)?)
    })
    .await
}

async fn concat(state: State, caller: Caller, body: Many) -> Answer {
    run(state, caller, body, |terms, job| {
        job.output(&Language::concat_all(&refs(&job.languages(terms)?), job.budget)?)
    })
    .await
}

async fn difference(state: State, caller: Caller, body: web::Json<TwoTermsRequest>) -> Answer {
    run(state, caller, body, |[left, right], job| {
        job.output(&job.language(left)?.difference(&job.language(right)?, job.budget)?)
    })
    .await
}

async fn complement(state: State, caller: Caller, body: web::Json<TermRequest>) -> Answer {
    run(state, caller, body, |term, job| job.output(&job.language(term)?.complement(job.budget)?))
        .await
}

async fn repeat(state: State, caller: Caller, body: web::Json<RepeatRequest>) -> Answer {
    run(state, caller, body, |(term, range), job| {
        job.output(&job.language(term)?.repeat(range.min, range.max, job.budget)?)
    })
    .await
}

async fn left_quotient(state: State, caller: Caller, body: web::Json<TwoTermsRequest>) -> Answer {
    run(state, caller, body, |[dividend, prefixes], job| {
        job.output(&job.language(dividend)?.left_quotient(&job.language(prefixes)?, job.budget)?)
    })
    .await
}

async fn right_quotient(state: State, caller: Caller, body: web::Json<TwoTermsRequest>) -> Answer {
    run(state, caller, body, |[dividend, suffixes], job| {
        job.output(&job.language(dividend)?.right_quotient(&job.language(suffixes)?, job.budget)?)
    })
    .await
}

async fn reverse(state: State, caller: Caller, body: web::Json<TermRequest>) -> Answer {
    run(state, caller, body, |term, job| job.output(&job.language(term)?.reverse(job.budget)?))
        .await
}

async fn prefix_closure(state: State, caller: Caller, body: web::Json<TermRequest>) -> Answer {
    run(state, caller, body, |term, job| {
        job.output(&job.language(term)?.prefix_closure(job.budget)?)
    })
    .await
}

async fn suffix_closure(state: State, caller: Caller, body: web::Json<TermRequest>) -> Answer {
    run(state, caller, body, |term, job| {
        job.output(&job.language(term)?.suffix_closure(job.budget)?)
    })
    .await
}

/// Always a deterministic FAIR, whatever the requested format: that is what determinize is for.
async fn determinize(state: State, caller: Caller, body: web::Json<TermRequest>) -> Answer {
    run(state, caller, body, |term, job| job.fair(&job.language(term)?)).await
}
