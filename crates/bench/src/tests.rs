//! Unit tests: the workloads file loads, its rules are enforced, and every engine gives
//! every expected answer.

use langcore::Budget;

use crate::{Count, Expected, LoadError, Operation, Outcome, assert_expected, load, mismatch};
use crate::{parse, run_relang};

/// A one-workload file around `body` (the lines after `name`).
fn one(body: &str) -> String {
    format!("[[workload]]\nname = \"w\"\n{body}\n")
}

#[track_caller]
fn check_invalid(text: &str, reason: &str) {
    match parse(text) {
        Err(LoadError::Invalid { reason: actual, .. }) => assert_eq!(actual, reason),
        other => panic!("expected `{reason}`, got {other:?}"),
    }
}

#[test]
fn workloads_file_loads() {
    let workloads = load();
    assert!(workloads.len() >= 10, "only {} workloads", workloads.len());
    let password = workloads
        .iter()
        .find(|workload| workload.name() == "cardinality_password_policy")
        .expect("the password-policy workload");
    assert_eq!(password.operation(), Operation::Cardinality);
    assert_eq!(password.terms().len(), 3);
    assert_eq!(password.expected(), &Expected::Count(Count::Finite("164726466519680".into())));
}

#[test]
fn relang_gives_every_expected_answer() {
    for workload in load() {
        assert_expected("relang", &workload, &run_relang(&workload, &Budget::unlimited()));
    }
}

#[cfg(feature = "peer")]
#[test]
fn regexsolver_gives_every_expected_answer() {
    for workload in load() {
        assert_expected("regexsolver", &workload, &crate::run_peer(&workload));
    }
}

#[test]
fn wrong_answers_are_described() {
    let text = one("operation = \"subset\"\nterms = ['a', 'a|b']\nexpect = false");
    let [workload] = parse(&text).expect("valid").try_into().expect("one workload");
    let outcome = run_relang(&workload, &Budget::unlimited());
    assert_eq!(mismatch(&workload, &outcome).as_deref(), Some("answered true, expected false"));

    let text = one(
        "operation = \"union\"\nterms = ['a', 'b']\nexpect_matches = ['a']\nexpect_rejects = ['b']",
    );
    let [workload] = parse(&text).expect("valid").try_into().expect("one workload");
    let outcome = run_relang(&workload, &Budget::unlimited());
    assert_eq!(
        mismatch(&workload, &outcome).as_deref(),
        Some("matches(\"b\") is true, expected false")
    );
    assert!(mismatch(&workload, &Outcome::Answer(true)).is_some());
}

#[test]
fn large_counts_agree_above_u32_only() {
    let text = |count: &str| {
        one(&format!("operation = \"cardinality\"\nterms = ['a']\nexpect = \"{count}\""))
    };
    let workload = |count: &str| parse(&text(count)).expect("valid").remove(0);
    let large = Outcome::Count(Count::Large);
    assert_eq!(mismatch(&workload("4294967296"), &large), None);
    assert_eq!(mismatch(&workload("20577254397942274560000"), &large), None);
    assert!(mismatch(&workload("4294967295"), &large).is_some());
    assert!(mismatch(&workload("infinite"), &large).is_some());
}

#[test]
fn invalid_workloads_are_rejected() {
    check_invalid(
        &one(
            "operation = \"difference\"\nterms = ['a']\nexpect_matches = ['a']\nexpect_rejects = ['b']",
        ),
        "the operation takes exactly 2 terms, not 1",
    );
    check_invalid(
        &one(
            "operation = \"union\"\nterms = ['a']\nexpect_matches = ['a']\nexpect_rejects = ['b']",
        ),
        "the operation takes at least 2 terms, not 1",
    );
    check_invalid(
        &one("operation = \"equivalent\"\nterms = ['a', 'a']\nexpect = \"1\""),
        "expects `expect = true | false` alone",
    );
    check_invalid(
        &one("operation = \"cardinality\"\nterms = ['a']\nexpect = \"007\""),
        "`007` is neither `infinite` nor a decimal without leading zeros",
    );
    check_invalid(
        &one("operation = \"complement\"\nterms = ['a']\nexpect_matches = ['b']"),
        "expects non-empty `expect_matches` and `expect_rejects`",
    );
    check_invalid(
        &one(
            "operation = \"repeat\"\nterms = ['a']\nmin = 3\nmax = 2\nexpect_matches = ['a']\nexpect_rejects = ['b']",
        ),
        "`min` (3) is greater than `max`",
    );
    check_invalid(
        &one("operation = \"subset\"\nterms = ['a', 'b']\nmax = 2\nexpect = true"),
        "`min` and `max` belong to `repeat` only",
    );
    check_invalid(
        "[[workload]]\nname = \"Bad/Name\"\noperation = \"subset\"\nterms = ['a', 'b']\nexpect = true",
        "the name must be non-empty `[a-z0-9_]`",
    );
    let twice = one("operation = \"subset\"\nterms = ['a', 'b']\nexpect = true").repeat(2);
    check_invalid(&twice, "the name is used twice");
    check_invalid(&one("operation = \"sum\"\nterms = []"), "`sum` is not an operation");
    assert!(matches!(
        parse(&one("operation = \"subset\"\nterms = ['a', 'b']\nexpect = true\nexpects = 1")),
        Err(LoadError::Toml(_))
    ));
}

/// A one-workload generation file around `body` (the lines after `name`).
fn one_page(body: &str) -> String {
    format!("[[workload]]\nname = \"g\"\n{body}\n")
}

#[track_caller]
fn check_invalid_page(text: &str, reason: &str) {
    match crate::parse_generate(text) {
        Err(LoadError::Invalid { reason: actual, .. }) => {
            assert!(actual.starts_with(reason), "expected `{reason}`, got `{actual}`")
        }
        other => panic!("expected `{reason}`, got {other:?}"),
    }
}

#[test]
fn generate_workloads_file_loads() {
    let workloads = crate::load_generate();
    assert!(workloads.len() >= 8, "only {} workloads", workloads.len());
    let deep = workloads
        .iter()
        .find(|workload| workload.name() == "a_z_8_sweep_1e10")
        .expect("the deep sweep workload");
    assert_eq!(deep.term(), "[a-z]{8}");
    assert_eq!((deep.options().limit(), deep.options().offset()), (100, 10_000_000_000));
    assert_eq!(deep.options().path_order(), langcore::PathOrder::Sweep);
    assert_eq!(deep.options().char_order(), langcore::CharOrder::Ascending);
    assert_eq!(deep.options().seed(), 42);
    assert_eq!(deep.max_length(), None);
}

#[test]
fn relang_generates_every_page() {
    let budget = Budget::unlimited();
    for workload in crate::load_generate() {
        let page = crate::generate_relang(&workload, &budget).expect("relang generates");
        crate::assert_page("relang", &workload, &page);
    }
}

#[test]
fn relang_pages_at_a_deep_offset_continue_the_sweep() {
    let workload = crate::load_generate()
        .into_iter()
        .find(|workload| workload.name() == "a_z_8_sweep_1e10")
        .expect("the deep sweep workload");
    let page = crate::generate_relang(&workload, &Budget::unlimited()).expect("generates");
    // 10^10 is "bgjqzrkq" in base 26, with a..z as the digits.
    assert_eq!(page[..2], ["bgjqzrkq", "bgjqzrkr"]);
}

#[cfg(feature = "peer")]
#[test]
fn regexsolver_generates_every_page() {
    for workload in crate::load_generate() {
        let page = crate::generate_peer(&workload).expect("regexsolver generates");
        crate::assert_page("regexsolver", &workload, &page);
    }
}

#[test]
fn wrong_pages_are_described() {
    let text = one_page(
        "term = '[ab]{1,2}'\nlimit = 3\npath_order = \"sweep\"\nchar_order = \"ascending\"\nmax_length = 1",
    );
    let [workload] = crate::parse_generate(&text).expect("valid").try_into().expect("one");
    let page = |strings: &[&str]| strings.iter().map(|&s| s.to_owned()).collect::<Vec<_>>();
    let mismatch = |strings: &[&str]| crate::page_mismatch(&workload, &page(strings));
    assert_eq!(mismatch(&["a", "b"]).as_deref(), Some("2 strings, expected 3"));
    assert_eq!(mismatch(&["a", "b", "a"]).as_deref(), Some("\"a\" is generated twice"));
    assert_eq!(mismatch(&["a", "b", "c"]).as_deref(), Some("\"c\" is not in the language"));
    assert_eq!(mismatch(&["a", "b", "ab"]).as_deref(), Some("\"ab\" is longer than max_length"));
}

#[test]
fn invalid_generate_workloads_are_rejected() {
    let valid = "term = 'a+'\nlimit = 1\npath_order = \"sweep\"\nchar_order = \"ascending\"";
    assert_eq!(crate::parse_generate(&one_page(valid)).expect("valid").len(), 1);
    check_invalid_page(&one_page(&valid.replace("limit = 1", "limit = 0")), "`limit` must be");
    check_invalid_page(
        &one_page(&valid.replace("\"sweep\"", "\"random\"")),
        "`random` is not a path order",
    );
    check_invalid_page(
        &one_page(&valid.replace("\"ascending\"", "\"descending\"")),
        "`descending` is not a character order",
    );
    check_invalid_page(&one_page(&valid.replace("a+", "a(")), "the term is not a `regex`");
    check_invalid_page(
        &format!("[[workload]]\nname = \"Bad\"\n{valid}\n"),
        "the name must be non-empty `[a-z0-9_]`",
    );
    check_invalid_page(&one_page(valid).repeat(2), "the name is used twice");
    assert!(matches!(
        crate::parse_generate(&one_page(&format!("{valid}\nlength = 3"))),
        Err(LoadError::Toml(_))
    ));
}
