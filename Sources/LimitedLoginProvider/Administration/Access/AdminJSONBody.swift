import Foundation
import Hummingbird
import LimitedLoginJOSE

/// Reads an admin request's JSON object body with the strict reader (duplicate names and bad UTF-8 are
/// refused). An empty body is an empty object, so that `POST /_admin/reset` needs none.
enum AdminJSONBody {
    static func read(_ request: Request, limit: Int) async -> Result<JSONObject, AdminBodyError> {
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: limit) } catch {
            return .failure(AdminBodyError("The body is larger than \(limit) bytes."))
        }
        if buffer.readableBytes == 0 { return .success(JSONObject()) }
        guard (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json") else {
            return .failure(AdminBodyError("Send a JSON body (Content-Type: application/json)."))
        }
        do {
            guard case .object(let object) = try StrictJSONParser().parse(Array(buffer.readableBytesView)) else {
                return .failure(AdminBodyError("The body must be a JSON object."))
            }
            return .success(object)
        } catch {
            return .failure(AdminBodyError("The body is not valid JSON: \(error)."))
        }
    }

    /// The body's JSON object; a 400 ``AdminError`` when it cannot be read.
    static func object(_ request: Request, limit: Int) async throws(AdminError) -> JSONObject {
        switch await read(request, limit: limit) {
        case .failure(let error): throw AdminError.badRequest(error.message)
        case .success(let object): return object
        }
    }

    /// Reads a JSON body into `type`, refusing a key that is not one of `accepted` (a misspelt key is an
    /// error, never ignored); a 400 ``AdminError`` says what is wrong.
    static func decode<T: Decodable>(_ type: T.Type, accepting accepted: [String], from request: Request, limit: Int) async throws(AdminError) -> T {
        guard isJSON(request) else { throw AdminError.badRequest("Send a JSON body (Content-Type: application/json).") }
        return try decode(type, accepting: accepted, bytes: try await collect(request, limit: limit))
    }

    /// As ``decode(_:accepting:from:limit:)`` for a body that may be left out: an empty one is `{}` (as
    /// ``read(_:limit:)`` takes it), and only one that is not empty must be sent as JSON.
    static func decode<T: Decodable>(
        _ type: T.Type, accepting accepted: [String]?, fromOptional request: Request, limit: Int
    )
        async throws(AdminError) -> T
    {
        let body = try await collect(request, limit: limit)
        if body.isEmpty { return try decode(type, accepting: accepted, bytes: Array("{}".utf8)) }
        guard isJSON(request) else { throw AdminError.badRequest("Send a JSON body (Content-Type: application/json).") }
        return try decode(type, accepting: accepted, bytes: body)
    }

    private static func isJSON(_ request: Request) -> Bool {
        (request.headers[.contentType] ?? "").lowercased().hasPrefix("application/json")
    }

    private static func collect(_ request: Request, limit: Int) async throws(AdminError) -> [UInt8] {
        var request = request
        do { return Array(try await request.collectBody(upTo: limit).readableBytesView) } catch {
            throw AdminError.badRequest("The body is larger than \(limit) bytes.")
        }
    }

    /// Decodes `bytes` into `type` after the strict reader has refused duplicate names, bad UTF-8, a body
    /// that is not an object and, with `accepted`, any key not in it (nil: `type` refuses keys itself). A 400 ``AdminError`` says what is
    /// wrong; one that `type` throws is kept as it is.
    static func decode<T: Decodable>(_ type: T.Type, accepting accepted: [String]?, bytes: [UInt8]) throws(AdminError) -> T {
        do {
            guard case .object(let object) = try StrictJSONParser().parse(bytes) else {
                throw AdminError.badRequest("The body must be a JSON object.")
            }
            if let accepted, let message = object.unknownKeyMessage(accepted: accepted) { throw AdminError.badRequest(message) }
        } catch let error as AdminError {
            throw error
        } catch {
            throw AdminError.badRequest("The body is not valid JSON: \(error).")
        }
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch let error as AdminError {
            throw error
        } catch {
            throw AdminError.badRequest("The body does not fit: \(describe(error)).")
        }
    }

    /// A decoding error in a few words: what is missing or of the wrong type.
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }
}

extension JSONObject {
    /// The refusal for the first key of this request body that is not one of `accepted`, naming it and them
    /// (a misspelt key is an error, never ignored); nil when every key is accepted.
    func unknownKeyMessage(accepted: [String]) -> String? {
        guard let unknown = keys.first(where: { !accepted.contains($0) }) else { return nil }
        return "Unknown key \"\(unknown)\"; the accepted keys are: " + accepted.sorted().joined(separator: ", ") + "."
    }
}
