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
