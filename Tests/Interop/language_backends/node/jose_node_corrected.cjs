// jose-node-corrected: jose-node-naive plus what jose 4.11 needs to pass the audit with no hole and no warning.
// jwtVerify options: `algorithms: ['RS256']` (pinned), `typ: 'JWT'` (typ-not-jwt), `maxTokenAge: '1h'`, which
// requires iat and refuses one too old or in the future (no-iat, too-old, issued-in-future), `clockTolerance: 60`.
// Hand checks, where jose 4.11 has no option: exp present (no-exp, the naive one's hole; jose 4.11 has no
// `requiredClaims` option and silently ignores it), aud one string (audience-list), sub and jti not
// empty (empty-sub, empty-jti), a kid in the header (missing-kid: jose takes the only RS256 key of the set when
// kid is absent), the token's shape and canonical base64url before verifying (signature-base64-padding,
// signature-standard-base64, non-canonical-base64url, huge-token) and the payload refusing a name twice
// (duplicate-claim).
'use strict';
const { createRemoteJWKSet, jwtVerify } = require('jose');
const { args, checkNonce, serve } = require('./_serve.cjs');
const { checkShape, payloadText, refuseDuplicateNames } = require('./_strict.cjs');

const options = args();
// recipe:begin (docs/AUDIT.md shows this part, word for word)
const JWKS = createRemoteJWKSet(new URL(options.provider + '/.well-known/oauth/openid/jwks/'));

async function verify(token, nonce) {
  checkShape(token);
  const { payload, protectedHeader } = await jwtVerify(token, JWKS, {
    issuer: options.provider, audience: options.appId, algorithms: ['RS256'], typ: 'JWT', maxTokenAge: '1h', clockTolerance: 60,
  });
  if (typeof payload.exp !== 'number') throw new Error('no exp');
  if (typeof payload.aud !== 'string') throw new Error('aud is not one string');
  if (!payload.sub || !payload.jti) throw new Error('empty sub or jti');
  if (typeof protectedHeader.kid !== 'string') throw new Error('no kid');
  refuseDuplicateNames(payloadText(token));
  checkNonce(payload, nonce);
  return payload.sub;
}
// recipe:end

serve(options.port, verify);
