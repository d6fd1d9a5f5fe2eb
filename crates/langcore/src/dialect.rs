//! [`Dialect`]: the regex engine whose syntax and meaning a pattern is written for.
//!
//! The same text means different languages in different engines: `\d` is ASCII in
//! JavaScript and Java but every Unicode digit in Python 3 and Rust, `$` may match before a
//! final newline, class syntax differs. A dialect names which reading applies, both for
//! patterns read by relang and for patterns it writes.

use std::fmt;
use std::str::FromStr;

/// A regex engine's dialect.
///
/// # Example
/// ```
/// use langcore::Dialect;
///
/// assert_eq!("python".parse::<Dialect>(), Ok(Dialect::Python));
/// assert_eq!(Dialect::default(), Dialect::Rust);
/// assert_eq!(Dialect::Js.as_str(), "js");
/// assert!("perl".parse::<Dialect>().is_err());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// Rust's `regex` crate syntax with Unicode on: relang's own (the default), which also
    /// accepts every construct of the other dialects whose meaning is unambiguous.
    #[default]
    Rust,
    /// Python's `re` module (Python 3, `str` patterns).
    Python,
    /// JavaScript's `RegExp` (ECMAScript, without the `u` or `v` flag).
    Js,
    /// Java's `java.util.regex.Pattern`.
    Java,
    /// PCRE2 (PHP's `preg_*`, and Perl-compatible engines).
    Pcre,
}

impl Dialect {
    /// Every dialect, the default first.
    pub const ALL: [Dialect; 5] =
        [Dialect::Rust, Dialect::Python, Dialect::Js, Dialect::Java, Dialect::Pcre];

    /// The dialect's name on the wire: `rust`, `python`, `js`, `java` or `pcre`.
    pub fn as_str(self) -> &'static str {
        match self {
            Dialect::Rust => "rust",
            Dialect::Python => "python",
            Dialect::Js => "js",
            Dialect::Java => "java",
            Dialect::Pcre => "pcre",
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of [`Dialect::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownDialect(String);

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> =
            Dialect::ALL.iter().map(|dialect| format!("{:?}", dialect.as_str())).collect();
        write!(f, "unknown dialect {:?}: expected one of {}", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(name: &str) -> Result<Dialect, UnknownDialect> {
        Dialect::ALL
            .into_iter()
            .find(|dialect| dialect.as_str() == name)
            .ok_or_else(|| UnknownDialect(name.to_owned()))
    }
}
