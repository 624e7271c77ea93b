//! jsonwebtoken-rust-naive: the audit backend for the Rust `jsonwebtoken` crate (8.2) written as its
//! documentation shows (the README's "Decoding" and "Validation" sections, https://docs.rs/jsonwebtoken/8.2.0/
//! and its `Validation` page): the header's kid picks the provider's JWK, `DecodingKey::from_jwk` makes the
//! key, `Validation::new(Algorithm::RS256)` with `set_audience(&[app id])` and `set_issuer(&[provider])`,
//! `decode::<Claims>`, then the nonce Limited Login's docs require. Nothing more: what a careful developer
//! writes on day one.
//!
//! Run: jsonwebtoken-rust-naive --port P --provider BASE_URL --app-id APP_ID

use jsonwebtoken::{decode, decode_header, Algorithm, Validation};
use serde::Deserialize;

/// The claims this backend reads, as the README's `Claims` struct (sub, exp) plus the nonce.
#[derive(Debug, Deserialize)]
struct Claims {
    sub: String,
    #[allow(dead_code)] // read by jsonwebtoken's own exp check; here as the README shows it
    exp: usize,
    nonce: Option<String>,
}

fn main() {
    let options = plumbing::arguments();
    let keys = plumbing::keys::KeySet::new(options.jwks_url());

    let mut validation = Validation::new(Algorithm::RS256);
    validation.set_audience(&[&options.app_id]);
    validation.set_issuer(&[&options.provider]);

    plumbing::server::serve(options.port, move |token, expected_nonce| {
        let kid = decode_header(token).map_err(|e| e.to_string())?.kid.ok_or("no kid in the header")?;
        let key = keys.key_for(&kid)?;
        let claims = decode::<Claims>(token, &key, &validation).map_err(|e| e.to_string())?.claims;
        plumbing::check_nonce(claims.nonce.as_deref(), expected_nonce)?;
        Ok(claims.sub)
    })
}
