import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Synchronization
import Testing

@testable import LimitedLoginNative

/// The exported C functions themselves, against a real provider on 127.0.0.1, with the SDK's scripted
/// person: what a C or C# caller sends and receives. Serialized: the library's state is process-wide.
@Suite("C library: the entry points against a provider on loopback", .serialized)
struct NativeEntryPointTests {
    /// A provider on loopback, the library initialized for the test app with a fresh state file, a callback
    /// registered (and unregistered after `body`), and Alice as the scripted person, unticking `untick`.
    func withAliceReady(
        untick: String?, _ body: @Sendable (_ baseURL: String, _ inbox: ResultInbox, _ state: String) async throws -> Void
    ) async throws {
        try await withLiveProvider(TestFixtures.configuration(publicBaseURL: nil)) { baseURL, _, _ in
            let inbox = ResultInbox()
            let state = temporaryStatePath()
            #expect(take(LLFBInit(TestFixtures.appID, baseURL, state)) == "{}")
            inbox.register()
            defer { LLFBSetResultCallback(nil, nil) }
            #expect(take(LLFBUseScriptedPerson("alice@example.com", "alice-pass", untick, 0)) == "{}")
            try await body(baseURL, inbox, state)
        }
    }

    @Test("a limited login: accepted at once, the Unity-shaped result through the callback, then the current token and profile, then log-out")
    func limitedLogin() async throws {
        try await withAliceReady(untick: "email") { _, inbox, state in

            #expect(
                take(LLFBLoginWithTrackingPreference(7, "email,user_birthday,user_hometown", "limited", "swift-nonce")) == #"{"callback_id":"7"}"#)
            let result = try object(try await inbox.result(for: 7))
            #expect(result["callback_id"]?.stringValue == "7")
            #expect(result["auth_nonce"]?.stringValue == "swift-nonce")
            #expect(result["declined_permissions"] == .array(["email"]))
            #expect(result["granted_permissions"]?.arrayValue?.contains("user_birthday") == true)
            #expect(result["access_token"] == nil)
            #expect(result["error"] == nil)
            let tokenString = try #require(result["auth_token_string"]?.stringValue)
            let claims = try CompactJWS(parsing: tokenString).payload

            #expect(take(LLFBCurrentAuthenticationToken()) == text(["auth_nonce": "swift-nonce", "auth_token_string": .string(tokenString)]))
            let profile = try object(take(LLFBCurrentProfile()))
            #expect(profile["userID"] == claims["sub"])
            #expect(profile["name"]?.stringValue == "Alice Q Smith")
            #expect(profile["birthday"]?.stringValue == "640742400")
            #expect(profile["hometown_id"]?.stringValue == "501")
            #expect(profile["hometown_name"]?.stringValue == "Paris")
            #expect(profile["email"] == nil, "email was unticked")
            #expect(profile["location_id"] == nil, "user_location was not asked for")
            #expect(FileManager.default.fileExists(atPath: state))

            #expect(take(LLFBLogOut()) == "{}")
            #expect(take(LLFBCurrentAuthenticationToken()) == "")
            #expect(take(LLFBCurrentProfile()) == "")
            #expect(!FileManager.default.fileExists(atPath: state))
        }
    }

    @Test("LLFBInit again with the same state file while a login runs: the current-value calls see that login's token")
    func initAgainDuringALogin() async throws {
        try await withAliceReady(untick: nil) { baseURL, inbox, state in
            #expect(take(LLFBLoginWithTrackingPreference(11, "", "limited", nil)) == #"{"callback_id":"11"}"#)
            // As a Unity domain reload does: init again at once, and read the current token before the login ends.
            #expect(take(LLFBInit(TestFixtures.appID, baseURL, state)) == "{}")
            #expect(take(LLFBCurrentAuthenticationToken()) == "")
            let result = try object(try await inbox.result(for: 11))
            let tokenString = try #require(result["auth_token_string"]?.stringValue, "\(result)")
            let current = try object(take(LLFBCurrentAuthenticationToken()))
            #expect(current["auth_token_string"]?.stringValue == tokenString)
            #expect(take(LLFBLogOut()) == "{}")
        }
    }

    @Test("a cancel and an unknown app: a cancelled result, and the dialog's error page as the error")
    func cancelAndUnknownApp() async throws {
        try await withLiveProvider(TestFixtures.configuration(publicBaseURL: nil)) { baseURL, _, _ in
            let inbox = ResultInbox()
            inbox.register()
            defer { LLFBSetResultCallback(nil, nil) }
            #expect(take(LLFBInit(TestFixtures.appID, baseURL, temporaryStatePath())) == "{}")
            #expect(take(LLFBUseScriptedPerson("alice@example.com", "alice-pass", nil, 1)) == "{}")
            #expect(take(LLFBLoginWithTrackingPreference(8, "email", "limited", nil)) == #"{"callback_id":"8"}"#)
            let cancelled = try await inbox.result(for: 8)
            #expect(cancelled == #"{"callback_id":"8","cancelled":"true"}"#)
            #expect(take(LLFBCurrentProfile()) == "")

            #expect(take(LLFBInit("31337", baseURL, temporaryStatePath())) == "{}")
            #expect(take(LLFBLoginWithTrackingPreference(9, "", "limited", nil)) == #"{"callback_id":"9"}"#)
            let failed = try await inbox.result(for: 9)
            #expect(
                failed
                    == text([
                        "callback_id": "9", "error_code": "dialog_failed",
                        "error": "the login dialog failed (404): No app with ID 31337 is registered with this provider.",
                    ]))
        }
    }

    @Test("refusals return at once and never reach the callback")
    func refusalsStayOffTheCallback() async throws {
        let inbox = ResultInbox()
        inbox.register()
        defer { LLFBSetResultCallback(nil, nil) }
        #expect(take(LLFBInit("1", "http://127.0.0.1:1", temporaryStatePath())) == "{}")
        #expect(
            take(LLFBLoginWithTrackingPreference(10, "email", "sometimes", nil))
                == text([
                    "callback_id": "10", "error_code": "unknown_tracking", "error": #"tracking must be "limited" or "enabled", not "sometimes""#,
                ]))
        #expect(
            take(LLFBLoginWithTrackingPreference(11, nil, "limited", nil))
                == text(["callback_id": "11", "error_code": "null_argument", "error": "scope is NULL"]))
        try await Task.sleep(for: .milliseconds(200))
        #expect(inbox.count == 0)
    }
}

/// The results the C callback received, by request ID.
final class ResultInbox: Sendable {
    private let results = Mutex<[Int32: String]>([:])

    var count: Int { results.withLock { $0.count } }

    /// Registers this inbox as the library's callback (its context: the inbox, kept alive by the test).
    func register() {
        LLFBSetResultCallback(
            { requestID, json, context in
                guard let context, let json else { return }
                let inbox = Unmanaged<ResultInbox>.fromOpaque(context).takeUnretainedValue()
                let text = String(cString: json)
                inbox.results.withLock { $0[requestID] = text }
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The result of `requestID`, waited for up to a minute.
    func result(for requestID: Int32) async throws -> String {
        for _ in 0..<3000 {
            if let result = results.withLock({ $0[requestID] }) { return result }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no result for request \(requestID) within 60 s")
        return ""
    }
}

/// A string the library returned, read and given back.
func take(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
    guard let pointer else { return "(NULL)" }
    defer { LLFBFreeString(pointer) }
    return String(cString: pointer)
}

/// The compact JSON text of an object, keys sorted (the library's own spelling).
func text(_ members: [String: JSONValue]) -> String {
    String(decoding: JSONSerializer.serialize(.object(JSONObject(members))), as: UTF8.self)
}

/// The members of a JSON object's text.
func object(_ text: String) throws -> JSONObject {
    try #require(try StrictJSONParser().parse(Array(text.utf8)).objectValue)
}

/// A fresh path for a saved session, in a new folder.
func temporaryStatePath() -> String {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("limited-login-native-\(UUID().uuidString)").appendingPathComponent("session.json").path
}
