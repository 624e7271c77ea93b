import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimitedLoginHummingbird
import LimitedLoginJOSE
import LimitedLoginTestSupport
import LimitedLoginVerifier
import Testing

/// The middleware's nonce policy, which every server chooses: each policy accepts the token whose nonce
/// fits and refuses the others with the precise reason.
@Suite("LimitedLoginHummingbird: the nonce policy")
struct AuthenticatorNoncePolicyTests {
    typealias Policy = LimitedLoginNoncePolicy<BasicLimitedLoginRequestContext>
    let factory = TokenFactory()
    /// The header a client names itself by, in the session-store stand-in.
    static let client = HTTPFields.Element.Name("X-Client")!

    /// A router for apps `1234567890` and `2222222222` whose `/whoami` answers the user and the app.
    func router(_ nonce: Policy) throws -> Router<BasicLimitedLoginRequestContext> {
        let verifier = TokenVerifier(
            configuration: try VerifierConfiguration(appIDs: [factory.appID, "2222222222"], allowedIssuers: [factory.issuer]),
            keys: StaticKeySet(TestKeys.keySet([(factory.keyID, factory.key)])), clock: ManualClock(factory.now)
        )
        let router = Router(context: BasicLimitedLoginRequestContext.self)
        router.add(middleware: LimitedLoginAuthenticator(verifier: verifier, nonce: nonce))
        router.get("/whoami") { _, context -> String in
            context.limitedLoginIdentity.map { "user \($0.userID) app \($0.appID)" } ?? "anonymous"
        }
        return router
    }

    /// Sends `token` as the bearer, with these extra headers; answers the status, body and challenge.
    func get(
        _ router: Router<BasicLimitedLoginRequestContext>, token: String, headers extra: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, String, String?) {
        try await Application(router: router).test(.router) { client in
            var headers = extra
            headers[.authorization] = "Bearer \(token)"
            let response = try await client.execute(uri: "/whoami", method: .get, headers: headers)
            return (response.status, String(buffer: response.body), response.headers[.wwwAuthenticate])
        }
    }

    @Test("exact from a header: the token's nonce must equal it; another is nonce_mismatch; none is invalid_request")
    func exactFromHeader() async throws {
        let router = try router(.exact(fromHeader: .limitedLoginNonce))
        let (status, body, _) = try await get(router, token: factory.token(), headers: [.limitedLoginNonce: factory.nonce])
        #expect(status == .ok)
        #expect(body == "user 1029384756 app 1234567890")
        let (wrongStatus, wrongBody, wrongChallenge) = try await get(router, token: factory.token(), headers: [.limitedLoginNonce: "other"])
        #expect(wrongStatus == .unauthorized)
        #expect(wrongChallenge == #"Bearer realm="limited-login", error="invalid_token""#)
        #expect(wrongBody.contains(#""reason":"nonce_mismatch""#), "\(wrongBody)")
        for headers: HTTPFields in [[:], [.limitedLoginNonce: ""]] {
            let (missingStatus, missingBody, missingChallenge) = try await get(router, token: factory.token(), headers: headers)
            #expect(missingStatus == .unauthorized)
            #expect(missingChallenge == #"Bearer realm="limited-login", error="invalid_request""#)
            #expect(missingBody.contains("the X-Limited-Login-Nonce header is required: it carries the login's nonce"), "\(missingBody)")
        }
    }

    @Test("repeated headers are refused by the verifier's shared rule: two Authorization or two nonce headers, even when the first is right")
    func repeatedHeaders() async throws {
        for policy in [Policy.exact(fromHeader: .limitedLoginNonce), .sha256OfRawNonce(fromHeader: .limitedLoginNonce)] {
            let router = try router(policy)
            var twoNonces = HTTPFields()
            twoNonces.append(HTTPField(name: .limitedLoginNonce, value: factory.nonce))
            twoNonces.append(HTTPField(name: .limitedLoginNonce, value: "other"))
            let (status, body, challenge) = try await get(router, token: factory.token(), headers: twoNonces)
            #expect(status == .unauthorized)
            #expect(challenge == #"Bearer realm="limited-login", error="invalid_request""#)
            #expect(body.contains("the X-Limited-Login-Nonce header must be sent once, not more than once"), "\(body)")
        }
        let router = try router(.exact(fromHeader: .limitedLoginNonce))
        let answer = try await Application(router: router).test(.router) { client in
            var headers: HTTPFields = [.limitedLoginNonce: factory.nonce]
            headers.append(HTTPField(name: .authorization, value: "Bearer \(factory.token())"))
            headers.append(HTTPField(name: .authorization, value: "Bearer \(factory.token())"))
            let response = try await client.execute(uri: "/whoami", method: .get, headers: headers)
            return (response.status, String(buffer: response.body))
        }
        #expect(answer.0 == .unauthorized)
        #expect(answer.1.contains("the Authorization header must be sent once, not more than once"), "\(answer.1)")
        #expect(throws: RequestTokenHeaders.Problem.malformedAuthorization) {
            try RequestTokenHeaders.bearerToken(authorizationValues: ["Basic abc"])
        }
        #expect(throws: RequestTokenHeaders.Problem.malformedAuthorization) {
            try RequestTokenHeaders.bearerToken(authorizationValues: ["Bearer a b"])
        }
        #expect(try RequestTokenHeaders.bearerToken(authorizationValues: ["bearer a.b.c"]) == "a.b.c")
        #expect(try RequestTokenHeaders.bearerToken(authorizationValues: []) == nil)
        #expect(try RequestTokenHeaders.single(["n,1"], header: "X") == "n,1", "a comma is part of one value")
    }

    @Test("SHA-256 of a raw nonce from a header: the raw value passes, the hash itself (what the token shows) does not")
    func rawNonceFromHeader() async throws {
        let raw = "raw-secret-42"
        let hashed = factory.token { $0["nonce"] = .string(NonceCheck.sha256Hex(raw)) }
        let router = try router(.sha256OfRawNonce(fromHeader: .limitedLoginNonce))
        let (status, _, _) = try await get(router, token: hashed, headers: [.limitedLoginNonce: raw])
        #expect(status == .ok)
        let (replayStatus, replayBody, _) = try await get(router, token: hashed, headers: [.limitedLoginNonce: NonceCheck.sha256Hex(raw)])
        #expect(replayStatus == .unauthorized)
        #expect(replayBody.contains(#""reason":"nonce_mismatch""#), "\(replayBody)")
    }

    @Test("expected from the server's own state: the nonce it handed out; nil refuses the request")
    func expectedFromServerState() async throws {
        // A stand-in for a session store: the nonce the server issued to this client.
        let issued = ["client-a": factory.nonce]
        let router = try router(
            .expected { request, _ in
                request.headers[Self.client].flatMap { issued[$0] }.map { .exact($0) }
            })
        let (status, _, _) = try await get(router, token: factory.token(), headers: [Self.client: "client-a"])
        #expect(status == .ok)
        let (unknownStatus, unknownBody, _) = try await get(router, token: factory.token(), headers: [Self.client: "client-b"])
        #expect(unknownStatus == .unauthorized)
        #expect(unknownBody.contains("the request has no nonce to check the ID token against"), "\(unknownBody)")
        let (otherStatus, otherBody, _) = try await get(router, token: factory.token { $0["nonce"] = "stolen" }, headers: [Self.client: "client-a"])
        #expect(otherStatus == .unauthorized)
        #expect(otherBody.contains(#""reason":"nonce_mismatch""#), "\(otherBody)")
    }

    @Test("notChecked, written out: any nonce passes; the audience is still checked against every app")
    func notCheckedStillChecksAudience() async throws {
        let router = try router(.notChecked)
        let (status, body, _) = try await get(
            router,
            token: factory.token {
                $0["nonce"] = "anything"
                $0["aud"] = "2222222222"
            })
        #expect(status == .ok)
        #expect(body == "user 1029384756 app 2222222222")
        let (otherStatus, otherBody, _) = try await get(router, token: factory.token { $0["aud"] = "999" })
        #expect(otherStatus == .unauthorized)
        #expect(otherBody.contains(#""reason":"audience_not_allowed""#), "\(otherBody)")
    }
}
