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
