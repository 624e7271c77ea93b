import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import Testing

@testable import LimitedLoginProvider

/// Issue #17 rewrote two small parts of every login to read bytes: the version in the dialog's path and the
/// ID token's `jti`. They must answer as before.
@Suite("Parts of every login: the path's version, the token's ID")
struct DialogHotPathTests {
    @Test("a Graph API version is v, 1–4 digits, a dot, 1–4 digits", arguments: ["v21.0", "v2.12", "v1234.5678", "v0.0"])
    func versions(_ text: String) {
        #expect(DialogController.isVersion(text))
    }

    @Test(
        "anything else is not a version (the dialog answers 404)",
        arguments: [
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

    @Test("hex is two lowercase digits a byte; a storage hash is the SHA-256 in hex")
    func hex() {
        #expect(RandomIdentifiers.hex([0x00, 0x0F, 0xA5, 0xFF, 0x10]) == "000fa5ff10")
        #expect(RandomIdentifiers.hex([UInt8]()) == "")
        #expect(RandomIdentifiers.hex((0...255).map { UInt8($0) }).count == 512)
        #expect(RandomIdentifiers.storageHash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// The claims are made as one object in name order (issue #17); what each grant adds is as docs/BEHAVIOUR.md, section 3, says.
    @Test("the claims come in name order, each group from its permission, a known name given as custom counting")
    func claimsInNameOrder() {
        let user = TestUserRecord(
            id: "1", firstName: "Ada", middleName: "B", lastName: "Lovelace", email: "ada@example.com", birthday: "12/10/1990",
            gender: "female", hometown: Location(id: "10", name: "London"), location: Location(id: "11", name: "Paris"),
            link: "https://example.com/ada", gamingName: "Countess"
        )
        func claims(_ granted: Set<Permission>, gaming: Bool = false) -> JSONObject {
            var builder = IDTokenClaimsBuilder(
                issuer: "https://www.facebook.com", app: AppRecord(id: "42", secret: "s", name: "App", isGaming: gaming), user: user,
                asid: "777", granted: granted, nonce: "n", issuedAt: 1_700_000_000, friendASIDs: ["8", "9"],
                pictureURL: "https://example.com/p"
            )
            builder.accessTokenHash = "hash"
            return builder.claims()
        }
        let everything = claims([
            .publicProfile, .email, .userFriends, .userBirthday, .userAgeRange, .userHometown, .userLocation, .userGender, .userLink,
        ])
        let byteOrder = everything.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        #expect(everything.keys == byteOrder)
        #expect(
            everything.keys == [
                "at_hash", "aud", "email", "exp", "family_name", "given_name", "iat", "iss", "jti", "middle_name", "name", "nonce",
                "picture", "sub", "user_age_range", "user_birthday", "user_friends", "user_gender", "user_hometown", "user_link",
                "user_location",
            ])
        #expect(everything["name"] == .string("Ada B Lovelace"))
        #expect(everything["exp"] == .number(1_700_000_000 + Double(TokenLifetimes.defaultIDToken)))
        #expect(everything["user_friends"] == .array([.string("8"), .string("9")]))

        let minimal = claims([])
        #expect(minimal.keys == ["at_hash", "aud", "exp", "iat", "iss", "jti", "nonce", "sub"])
        // Permissions are equal by name: `.custom("email")` is `.email`.
        #expect(
            claims([.custom("email"), .custom("user_link")]).keys == [
                "at_hash", "aud", "email", "exp", "iat", "iss", "jti", "nonce", "sub", "user_link",
            ])
        #expect(claims([.custom("user_unknown_thing")]).keys == minimal.keys)
        // A gaming app: the avatar name for public_profile; first name and picture only with gaming_user_picture.
        #expect(claims([.publicProfile], gaming: true)["name"] == .string("Countess"))
        #expect(claims([.publicProfile], gaming: true)["given_name"] == nil)
        let pictured = claims([.gamingProfile, .gamingUserPicture], gaming: true)
        #expect(pictured["given_name"] == .string("Ada"))
        #expect(pictured["picture"] == .string("https://example.com/p"))
        #expect(pictured["family_name"] == nil)
    }

    @Test("a full name joins the non-empty parts with one space")
    func fullNames() {
        func name(_ first: String, _ middle: String?, _ last: String) -> String {
            TestUserRecord(id: "1", firstName: first, middleName: middle, lastName: last, email: "a@example.com").fullName
        }
        #expect(name("Ada", "B", "Lovelace") == "Ada B Lovelace")
        #expect(name("Ada", nil, "Lovelace") == "Ada Lovelace")
        #expect(name("Ada", "", "Lovelace") == "Ada Lovelace")
        #expect(name("", "B", "Lovelace") == "B Lovelace")
        #expect(name("", nil, "") == "")
        #expect(name("Ada", nil, "") == "Ada")
    }
}
