import Foundation
import Hummingbird
import HummingbirdTesting
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginProvider

@Suite("Dialog: the iOS SDK's URL-scheme suffixes")
struct URLSchemeSuffixTests {
    static let unregistered = "is not registered for this app."

    @Test(
        "an app records its suffixes: fb{appID}{suffix}://authorize/ logs in for a recorded suffix, with the SDK's local_client_id; another is refused"
    )
    func recordedSuffix() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let created = try await admin(
                client, "/_admin/apps", method: .post,
                json: """
                    {"id": "3000000000000003", "name": "Suffixed", "url_scheme_suffixes": ["lite", "pro2"]}
                    """)
            #expect(created.status == .created, "\(created.object)")
            #expect(created.object["url_scheme_suffixes"] == .array(["lite", "pro2"]))
            try await provider.store.addTestUser(TestFixtures.alice, toApps: ["3000000000000003"])

            let redirect = "fb3000000000000003lite://authorize/"
            let path = dialogPath(appID: "3000000000000003", redirectURI: redirect, extra: [("local_client_id", "lite")])
            let page = try await DialogBrowser(client: client).logIn(path, as: TestFixtures.alice)
            #expect(page.location?.hasPrefix(redirect + "#") == true, "\(page.status): \(page.location ?? page.body.prefix(300).description)")
            #expect(try page.redirectParameters().single("id_token") != nil)

            for refused in ["fb3000000000000003other://authorize/", "fb3000000000000003LITE://authorize/", "fb3000000000000003lite://authorize/x"] {
                let error = try await DialogBrowser(client: client).get(dialogPath(appID: "3000000000000003", redirectURI: refused))
                #expect(error.status == .badRequest && error.title == "Invalid redirect URI", "\(refused)")
                #expect(error.body.contains(Self.unregistered), "\(refused)")
            }
        }
    }

    @Test("suffixes are edited as a list; a suffix removed stops working; export carries them")
    func editedSuffixes() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            let edited = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"url_scheme_suffixes": ["beta"]}"#)
            #expect(edited.status == .ok && edited.object["url_scheme_suffixes"] == .array(["beta"]), "\(edited.object)")
            let beta = "fb\(TestFixtures.appID)beta://authorize/"
            #expect(try await DialogBrowser(client: client).get(dialogPath(redirectURI: beta)).status == .ok)

            let exported = try await admin(client, "/_admin/export")
            let app = exported.object["apps"]?.arrayValue?.compactMap(\.objectValue).first { $0["id"]?.stringValue == TestFixtures.appID }
            #expect(app?["url_scheme_suffixes"] == .array(["beta"]))

            let cleared = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"url_scheme_suffixes": []}"#)
            #expect(cleared.status == .ok && cleared.object["url_scheme_suffixes"] == nil)
            #expect(try await DialogBrowser(client: client).get(dialogPath(redirectURI: beta)).status == .badRequest)
        }
    }

    @Test("a suffix with characters the iOS SDK's URL scheme cannot hold is refused, naming it")
    func badSuffixes() async throws {
        try await withProvider(harnessConfiguration()) { client, _ in
            for suffix in ["Lite", "1abc", "a-b", "", "a.b", String(repeating: "a", count: 65)] {
                let reply = try await admin(
                    client, "/_admin/apps", method: .post,
                    json: """
                        {"id": "3000000000000004", "name": "Bad", "url_scheme_suffixes": ["\(suffix)"]}
                        """)
                #expect(reply.status == .badRequest, "\(suffix)")
                #expect(
                    reply.message
                        == "App 3000000000000004: URL scheme suffix \"\(suffix)\" must be 1 to 64 lowercase letters and digits, starting with a letter.",
                    "\(suffix): \(reply.message ?? "")"
                )
            }
            let edit = try await admin(client, "/_admin/apps/\(TestFixtures.appID)", method: .post, json: #"{"url_scheme_suffixes": ["Nope"]}"#)
            #expect(edit.status == .badRequest && edit.message?.contains("URL scheme suffix \"Nope\" must be") == true)
        }
    }
}

@Suite("Console: URL-scheme suffixes")
struct ConsoleURLSchemeSuffixTests {
    @Test("the console's app forms take suffixes one per line, show each fb{appID}{suffix}://authorize/, and refuse a bad one in place")
    func consoleSuffixes() async throws {
        try await withProvider(harnessConfiguration()) { client, provider in
            let browser = DialogBrowser(client: client)
            let csrf = try #require(try await ConsoleTests.signIn(browser).hiddenInput("csrf"))
            let created = try await ConsoleTests.act(
                browser, "create-app", csrf: csrf, [("name", "Suffix App"), ("id", "5550002"), ("url_scheme_suffixes", "lite\n\npro")])
            #expect(created.status == .seeOther)
            #expect(try await provider.store.app(id: "5550002")?.urlSchemeSuffixes == ["lite", "pro"])
            let page = try await browser.get("/_console/apps")
            #expect(page.body.contains("fb5550002lite://authorize/") && page.body.contains("fb5550002pro://authorize/"))

            let bad = try await ConsoleTests.act(
                browser, "edit-app", csrf: csrf, [("app_id", "5550002"), ("redirect_uris", ""), ("url_scheme_suffixes", "Bad-One")])
            #expect(bad.status == .badRequest)
            #expect(
                bad.body.contains("URL scheme suffix &quot;Bad-One&quot; must be 1 to 64 lowercase letters and digits"), "\(bad.body.prefix(500))")
            #expect(try await provider.store.app(id: "5550002")?.urlSchemeSuffixes == ["lite", "pro"], "nothing changed")
        }
    }
}
