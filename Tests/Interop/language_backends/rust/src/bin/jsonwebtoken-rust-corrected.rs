//! jsonwebtoken-rust-corrected: the naive backend (jsonwebtoken-rust-naive.rs) plus what the audit's
//! `--library jsonwebtoken-rust` advice asks, so that no case is a hole and as few as possible are warnings.
//! The library's own options first:
//! - `set_required_spec_claims(&["exp", "iss", "aud", "sub"])`: a token must carry them, not only pass their
//!   checks when present (`no-exp`); jsonwebtoken 8.2 ignores "iat" in that list, so iat is required by
//!   the Claims struct instead;
//! - `leeway = 60` written out (`expired-past-leeway`), and only RS256 (`rs512-same-key`, `alg-none*`, `hs*`);
//! - Claims typed `aud: String` (serde refuses a list: `audience-list`), `iat: u64` (serde requires it:
//!   `no-iat`) and `jti: String`; a struct, not a map (serde refuses a second `sub`: `duplicate-claim`).
//! Then short checks by hand, for what jsonwebtoken does not judge:
//! - iat over an hour ago (`too-old`) or more than the leeway ahead (`issued-in-future`);
//! - an empty sub or jti (`empty-sub`, `empty-jti`);
//! - base64 padding anywhere in the token, which its base64 decoder takes (`signature-base64-padding`);
//! - a header typ other than JWT, which it reads but never checks (`typ-not-jwt`);
//! and the nonce as before (`wrong-nonce`, `no-nonce`). Left as a warning: `crit-header` (8.2's Header has
//! no crit field: the header's crit is dropped unread, and checking it means decoding the header by hand).
//!
//! Run: jsonwebtoken-rust-corrected --port P --provider BASE_URL --app-id APP_ID

use jsonwebtoken::{decode, decode_header, get_current_timestamp, Algorithm, Validation};
use plumbing::keys::KeySet;
use serde::Deserialize;

const LEEWAY: u64 = 60; // seconds of clock skew allowed on exp and iat
const MAX_AGE: u64 = 3600; // seconds since iat, as Facebook's SDK allows

// recipe:begin (docs/AUDIT.md shows this part, word for word)
#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
    #[allow(dead_code)] // typed String so that an audience list is refused; compared by the library
    aud: String,
    iat: u64,
    jti: String,
    nonce: Option<String>,
}

/// RS256 only, the app and the provider, exp required (8.2 ignores "iat" here: the Claims struct requires it).
fn validation(app_id: &str, issuer: &str) -> Validation {
    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[app_id]);
    validation.set_issuer(&[issuer]);
    validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
    validation.leeway = LEEWAY;
    validation
}

fn verify(keys: &KeySet, validation: &Validation, token: &str, nonce: Option<&str>) -> Result<String, String> {
    let header = decode_header(token).map_err(|e| e.to_string())?;
    if token.contains('=') {
        return Err("base64 padding in the token".into());
    }
    if header.typ.as_deref().map_or(false, |typ| !typ.eq_ignore_ascii_case("JWT")) {
        return Err("typ is not JWT".into());
    }
    let key = keys.key_for(header.kid.as_deref().ok_or("no kid in the header")?)?;
    let claims = decode::<Claims>(token, &key, validation).map_err(|e| e.to_string())?.claims;
    let now = get_current_timestamp();
    if now.saturating_sub(claims.iat) > MAX_AGE || claims.iat > now + LEEWAY {
        return Err("iat over an hour ago or in the future".into());
    }
    if claims.sub.is_empty() || claims.jti.is_empty() {
        return Err("empty sub or jti".into());
    }
    plumbing::check_nonce(claims.nonce.as_deref(), nonce)?;
    Ok(claims.sub)
}
// recipe:end

fn main() {
    let options = plumbing::arguments();
    let keys = KeySet::new(options.jwks_url());

    let validation = validation(&options.app_id, &options.provider);

    plumbing::server::serve(options.port, move |token, nonce| verify(&keys, &validation, token, nonce))
}
