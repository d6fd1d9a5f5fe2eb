//! `/v1/generate/strings`: strings of a language, paged.

use actix_web::{HttpResponse, web};
use api_types::request::{CharacterOrder, GenerateParams, GenerateStringsRequest, PathOrder};
use api_types::response::GeneratedStrings;
use langcore::alphabet::CharSet;
use langcore::{Budget, GenerateOptions};

use crate::auth::Caller;
use crate::error::HttpError;
use crate::routes::register;
use crate::state::AppState;
use crate::terms::compile;

pub(crate) fn configure(cfg: &mut web::ServiceConfig) {
    register(cfg, "/v1/generate/strings", web::post().to(strings));
}

async fn strings(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<GenerateStringsRequest>,
) -> Result<HttpResponse, HttpError> {
    let (term, params, options) = body.into_inner().validate(caller.limits())?;
    let codec = state.codec.clone();
    let strings = state
        .engine
        .run(caller.budget(&options), move |budget| {
            let generate = generate_options(&params, budget)?;
            Ok(compile(&term, &codec, budget)?.generate(&generate, budget)?)
        })
        .await?;
    state.respond(GeneratedStrings::new(strings))
}

/// The engine's options for checked wire parameters; the charset is parsed here, under the
/// request's `budget`.
fn generate_options(
    params: &GenerateParams,
    budget: &Budget,
) -> Result<GenerateOptions, HttpError> {
    let charset =
        params.charset.as_deref().map(|class| CharSet::parse_with(class, budget)).transpose()?;
    Ok(GenerateOptions::default()
        .with_limit(params.limit)
        .with_offset(params.offset)
        .with_min_length(params.min_length as usize)
        .with_max_length(params.max_length as usize)
        .with_path_order(match params.path_order {
            PathOrder::Sweep => langcore::PathOrder::Sweep,
            PathOrder::Interleave => langcore::PathOrder::Interleave,
            PathOrder::Shuffled => langcore::PathOrder::Shuffled,
        })
        .with_char_order(match params.character_order {
            CharacterOrder::Ascending => langcore::CharOrder::Ascending,
            CharacterOrder::Shuffled => langcore::CharOrder::Shuffled,
        })
        .with_seed(params.seed)
        .with_charset(charset))
}
