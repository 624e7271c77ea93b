import Foundation
import HTTPTypes
import Hummingbird
import LimitedLoginCore
import LimitedLoginJOSE
import NIOCore

/// The provider's response shapes.
enum Responses {
    /// The pages' Content-Security-Policy: the stylesheet and the script are files of this origin, and
    /// nothing inline runs (no inline script, style or event handler), whatever a page's text holds.
    /// No `form-action`: the dialog's forms end in a redirect to the app's URI, which browsers check
    /// against it; the console adds `form-action 'self'` (``consolePolicy``).
    static let pagePolicy =
        "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'"

    /// The console's policy: the page policy, and its forms post only to this origin.
    static let consolePolicy = pagePolicy + "; form-action 'self'"

    /// The `form_post` page's policy: the page policy, its one inline script (the form's submit) allowed by
    /// `scriptNonce`, and its form posting only to `formAction` (``FormActionSource``).
    static func formPostPolicy(scriptNonce: String, formAction: String) -> String {
        let directives = pagePolicy.split(separator: ";").map { directive -> String in
            let trimmed = directive.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("script-src ") ? trimmed + " 'nonce-\(scriptNonce)'" : trimmed
        }
        return (directives + ["form-action \(formAction)"]).joined(separator: "; ")
    }

    /// An HTML page, never cached, with headers that keep it out of frames and scripts out of it.
    static func html(_ html: String, status: HTTPResponse.Status = .ok, policy: String = pagePolicy) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
        ]
        headers[HTTPField.Name("Content-Security-Policy")!] = policy
        headers[HTTPField.Name("X-Frame-Options")!] = "DENY"
        headers[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// Plain text (a short answer for a client that is not a browser).
    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }

    /// A JSON document.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, cacheControl: String = "no-store") -> Response {
        jsonBytes(JSONSerializer.serialize(value), status: status, cacheControl: cacheControl)
    }

    /// A JSON document from a Codable answer (the admin API's models), its keys sorted.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok, cacheControl: String = "no-store") throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return jsonBytes(Array(try encoder.encode(value)), status: status, cacheControl: cacheControl)
    }

    static func jsonBytes(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, cacheControl: String = "no-store") -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: cacheControl],
            body: .init(byteBuffer: ByteBuffer(bytes: bytes))
        )
    }

    /// A redirect: 302 after a GET, 303 after a POST (so the browser follows with a GET).
    static func redirect(to location: String, afterPost: Bool) -> Response {
        Response(
            status: afterPost ? .seeOther : .found,
            headers: [.location: location, .cacheControl: "no-store"]
        )
    }
}

extension Request {
    /// The request's form body, refused above `limit` bytes or when it is not a form.
    mutating func formBody(limit: Int) async throws(HTTPError) -> FormParameters {
        let contentType = headers[.contentType] ?? ""
        guard contentType.lowercased().hasPrefix("application/x-www-form-urlencoded") else {
            throw HTTPError(.unsupportedMediaType, message: "Send the form as application/x-www-form-urlencoded.")
        }
        let buffer: ByteBuffer
        do { buffer = try await collectBody(upTo: limit) } catch {
            throw HTTPError(.contentTooLarge, message: "The request body is larger than \(limit) bytes.")
        }
        do {
            return try FormParameters(encoded: String(buffer: buffer))
        } catch {
            throw HTTPError(.badRequest, message: "The form cannot be read: \(error.description).")
        }
    }
}
