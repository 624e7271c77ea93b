//! The plumbing both jsonwebtoken-rust backends share, so that the two binaries differ only in how they
//! verify a token: the command line (`--port P --provider BASE_URL --app-id APP_ID`), the HTTP/1.1 server
//! (`server`), the provider's key set fetched over HTTP and cached (`keys`) and the nonce comparison.
//! Rust's std only: no HTTP crate, so that the only dependencies are jsonwebtoken, serde and serde_json.

pub mod keys;
pub mod server;

use std::process::exit;

/// The three options every audit backend is started with.
pub struct Options {
    pub port: u16,
    /// The provider's base URL, which is also the exact issuer (`iss`) of its tokens.
    pub provider: String,
    /// The app the backend serves: the audience (`aud`) of its tokens.
    pub app_id: String,
}

impl Options {
    /// Where the provider publishes its key set (JWKS).
    pub fn jwks_url(&self) -> String {
        format!("{}/.well-known/oauth/openid/jwks/", self.provider.trim_end_matches('/'))
    }
}

/// Reads `--port P --provider URL --app-id ID` (in any order, `--name value` or `--name=value`); on anything
/// else prints the usage and exits with 64.
pub fn arguments() -> Options {
    let usage = |problem: &str| -> ! {
        eprintln!("{}\nusage: BACKEND --port P --provider BASE_URL --app-id APP_ID", problem);
        exit(64)
    };
    let (mut port, mut provider, mut app_id) = (None, None, None);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), value.to_string()),
            None => (arg.clone(), args.next().unwrap_or_else(|| usage(&format!("{} needs a value", arg)))),
        };
        match name.as_str() {
            "--port" => port = Some(value.parse::<u16>().unwrap_or_else(|_| usage("--port must be a port number"))),
            "--provider" => provider = Some(value),
            "--app-id" => app_id = Some(value),
            _ => usage(&format!("unknown option {}", name)),
        }
    }
    Options {
        port: port.unwrap_or_else(|| usage("--port is required")),
        provider: provider.unwrap_or_else(|| usage("--provider is required")),
        app_id: app_id.unwrap_or_else(|| usage("--app-id is required")),
    }
}

/// The nonce check Limited Login's docs require: when the request carried one (`X-Nonce`), the token's
/// `nonce` claim must equal it; no `X-Nonce`: not checked. A token without a nonce compares as "".
pub fn check_nonce(claimed: Option<&str>, expected: Option<&str>) -> Result<(), String> {
    match expected {
        Some(expected) if !constant_time_eq(claimed.unwrap_or("").as_bytes(), expected.as_bytes()) => {
            Err("nonce mismatch".to_string())
        }
        _ => Ok(()),
    }
}

/// Compares two byte strings in time that depends on their length only, not on where they first differ
/// (Rust's std has no such function; the lengths are not secret here).
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |difference, (x, y)| difference | (x ^ y)) == 0
}
