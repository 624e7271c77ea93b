# ruby-jwt-corrected: ruby-jwt-naive (the `jwt` gem's README recipe) plus what it takes to refuse every bad
# token the audit sends (`limited-login audit --library ruby-jwt`). Over the naive backend it adds:
# - JWT.decode's own options: `required_claims: %w[exp iat sub]` (no-exp, no-iat);
# - hand checks after JWT.decode, where the gem has no option: iat at most an hour old (too-old) and at most a
#   minute ahead (issued-in-future; the gem's `verify_iat` allows no clock skew at all), aud a single
#   String (audience-list: a list holding the app passes `verify_aud`), sub and jti not empty (empty-sub,
#   empty-jti), no `crit` (crit-header: the gem ignores it), typ absent or JWT (typ-not-jwt), no name twice in the
#   payload (duplicate-claim: JSON.parse keeps the last);
# - hand checks before it: at most 8 KiB (huge-token), and each segment strict, canonical base64url
#   (signature-base64-padding, signature-standard-base64, non-canonical-base64url, whitespace-in-signature: the
#   gem's Base64.decode64 is lenient);
# - a key-set loader that refetches on an unknown kid after a 30 s cooldown (key-rotation; the README's 5 minutes
#   miss the audit's 40 s window), keeps its last good set when a refetch fails or holds no key (FAULT:*), and
#   refreshes a set older than an hour (retired-key), under a lock.

require 'base64'
require 'json'
require 'jwt'
require_relative 'serve'

MAX_TOKEN_BYTES = 8192 # a Limited Login ID token is about 1 KB
MAX_AGE = 3600         # seconds since iat, as Facebook's SDK allows
LEEWAY = 60            # seconds an iat may be ahead of this clock
COOLDOWN = 30          # seconds between refetches for an unknown kid
MAX_SET_AGE = 3600     # seconds a fetched key set is trusted

# A Hash that refuses a name it already holds: JSON.parse(..., object_class: UniqueKeys) refuses duplicates.
class UniqueKeys < Hash
  def []=(name, value)
    raise JWT::DecodeError, "duplicate claim #{name}" if key?(name)

    super
  end
end

options = Serve.arguments
issuer = options[:provider]
jwks_url = "#{issuer}/.well-known/oauth/openid/jwks/"

cached_keys = nil
fetched_at = 0
lock = Mutex.new
jwk_loader = lambda do |loader_options|
  lock.synchronize do
    age = Time.now.to_i - fetched_at
    if cached_keys.nil? || age > MAX_SET_AGE || (loader_options[:kid_not_found] && age > COOLDOWN)
      begin
        fresh = Serve.fetch_json(jwks_url)
        raise JWT::JWKError, 'key set holds no key' unless fresh.is_a?(Hash) && fresh['keys'].is_a?(Array) &&
                                                           !fresh['keys'].empty?

        cached_keys = fresh
        fetched_at = Time.now.to_i
      rescue StandardError
        raise if cached_keys.nil? # nothing to fall back on: refuse this token

        # else keep the last good set (a fault at the provider must not log everyone out)
      end
    end
    cached_keys
  end
end

# recipe:begin (docs/AUDIT.md shows this part, word for word)
Serve.serve(options[:port]) do |token, nonce|
  raise JWT::DecodeError, 'token too large' if token.bytesize > MAX_TOKEN_BYTES

  segments = token.split('.', -1)
  unless segments.size == 3 && segments.all? { |s| Base64.urlsafe_encode64(Base64.urlsafe_decode64(s), padding: false) == s }
    raise JWT::DecodeError, 'not three strict base64url segments'
  end

  payload, header = JWT.decode(token, nil, true,
                               { algorithms: ['RS256'], jwks: jwk_loader,
                                 aud: options[:app_id], verify_aud: true,
                                 iss: issuer, verify_iss: true,
                                 required_claims: %w[exp iat sub] })
  raise JWT::InvalidAudError, 'aud is not one string' unless payload['aud'].is_a?(String)
  iat = payload['iat']
  raise JWT::InvalidIatError, 'iat over an hour ago or ahead' unless iat.is_a?(Numeric) && (Time.now.to_i - iat).between?(-LEEWAY, MAX_AGE)
  raise JWT::DecodeError, 'empty sub or jti' if payload['sub'].to_s.empty? || payload['jti'].to_s.empty?
  raise JWT::DecodeError, 'crit is not supported' if header.key?('crit')
  raise JWT::DecodeError, 'typ is not JWT' unless header.fetch('typ', 'JWT') == 'JWT'

  JSON.parse(Base64.urlsafe_decode64(segments[1]), object_class: UniqueKeys) # refuses a claim given twice
  Serve.check_nonce(payload, nonce)
  payload['sub']
end
# recipe:end
