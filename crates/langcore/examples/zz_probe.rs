//! Probe.
fn main() {
    let dialect: langcore::Dialect = std::env::var("D").unwrap_or("rust".into()).parse().unwrap();
    for p in std::env::args().skip(1) {
        let r = langcore::Language::from_regex_in(&p, dialect, &langcore::Budget::default());
        println!("{p:?}: {:?}", r.map(|_| ()).map_err(|e| e.to_string()));
    }
}
