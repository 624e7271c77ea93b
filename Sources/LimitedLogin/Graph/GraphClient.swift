import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import NIOHTTP1

/// A small Graph API client for classic logins: sends requests with the session's access token.
///
/// Without an access token (after a limited login, or none) every request fails with
/// ``GraphClientError/noAccessToken`` before anything is sent.
public struct GraphClient: Sendable {
    public let session: LoginSession
    public let endpoints: LoginEndpoints

    public init(session: LoginSession = .shared, endpoints: LoginEndpoints = .facebook) {
        self.session = session
        self.endpoints = endpoints
    }

    /// `GET|POST|DELETE {graph}/{version}/{path}` with the current access token.
    public func request(
        _ path: String, parameters: [String: String] = [:], method: HTTPMethod = .GET
    ) async throws(GraphClientError) -> JSONObject {
        guard let token = session.accessToken else { throw .noAccessToken }
        return try await send(path, parameters: parameters, method: method, token: token.tokenString)
    }

    /// `me` with the given fields.
    public func me(fields: [String] = ["id", "name"]) async throws(GraphClientError) -> JSONObject {
        try await request("me", parameters: ["fields": fields.joined(separator: ",")])
    }

    /// Refreshes the current access token (`fb_extend_sso_token`, then `me/permissions` for the
    /// permission sets), saves it as the session's, and returns it.
    public func refreshAccessToken() async throws(GraphClientError) -> AccessToken {
        guard let old = session.accessToken else { throw .noAccessToken }
        let answer = try await send(
            "oauth/access_token",
            parameters: ["grant_type": "fb_extend_sso_token", "client_id": old.appID, "access_token": old.tokenString],
            method: .GET, token: old.tokenString
        )
        guard let tokenString = answer["access_token"]?.stringValue, !tokenString.isEmpty else {
            throw .unexpectedAnswer(status: 200, body: "no access_token in the refresh answer")
        }
        let now = Date()
        let expiresIn = answer["expires_in"]?.numberValue
        let dataAccess = answer["data_access_expiration_time"]?.numberValue
        let permissions = try await send("me/permissions", parameters: [:], method: .GET, token: tokenString)
        var sets: [String: Set<Permission>] = ["granted": [], "declined": [], "expired": []]
        if case .array(let entries)? = permissions["data"] {
            for case .object(let entry) in entries {
                guard let name = entry["permission"]?.stringValue, let status = entry["status"]?.stringValue else { continue }
                sets[status, default: []].insert(Permission(name: name))
            }
        }
        let refreshed = AccessToken(
            tokenString: tokenString, permissions: sets["granted"] ?? [], declinedPermissions: sets["declined"] ?? [],
            expiredPermissions: sets["expired"] ?? [], appID: old.appID, userID: old.userID,
            expirationDate: expiresIn.map { now.addingTimeInterval($0) } ?? old.expirationDate, refreshDate: now,
            dataAccessExpirationDate: dataAccess.map { Date(timeIntervalSince1970: $0) } ?? old.dataAccessExpirationDate,
            graphDomain: answer["graph_domain"]?.stringValue ?? old.graphDomain
        )
        try session.updateWhileSignedIn(as: old) { $0.accessToken = refreshed }
        return refreshed
    }

    private func send(
        _ path: String, parameters: [String: String], method: HTTPMethod, token: String
    ) async throws(GraphClientError) -> JSONObject {
        var form = FormParameters()
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) { form.append(name, value) }
        var url = endpoints.graphURL(path)
        if !form.pairs.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.percentEncodedQuery = form.encoded
            url = components.url ?? url
        }
        let answer: SDKHTTPClient.Answer
        do {
            answer = try await SDKHTTPClient.send(url, method: method, headers: [("Authorization", "OAuth \(token)")])
        } catch {
            throw .transport(String(describing: error))
        }
        guard let object = answer.jsonObject else { throw .unexpectedAnswer(status: answer.status, body: answer.text) }
        if let error = answer.graphError {
            throw .graph(code: error.code, subcode: error.subcode, type: error.type, message: error.message)
        }
        guard (200..<300).contains(answer.status) else { throw .unexpectedAnswer(status: answer.status, body: answer.text) }
        return object
    }
}
