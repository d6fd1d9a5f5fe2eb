//! `/v1/analyze/*`: questions about one, two or several terms. A question about one or two
//! terms is a function of them and of the output dialect: its answer is remembered
//! (`runner::run_remembered`).

use actix_web::web;
use api_types::request::{
    BacktrackingRequest, CountByLengthRequest, MatchRequest, MultiTermsRequest, TermRequest,
    TwoTermsRequest,
};
use api_types::response::{Boolean, Text};
use langcore::Language;

use crate::auth::Caller;
use crate::routes::register;
use crate::runner::{Answer, run, run_remembered};
use crate::state::AppState;
use crate::wire;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, "/v1/analyze/backtracking", web::post().to(backtracking));
    register(cfg, "/v1/analyze/cardinality", web::post().to(cardinality));
    register(cfg, "/v1/analyze/count_by_length", web::post().to(count_by_length));
    register(cfg, "/v1/analyze/deterministic", web::post().to(deterministic));
    register(cfg, "/v1/analyze/dot", web::post().to(dot));
    register(cfg, "/v1/analyze/empty", web::post().to(empty));
    register(cfg, "/v1/analyze/empty_string", web::post().to(empty_string));
    register(cfg, "/v1/analyze/equivalent", web::post().to(equivalent));
    register(cfg, "/v1/analyze/length", web::post().to(length));
    register(cfg, "/v1/analyze/match", web::post().to(match_strings));
    register(cfg, "/v1/analyze/overlaps", web::post().to(overlaps));
    register(cfg, "/v1/analyze/pattern", web::post().to(pattern));
    register(cfg, "/v1/analyze/subset", web::post().to(subset));
    register(cfg, "/v1/analyze/total", web::post().to(total));
}

type State = web::Data<AppState>;
type One = web::Json<TermRequest>;
type Two = web::Json<TwoTermsRequest>;

async fn cardinality(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(wire::cardinality(job.language(term)?.cardinality(job.budget)?))
    })
    .await
}

async fn deterministic(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(Boolean::new(term.is_deterministic(job.budget)?))
    })
    .await
}

/// The DOT text stops growing at the response limit: a 52-byte request may not make the
/// engine write 126 MB that would only be refused. The minimal DFA's text, or the NFA's
/// when the DFA does not fit a share of the budget (`Language::to_dot`).
async fn dot(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        let language = job.language(term)?;
        Ok(Text::new(job.text_within_response_limit(|budget| language.to_dot(budget))?))
    })
    .await
}

async fn pattern(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(Text::new(job.pattern(&job.language(term)?)?))
    })
    .await
}

async fn empty(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(Boolean::new(job.language(term)?.is_empty(job.budget)?))
    })
    .await
}

async fn empty_string(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(Boolean::new(job.language(term)?.is_empty_string(job.budget)?))
    })
    .await
}

async fn total(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(Boolean::new(job.language(term)?.is_total(job.budget)?))
    })
    .await
}

async fn length(state: State, caller: Caller, body: One) -> Answer {
    run_remembered(state, caller, body, |term, job| {
        Ok(wire::length(job.language(term)?.length(job.budget)?))
    })
    .await
}

async fn equivalent(state: State, caller: Caller, body: Two) -> Answer {
    run_remembered(state, caller, body, |[left, right], job| {
        let witness = job.language(left)?.equivalence_witness(&job.language(right)?, job.budget)?;
        Ok(Boolean::from_witness(witness))
    })
    .await
}

async fn subset(state: State, caller: Caller, body: Two) -> Answer {
    run_remembered(state, caller, body, |[left, right], job| {
        let witness = job.language(left)?.subset_witness(&job.language(right)?, job.budget)?;
        Ok(Boolean::from_witness(witness))
    })
    .await
}

/// (ext) Whether the term matches each string, and where each fails.
async fn match_strings(state: State, caller: Caller, body: web::Json<MatchRequest>) -> Answer {
    run(state, caller, body, |(term, strings), job| {
        let strings = strings.iter().map(String::as_str);
        Ok(wire::matches(job.language(term)?.match_strings(strings, job.budget)?))
    })
    .await
}

/// (ext) The number of strings of each length of a range.
async fn count_by_length(
    state: State,
    caller: Caller,
    body: web::Json<CountByLengthRequest>,
) -> Answer {
    run(state, caller, body, |(term, lengths), job| {
        let (min, max) = (*lengths.start(), *lengths.end());
        let counts =
            job.language(term)?.count_by_length(min as usize..=max as usize, job.budget)?;
        Ok(wire::length_counts(min, counts))
    })
    .await
}

/// (ext) Every pair of terms that share a string, with its shortest, then smallest, one.
async fn overlaps(state: State, caller: Caller, body: web::Json<MultiTermsRequest>) -> Answer {
    run(state, caller, body, |terms, job| {
        let languages = job.languages(terms)?;
        let refs: Vec<&Language> = languages.iter().collect();
        Ok(wire::overlaps(Language::overlaps(&refs, job.budget)?))
    })
    .await
}

/// (ext) How a backtracking engine's time to match the pattern grows, with an attack.
async fn backtracking(
    state: State,
    caller: Caller,
    body: web::Json<BacktrackingRequest>,
) -> Answer {
    run(state, caller, body, |question, job| wire::backtracking(question, job.budget)).await
}
