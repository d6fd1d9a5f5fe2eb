//! Server configuration from flags and `RELANG_*` environment variables.

use std::net::SocketAddr;

/// How to run the server. Every flag can also be set through its environment variable.
#[derive(Clone, Debug, clap::Parser)]
#[command(name = "relang-server", version, about = "The relang regular-language service")]
pub struct Config {
    /// Address and port to listen on.
    #[arg(long, env = "RELANG_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;

    #[test]
    fn defaults_to_loopback_8080() {
        let config = Config::try_parse_from(["relang-server"]).unwrap();
        assert_eq!(config.bind, "127.0.0.1:8080".parse().unwrap());
    }

    #[test]
    fn rejects_a_bad_address() {
        assert!(Config::try_parse_from(["relang-server", "--bind", "nowhere"]).is_err());
    }
}
