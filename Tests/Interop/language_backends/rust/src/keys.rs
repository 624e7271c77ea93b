//! The provider's key set (JWKS), fetched over plain HTTP/1.1 with Rust's std and cached.
//! jsonwebtoken 8.2 parses a set (`jwk::JwkSet`, `JwkSet::find(kid)`) and makes a key of a JWK
//! (`DecodingKey::from_jwk`) but fetches nothing, so the fetching and caching are here:
//! - a key is taken by the token header's `kid` from the cached set;
//! - an unknown kid refetches the set, at most once every 30 s (so a rotated key is found within the
//!   audit's window and a flood of forged kids cannot hammer the provider);
//! - a set older than an hour is refetched (a key the provider dropped stops working);
//! - a failed fetch keeps the previous set (the backend keeps serving known keys while the provider's key
//!   endpoint is down) and never adds a key.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::DecodingKey;

const REFETCH_COOLDOWN: Duration = Duration::from_secs(30);
const MAX_AGE: Duration = Duration::from_secs(3600);
const FETCH_TIMEOUT: Duration = Duration::from_secs(5); // to connect, and for each read and write
const MAX_ANSWER: u64 = 1024 * 1024;

pub struct KeySet {
    url: String,
    cache: Mutex<Cache>,
    fetching: Mutex<()>, // one fetch at a time; the others wait for its result
}

#[derive(Default)]
struct Cache {
    set: Option<(JwkSet, Instant)>, // the last set fetched and when
    last_attempt: Option<Instant>,  // the last fetch, whatever came of it
}

impl KeySet {
    pub fn new(url: String) -> KeySet {
        KeySet { url, cache: Mutex::new(Cache::default()), fetching: Mutex::new(()) }
    }

    /// The key the provider publishes under `kid`, refetching the set when the cached one lacks it.
    pub fn key_for(&self, kid: &str) -> Result<DecodingKey, String> {
        if let Some(key) = self.cached(kid, true)? {
            return Ok(key);
        }
        let _one_fetch_at_a_time = self.fetching.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(key) = self.cached(kid, true)? {
            return Ok(key); // another request fetched it meanwhile
        }
        if self.may_refetch() {
            match fetch_jwks(&self.url) {
                Ok(set) => {
                    eprintln!("fetched the key set {}: {} keys", self.url, set.keys.len());
                    self.lock().set = Some((set, Instant::now()));
                }
                Err(problem) => eprintln!("cannot fetch the key set {}: {}", self.url, problem),
            }
        }
        self.cached(kid, false)?.ok_or_else(|| format!("no key with kid {:?} in the provider's key set", kid))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Cache> {
        self.cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The key under `kid` in the cached set (only if that set is younger than MAX_AGE when `fresh`).
    fn cached(&self, kid: &str, fresh: bool) -> Result<Option<DecodingKey>, String> {
        let cache = self.lock();
        match &cache.set {
            Some((set, fetched)) if !fresh || fetched.elapsed() < MAX_AGE => match set.find(kid) {
                Some(jwk) => DecodingKey::from_jwk(jwk).map(Some).map_err(|e| format!("bad key {:?}: {}", kid, e)),
                None => Ok(None),
            },
            _ => Ok(None),
        }
    }

    /// True (and the attempt noted) when no fetch happened in the last REFETCH_COOLDOWN.
    fn may_refetch(&self) -> bool {
        let mut cache = self.lock();
        if cache.last_attempt.map_or(false, |last| last.elapsed() < REFETCH_COOLDOWN) {
            return false;
        }
        cache.last_attempt = Some(Instant::now());
        true
    }
}

/// GET `url` (http://host:port/path) with `Connection: close`; the body of a 200 parsed as a JWK set.
fn fetch_jwks(url: &str) -> Result<JwkSet, String> {
    let rest = url.strip_prefix("http://").ok_or("only http:// key set URLs are supported")?;
    let (authority, path) = match rest.find('/') {
        Some(slash) => (&rest[..slash], &rest[slash..]),
        None => (rest, "/"),
    };
    let address = if authority.contains(':') { authority.to_string() } else { format!("{}:80", authority) };
    let address = address.to_socket_addrs().map_err(|e| e.to_string())?.next().ok_or("no address")?;
    let mut stream = TcpStream::connect_timeout(&address, FETCH_TIMEOUT).map_err(|e| e.to_string())?;
    stream.set_read_timeout(Some(FETCH_TIMEOUT)).map_err(|e| e.to_string())?;
    stream.set_write_timeout(Some(FETCH_TIMEOUT)).map_err(|e| e.to_string())?;
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {}\r\nAccept: application/json\r\nConnection: close\r\n\r\n",
        path, authority
    );
    stream.write_all(request.as_bytes()).map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream.take(MAX_ANSWER).read_to_end(&mut answer).map_err(|e| e.to_string())?;

    let head_end = find(&answer, b"\r\n\r\n").ok_or("no complete HTTP answer")?;
    let head = String::from_utf8_lossy(&answer[..head_end]).to_string();
    let mut body = &answer[head_end + 4..];
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap_or("").split(' ').nth(1).unwrap_or("");
    if status != "200" {
        return Err(format!("HTTP status {:?}", status));
    }
    let header = |name: &str| {
        head.split("\r\n").skip(1).find_map(|line| {
            let (n, v) = line.split_once(':')?;
            if n.trim().eq_ignore_ascii_case(name) { Some(v.trim().to_ascii_lowercase()) } else { None }
        })
    };
    let decoded;
    if header("transfer-encoding").map_or(false, |te| te.contains("chunked")) {
        decoded = dechunk(body)?;
        body = &decoded;
    } else if let Some(length) = header("content-length") {
        let length: usize = length.parse().map_err(|_| "bad Content-Length")?;
        body = body.get(..length).ok_or("answer shorter than its Content-Length")?;
    }
    serde_json::from_slice::<JwkSet>(body).map_err(|e| format!("not a JWK set: {}", e))
}

/// Decodes a chunked body (RFC 9112 section 7.1), ignoring chunk extensions and trailers.
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let mut body = Vec::new();
    loop {
        let line_end = find(data, b"\r\n").ok_or("truncated chunk")?;
        let size_text = String::from_utf8_lossy(&data[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| "bad chunk size")?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(data.get(..size).ok_or("truncated chunk")?);
        data = data.get(size + 2..).ok_or("truncated chunk")?;
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|window| window == needle)
}
