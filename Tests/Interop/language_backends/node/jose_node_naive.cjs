// jose-node-naive: panva's jose (4.11, Debian's node-jose) written as its documentation shows
// (createRemoteJWKSet and jwtVerify, https://github.com/panva/jose/blob/v4.x/docs/functions/jwks_remote.createRemoteJWKSet.md):
// `createRemoteJWKSet(new URL(jwksUrl))` and `jwtVerify(token, JWKS, { issuer, audience: appId })`, plus the
// nonce check Limited Login requires. Nothing more.
'use strict';
const { createRemoteJWKSet, jwtVerify } = require('jose');
const { args, checkNonce, serve } = require('./_serve.cjs');

const options = args();
const JWKS = createRemoteJWKSet(new URL(options.provider + '/.well-known/oauth/openid/jwks/'));

async function verify(token, nonce) {
  const { payload } = await jwtVerify(token, JWKS, { issuer: options.provider, audience: options.appId });
  checkNonce(payload, nonce);
  return payload.sub;
}

serve(options.port, verify);
