import AsyncHTTPClient
import Foundation
import LimitedLoginCore
import NIOCore
import NIOHTTP1

/// How a token reaches the backend: the endpoint, the method, and templates for headers, a body, form
/// fields and query parameters, in which `{token}`, `{nonce}` and `{raw_nonce}` are replaced per request.
package struct AuditRequestTemplate: Sendable {
    package static let placeholders = ["token", "nonce", "raw_nonce"]

    package let endpoint: URL
    package let method: HTTPMethod
    package let headers: [(name: String, value: String)]
    package let body: String?
    package let contentType: String?
    package let form: [(name: String, value: String)]
    package let query: [(name: String, value: String)]

    /// Reads the options; the message says what is wrong (exit status 64).
    package init(
        endpoint text: String, method: String, headers: [String], body: String?, contentType: String?, form: [String], query: [String]
    ) throws(AuditUsageError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else {
            throw AuditUsageError("--endpoint must be an http or https URL such as http://127.0.0.1:8000/me; got \"\(text)\"")
        }
        guard url.hasUsablePort else { throw AuditUsageError("--endpoint: the port of \"\(text)\" is not 1 to 65535") }
        endpoint = url
        let upper = method.uppercased()
        guard !upper.isEmpty, upper.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
            throw AuditUsageError("--method must be an HTTP method such as GET or POST; got \"\(method)\"")
        }
        self.method = HTTPMethod(rawValue: upper)
        var parsedHeaders: [(String, String)] = []
        for header in headers {
            guard let colon = header.firstIndex(of: ":"), !header[..<colon].trimmingCharacters(in: .whitespaces).isEmpty,
                header[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            else { throw AuditUsageError("--header must be 'Name: value', e.g. 'Authorization: Bearer {token}'; got \"\(header)\"") }
            parsedHeaders.append((String(header[..<colon]), header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        self.form = try Self.pairs(form, option: "--form")
        self.query = try Self.pairs(query, option: "--query")
        self.body = body
        if body != nil, !form.isEmpty { throw AuditUsageError("Give --body or --form, not both.") }
        self.contentType = contentType
        let texts = parsedHeaders.map(\.1) + [body ?? ""] + self.form.map(\.value) + self.query.map(\.value)
        for text in texts {
            for name in Self.placeholderNames(in: text) where !Self.placeholders.contains(name) {
                throw AuditUsageError("Unknown placeholder {\(name)}; the templates take {token}, {nonce} and {raw_nonce}.")
            }
        }
        if !texts.contains(where: { $0.contains("{token}") }) {
            if body != nil || !form.isEmpty || !query.isEmpty {
                throw AuditUsageError(
                    "No template carries {token}: put it in --body, --form, --query or --header, e.g. --body '{\"id_token\":\"{token}\"}'.")
            }
            parsedHeaders.insert(("Authorization", "Bearer {token}"), at: 0)
        }
        self.headers = parsedHeaders
    }

    /// True when a template carries this placeholder.
    package func uses(_ placeholder: String) -> Bool {
        let mark = "{" + placeholder + "}"
        return headers.contains { $0.value.contains(mark) } || (body?.contains(mark) ?? false)
            || form.contains { $0.value.contains(mark) } || query.contains { $0.value.contains(mark) }
    }

    /// The request for one token and its nonces.
    package func request(token: String, nonces: AuditNonces) -> HTTPClientRequest {
        let values = ["token": token, "nonce": nonces.expected, "raw_nonce": nonces.raw]
        func fill(_ text: String, encode: Bool) -> String {
            var text = text
            for (name, value) in values {
                text = text.replacingOccurrences(of: "{\(name)}", with: encode ? FormParameters.encode(value) : value)
            }
            return text
        }
        var url = endpoint.absoluteString
        if !query.isEmpty {
            let pairs = query.map { FormParameters.encode($0.name) + "=" + fill($0.value, encode: true) }.joined(separator: "&")
            url += (endpoint.query == nil ? "?" : "&") + pairs
        }
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: fill(value, encode: false)) }
        if let body {
            let filled = fill(body, encode: false)
            let type =
                contentType ?? (filled.trimmingCharacters(in: .whitespaces).first == "{" ? "application/json" : "application/x-www-form-urlencoded")
            if !request.headers.contains(name: "Content-Type") { request.headers.add(name: "Content-Type", value: type) }
            request.body = .bytes(ByteBuffer(string: filled))
        } else if !form.isEmpty {
            let filled = form.map { FormParameters.encode($0.name) + "=" + fill($0.value, encode: true) }.joined(separator: "&")
            if !request.headers.contains(name: "Content-Type") {
                request.headers.add(name: "Content-Type", value: contentType ?? "application/x-www-form-urlencoded")
            }
            request.body = .bytes(ByteBuffer(string: filled))
        }
        return request
    }

    private static func pairs(_ options: [String], option: String) throws(AuditUsageError) -> [(name: String, value: String)] {
        try options.map { text throws(AuditUsageError) in
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw AuditUsageError("\(option) must be name=value, e.g. \(option) id_token={token}; got \"\(text)\"")
            }
            return (String(text[..<equals]), String(text[text.index(after: equals)...]))
        }
    }

    /// The names inside `{name}` in `text` (letters and underscores only, so JSON braces are left alone).
    package static func placeholderNames(in text: String) -> [String] {
        var names: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            let name = after.prefix { $0.isLowercase || $0.isUppercase || $0 == "_" }
            if !name.isEmpty, after.dropFirst(name.count).first == "}" { names.append(String(name)) }
            rest = after
        }
        return names
    }
}

/// A command line the audit cannot use (exit status 64), with what to give instead.
package struct AuditUsageError: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
