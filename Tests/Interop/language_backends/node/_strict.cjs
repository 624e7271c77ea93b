// Hand checks jose-node-corrected adds where jose 4.11 has no option (the backend's comment names the cases).
'use strict';

const MAX_TOKEN_LENGTH = 8192;

// At most 8 KiB (huge-token) and three segments, each canonical base64url: decoding it and encoding the bytes
// again must give it back, which refuses padding (signature-base64-padding), + and / (signature-standard-base64)
// and non-zero unused bits (non-canonical-base64url), all of which Node's base64url decoder lets through.
function checkShape(token) {
  const segments = token.split('.');
  if (token.length > MAX_TOKEN_LENGTH || segments.length !== 3) throw new Error('not a compact JWS of at most 8 KiB');
  for (const segment of segments) {
    if (!segment || Buffer.from(segment, 'base64url').toString('base64url') !== segment) throw new Error('not canonical base64url');
  }
}

// Throws when an object in the token's payload names a member twice (duplicate-claim): JSON.parse, which jose
// uses, silently keeps the last one. `text` is JSON that JSON.parse has already accepted.
function refuseDuplicateNames(text) {
  const objects = []; // per open object the names seen so far; null for an open array
  const string = /"(?:[^"\\]|\\.)*"/y;
  const colon = /\s*:/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{') objects.push(new Set());
    else if (c === '[') objects.push(null);
    else if (c === '}' || c === ']') objects.pop();
    else if (c === '"') {
      string.lastIndex = i;
      const literal = string.exec(text)[0];
      i += literal.length - 1;
      colon.lastIndex = i + 1;
      const names = objects[objects.length - 1];
      if (names && colon.test(text)) { // a member name, compared unescaped
        const name = JSON.parse(literal);
        if (names.has(name)) throw new Error(`the claim "${name}" appears twice`);
        names.add(name);
      }
    }
  }
}

function payloadText(token) {
  return Buffer.from(token.split('.')[1], 'base64url').toString('utf8');
}

module.exports = { checkShape, refuseDuplicateNames, payloadText };
