//! The table of every v1 endpoint, and the OpenAPI 3 document generated from it.
//!
//! # Overview
//! [`ENDPOINTS`] lists method, path, request and response types of each endpoint; the
//! server's tests check that it routes every one, and [`openapi`] turns the table and the
//! schema types of this crate into the OpenAPI document served at `/openapi.json`. The
//! document is therefore generated, never written by hand. Endpoints beyond the RegexSolver
//! v1 contract ([`EXTENSIONS`]) carry the tag `extension` and `x-extension: true`.

use utoipa::OpenApi;
use utoipa::openapi::extensions::ExtensionsBuilder;
use utoipa::openapi::path::{HttpMethod, OperationBuilder, PathItem, PathsBuilder};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::{
    ContentBuilder, InfoBuilder, ObjectBuilder, Ref, Required, ResponseBuilder, ResponsesBuilder,
    Type,
};

use crate::error::{ErrorBody, ErrorCode};
use crate::request::{
    BacktrackingRequest, CountByLengthRequest, ExecutionOptions, FairOptions,
    GenerateStringsRequest, MatchRequest, MultiTermsRequest, RepeatRequest, RequestOptions,
    ResponseOptions, SampleRequest, Term, TermRequest, TwoTermsRequest,
};
use crate::response::{
    AccountLimits, AccountLimitsTag, Attack, Backtracking, BacktrackingTag, Boolean, BooleanTag,
    Cardinality, FairMetadata, GeneratedStrings, GeneratedStringsTag, Length, LengthCount,
    LengthCounts, LengthCountsTag, LengthTag, MatchResult, Matches, MatchesTag, Overlap, Overlaps,
    OverlapsTag, Span, StringTag, Strings, StringsTag, TermOutput, Text,
};

/// The HTTP method of an endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET`, without a body.
    Get,
    /// `POST`, with a JSON body.
    Post,
}

/// One endpoint of the v1 API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Endpoint {
    /// The method.
    pub method: Method,
    /// The full path, starting with `/v1/`.
    pub path: &'static str,
    /// What it does, in one line.
    pub summary: &'static str,
    /// The schema name of the request body, if any.
    pub request: Option<&'static str>,
    /// The schema name of `data` in a successful response.
    pub response: &'static str,
}

const fn post(
    path: &'static str,
    summary: &'static str,
    request: &'static str,
    response: &'static str,
) -> Endpoint {
    Endpoint { method: Method::Post, path, summary, request: Some(request), response }
}

/// The paths of [`ENDPOINTS`] that are extensions: not in the RegexSolver v1 contract, so
/// its published clients never call them.
pub const EXTENSIONS: [&str; 10] = [
    "/v1/analyze/backtracking",
    "/v1/analyze/count_by_length",
    "/v1/analyze/match",
    "/v1/analyze/overlaps",
    "/v1/compute/left_quotient",
    "/v1/compute/prefix_closure",
    "/v1/compute/reverse",
    "/v1/compute/right_quotient",
    "/v1/compute/suffix_closure",
    "/v1/generate/samples",
];

impl Endpoint {
    /// Whether the endpoint is one of [`EXTENSIONS`].
    pub fn is_extension(&self) -> bool {
        EXTENSIONS.contains(&self.path)
    }
}

/// Every endpoint of the contract, and the [`EXTENSIONS`].
pub const ENDPOINTS: [Endpoint; 29] = [
    Endpoint {
        method: Method::Get,
        path: "/v1/account/limits",
        summary: "The limits of the calling token, or the server's defaults when auth is off.",
        request: None,
        response: "AccountLimits",
    },
    post(
        "/v1/analyze/backtracking",
        "Extension: how a backtracking engine's time to match the pattern grows with the \
         input (linear, polynomial with its degree, exponential, or unknown with the \
         reason), as a full match (mode match) or a search; when not linear, an attack \
         string (prefix, pump, suffix) and the hotspot's spans. For regex terms of the \
         python, js, java and pcre dialects.",
        "BacktrackingRequest",
        "Backtracking",
    ),
    post(
        "/v1/analyze/cardinality",
        "The number of strings of the language.",
        "TermRequest",
        "Cardinality",
    ),
    post(
        "/v1/analyze/count_by_length",
        "Extension: the exact number of strings of each length from minLength to maxLength \
         (at most 1,000 lengths, up to 10,000), as /v1/analyze/cardinality gives counts.",
        "CountByLengthRequest",
        "LengthCounts",
    ),
    post(
        "/v1/analyze/deterministic",
        "Whether the term's automaton is deterministic.",
        "TermRequest",
        "Boolean",
    ),
    post(
        "/v1/analyze/dot",
        "A Graphviz drawing of the minimal automaton; when that does not fit a share of the \
         budget, of the trimmed NFA without ε-moves instead, in a graph named `nfa` whose \
         comment and label say \"non-deterministic: the minimal DFA exceeds the budget\".",
        "TermRequest",
        "Text",
    ),
    post("/v1/analyze/empty", "Whether the language has no string.", "TermRequest", "Boolean"),
    post(
        "/v1/analyze/empty_string",
        "Whether the language is exactly {\"\"}.",
        "TermRequest",
        "Boolean",
    ),
    post(
        "/v1/analyze/equivalent",
        "Whether two terms have the same strings.",
        "TwoTermsRequest",
        "Boolean",
    ),
    post("/v1/analyze/length", "The shortest and longest string lengths.", "TermRequest", "Length"),
    post(
        "/v1/analyze/match",
        "Extension: for each of 1 to 100 strings, whether the term matches it and, if not, \
         where it fails (viablePrefixLength, in code points).",
        "MatchRequest",
        "Matches",
    ),
    post(
        "/v1/analyze/overlaps",
        "Extension: which of 2 to --max-terms terms share a string: every such pair, with \
         its shortest, then smallest, common string (as subset and equivalence witnesses).",
        "MultiTermsRequest",
        "Overlaps",
    ),
    post(
        "/v1/analyze/pattern",
        "A short regex for the language: exact in the Rust `regex` dialect by default, or \
         valid and exact in the engine that options.response.dialect names; `[]` is the \
         empty language.",
        "TermRequest",
        "Text",
    ),
    post(
        "/v1/analyze/subset",
        "Whether terms[0] is a subset of terms[1].",
        "TwoTermsRequest",
        "Boolean",
    ),
    post("/v1/analyze/total", "Whether the language has every string.", "TermRequest", "Boolean"),
    post("/v1/compute/complement", "Every string not in the term.", "TermRequest", "TermOutput"),
    post(
        "/v1/compute/concat",
        "The terms one after another, in order.",
        "MultiTermsRequest",
        "TermOutput",
    ),
    post(
        "/v1/compute/determinize",
        "A deterministic FAIR of the term.",
        "TermRequest",
        "TermOutput",
    ),
    post("/v1/compute/difference", "terms[0] minus terms[1].", "TwoTermsRequest", "TermOutput"),
    post(
        "/v1/compute/intersection",
        "The strings in every term.",
        "MultiTermsRequest",
        "TermOutput",
    ),
    post(
        "/v1/compute/left_quotient",
        "Extension: the left quotient of terms[0] by terms[1], what can follow a prefix from \
         terms[1]: every v such that u·v is in terms[0] for some u in terms[1].",
        "TwoTermsRequest",
        "TermOutput",
    ),
    post(
        "/v1/compute/prefix_closure",
        "Extension: every prefix of every string of the term (\"\" and the strings included).",
        "TermRequest",
        "TermOutput",
    ),
    post("/v1/compute/repeat", "The term repeated min..=max times.", "RepeatRequest", "TermOutput"),
    post(
        "/v1/compute/reverse",
        "Extension: the strings of the term read backwards.",
        "TermRequest",
        "TermOutput",
    ),
    post(
        "/v1/compute/right_quotient",
        "Extension: the right quotient of terms[0] by terms[1], what can precede a suffix from \
         terms[1]: every u such that u·v is in terms[0] for some v in terms[1].",
        "TwoTermsRequest",
        "TermOutput",
    ),
    post(
        "/v1/compute/suffix_closure",
        "Extension: every suffix of every string of the term (\"\" and the strings included).",
        "TermRequest",
        "TermOutput",
    ),
    post("/v1/compute/union", "The strings in any term.", "MultiTermsRequest", "TermOutput"),
    post(
        "/v1/generate/samples",
        "Extension: count strings (1 to 100) drawn uniformly at random with replacement, seeded: \
         each among all strings with a length in [minLength, maxLength], or with the length \
         drawn first among those that have strings (distribution: lengths).",
        "SampleRequest",
        "GeneratedStrings",
    ),
    post(
        "/v1/generate/strings",
        "Strings of the language, paged.",
        "GenerateStringsRequest",
        "GeneratedStrings",
    ),
];

/// The schema types, collected by utoipa's derive.
#[derive(OpenApi)]
#[openapi(components(schemas(
    Term,
    RequestOptions,
    ResponseOptions,
    FairOptions,
    ExecutionOptions,
    TermRequest,
    TwoTermsRequest,
    MultiTermsRequest,
    RepeatRequest,
    GenerateStringsRequest,
    MatchRequest,
    CountByLengthRequest,
    SampleRequest,
    BacktrackingRequest,
    BooleanTag,
    Boolean,
    StringTag,
    Text,
    Cardinality,
    LengthTag,
    Length,
    TermOutput,
    FairMetadata,
    GeneratedStringsTag,
    GeneratedStrings,
    StringsTag,
    Strings,
    AccountLimitsTag,
    AccountLimits,
    MatchesTag,
    Matches,
    MatchResult,
    LengthCountsTag,
    LengthCounts,
    LengthCount,
    OverlapsTag,
    Overlaps,
    Overlap,
    BacktrackingTag,
    Backtracking,
    Attack,
    Span,
    ErrorCode,
    ErrorBody,
)))]
struct Schemas;

/// The statuses an endpoint can fail with, and what they mean.
const ERROR_STATUSES: [(&str, &str); 11] = [
    ("400", "Invalid request, malformed HTTP, budget exceeded or answer too large; see errorCode."),
    ("401", "Missing, malformed or unknown token."),
    ("403", "Quota exceeded."),
    ("404", "Unknown path."),
    ("405", "Wrong method."),
    ("408", "The head or the body did not arrive in time."),
    ("413", "Body too large."),
    ("431", "Request head too large."),
    ("429", "Rate limited; see Retry-After."),
    ("500", "A bug."),
    ("503", "Overloaded: the engine's queue is full; see Retry-After."),
];

/// The OpenAPI 3 document of the v1 API.
pub fn openapi() -> utoipa::openapi::OpenApi {
    let mut doc = Schemas::openapi();
    doc.info = InfoBuilder::new()
        .title("relang")
        .version(env!("CARGO_PKG_VERSION"))
        .description(Some(
            "Regular languages as values; wire-compatible with the RegexSolver v1 API.",
        ))
        .build();
    let mut paths = PathsBuilder::new();
    for endpoint in ENDPOINTS {
        let success = ObjectBuilder::new()
            .property("success", ObjectBuilder::new().schema_type(Type::Boolean))
            .required("success")
            .property("data", Ref::from_schema_name(endpoint.response))
            .required("data");
        let mut responses = ResponsesBuilder::new().response(
            "200",
            ResponseBuilder::new()
                .description("Success.")
                .content("application/json", ContentBuilder::new().schema(Some(success)).build()),
        );
        for (status, description) in ERROR_STATUSES {
            responses = responses.response(
                status,
                ResponseBuilder::new().description(description).content(
                    "application/json",
                    ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build(),
                ),
            );
        }
        let mut operation = OperationBuilder::new()
            .summary(Some(endpoint.summary))
            .operation_id(Some(endpoint.path.trim_start_matches("/v1/").replace('/', "_")))
            .responses(responses.build());
        if endpoint.is_extension() {
            let marker = ExtensionsBuilder::new().add("x-extension", true).build();
            operation = operation.tag("extension").extensions(Some(marker));
        }
        let method = match endpoint.method {
            Method::Get => HttpMethod::Get,
            Method::Post => HttpMethod::Post,
        };
        if let Some(request) = endpoint.request {
            operation = operation.request_body(Some(
                RequestBodyBuilder::new()
                    .required(Some(Required::True))
                    .content(
                        "application/json",
                        ContentBuilder::new().schema(Some(Ref::from_schema_name(request))).build(),
                    )
                    .build(),
            ));
        }
        paths = paths.path(endpoint.path, PathItem::new(method, operation));
    }
    doc.paths = paths.build();
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_endpoint_refers_to_known_schemas() {
        let doc = openapi();
        let schemas = doc.components.as_ref().map(|c| c.schemas.clone()).unwrap_or_default();
        for endpoint in ENDPOINTS {
            for name in endpoint.request.into_iter().chain([endpoint.response]) {
                assert!(schemas.contains_key(name), "{}: no schema {name}", endpoint.path);
            }
            assert!(doc.paths.paths.contains_key(endpoint.path), "{}", endpoint.path);
        }
        assert_eq!(doc.paths.paths.len(), ENDPOINTS.len(), "paths are unique");
    }

    #[test]
    fn document_is_openapi_3_json() {
        let json = serde_json::to_value(openapi()).unwrap();
        assert!(json["openapi"].as_str().unwrap().starts_with("3."));
        assert_eq!(
            json["paths"]["/v1/analyze/cardinality"]["post"]["requestBody"]["content"]["application/json"]
                ["schema"]["$ref"],
            "#/components/schemas/TermRequest"
        );
        let cardinality = &json["components"]["schemas"]["Cardinality"];
        assert!(cardinality.to_string().contains("bigInteger"), "{cardinality}");
    }

    #[test]
    fn extensions_are_marked_and_only_they() {
        let json = serde_json::to_value(openapi()).unwrap();
        for endpoint in ENDPOINTS {
            let method = if endpoint.method == Method::Get { "get" } else { "post" };
            let operation = &json["paths"][endpoint.path][method];
            let marked = operation["x-extension"] == true
                && operation["tags"]
                    .as_array()
                    .is_some_and(|tags| tags.contains(&"extension".into()));
            assert_eq!(marked, endpoint.is_extension(), "{}: {operation}", endpoint.path);
        }
        assert!(EXTENSIONS.iter().all(|path| ENDPOINTS.iter().any(|e| e.path == *path)));
    }
}
