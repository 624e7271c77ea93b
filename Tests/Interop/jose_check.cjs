// panva's jose (Debian's node-jose) against the provider: `verify` checks a token the way a Node
// backend would, `sign` makes tokens for our verifier. Prints one JSON object; exit 0 unless misused.
'use strict';
const jose = require('jose');
const crypto = require('crypto');

async function verify(jwksURL, token, issuer, audience, nonce) {
  const keys = jose.createRemoteJWKSet(new URL(jwksURL));
  try {
    const { payload, protectedHeader } = await jose.jwtVerify(token, keys, { issuer, audience, algorithms: ['RS256'] });
    if (payload.nonce !== nonce) {
      return { ok: false, code: 'NONCE_MISMATCH', message: 'nonce does not match' };
    }
    return { ok: true, kid: protectedHeader.kid, payload };
  } catch (error) {
    return { ok: false, code: error.code, message: error.message };
  }
}

async function sign(issuer, audience, nonce) {
  const { publicKey, privateKey } = await jose.generateKeyPair('RS256', { modulusLength: 2048 });
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'jose-key', alg: 'RS256', use: 'sig' };
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: '7654321', jti: 'jose-1', nonce, name: 'Jose Node' };
  const build = (token) => token.setIssuer(issuer).setAudience(audience).setIssuedAt(now).setExpirationTime(now + 3600);
  const rs256 = await build(new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'jose-key', typ: 'JWT' })).sign(privateKey);
  const none = build(new jose.UnsecuredJWT(claims)).encode();
  // HS256 keyed with the RSA public key's PEM: the key-confusion attack on verifiers that take the key
  // from the token's alg.
  const pem = publicKey.export({ type: 'spki', format: 'pem' });
  const hs256 = await build(new jose.SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid: 'jose-key', typ: 'JWT' }))
    .sign(new Uint8Array(Buffer.from(pem)));
  return { jwk, rs256, none, hs256 };
}

(async () => {
  const [mode, ...args] = process.argv.slice(2);
  let result;
  if (mode === 'verify' && args.length === 5) {
    result = await verify(...args);
  } else if (mode === 'sign' && args.length === 3) {
    result = await sign(...args);
  } else {
    console.error('usage: jose_check.cjs verify JWKS_URL TOKEN ISSUER AUDIENCE NONCE | sign ISSUER AUDIENCE NONCE');
    process.exit(64);
  }
  process.stdout.write(JSON.stringify(result) + '\n');
})();
