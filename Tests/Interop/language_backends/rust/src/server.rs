//! A minimal HTTP/1.1 server on Rust's std for the audit contract: a thread per connection (kept alive
//! between requests), `GET /me` with `Authorization: Bearer <token>` and optionally `X-Nonce: <nonce>`
//! answers 200 `{"sub": ...}` when `verify(token, nonce)` returns a subject and 401 `{"error": ...}` when it
//! returns an error or panics; any other path is 404. Like the Python reference (`_serve.py`, whose
//! http.server refuses a header line over 64 KiB), a request head over 64 KiB is answered 431.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

const MAX_HEAD: u64 = 64 * 1024; // bytes of request line and headers
const MAX_BODY: u64 = 1024 * 1024; // a GET has none; a body up to this is read and ignored
const IDLE: Duration = Duration::from_secs(30); // a kept-alive connection with no request is closed after this

/// What a connection sent: the request line's parts and the headers (names lowercased).
struct Request {
    method: String,
    path: String,
    version: String,
    headers: Vec<(String, String)>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    fn keep_alive(&self) -> bool {
        let connection = self.header("connection").unwrap_or("").to_ascii_lowercase();
        if self.version == "HTTP/1.1" { !connection.contains("close") } else { connection.contains("keep-alive") }
    }
}

enum ReadError {
    Closed,   // the client closed the connection (or went idle) between requests
    TooLarge, // 431
    Bad,      // 400
}

/// Serves forever on 127.0.0.1:port; prints `listening on http://127.0.0.1:P` once it accepts connections.
pub fn serve<F>(port: u16, verify: F) -> !
where
    F: Fn(&str, Option<&str>) -> Result<String, String> + Send + Sync + 'static,
{
    let listener = TcpListener::bind(("127.0.0.1", port)).unwrap_or_else(|error| {
        eprintln!("cannot listen on 127.0.0.1:{}: {}", port, error);
        std::process::exit(1)
    });
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    println!("listening on http://127.0.0.1:{}", port);
    let _ = io::stdout().flush();
    let verify = Arc::new(verify);
    for stream in listener.incoming().flatten() {
        let verify = Arc::clone(&verify);
        thread::spawn(move || {
            let _ = connection(stream, &*verify);
        });
    }
    unreachable!("TcpListener::incoming never ends")
}

/// Answers the requests of one connection until it closes or asks to.
fn connection<F>(stream: TcpStream, verify: &F) -> io::Result<()>
where
    F: Fn(&str, Option<&str>) -> Result<String, String>,
{
    stream.set_read_timeout(Some(IDLE))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let request = match read_request(&mut reader) {
            Ok(request) => request,
            Err(ReadError::Closed) => return Ok(()),
            Err(ReadError::TooLarge) => {
                answer(&mut writer, 431, &error("request too large"), false)?;
                return drain(reader, &writer);
            }
            Err(ReadError::Bad) => return answer(&mut writer, 400, &error("bad request"), false),
        };
        let (status, body) = route(&request, verify);
        let keep_alive = request.keep_alive();
        answer(&mut writer, status, &body, keep_alive)?;
        if !keep_alive {
            return Ok(());
        }
    }
}

/// After an early answer, reads (and drops) what the client still sends, so that closing the socket does
/// not reset the connection before the client has read that answer.
fn drain(mut reader: BufReader<TcpStream>, writer: &TcpStream) -> io::Result<()> {
    writer.shutdown(std::net::Shutdown::Write)?;
    writer.set_read_timeout(Some(Duration::from_secs(1)))?;
    io::copy(&mut reader.by_ref().take(MAX_BODY), &mut io::sink()).map(|_| ())
}

/// `GET /me`: the token from `Authorization: Bearer`, the expected nonce from `X-Nonce`, then `verify`.
fn route<F>(request: &Request, verify: &F) -> (u16, String)
where
    F: Fn(&str, Option<&str>) -> Result<String, String>,
{
    if request.path.split('?').next() != Some("/me") {
        return (404, error("not found"));
    }
    if request.method != "GET" {
        return (405, error("method not allowed"));
    }
    let token = match bearer_token(request.header("authorization")) {
        Some(token) => token,
        None => return (401, error("no bearer token")),
    };
    // Never a 500 for a bad token: an error or a panic anywhere in verify is a 401.
    match catch_unwind(AssertUnwindSafe(|| verify(token, request.header("x-nonce")))) {
        Ok(Ok(subject)) => (200, serde_json::json!({ "sub": subject }).to_string()),
        Ok(Err(reason)) => (401, error(&reason)),
        Err(_) => (401, error("verification panicked")),
    }
}

fn bearer_token(authorization: Option<&str>) -> Option<&str> {
    let (scheme, token) = authorization?.split_once(' ')?;
    let token = token.trim();
    if scheme.eq_ignore_ascii_case("bearer") && !token.is_empty() { Some(token) } else { None }
}

/// `{"error": reason}`, the reason cut to 500 characters.
fn error(reason: &str) -> String {
    let reason: String = reason.chars().take(500).collect();
    serde_json::json!({ "error": reason }).to_string()
}

/// Reads a request line and headers (at most MAX_HEAD bytes), then skips any body.
fn read_request(reader: &mut BufReader<TcpStream>) -> Result<Request, ReadError> {
    let mut left = MAX_HEAD;
    let mut lines = Vec::new();
    loop {
        let mut line = Vec::new();
        let n = reader.by_ref().take(left).read_until(b'\n', &mut line).map_err(|_| ReadError::Closed)?;
        if n == 0 && lines.is_empty() {
            return Err(ReadError::Closed);
        }
        if !line.ends_with(b"\n") {
            return Err(if n as u64 == left { ReadError::TooLarge } else { ReadError::Bad });
        }
        left -= n as u64;
        let line = String::from_utf8(line).map_err(|_| ReadError::Bad)?;
        let line = line.trim_end_matches(&['\r', '\n'][..]).to_string();
        if line.is_empty() {
            if lines.is_empty() {
                continue; // a stray CRLF between requests
            }
            break;
        }
        lines.push(line);
    }
    let mut request_line = lines[0].split(' ');
    let (method, path, version) = match (request_line.next(), request_line.next(), request_line.next()) {
        (Some(m), Some(p), Some(v)) if v.starts_with("HTTP/1.") => (m.to_string(), p.to_string(), v.to_string()),
        _ => return Err(ReadError::Bad),
    };
    let mut headers = Vec::new();
    for line in &lines[1..] {
        let (name, value) = line.split_once(':').ok_or(ReadError::Bad)?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
    }
    let request = Request { method, path, version, headers };
    if request.header("transfer-encoding").is_some() {
        return Err(ReadError::Bad); // no chunked bodies here: the contract's requests are GETs
    }
    let length: u64 = request.header("content-length").unwrap_or("0").parse().map_err(|_| ReadError::Bad)?;
    if length > MAX_BODY {
        return Err(ReadError::TooLarge);
    }
    io::copy(&mut reader.by_ref().take(length), &mut io::sink()).map_err(|_| ReadError::Closed)?;
    Ok(request)
}

fn answer(writer: &mut TcpStream, status: u16, body: &str, keep_alive: bool) -> io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        404 => "Not Found",
        405 => "Method Not Allowed",
        431 => "Request Header Fields Too Large",
        _ => "",
    };
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: {}\r\n\r\n",
        status,
        reason,
        body.len(),
        if keep_alive { "keep-alive" } else { "close" }
    );
    writer.write_all(head.as_bytes())?;
    writer.write_all(body.as_bytes())?;
    writer.flush()
}
