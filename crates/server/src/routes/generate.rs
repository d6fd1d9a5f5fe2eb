//! `/v1/generate/strings`: strings of a language, paged; `/v1/generate/samples`: drawn at
//! random.

use actix_web::web;
use api_types::request::{GenerateStringsRequest, SampleRequest};
use api_types::response::GeneratedStrings;

use crate::auth::Caller;
use crate::routes::register;
use crate::runner::{Answer, run};
use crate::state::AppState;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, "/v1/generate/samples", web::post().to(samples));
    register(cfg, "/v1/generate/strings", web::post().to(strings));
}

async fn strings(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<GenerateStringsRequest>,
) -> Answer {
    run(state, caller, body, |(term, options), job| {
        Ok(GeneratedStrings::new(job.language(term)?.generate(options, job.budget)?))
    })
    .await
}

/// (ext) Strings drawn uniformly at random, with replacement.
async fn samples(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<SampleRequest>,
) -> Answer {
    run(state, caller, body, |(term, options, mode), job| {
        Ok(GeneratedStrings::new(job.language(term)?.sample(options, *mode, job.budget)?))
    })
    .await
}
