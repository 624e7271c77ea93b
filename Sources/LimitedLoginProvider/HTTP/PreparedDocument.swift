import Crypto
import Hummingbird
import NIOCore

/// A JSON document served as is to every request: its bytes, validator and caching rules made once, when
/// what it says changes (keys rotate, the base URL is bound), not per request.
///
/// A request whose `If-None-Match` names the document's `ETag` (or `*`) gets `304 Not Modified` with no
/// body (RFC 9110 section 13.1.2; a weak `W/` validator matches too, as the comparison there is weak).
struct PreparedDocument: Sendable {
    /// The body, shared by every response (a `ByteBuffer` copy is a reference, not a copy of the bytes).
    let body: ByteBuffer
    /// A strong validator: the first 16 bytes of the body's SHA-256, in hex, quoted.
    let eTag: String
    /// The headers of a 200 answer.
    private let headers: HTTPFields
    /// The headers of a 304 answer: the validator and the caching rules, no content type.
    private let notModifiedHeaders: HTTPFields

    init(_ bytes: [UInt8], cacheControl: String) {
        self.body = ByteBuffer(bytes: bytes)
        let digest = SHA256.hash(data: bytes)
        let hex = digest.prefix(16).map { byte in
            let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
        self.eTag = "\"\(hex)\""
        self.headers = [.contentType: "application/json; charset=utf-8", .cacheControl: cacheControl, .eTag: eTag]
        self.notModifiedHeaders = [.cacheControl: cacheControl, .eTag: eTag]
    }

    /// The answer to `request`: 304 when it already holds this version, else the document.
    func response(to request: Request) -> Response {
        if let condition = request.headers[.ifNoneMatch], Self.matches(condition, eTag: eTag) {
            return Response(status: .notModified, headers: notModifiedHeaders)
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// True when the `If-None-Match` list names `eTag` (weak comparison) or is `*`.
    static func matches(_ condition: String, eTag: String) -> Bool {
        for candidate in condition.split(separator: ",") {
            var tag = candidate.drop { $0 == " " || $0 == "\t" }
            while let last = tag.last, last == " " || last == "\t" { tag = tag.dropLast() }
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == eTag[...] { return true }
        }
        return false
    }
}
