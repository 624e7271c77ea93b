import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE
import Testing

@testable import LimitedLoginNative

/// The C layer's conversions to the Unity SDK's JSON: each key and value format its C# side reads.
@Suite("C library: the Unity SDK's JSON shapes")
struct UnityShapeTests {
    private func text(_ value: JSONValue) -> String { String(decoding: JSONSerializer.serialize(value), as: UTF8.self) }
    private func text(_ members: [String: JSONValue]) -> String { text(.object(JSONObject(members))) }

    @Test("a full profile: every field under the Unity SDK's key, friends comma-separated, birthday in Unix seconds, bounds and places flat")
    func fullProfile() throws {
        let profile = Profile(
            userID: "9001", firstName: "Alice", middleName: "Q", lastName: "Smith", name: "Alice Q Smith",
            linkURL: URL(string: "https://example.com/alice"), imageURL: URL(string: "http://127.0.0.1:1/v21.0/9001/picture"),
            email: "alice@example.com", friendIDs: ["9002", "9003"], birthday: Birthday.date(from: "04/22/1990"),
            ageRange: UserAgeRange(min: 18, max: 20), hometown: Location(id: "501", name: "Paris"),
            location: Location(id: "502", name: "Lyon"), gender: "female", isLimited: true
        )
        #expect(
            text(UnityCurrentValues.profileMembers(profile)) == """
                {"ageMax":"20","ageMin":"18","birthday":"640742400","email":"alice@example.com","firstName":"Alice",\
                "friendIDs":"9002,9003","gender":"female","hometown_id":"501","hometown_name":"Paris",\
                "imageURL":"http://127.0.0.1:1/v21.0/9001/picture","lastName":"Smith","linkURL":"https://example.com/alice",\
                "location_id":"502","location_name":"Lyon","middleName":"Q","name":"Alice Q Smith","userID":"9001"}
                """)
    }

    @Test("a profile with nothing shared: only userID; an open age range has no ageMax")
    func sparseProfile() throws {
        #expect(text(UnityCurrentValues.profileMembers(Profile(userID: "9001"))) == #"{"userID":"9001"}"#)
        let adult = Profile(userID: "9001", friendIDs: [], ageRange: UserAgeRange(min: 21, max: nil))
        #expect(text(UnityCurrentValues.profileMembers(adult)) == #"{"ageMin":"21","friendIDs":"","userID":"9001"}"#)
    }

    @Test("a birthday before 1970 is negative seconds")
    func earlyBirthday() throws {
        let profile = Profile(userID: "1", birthday: Birthday.date(from: "12/31/1969"))
        #expect(text(UnityCurrentValues.profileMembers(profile)) == #"{"birthday":"-86400","userID":"1"}"#)
    }

    @Test("the authentication token as auth_token_string and auth_nonce")
    func authenticationToken() {
        let token = AuthenticationToken(tokenString: "a.b.c", nonce: "n-1")
        #expect(text(UnityCurrentValues.authenticationTokenMembers(token)) == #"{"auth_nonce":"n-1","auth_token_string":"a.b.c"}"#)
    }

    @Test("accepted, cancelled and failed results, keyed by callback_id as a string")
    func simpleResults() {
        #expect(text(UnityLoginResult.accepted(7)) == #"{"callback_id":"7"}"#)
        #expect(text(UnityLoginResult.cancelled(-3)) == #"{"callback_id":"-3","cancelled":"true"}"#)
        let error = NativeError(LoginError.timedOut(seconds: 300))
        #expect(
            text(UnityLoginResult.failed(Int32.max, error))
                == #"{"callback_id":"2147483647","error":"no login response arrived within 300 seconds","error_code":"timed_out"}"#)
    }

    @Test("a limited login's result: the authentication token and the permissions, no access token")
    func limitedResult() {
        let result = LoginManagerLoginResult(
            token: nil, authenticationToken: AuthenticationToken(tokenString: "h.p.s", nonce: "n"), isCancelled: false,
            grantedPermissions: ["public_profile", "openid", "user_friends"], declinedPermissions: ["email"]
        )
        #expect(
            text(UnityLoginResult.succeeded(1, result)) == """
                {"auth_nonce":"n","auth_token_string":"h.p.s","callback_id":"1","declined_permissions":["email"],\
                "granted_permissions":["openid","public_profile","user_friends"]}
                """)
    }

    @Test("a classic login's result adds the access token's members, times in whole Unix seconds")
    func classicResult() {
        let token = AccessToken(
            tokenString: "EAAB", permissions: ["email", "public_profile"], declinedPermissions: ["user_friends"],
            expiredPermissions: [], appID: "1", userID: "9001", expirationDate: Date(timeIntervalSince1970: 2_000_000_000.7),
            refreshDate: Date(timeIntervalSince1970: 1_900_000_000.2), dataAccessExpirationDate: Date(timeIntervalSince1970: 2_100_000_000)
        )
        let result = LoginManagerLoginResult(
            token: token, authenticationToken: AuthenticationToken(tokenString: "h.p.s", nonce: "n"), isCancelled: false,
            grantedPermissions: ["email", "public_profile"], declinedPermissions: ["user_friends"]
        )
        #expect(
            text(UnityLoginResult.succeeded(2, result)) == """
                {"access_token":"EAAB","auth_nonce":"n","auth_token_string":"h.p.s","callback_id":"2",\
                "declined_permissions":["user_friends"],"expiration_timestamp":"2000000000",\
                "granted_permissions":["email","public_profile"],"graph_domain":"facebook","last_refresh":"1900000000","opened":"true",\
                "permissions":["email","public_profile"],"user_id":"9001"}
                """)
    }

    @Test(
        "every LoginError case has its own error_code and keeps the SDK's message",
        arguments: [
            (LoginError.invalidConfiguration, "invalid_configuration"), (.badChallengeString, "bad_challenge_string"),
            (.dialogFailed(code: "404", message: "m"), "dialog_failed"), (.invalidIDToken(.nonceMismatch), "invalid_id_token"),
            (.accessTokenHashMismatch, "access_token_hash_mismatch"), (.malformedCallback("m"), "malformed_callback"),
            (.providerUnavailable("m"), "provider_unavailable"), (.codeExchangeFailed("m"), "code_exchange_failed"),
            (.presentationFailed("m"), "presentation_failed"),
            (.dialogUnreachable(origin: "http://127.0.0.1:1", reason: "connection refused"), "dialog_unreachable"),
            (.timedOut(seconds: 1), "timed_out"),
            (.notSaved(.unwritable(path: "/p", reason: "r")), "not_saved"),
            (.missingAppID, "missing_app_id"), (.missingAccessToken, "missing_access_token"),
        ])
    func loginErrorCodes(_ error: LoginError, _ code: String) {
        let native = NativeError(error)
        #expect(native.code.rawValue == code)
        #expect(native.message == error.description)
    }

    @Test("the error codes are unique")
    func uniqueCodes() {
        #expect(Set(NativeError.Code.allCases.map(\.rawValue)).count == NativeError.Code.allCases.count)
    }
}
