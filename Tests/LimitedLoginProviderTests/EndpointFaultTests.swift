import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Harness: faults on the key endpoints and the Graph API")
struct EndpointFaultTests {
    private static func get(
        _ client: any TestClientProtocol, _ path: String
    ) async throws -> (status: HTTPResponse.Status, type: String?, body: String) {
        let response = try await client.execute(uri: path, method: .get)
        return (response.status, response.headers[.contentType], String(buffer: response.body))
    }

    @Test("a status fault on keys answers discovery, JWKS and certificates with it, counted across them, then the documents come back")
    func statusForCount() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let set = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"keys","status":503,"count":3}"#)
            #expect(set.status == .created)
            #expect(set.object["endpoints"] == .array(["certs", "discovery", "jwks"]))
            #expect(set.object["remaining"] == 3 && set.object["status"] == 503)
            for path in ["/.well-known/openid-configuration", "/.well-known/oauth/openid/jwks/", "/.well-known/oauth/openid/certs"] {
                let answer = try await Self.get(client, path)
                #expect(answer.status == .serviceUnavailable, "\(path)")
                #expect(answer.body.contains("A fault answers this endpoint with 503"), "\(path): \(answer.body)")
            }
            let after = try await Self.get(client, "/.well-known/oauth/openid/jwks/")
            #expect(after.status == .ok)
            #expect(try JSONWebKeySet(parsing: Array(after.body.utf8)).keys.count == 1)
            #expect(try await admin(client, "/_admin/faults").object["faults"] == .array([]))
        }
    }

    @Test("the bad documents: an empty set, an HTML page, cut-off JSON, and a rotated set whose only key is not the signing key")
    func badDocuments() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let signing = try await provider.services.keyring.current().signer.keyID
            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"jwks","answer":"empty","count":1}"#)
            let empty = try await Self.get(client, "/.well-known/oauth/openid/jwks")
            #expect(empty.status == .ok && empty.body == #"{"keys":[]}"#)

            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":["certs"],"answer":"html","count":1}"#)
            let html = try await Self.get(client, "/.well-known/oauth/openid/certs/")
            #expect(html.status == .ok && html.type?.hasPrefix("text/html") == true && html.body.hasPrefix("<!DOCTYPE html>"))

            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"discovery","answer":"malformed","count":1}"#)
            let malformed = try await Self.get(client, "/.well-known/openid-configuration")
            #expect(malformed.status == .ok)
            #expect(throws: JSONParseError.self) { try StrictJSONParser().parse(Array(malformed.body.utf8)) }

            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"jwks,certs","answer":"rotated","count":2}"#)
            let rotated = try JSONWebKeySet(parsing: Array(try await Self.get(client, "/.well-known/oauth/openid/jwks").body.utf8))
            #expect(rotated.keys.count == 1 && rotated.keys[0].keyID != signing)
            let certificates = try CertificateMap.publicKeys(
                fromDocument: Array(try await Self.get(client, "/.well-known/oauth/openid/certs").body.utf8))
            #expect(certificates.count == 1 && certificates[signing] == nil)

            let usual = try JSONWebKeySet(parsing: Array(try await Self.get(client, "/.well-known/oauth/openid/jwks").body.utf8))
            #expect(usual.keys.map(\.keyID) == [signing])
        }
    }

    @Test("a Graph fault answers the Graph API and not the dialog or the code exchange; a delay alone gives the usual answer; DELETE clears")
    func graphAndDelay() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"graph","status":500}"#)
            #expect(try await Self.get(client, "/v21.0/me?access_token=x").status == .internalServerError)
            #expect(try await Self.get(client, "/debug_token?input_token=x").status == .internalServerError)
            #expect(try await Self.get(client, "/v21.0/dialog/oauth?client_id=\(TestFixtures.appID)").status != .internalServerError)
            #expect(try await Self.get(client, "/.well-known/oauth/openid/jwks").status == .ok, "a Graph fault leaves the keys alone")
            let listed = try await admin(client, "/_admin/faults")
            #expect(listed.object["faults"]?.arrayValue?.count == 1)
            #expect(try await admin(client, "/_admin/faults", method: .delete).object["removed"] == 1)
            #expect(try await Self.get(client, "/v21.0/me?access_token=x").status == .unauthorized, "the usual answer to a wrong token")

            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"jwks","delay":0.2,"count":1}"#)
            let late = try await Self.get(client, "/.well-known/oauth/openid/jwks")
            #expect(late.status == .ok && late.body.contains("\"keys\""))
        }
    }

    @Test("a fault for some seconds counts down, and ends by itself")
    func forSeconds() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            // Long enough that a busy machine is still inside it: only the expiry below depends on time passing.
            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"jwks","status":500,"seconds":600}"#)
            #expect(try await Self.get(client, "/.well-known/oauth/openid/jwks").status == .internalServerError)
            let listed = try await admin(client, "/_admin/faults").object["faults"]?.arrayValue?.first?.objectValue
            let left = try #require(listed?["seconds_left"]?.integerValue)
            #expect((1...600).contains(left) && listed?["remaining"] == nil)
            #expect(try await admin(client, "/_admin/faults", method: .delete).object["removed"] == 1)

            _ = try await admin(client, "/_admin/faults", method: .post, json: #"{"endpoints":"jwks","status":500,"seconds":0.2}"#)
            try await Task.sleep(nanoseconds: 1_000_000_000)
            #expect(try await Self.get(client, "/.well-known/oauth/openid/jwks").status == .ok)
            #expect(try await admin(client, "/_admin/faults").object["faults"] == .array([]))
        }
    }

    @Test("bad fault requests are refused, each with what to give")
    func badRequests() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let cases: [(String, String)] = [
                (#"{"status":500}"#, "Give \"endpoints\": keys (discovery, jwks and certs), discovery, jwks, certs or graph, or a list of them."),
                (#"{"endpoints":"dialog","status":500}"#, "Unknown endpoint \"dialog\"; one of: keys, discovery, jwks, certs, graph."),
                (#"{"endpoints":"jwks"}"#, "The fault changes nothing: give \"status\", \"answer\" or a \"delay\"."),
                (#"{"endpoints":"jwks","status":500,"answer":"html"}"#, "Give \"status\" or \"answer\", not both."),
                (#"{"endpoints":"jwks","status":99}"#, "\"status\" must be an HTTP status from 200 to 599."),
                (#"{"endpoints":"discovery","answer":"rotated"}"#, "\"answer\": \"rotated\" is for the key sets only: jwks and certs."),
                (#"{"endpoints":"jwks","answer":"garbage"}"#, "\"answer\" must be empty, html, malformed or rotated."),
                (#"{"endpoints":"jwks","status":500,"count":2,"seconds":3}"#, "Give \"count\" or \"seconds\", not both."),
                (#"{"endpoints":"jwks","status":500,"count":0}"#, "\"count\" must be a whole number of requests from 1 to 1000000."),
                (#"{"endpoints":"jwks","delay":301}"#, "\"delay\" must be a number of seconds from 0 to 300."),
                (
                    #"{"endpoints":"jwks","status":500,"until":3}"#,
                    "Unknown key \"until\"; the accepted keys are: answer, count, delay, endpoints, seconds, status."
                ),
            ]
            for (body, message) in cases {
                let reply = try await admin(client, "/_admin/faults", method: .post, json: body)
                #expect(reply.status == .badRequest, "\(body)")
                #expect(reply.message == message, "\(body)")
            }
            #expect(try await admin(client, "/_admin/faults").object["faults"] == .array([]))
        }
    }

    @Test("a rotation that drops the previous keys publishes the new key alone and signs with it; it needs publish_delay 0")
    func rotationDroppingPrevious() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let before = try await provider.services.keyring.current().signer.keyID
            let refused = try await client.execute(
                uri: "/_admin/keys/rotate", method: .post,
                headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "publish_delay=60&drop_previous=true")
            )
            #expect(refused.status == .badRequest)
            #expect(String(buffer: refused.body).contains("drop_previous needs publish_delay=0"))
            let rotated = try await client.execute(
                uri: "/_admin/keys/rotate", method: .post,
                headers: [.authorization: "Bearer \(KeyRotationAndAdminTests.adminToken)", .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "publish_delay=0&drop_previous=true")
            )
            #expect(rotated.status == .ok)
            let set = try JSONWebKeySet(parsing: Array(try await Self.get(client, "/.well-known/oauth/openid/jwks").body.utf8))
            let after = try await provider.services.keyring.current().signer.keyID
            #expect(after != before && set.keys.map(\.keyID) == [after])
        }
    }
}
