// The HTTP side the Node backends share (the Node twin of audit_backends/_serve.py): `GET /me` with
// `Authorization: Bearer <token>` (and optionally `X-Nonce: <expected nonce>`) answers 200 {"sub": ...} when
// the backend's `verify(token, nonce)` resolves to a subject and 401 {"error": ...} when it throws anything;
// other paths 404. Started as `node FILE --port P --provider BASE_URL --app-id APP_ID`; serves on 127.0.0.1
// only and prints `listening on http://127.0.0.1:P` once it accepts connections; stops on SIGTERM.
'use strict';
const crypto = require('crypto');
const http = require('http');

// --port, --provider and --app-id as `--name value` pairs, all required.
function args() {
  const argv = process.argv.slice(2);
  const options = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = { '--port': 'port', '--provider': 'provider', '--app-id': 'appId' }[argv[i]];
    if (!name || argv[i + 1] === undefined) usage(`bad argument ${argv[i]}`);
    options[name] = argv[i + 1];
  }
  if (!options.port || !options.provider || !options.appId) usage('--port, --provider and --app-id are required');
  options.port = Number(options.port);
  return options;
}

function usage(message) {
  console.error(`${message}\nusage: node ${process.argv[1]} --port P --provider BASE_URL --app-id APP_ID`);
  process.exit(64);
}

// The nonce the request carried (X-Nonce) against the token's, in constant time; none carried: not checked.
function checkNonce(payload, nonce) {
  if (nonce === undefined) return;
  const got = Buffer.from(String(payload.nonce ?? ''));
  const expected = Buffer.from(nonce);
  if (got.length !== expected.length || !crypto.timingSafeEqual(got, expected)) throw new Error('nonce mismatch');
}

function bearerToken(authorization) {
  const [scheme, token] = (authorization || '').split(' ', 2);
  if (!scheme || scheme.toLowerCase() !== 'bearer' || !token || !token.trim()) throw new Error('no bearer token');
  return token.trim();
}

function serve(port, verify) {
  const answer = (response, status, document) => {
    const body = JSON.stringify(document);
    response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  };
  const server = http.createServer(async (request, response) => {
    if (request.method !== 'GET' || request.url.split('?')[0] !== '/me') return answer(response, 404, { error: 'not found' });
    try {
      const token = bearerToken(request.headers.authorization);
      const sub = await verify(token, request.headers['x-nonce']);
      answer(response, 200, { sub });
    } catch (error) { // a bad token is never a 500
      answer(response, 401, { error: `${error.code || error.name}: ${error.message}`.slice(0, 500) });
    }
  });
  // A request whose headers pass Node's limit (16 KiB; a 66 KB token does): Node's own handler answers 431 but
  // destroys the socket at once, so a client still sending sees a reset instead; end it after the answer.
  server.on('clientError', (error, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
  process.on('SIGTERM', () => { server.close(); server.closeAllConnections(); process.exit(0); });
}

module.exports = { args, checkNonce, serve };
