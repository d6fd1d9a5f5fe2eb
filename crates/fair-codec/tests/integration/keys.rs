//! Keys: values from another key are rejected; rotation keeps old values decodable.

use fair_codec::{DecodeErrorKind, FairCodec, Keyring};
use langcore::Dfa;

const OLD_KEY: &[u8] = b"the previous key, 32 bytes or more, from configuration";
const NEW_KEY: &[u8] = b"the current key, 32 bytes or more, from configuration";

fn stored_value() -> String {
    let graph = Dfa::from_regex("[a-z]+@example\\.org").unwrap().to_graph();
    FairCodec::new(Keyring::new(OLD_KEY).unwrap()).encode(&graph)
}

#[test]
fn a_value_from_another_key_is_rejected() {
    let err = FairCodec::new(Keyring::development()).decode(&stored_value()).unwrap_err();
    assert_eq!(err.kind(), &DecodeErrorKind::MacMismatch);
    assert_eq!(
        err.to_string(),
        "invalid FAIR value: the MAC does not match: the value was altered, or signed with an \
         unknown key"
    );
}

#[test]
fn rotation_keeps_old_values_until_the_old_key_is_dropped() {
    let stored = stored_value();
    let rotated = Keyring::new(NEW_KEY).unwrap().with_verifying_key(OLD_KEY).unwrap();
    let codec = FairCodec::new(rotated);
    let graph = codec.decode(&stored).expect("the old key still verifies");
    assert_eq!(graph, Dfa::from_regex("[a-z]+@example\\.org").unwrap().to_graph());

    // New values are signed with the new key: they decode without the old one.
    let fresh = codec.encode(&graph);
    assert_ne!(fresh, stored);
    let new_only = FairCodec::new(Keyring::new(NEW_KEY).unwrap());
    assert_eq!(new_only.decode(&fresh).unwrap(), graph);
    assert_eq!(new_only.decode(&stored).unwrap_err().kind(), &DecodeErrorKind::MacMismatch);

    // Order of verifying keys does not matter, and extra keys do no harm.
    let many = Keyring::new(NEW_KEY)
        .unwrap()
        .with_verifying_key(&[9; 32])
        .unwrap()
        .with_verifying_key(OLD_KEY)
        .unwrap();
    assert_eq!(FairCodec::new(many).decode(&stored).unwrap(), graph);
}

#[test]
fn the_development_keyring_says_so() {
    assert!(Keyring::development().is_development());
    assert!(!Keyring::new(NEW_KEY).unwrap().is_development());
    assert!(Keyring::new(fair_codec::DEVELOPMENT_KEY).unwrap().is_development());
}
