//! Altered, truncated, foreign, empty, huge and non-base64 values: each rejected by the
//! right check, never a panic.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use fair_codec::{DecodeErrorKind, DecodeLimits, FORMAT_VERSION, FairCodec, Keyring};
use langcore::{Budget, Dfa, Nfa};

use crate::support::{TAG_LEN, codec, open, seal};

/// A few values: DFAs of several sizes and an NFA.
fn values() -> Vec<String> {
    let codec = codec();
    let mut values: Vec<String> = ["(abc|de){2}", "", "[]", "\\w{3}[^a]"]
        .iter()
        .map(|pattern| codec.encode(&Dfa::from_regex(pattern).unwrap().to_graph()))
        .collect();
    let nfa = Nfa::from_regex("ab|ac").unwrap().to_graph(&Budget::default()).unwrap();
    values.push(codec.encode(&nfa));
    values
}

/// The check that must reject `text`, an alteration of a valid value, worked out with the
/// base64 crate alone: the MAC rejects anything that gets that far.
fn expected_rejection(text: &str) -> DecodeErrorKind {
    let Ok(bytes) = URL_SAFE_NO_PAD.decode(text) else {
        return DecodeErrorKind::InvalidBase64;
    };
    let min = 2 + TAG_LEN;
    match bytes.first() {
        None => DecodeErrorKind::TooShort { len: 0, min },
        Some(&found) if found != FORMAT_VERSION => {
            DecodeErrorKind::UnsupportedVersion { found, supported: FORMAT_VERSION }
        }
        Some(_) if bytes.len() < min => DecodeErrorKind::TooShort { len: bytes.len(), min },
        Some(_) => DecodeErrorKind::MacMismatch,
    }
}

#[track_caller]
fn check_rejected(codec: &FairCodec, text: &str) {
    let err = codec.decode(text).expect_err(text);
    assert_eq!(err.kind(), &expected_rejection(text), "{text}");
}

#[test]
fn every_single_character_change_is_rejected() {
    let codec = codec();
    let mut n_checked = 0;
    for value in values() {
        for (position, original) in value.char_indices() {
            for replacement in ['A', 'B', 'z', '0', '9', '-', '_', '+', '/', '=', ' ', 'é'] {
                if replacement == original {
                    continue;
                }
                let mut altered = value.clone();
                altered.replace_range(position..position + 1, replacement.encode_utf8(&mut [0; 4]));
                check_rejected(&codec, &altered);
                n_checked += 1;
            }
        }
    }
    assert!(n_checked > 3_000, "{n_checked}");
}

#[test]
fn every_truncation_is_rejected() {
    let codec = codec();
    for value in values() {
        for len in 0..value.len() {
            check_rejected(&codec, &value[..len]);
        }
        // Dropping characters from the front shifts every byte.
        check_rejected(&codec, &value[4..]);
    }
}

#[test]
fn a_foreign_version_is_rejected_before_the_mac() {
    let value = codec().encode(&Dfa::from_regex("a+").unwrap().to_graph());
    let (_, flags, payload) = open(&value);
    for version in [0, 2, 255] {
        // Correctly signed, so only the version is wrong.
        let err = codec().decode(&seal(version, flags, &payload)).unwrap_err();
        assert_eq!(
            err.kind(),
            &DecodeErrorKind::UnsupportedVersion { found: version, supported: 1 }
        );
        assert!(err.to_string().contains(&format!("format version {version} is not supported")));
    }
}

#[test]
fn empty_huge_and_non_base64_texts_are_rejected() {
    let codec = codec();
    assert_eq!(
        codec.decode("").unwrap_err().kind(),
        &DecodeErrorKind::TooShort { len: 0, min: 34 }
    );
    let limit = codec.limits().max_text_len();
    let huge = "A".repeat(limit + 1);
    let err = codec.decode(&huge).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::TooLong { len: limit + 1, limit });
    // At the limit, the length check passes and the next ones decide.
    assert_eq!(
        codec.decode(&huge[1..]).unwrap_err().kind(),
        &DecodeErrorKind::UnsupportedVersion { found: 0, supported: 1 }
    );
    let small = FairCodec::new(Keyring::development())
        .with_limits(DecodeLimits::default().with_max_text_len(100));
    let long_value = codec.encode(&Dfa::from_regex("\\w{3}").unwrap().to_graph());
    assert!(matches!(
        small.decode(&long_value).unwrap_err().kind(),
        DecodeErrorKind::TooLong { limit: 100, .. }
    ));
    for text in ["not base64!", "AQ==", "AQ", "AQ+/", "A", "\u{1F600}", "AQ AQ", "AQ\n"] {
        let kind = codec.decode(text).unwrap_err().kind().clone();
        assert!(
            matches!(kind, DecodeErrorKind::InvalidBase64 | DecodeErrorKind::TooShort { .. }),
            "{text:?}: {kind:?}"
        );
    }
    let err = codec.decode("not base64!").unwrap_err();
    assert_eq!(err.to_string(), "invalid FAIR value: not URL-safe base64 without padding");
    assert!(std::error::Error::source(&err).is_some(), "the base64 error is chained");
}
