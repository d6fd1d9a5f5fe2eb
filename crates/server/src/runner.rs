//! The request runner every `/v1` engine handler answers through: validate, budget, schedule,
//! wrap.
//!
//! # Overview
//! [`run`] takes the admitted [`Caller`], the request [`Body`] and the handler's question (a
//! plain function of the checked request and its [`Job`]), and:
//! 1. validates the body against the contract and the caller's limits (api-types), and the
//!    dialect of pattern output ([`wire::output_dialect`]);
//! 2. makes the request's [`Budget`] (its deadline counts from here, queueing included);
//! 3. checks everything else the request carries ([`Body::check`]: FAIR values decoded,
//!    terms looked up in the [`TermCache`](crate::term_cache::TermCache), the charset
//!    parsed under the budget), still before any engine work is queued;
//! 4. runs the question on the [`Scheduler`](crate::scheduler::Scheduler) under the budget,
//!    then keeps the languages of its terms in the cache ([`Term::keep`]);
//! 5. answers with its value in the success envelope, within the response limit
//!    (`transport::success_body`); a timeout's message says how long the budget was.
//!
//! [`run_remembered`] does the same through the answer cache (`answer_cache.rs`): after
//! step 2, a question asked before about the same terms (by their cache keys, [`Body::keys`])
//! is answered with its body at once, before step 3 looks the terms up; a new success is
//! kept after step 5.

use std::ops::RangeInclusive;
use std::sync::Arc;

use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};
use api_types::ApiError;
use api_types::request::{
    BacktrackingQuestion, BacktrackingRequest, CountByLengthRequest, GenerateParams,
    GenerateStringsRequest, MatchRequest, MultiTermsRequest, Options, RepeatRange, RepeatRequest,
    RequestLimits, SampleDistribution, SampleRequest, TermInput, TermRequest, TwoTermsRequest,
};
use api_types::response::TermOutput;
use fair_codec::FairCodec;
use langcore::{Budget, Dialect, GenerateOptions, Language, SampleMode};
use serde::Serialize;

use crate::answer_cache::AnswerKey;
use crate::auth::Caller;
use crate::error::HttpError;
use crate::state::AppState;
use crate::term_cache::TermKey;
use crate::transport::{json_response, success_body, text_within};
use crate::wire::{self, Checker, Term, generate_options};

/// What every engine handler returns.
pub(crate) type Answer = Result<HttpResponse, HttpError>;

/// A request body the runner can check.
pub(crate) trait Body: Sized {
    /// The body once validated against the contract.
    type Valid;
    /// The body once everything it carries is checked and in the engine's types: what the
    /// question gets, on a scheduler thread.
    type Checked: Send + Sync + 'static;

    /// Checks the body against the contract and the caller's `limits`.
    ///
    /// # Errors
    /// The contract's error for the first rule broken.
    fn validate(self, limits: &RequestLimits) -> Result<(Self::Valid, Options), ApiError>;

    /// Checks the rest of what the request carries, under its budget (`checker`'s).
    ///
    /// # Errors
    /// `FairSyntaxError` for a FAIR that does not decode, the parse's error for a charset.
    fn check(valid: Self::Valid, checker: &Checker<'_>) -> Result<Self::Checked, HttpError>;

    /// The terms of a checked body.
    fn terms(checked: &Self::Checked) -> &[Term];

    /// The cache keys of a valid body's terms, in order, when its answer may be remembered
    /// ([`run_remembered`]): the terms are all it carries. `None`: never remembered.
    fn keys(_valid: &Self::Valid, _checker: &Checker<'_>) -> Option<Box<[TermKey]>> {
        None
    }
}

impl Body for TermRequest {
    type Valid = TermInput;
    type Checked = Term;

    fn validate(self, limits: &RequestLimits) -> Result<(TermInput, Options), ApiError> {
        TermRequest::validate(self, limits)
    }

    fn check(term: TermInput, checker: &Checker<'_>) -> Result<Term, HttpError> {
        checker.term(term)
    }

    fn terms(term: &Term) -> &[Term] {
        std::slice::from_ref(term)
    }

    fn keys(term: &TermInput, checker: &Checker<'_>) -> Option<Box<[TermKey]>> {
        Some(Box::new([checker.key(term)]))
    }
}

impl Body for TwoTermsRequest {
    type Valid = [TermInput; 2];
    type Checked = [Term; 2];

    fn validate(self, limits: &RequestLimits) -> Result<([TermInput; 2], Options), ApiError> {
        TwoTermsRequest::validate(self, limits)
    }

    fn check([left, right]: [TermInput; 2], checker: &Checker<'_>) -> Result<[Term; 2], HttpError> {
        Ok([checker.term(left)?, checker.term(right)?])
    }

    fn terms(terms: &[Term; 2]) -> &[Term] {
        terms
    }

    fn keys(terms: &[TermInput; 2], checker: &Checker<'_>) -> Option<Box<[TermKey]>> {
        Some(Box::new(terms.each_ref().map(|term| checker.key(term))))
    }
}

impl Body for MultiTermsRequest {
    type Valid = Vec<TermInput>;
    type Checked = Vec<Term>;

    fn validate(self, limits: &RequestLimits) -> Result<(Vec<TermInput>, Options), ApiError> {
        MultiTermsRequest::validate(self, limits)
    }

    fn check(terms: Vec<TermInput>, checker: &Checker<'_>) -> Result<Vec<Term>, HttpError> {
        terms.into_iter().map(|term| checker.term(term)).collect()
    }

    fn terms(terms: &Vec<Term>) -> &[Term] {
        terms
    }
}

impl Body for RepeatRequest {
    type Valid = (TermInput, RepeatRange);
    type Checked = (Term, RepeatRange);

    fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<((TermInput, RepeatRange), Options), ApiError> {
        let (term, range, options) = RepeatRequest::validate(self, limits)?;
        Ok(((term, range), options))
    }

    fn check(
        (term, range): (TermInput, RepeatRange),
        checker: &Checker<'_>,
    ) -> Result<(Term, RepeatRange), HttpError> {
        Ok((checker.term(term)?, range))
    }

    fn terms((term, _): &(Term, RepeatRange)) -> &[Term] {
        std::slice::from_ref(term)
    }
}

impl Body for GenerateStringsRequest {
    type Valid = (TermInput, GenerateParams);
    type Checked = (Term, GenerateOptions);

    fn validate(
        self,
        limits: &RequestLimits,
    ) -> Result<((TermInput, GenerateParams), Options), ApiError> {
        let (term, params, options) = GenerateStringsRequest::validate(self, limits)?;
        Ok(((term, params), options))
    }

    fn check(
        (term, params): (TermInput, GenerateParams),
        checker: &Checker<'_>,
    ) -> Result<(Term, GenerateOptions), HttpError> {
        Ok((checker.term(term)?, generate_options(params, checker.budget)?))
    }

    fn terms((term, _): &(Term, GenerateOptions)) -> &[Term] {
        std::slice::from_ref(term)
    }
}

/// The [`Body`] of a request of one term and data the engine takes as validated, which its
/// own `validate` returns beside the term and the options.
macro_rules! term_with_data {
    ($request:ty, $data:ty) => {
        impl Body for $request {
            type Valid = (TermInput, $data);
            type Checked = (Term, $data);

            fn validate(
                self,
                limits: &RequestLimits,
            ) -> Result<((TermInput, $data), Options), ApiError> {
                let (term, data, options) = <$request>::validate(self, limits)?;
                Ok(((term, data), options))
            }

            fn check(
                (term, data): (TermInput, $data),
                checker: &Checker<'_>,
            ) -> Result<(Term, $data), HttpError> {
                Ok((checker.term(term)?, data))
            }

            fn terms((term, _): &(Term, $data)) -> &[Term] {
                std::slice::from_ref(term)
            }
        }
    };
}

term_with_data!(MatchRequest, Vec<String>);
term_with_data!(CountByLengthRequest, RangeInclusive<u32>);

impl Body for SampleRequest {
    type Valid = (TermInput, GenerateParams, SampleDistribution);
    type Checked = (Term, GenerateOptions, SampleMode);

    fn validate(self, limits: &RequestLimits) -> Result<(Self::Valid, Options), ApiError> {
        let (term, params, distribution, options) = SampleRequest::validate(self, limits)?;
        Ok(((term, params, distribution), options))
    }

    fn check(
        (term, params, distribution): Self::Valid,
        checker: &Checker<'_>,
    ) -> Result<Self::Checked, HttpError> {
        let mode = match distribution {
            SampleDistribution::Strings => SampleMode::Strings,
            SampleDistribution::Lengths => SampleMode::Lengths,
        };
        Ok((checker.term(term)?, generate_options(params, checker.budget)?, mode))
    }

    fn terms((term, _, _): &Self::Checked) -> &[Term] {
        std::slice::from_ref(term)
    }
}

/// A pattern asked about as its engine runs it, not as a language: nothing to look up or
/// build before the question.
impl Body for BacktrackingRequest {
    type Valid = BacktrackingQuestion;
    type Checked = BacktrackingQuestion;

    fn validate(self, limits: &RequestLimits) -> Result<(BacktrackingQuestion, Options), ApiError> {
        BacktrackingRequest::validate(self, limits)
    }

    fn check(
        question: BacktrackingQuestion,
        _checker: &Checker<'_>,
    ) -> Result<BacktrackingQuestion, HttpError> {
        Ok(question)
    }

    fn terms(_question: &BacktrackingQuestion) -> &[Term] {
        &[]
    }
}

/// What a question gets beside the checked request, on its scheduler thread.
pub(crate) struct Job<'a> {
    /// The request's budget: every engine call takes it.
    pub(crate) budget: &'a Budget,
    options: &'a Options,
    /// The dialect of pattern output.
    dialect: Dialect,
    codec: &'a FairCodec,
    /// The largest response body, in bytes.
    response_limit: usize,
}

impl Job<'_> {
    /// The language of `term`, under the budget.
    pub(crate) fn language(&self, term: &Term) -> Result<Language, HttpError> {
        term.language(self.budget)
    }

    /// The languages of `terms`, under the budget.
    pub(crate) fn languages(&self, terms: &[Term]) -> Result<Vec<Language>, HttpError> {
        terms.iter().map(|term| self.language(term)).collect()
    }

    /// `language` in the form the request's options ask for.
    pub(crate) fn output(&self, language: &Language) -> Result<TermOutput, HttpError> {
        wire::output(language, self.options, self.dialect, self.codec, self.budget)
    }

    /// A pattern for `language` in the dialect the request's options ask for.
    pub(crate) fn pattern(&self, language: &Language) -> Result<String, HttpError> {
        Ok(language.to_pattern_in(self.dialect, self.budget)?)
    }

    /// Runs `write`, which builds a text charged to the budget's memory limit, stopping it
    /// at the response limit ([`text_within`]): 400 `ResponseTooLarge` past it.
    pub(crate) fn text_within_response_limit(
        &self,
        write: impl FnOnce(&Budget) -> Result<String, langcore::Error>,
    ) -> Result<String, HttpError> {
        text_within(self.response_limit, self.budget, write)
    }

    /// `language`'s minimal DFA as a deterministic FAIR, whatever the options ask for.
    pub(crate) fn fair(&self, language: &Language) -> Result<TermOutput, HttpError> {
        Ok(wire::fair(language.to_dfa(self.budget)?, self.codec))
    }
}

/// Answers a request: validates `body` for `caller`, checks what it carries, runs
/// `question` on the scheduler under the request's budget and wraps its value in the
/// success envelope (see the module docs).
pub(crate) async fn run<B, T>(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<B>,
    question: fn(&B::Checked, &Job<'_>) -> Result<T, HttpError>,
) -> Answer
where
    B: Body,
    T: Serialize + Send + 'static,
{
    answer(state, caller, body, question, false).await
}

/// Answers a request as [`run`] does, through the [`AnswerCache`](crate::answer_cache):
/// a question asked before about the same terms, under the same limits and output dialect,
/// is answered with the body it was answered with, without scheduling it; a new success is
/// kept. For questions whose answer is a function of their terms and the output dialect
/// only (not of other options, of data beside the terms, or of chance).
pub(crate) async fn run_remembered<B, T>(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<B>,
    question: fn(&B::Checked, &Job<'_>) -> Result<T, HttpError>,
) -> Answer
where
    B: Body,
    T: Serialize + Send + 'static,
{
    answer(state, caller, body, question, true).await
}

/// A question's value, or the body it was answered with before.
enum Reply<T> {
    Fresh(T),
    Remembered(Bytes),
}

/// [`run`], remembering answers when `remember` says so ([`run_remembered`]).
async fn answer<B, T>(
    state: web::Data<AppState>,
    caller: Caller,
    body: web::Json<B>,
    question: fn(&B::Checked, &Job<'_>) -> Result<T, HttpError>,
    remember: bool,
) -> Answer
where
    B: Body,
    T: Serialize + Send + 'static,
{
    let (valid, options) = body.into_inner().validate(caller.limits())?;
    let dialect = wire::output_dialect(&options)?;
    let budget = caller.budget(&options);
    let time_budget = caller.timeout(&options);
    let mut key = None;
    let reply = async {
        let checker = Checker { codec: &state.codec, cache: &state.terms, budget: &budget };
        // Asked first: a hit needs neither the terms' languages nor a FAIR decoded again
        // (a FAIR whose answer is kept decoded, and decodes alike every time).
        if remember && let Some(terms) = B::keys(&valid, &checker) {
            // The function's address identifies the question.
            let asked = AnswerKey { question: question as usize, dialect, terms };
            if let Some(body) = state.answers.get(&asked) {
                return Ok(Reply::Remembered(body));
            }
            key = Some(asked);
        }
        let checked = Arc::new(B::check(valid, &checker)?);
        let input = Arc::clone(&checked);
        let codec = Arc::clone(&state.codec);
        let response_limit = state.response_limit;
        let answer = state
            .scheduler
            .run(budget, move |budget| {
                question(
                    &input,
                    &Job { budget, options: &options, dialect, codec: &codec, response_limit },
                )
            })
            .await;
        for term in B::terms(&checked) {
            term.keep(&state.terms);
        }
        answer.map(Reply::Fresh)
    };
    let reply = reply.await.map_err(|err| {
        if let Some(exhausted) = err.exhausted() {
            crate::metrics::budget_exhausted(exhausted.limit, exhausted.op);
        }
        err.with_time_budget(time_budget)
    })?;
    let body = match reply {
        Reply::Remembered(body) => body,
        Reply::Fresh(answer) => {
            let body = success_body(answer, state.response_limit)?;
            if let Some(key) = &key {
                state.answers.keep(key, &body);
            }
            body
        }
    };
    Ok(json_response(body))
}
