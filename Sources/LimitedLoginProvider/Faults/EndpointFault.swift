import LimitedLoginJOSE

/// A fault injected into the provider's key endpoints or Graph API (`POST /_admin/faults`,
/// `limited-login scenario fault`): for the next `count` requests, or for `seconds`, the endpoints answer
/// a status, a delay, an empty or malformed document, an HTML page, or a key set that has rotated past the
/// signing key. It tests how a backend's key cache behaves when the provider misbehaves.
public struct EndpointFault: Sendable, Equatable {
    /// The endpoints a fault can take over.
    public enum Endpoint: String, CaseIterable, Sendable, Comparable {
        case discovery, jwks, certs, graph

        /// `keys`: the three documents a backend reads keys from.
        static let keyDocuments: Set<Endpoint> = [.discovery, .jwks, .certs]

        public static func < (lhs: Endpoint, rhs: Endpoint) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// What the endpoint answers in place of its document.
    public enum Answer: Sendable, Equatable {
        /// The document as usual, after the delay alone.
        case usual
        /// This HTTP status, with a JSON error body.
        case status(Int)
        /// 200 with an empty document: `{"keys":[]}` for the JWKS, `{}` otherwise.
        case empty
        /// 200 with an HTML page (a proxy's or captive portal's error page).
        case html
        /// 200 with JSON cut off in the middle.
        case malformed
        /// 200 with a key set (JWKS or certificates) holding only a new key: the signing key has rotated out.
        case rotated

        var name: String {
            switch self {
            case .usual: return "usual"
            case .status(let code): return "status \(code)"
            case .empty: return "empty"
            case .html: return "html"
            case .malformed: return "malformed"
            case .rotated: return "rotated"
            }
        }
    }

    public let id: Int
    public let endpoints: Set<Endpoint>
    public let answer: Answer
    /// Seconds each answer waits before it is sent.
    public let delay: Double
    /// Requests left to take (nil: until `expiresAt` or cleared).
    public var remaining: Int?
    /// Monotonic nanoseconds after which the fault ends (nil: until its count is used or cleared).
    public let expiresAt: UInt64?
    /// The documents a `rotated` fault serves, made once when it is set.
    let rotatedDocuments: RotatedKeyDocuments?

    /// The admin API's JSON form.
    func json(now: UInt64) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .number(Double(id)), "endpoints": .array(endpoints.sorted().map { .string($0.rawValue) }),
            "delay": .number(delay),
        ]
        switch answer {
        case .usual: break
        case .status(let code): object["status"] = .number(Double(code))
        default: object["answer"] = .string(answer.name)
        }
        if let remaining { object["remaining"] = .number(Double(remaining)) }
        if let expiresAt { object["seconds_left"] = .number(Double(expiresAt > now ? (expiresAt - now) / 1_000_000_000 : 0)) }
        return .object(JSONObject(object))
    }
}

/// What a `POST /_admin/faults` body asks for, before it has an ID.
struct EndpointFaultRequest: Sendable, Equatable {
    var endpoints: Set<EndpointFault.Endpoint>
    var answer: EndpointFault.Answer
    var delay: Double
    var count: Int?
    var seconds: Double?
    /// For `rotated`: its documents, made by the caller before the fault is added (a key generation).
    var rotatedDocuments: RotatedKeyDocuments?

    static let acceptedKeys = ["endpoints", "status", "answer", "delay", "count", "seconds"]
    /// The longest delay and duration accepted.
    static let longestDelay: Double = 300
    static let longestDuration: Double = 86400

    /// Reads `{"endpoints": "keys" | "jwks" | ["jwks","certs"], "status": 500 | "answer": "empty"|"html"|
    /// "malformed"|"rotated", "delay": 2.5, "count": 3 | "seconds": 60}`; the message says what is wrong.
    static func parse(_ body: JSONObject) -> Result<EndpointFaultRequest, AdminBodyError> {
        if let message = body.unknownKeyMessage(accepted: acceptedKeys) { return .failure(AdminBodyError(message)) }
        let names: [String]
        switch body["endpoints"] {
        case .string(let text)?: names = text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        case .array(let values)? where values.allSatisfy({ $0.stringValue != nil }): names = values.compactMap(\.stringValue)
        case nil:
            return .failure(
                AdminBodyError("Give \"endpoints\": keys (discovery, jwks and certs), discovery, jwks, certs or graph, or a list of them."))
        default: return .failure(AdminBodyError("\"endpoints\" must be a name or a list of names: keys, discovery, jwks, certs, graph."))
        }
        var endpoints: Set<EndpointFault.Endpoint> = []
        for name in names {
            if name == "keys" {
                endpoints.formUnion(EndpointFault.Endpoint.keyDocuments)
                continue
            }
            guard let endpoint = EndpointFault.Endpoint(rawValue: name) else {
                return .failure(AdminBodyError("Unknown endpoint \"\(name)\"; one of: keys, discovery, jwks, certs, graph."))
            }
            endpoints.insert(endpoint)
        }
        guard !endpoints.isEmpty else { return .failure(AdminBodyError("\"endpoints\" names no endpoint.")) }

        var answer = EndpointFault.Answer.usual
        switch (body["status"], body["answer"]) {
        case (nil, nil): break
        case (_?, _?): return .failure(AdminBodyError("Give \"status\" or \"answer\", not both."))
        case (let status?, nil):
            guard case .number(let number) = status, number == number.rounded(), (200...599).contains(number) else {
                return .failure(AdminBodyError("\"status\" must be an HTTP status from 200 to 599."))
            }
            answer = .status(Int(number))
        case (nil, let value?):
            switch value.stringValue {
            case "empty"?: answer = .empty
            case "html"?: answer = .html
            case "malformed"?: answer = .malformed
            case "rotated"?:
                guard endpoints.isSubset(of: [.jwks, .certs]) else {
                    return .failure(AdminBodyError("\"answer\": \"rotated\" is for the key sets only: jwks and certs."))
                }
                answer = .rotated
            default: return .failure(AdminBodyError("\"answer\" must be empty, html, malformed or rotated."))
            }
        }
        var delay: Double = 0
        if let value = body["delay"] {
            guard case .number(let seconds) = value, (0...longestDelay).contains(seconds) else {
                return .failure(AdminBodyError("\"delay\" must be a number of seconds from 0 to \(Int(longestDelay))."))
            }
            delay = seconds
        }
        if answer == .usual, delay == 0 {
            return .failure(AdminBodyError("The fault changes nothing: give \"status\", \"answer\" or a \"delay\"."))
        }
        var count: Int?
        var seconds: Double?
        switch (body["count"], body["seconds"]) {
        case (_?, _?): return .failure(AdminBodyError("Give \"count\" or \"seconds\", not both."))
        case (let value?, nil):
            guard case .number(let number) = value, number == number.rounded(), (1...1_000_000).contains(number) else {
                return .failure(AdminBodyError("\"count\" must be a whole number of requests from 1 to 1000000."))
            }
            count = Int(number)
        case (nil, let value?):
            guard case .number(let number) = value, number > 0, number <= longestDuration else {
                return .failure(AdminBodyError("\"seconds\" must be a number of seconds above 0, at most \(Int(longestDuration))."))
            }
            seconds = number
        case (nil, nil): break
        }
        return .success(EndpointFaultRequest(endpoints: endpoints, answer: answer, delay: delay, count: count, seconds: seconds))
    }
}
