#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of the three parts of a compact JWS a problem is in.
public enum JWSSegment: String, Sendable, Equatable {
    case header, payload, signature
}

/// Why a compact JWS could not be read (before any key or claim is looked at).
public enum JWSParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Over the size bound, in bytes.
    case tooLarge(size: Int, limit: Int)
    /// Not exactly three dot-separated segments.
    case wrongSegmentCount(Int)
    /// A segment is not canonical base64url.
    case invalidBase64URL(JWSSegment, Base64URLError)
    /// A segment decodes to something that is not acceptable JSON.
    case invalidJSON(JWSSegment, JSONParseError)
    /// A segment is valid JSON but not an object.
    case notAnObject(JWSSegment, foundType: String)

    public var description: String {
        switch self {
        case .tooLarge(let size, let limit): return "the token is \(size) bytes, over the limit of \(limit) bytes"
        case .wrongSegmentCount(let count): return "a compact JWS has exactly 3 segments separated by '.', this has \(count)"
        case .invalidBase64URL(let segment, let error): return "the \(segment.rawValue) segment is not canonical base64url: \(error)"
        case .invalidJSON(let segment, let error): return "the \(segment.rawValue) is not acceptable JSON: \(error)"
        case .notAnObject(let segment, let type): return "the \(segment.rawValue) must be a JSON object, not \(type)"
        }
    }
}

/// A compact JWS (RFC 7515 section 7.1) split, decoded and validated, not yet verified.
///
/// The header and payload are kept as validated ``JSONDocument``s; ``header`` and ``payload`` build
/// their trees each time they are read. The token itself is kept, and the signing input is read from it
/// in place (``withSigningInput(_:)``).
public struct CompactJWS: Sendable {
    /// The compact serialization, as parsed.
    public let token: String
    /// The protected header, validated and indexed.
    public let headerDocument: JSONDocument
    /// The payload (a JWT's claims), validated and indexed.
    public let payloadDocument: JSONDocument
    /// The decoded signature.
    public let signature: [UInt8]
    /// How many leading bytes of the token the signature covers (up to the second dot).
    private let signedByteCount: Int

    /// The bytes the signature covers: `base64url(header) '.' base64url(payload)` (a copy).
    public var signingInput: [UInt8] { withSigningInput { Array($0) } }
    /// The protected header's members.
    public var header: JSONObject { headerDocument.value.objectValue ?? JSONObject() }
    /// The payload's members (a JWT's claims).
    public var payload: JSONObject { payloadDocument.value.objectValue ?? JSONObject() }
    /// The raw payload bytes, exactly as signed.
    public var payloadBytes: [UInt8] { payloadDocument.bytes }
    /// The header segment as it appears in the token (base64url text).
    public var headerSegment: [UInt8] { Array(token.utf8.prefix { $0 != UInt8(ascii: ".") }) }

    /// The default bound on a token's size: 16 KiB.
    public static let defaultMaximumSize = 16 * 1024

    /// Splits and decodes a compact JWS whose header and payload are JSON objects.
    ///
    /// - Parameters:
    ///   - token: the compact serialization.
    ///   - maximumSize: tokens longer than this many bytes are refused before any decoding.
    ///   - json: the rules for the header and payload.
    public init(
        parsing token: String,
        maximumSize: Int = CompactJWS.defaultMaximumSize,
        json: StrictJSONParser = StrictJSONParser()
    ) throws(JWSParseError) {
        try self.init(parsing: token, maximumSize: maximumSize, json: json, reusingHeader: { _ in nil })
    }

    /// Splits and decodes a compact JWS, taking the header from `reusingHeader` when it knows the header
    /// segment: a caller that keeps the validated headers of earlier tokens (every token signed with one
    /// key has the same header) returns the document it validated from exactly these bytes.
    ///
    /// Every other rule is applied as by ``init(parsing:maximumSize:json:)``, in the same order.
    public init(
        parsing token: String,
        maximumSize: Int = CompactJWS.defaultMaximumSize,
        json: StrictJSONParser = StrictJSONParser(),
        reusingHeader: (UnsafeBufferPointer<UInt8>) -> JSONDocument?
    ) throws(JWSParseError) {
        // The token's bytes are borrowed in place (no copy of the string), and every part is built once and
        // moved into place: each copy of a JWS costs six reference-count operations.
        // The parts come back as a tuple, so that each is moved to where it is kept (a struct's fields would be
        // copied out of it, and the struct released: two reference counts on each).
        let (knownHeader, header, payload, signature, signedByteCount) = try token.withUTF8Bytes { bytes in
            Result { () throws(JWSParseError) in
                try Self.split(bytes.assumingMemoryBound(to: UInt8.self), maximumSize: maximumSize, reusingHeader: reusingHeader)
            }
        }.get()
        let headerDocument: JSONDocument
        if let knownHeader { headerDocument = knownHeader } else { headerDocument = try Self.object(header, .header, json) }
        let payloadDocument = try Self.object(payload, .payload, json)
        self.init(
            token: token, headerDocument: headerDocument, payloadDocument: payloadDocument, signature: signature,
            signedByteCount: signedByteCount
        )
    }

    private init(token: String, headerDocument: JSONDocument, payloadDocument: JSONDocument, signature: [UInt8], signedByteCount: Int) {
        self.token = token
        self.headerDocument = headerDocument
        self.payloadDocument = payloadDocument
        self.signature = signature
        self.signedByteCount = signedByteCount
    }

    private static func object(_ bytes: consuming [UInt8], _ segment: JWSSegment, _ json: StrictJSONParser) throws(JWSParseError) -> JSONDocument {
        let document: JSONDocument
        do { document = try json.document(bytes) } catch { throw .invalidJSON(segment, error) }
        guard document.kind(at: document.root) == .object else {
            throw .notAnObject(segment, foundType: document.typeName(at: document.root))
        }
        return document
    }

    /// Calls `body` with the signing input, read in place from the token.
    public func withSigningInput<Value>(_ body: (UnsafeRawBufferPointer) throws -> Value) rethrows -> Value {
        // The closure captures a count, not self: capturing self would copy the whole JWS (six reference counts).
        let signedByteCount = signedByteCount
        return try token.withUTF8Bytes { bytes in try body(UnsafeRawBufferPointer(rebasing: bytes[0..<signedByteCount])) }
    }

    /// The parts of a token: the validated header that `reusingHeader` knew, if it did (then `header` is
    /// empty), the decoded header, payload and signature, and how many bytes the signature covers.
    private typealias Parts = (knownHeader: JSONDocument?, header: [UInt8], payload: [UInt8], signature: [UInt8], signedByteCount: Int)

    private static func split(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumSize: Int, reusingHeader: (UnsafeBufferPointer<UInt8>) -> JSONDocument?
    ) throws(JWSParseError) -> Parts {
        if bytes.count > maximumSize { throw .tooLarge(size: bytes.count, limit: maximumSize) }
        guard let first = firstDot(in: bytes, from: 0),
            let second = firstDot(in: bytes, from: first + 1),
            firstDot(in: bytes, from: second + 1) == nil
        else {
            let count = bytes.reduce(1) { $0 + ($1 == UInt8(ascii: ".") ? 1 : 0) }
            throw .wrongSegmentCount(count)
        }
        func decode(_ range: Range<Int>, _ segment: JWSSegment) throws(JWSParseError) -> [UInt8] {
            // Offsets in the error are within the segment.
            do { return try Base64URL.decode(bytes: UnsafeBufferPointer(rebasing: bytes[range])) } catch {
                throw .invalidBase64URL(segment, error)
            }
        }
        let knownHeader = reusingHeader(UnsafeBufferPointer(rebasing: bytes[0..<first]))
        let header = knownHeader == nil ? try decode(0..<first, .header) : []
        let payload = try decode((first + 1)..<second, .payload)
        let signature = try decode((second + 1)..<bytes.count, .signature)
        return (knownHeader, header, payload, signature, second)
    }

    /// The offset of the first `.` at or after `start` (the C library's `memchr`, which reads a vector
    /// register at a time).
    private static func firstDot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        guard let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
