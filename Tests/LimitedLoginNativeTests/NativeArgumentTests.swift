import Foundation
import LimitedLogin
import LimitedLoginCore
import Testing

@testable import LimitedLoginNative

/// The C layer's reading of arguments: NULL, length and UTF-8 first, then what each argument must be.
@Suite("C library: reading the arguments")
struct NativeArgumentTests {
    /// The error code `body` throws, or nil when it throws nothing.
    private func code(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as NativeError {
            return error.code.rawValue
        } catch {
            return "not a NativeError: \(error)"
        }
    }

    @Test("NULL, invalid UTF-8 and over-long arguments are refused with their own codes")
    func refusedText() {
        #expect(code { _ = try CArgument.required(nil, "x") } == "null_argument")
        let invalid: [[UInt8]] = [[0xFF, 0], [0xC0, 0xAF, 0], [0xED, 0xA0, 0x80, 0], [0x61, 0xE2, 0x82, 0], [0x80, 0]]
        for bytes in invalid {
            let refused = bytes.map { CChar(bitPattern: $0) }.withUnsafeBufferPointer { buffer in
                code { _ = try CArgument.required(buffer.baseAddress, "x") }
            }
            #expect(refused == "invalid_utf8", "bytes \(bytes)")
        }
        let long = [CChar](repeating: 0x31, count: CArgument.maximumLength + 1) + [0]
        #expect(long.withUnsafeBufferPointer { buffer in code { _ = try CArgument.required(buffer.baseAddress, "x") } } == "argument_too_long")
        let longest = [CChar](repeating: 0x31, count: CArgument.maximumLength) + [0]
        #expect(longest.withUnsafeBufferPointer { buffer in code { _ = try CArgument.required(buffer.baseAddress, "x") } } == nil)
    }

    @Test("valid UTF-8 is read as it is; an optional NULL is nil")
    func readText() throws {
        let text = try "Zoë 🦊".withCString { pointer in try CArgument.required(pointer, "x") }
        #expect(text == "Zoë 🦊")
        #expect(try CArgument.optional(nil, "x") == nil)
    }

    @Test("permission lists: comma-separated, empty items skipped, every name checked")
    func permissionLists() throws {
        #expect(try CArgument.permissions(",email,,user_friends,", "scope") == [.email, .userFriends])
        #expect(try CArgument.permissions("", "scope").isEmpty)
        #expect(code { _ = try CArgument.permissions("email, user_friends", "scope") } == "invalid_permission_name")
        #expect(code { _ = try CArgument.permissions("Email", "scope") } == "invalid_permission_name")
    }

    @Test("the app ID: ASCII letters and digits, 1 to 64 of them")
    func appIDs() {
        for good in ["1", "424242424242", "abcXYZ09", String(repeating: "7", count: 64)] {
            #expect(code { _ = try NativeSetup(appID: good, provider: "facebook", stateFile: "/tmp/x") } == nil, "\(good)")
        }
        for bad in ["", "12 3", "12/3", "12-3", "١٢٣", String(repeating: "7", count: 65)] {
            #expect(code { _ = try NativeSetup(appID: bad, provider: "facebook", stateFile: "/tmp/x") } == "invalid_app_id", "\(bad)")
        }
    }

    @Test("the provider: facebook, or an http(s) base URL with a host and nothing after the path")
    func providers() throws {
        #expect(try NativeSetup.endpoints("facebook") == .facebook)
        let local = try NativeSetup.endpoints("http://127.0.0.1:8080/")
        #expect(local.dialogURL.absoluteString == "http://127.0.0.1:8080/v21.0/dialog/oauth")
        #expect(local.discoveryURL?.absoluteString == "http://127.0.0.1:8080/.well-known/openid-configuration")
        #expect(try NativeSetup.endpoints("https://login.example/base").dialogURL.absoluteString == "https://login.example/base/v21.0/dialog/oauth")
        for bad in ["", "Facebook", "127.0.0.1:8080", "ftp://127.0.0.1", "http://", "http://h/?q=1", "http://h/#f", "http://u:p@h/", "file:///tmp"] {
            #expect(code { _ = try NativeSetup.endpoints(bad) } == "invalid_provider", "\(bad)")
        }
        #expect(code { _ = try NativeSetup(appID: "1", provider: "facebook", stateFile: "") } == "invalid_state_file")
    }

    @Test("a login's arguments become the SDK's configuration: tracking by name, a fresh nonce when none is given")
    func loginConfiguration() throws {
        let limited = try NativeLoginRequest.configuration(scope: "email,user_friends", tracking: "limited", nonce: "n-1")
        #expect(limited.tracking == .limited)
        #expect(limited.nonce == "n-1")
        #expect(limited.requestedPermissions == [.email, .userFriends])
        let classic = try NativeLoginRequest.configuration(scope: "", tracking: "enabled", nonce: nil)
        #expect(classic.tracking == .enabled)
        #expect(UUID(uuidString: classic.nonce) != nil)
        #expect(UUID(uuidString: try NativeLoginRequest.configuration(scope: "", tracking: "enabled", nonce: "").nonce) != nil)
        #expect(code { _ = try NativeLoginRequest.configuration(scope: "", tracking: "Limited", nonce: nil) } == "unknown_tracking")
        #expect(
            code { _ = try NativeLoginRequest.configuration(scope: "user_likes", tracking: "limited", nonce: nil) }
                == "permission_not_allowed_in_limited_login")
        #expect(code { _ = try NativeLoginRequest.configuration(scope: "", tracking: "limited", nonce: "a\u{200B}b") } == "invalid_nonce")
    }

    @Test("a scripted person: credentials, or a pick when there is no password; untick and cancel kept")
    func scriptedPeople() throws {
        guard case .scripted(let typed) = try NativePerson.scripted(email: "a@example.com", password: "pw", untick: "email", cancel: true) else {
            Issue.record("not a scripted person")
            return
        }
        #expect(typed.signIn == .credentials(email: "a@example.com", password: "pw"))
        #expect(typed.untick == [.email])
        #expect(typed.decision == .cancel)
        guard case .scripted(let picked) = try NativePerson.scripted(email: "a@example.com", password: nil, untick: nil, cancel: false) else {
            Issue.record("not a scripted person")
            return
        }
        #expect(picked.signIn == .pick("a@example.com"))
        #expect(picked.untick.isEmpty)
        #expect(picked.decision == .continue)
        #expect(code { _ = try NativePerson.scripted(email: "", password: nil, untick: nil, cancel: false) } == "invalid_email")
    }
}
