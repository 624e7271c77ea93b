@testable import LimitedLoginProvider
import Foundation
import Testing

/// Issue #17 rewrote two small parts of every login to read bytes: the version in the dialog's path and the
/// ID token's `jti`. They must answer as before.
@Suite("Parts of every login: the path's version, the token's ID")
struct DialogHotPathTests {
    @Test("a Graph API version is v, 1–4 digits, a dot, 1–4 digits", arguments: ["v21.0", "v2.12", "v1234.5678", "v0.0"])
    func versions(_ text: String) {
        #expect(DialogController.isVersion(text))
    }

    @Test("anything else is not a version (the dialog answers 404)", arguments: [
        "", "v", "v.", "v21", "v21.", "v.0", "21.0", "V21.0", "v21.0.1", "v12345.0", "v1.12345", "v1..2", "v-1.0", "v1.0 ",
        "v\u{0662}.0", "v21\u{FF0E}0", "vv21.0",
    ])
    func notVersions(_ text: String) {
        #expect(!DialogController.isVersion(text))
    }

    @Test("a token ID is a lowercase version-4 UUID, and no two are equal")
    func tokenIDs() throws {
        let ids = (0..<2000).map { _ in RandomIdentifiers.tokenID() }
        #expect(Set(ids).count == ids.count)
        let shape = try Regex("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
        for id in ids {
            #expect(id.wholeMatch(of: shape) != nil, "\(id)")
            #expect(UUID(uuidString: id)?.uuidString.lowercased() == id)
        }
        // Every hex digit appears in every random position over 2000 IDs: the bits are not stuck.
        for position in [0, 7, 9, 15, 20, 35] {
            let digits = Set(ids.map { $0.utf8[$0.utf8.index($0.utf8.startIndex, offsetBy: position)] })
            #expect(digits.count == 16, "position \(position)")
        }
    }
}
