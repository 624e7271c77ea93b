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
/// their trees each time they are read.
public struct CompactJWS: Sendable {
    /// The protected header, validated and indexed.
    public let headerDocument: JSONDocument
    /// The payload (a JWT's claims), validated and indexed.
    public let payloadDocument: JSONDocument
    /// The bytes the signature covers: `base64url(header) '.' base64url(payload)`.
    public let signingInput: [UInt8]
    /// The decoded signature.
    public let signature: [UInt8]

    /// The protected header's members.
    public var header: JSONObject { headerDocument.value.objectValue ?? JSONObject() }
    /// The payload's members (a JWT's claims).
    public var payload: JSONObject { payloadDocument.value.objectValue ?? JSONObject() }
    /// The raw payload bytes, exactly as signed.
    public var payloadBytes: [UInt8] { payloadDocument.bytes }

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
        var token = token
        let parts = try token.withUTF8 { bytes in
            Result { () throws(JWSParseError) in try Self.split(bytes, maximumSize: maximumSize) }
        }.get()
        func object(_ bytes: [UInt8], _ segment: JWSSegment) throws(JWSParseError) -> JSONDocument {
            let document: JSONDocument
            do { document = try json.document(bytes) } catch { throw .invalidJSON(segment, error) }
            guard document.kind(at: document.root) == .object else {
                throw .notAnObject(segment, foundType: document.typeName(at: document.root))
            }
            return document
        }
        self.headerDocument = try object(parts.header, .header)
        self.payloadDocument = try object(parts.payload, .payload)
        self.signingInput = parts.signingInput
        self.signature = parts.signature
    }

    private struct Parts {
        var header: [UInt8]
        var payload: [UInt8]
        var signature: [UInt8]
        var signingInput: [UInt8]
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>, maximumSize: Int) throws(JWSParseError) -> Parts {
        if bytes.count > maximumSize { throw .tooLarge(size: bytes.count, limit: maximumSize) }
        guard let first = bytes.firstIndex(of: UInt8(ascii: ".")),
              let second = bytes[(first + 1)...].firstIndex(of: UInt8(ascii: ".")),
              !bytes[(second + 1)...].contains(UInt8(ascii: "."))
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
        let header = try decode(0..<first, .header)
        let payload = try decode((first + 1)..<second, .payload)
        let signature = try decode((second + 1)..<bytes.count, .signature)
        return Parts(
            header: header,
            payload: payload,
            signature: signature,
            signingInput: Array(UnsafeBufferPointer(rebasing: bytes[0..<second]))
        )
    }
}
