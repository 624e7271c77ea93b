import Foundation
import Hummingbird
import LimitedLoginJOSE
import Testing

/// A provider process on a fresh SQLite file with the demo data and `adminToken`, for the audit's tests.
func withAuditProvider<T: Sendable>(adminToken: String, _ body: @Sendable (ServerProcess) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limited-login-audit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let provider = try await ServerProcess.start(
        ["--port", "0", "--database", directory.appendingPathComponent("p.sqlite").path, "--admin-token", adminToken], directory: directory
    )
    do {
        let value = try await body(provider)
        await provider.stop()
        return value
    } catch {
        await provider.stop()
        throw error
    }
}

/// A backend written the way too many are: it decodes the payload without checking the signature, and
/// accepts when `aud` is `app` and `exp` (when there is one) is ahead. `pointerStyle` answers 200 with
/// `{"authenticated": …}` for every token instead of 200 or 401.
func decodingOnlyAuditBackend(app: String, pointerStyle: Bool = false) -> Router<BasicRequestContext> {
    let router = Router()
    router.get("/me") { request, _ -> Response in
        var accepted = false
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            let segments = header.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
            if segments.count == 3, let payload = try? Base64URL.decode(String(segments[1])),
                let claims = try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]
            {
                let exp = claims["exp"] as? Double
                accepted = claims["aud"] as? String == app && (exp.map { $0 > Date().timeIntervalSince1970 } ?? true)
            }
        }
        let status: HTTPResponse.Status = pointerStyle || accepted ? .ok : .unauthorized
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: .init(string: #"{"authenticated":\#(accepted)}"#)))
    }
    return router
}
