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
}

extension JSONObject {
    /// The refusal for the first key of this request body that is not one of `accepted`, naming it and them
    /// (a misspelt key is an error, never ignored); nil when every key is accepted.
    func unknownKeyMessage(accepted: [String]) -> String? {
        guard let unknown = keys.first(where: { !accepted.contains($0) }) else { return nil }
        return "Unknown key \"\(unknown)\"; the accepted keys are: " + accepted.sorted().joined(separator: ", ") + "."
    }
}

