//! langcore's integration tests: the public API against oracles and the dialect rules.

mod analysis;
mod atomic_oracle;
mod backtracking;
mod budget;
mod by_length;
mod class_oracle;
mod corpus;
mod derived;
mod dialect;
mod differential;
mod generate;
mod home_engines;
mod language;
mod lookahead_output;
mod lookaround_oracle;
mod matching;
mod minimal;
mod ops_boolean;
mod ops_sequence;
mod oracle;
mod overlaps;
mod patterns;
mod real_corpus;
mod real_patterns;
mod to_regex;
