# ruby-jwt-naive: an audit backend verifying Limited Login ID tokens with the `jwt` gem (ruby-jwt) exactly as
# its README shows (https://github.com/jwt/ruby-jwt/blob/v2.5.0/README.md, sections "JSON Web Key (JWK)",
# "Issuer Claim" and "Audience Claim"): JWT.decode with `algorithms: ['RS256']` and a `jwks:` loader lambda
# that fetches the provider's key set and drops its cache when a kid is not found (at most every 5 minutes, as
# the README's loader does), plus `aud: APP_ID, verify_aud: true` and `iss: ISSUER, verify_iss: true`; then the
# nonce compared with X-Nonce (Limited Login's docs require it). Nothing more.

require 'json'
require 'jwt'
require_relative 'serve'

options = Serve.arguments
issuer = options[:provider]
jwks_url = "#{issuer}/.well-known/oauth/openid/jwks/"

# The README's loader: the cached set, refetched when a kid is not found (at most once every 5 minutes).
cached_keys = nil
cache_last_update = 0
jwk_loader = lambda do |loader_options|
  cached_keys = nil if loader_options[:kid_not_found] && cache_last_update < Time.now.to_i - 300
  cached_keys ||= begin
    cache_last_update = Time.now.to_i
    Serve.fetch_json(jwks_url) # Net::HTTP GET, parsed
  end
end

Serve.serve(options[:port]) do |token, nonce|
  payload, _header = JWT.decode(token, nil, true,
                                { algorithms: ['RS256'], jwks: jwk_loader,
                                  aud: options[:app_id], verify_aud: true,
                                  iss: issuer, verify_iss: true })
  Serve.check_nonce(payload, nonce)
  payload['sub']
end
