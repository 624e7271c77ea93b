import Foundation
import LimitedLoginJOSE
import LimitedLoginTestSupport
import Testing

@testable import LimitedLoginCore

@Suite("AuthenticationTokenClaims and Profile")
struct ClaimsAndProfileTests {
    let payload = TokenFactory().claims

    @Test("every claim of docs/BEHAVIOUR.md, section 3, is read")
    func readsEverything() throws {
        let claims = try AuthenticationTokenClaims(payload: payload)
        #expect(claims.iss == "https://issuer.test")
        #expect(claims.aud == "1234567890")
        #expect(claims.sub == "1029384756")
        #expect(claims.nonce == "nonce-7f3a")
        #expect(claims.exp.timeIntervalSince(claims.iat) == 3600)
        #expect(claims.givenName == "Ada")
        #expect(claims.userFriends == ["555", "777"])
        #expect(claims.userAgeRange == UserAgeRange(min: 21, max: nil))
        #expect(claims.userHometown == Location(id: "110", name: "London"))
        #expect(claims.userLocation == Location(id: "111", name: "Paris"))
        #expect(try AuthenticationTokenClaims(payload: claims.json) == claims)
    }

    @Test("a missing, empty or mistyped required claim fails with its name", arguments: ["iss", "aud", "sub", "jti", "nonce"])
    func requiredStrings(name: String) {
        var missing = payload
        missing[name] = nil
        #expect(throws: ClaimsError.missing(name)) { try AuthenticationTokenClaims(payload: missing) }
        var empty = payload
        empty[name] = ""
        #expect(throws: ClaimsError.empty(name)) { try AuthenticationTokenClaims(payload: empty) }
        var mistyped = payload
        mistyped[name] = 5
        #expect(throws: ClaimsError.wrongType(name, expected: "string")) { try AuthenticationTokenClaims(payload: mistyped) }
    }

    @Test("dates must be numbers, and may be fractional", arguments: ["iat", "exp"])
    func dates(name: String) throws {
        var text = payload
        text[name] = "1800000000"
        #expect(throws: ClaimsError.wrongType(name, expected: "number")) { try AuthenticationTokenClaims(payload: text) }
        var fractional = payload
        fractional[name] = 1_800_000_000.5
        let claims = try AuthenticationTokenClaims(payload: fractional)
        #expect((name == "iat" ? claims.iat : claims.exp).timeIntervalSince1970 == 1_800_000_000.5)
    }

    @Test("an optional claim of the wrong type drops that claim only")
    func optionalWrongType() throws {
        var bad = payload
        bad["email"] = 42
        bad["user_friends"] = ["555", 7]
        bad["user_age_range"] = ["min": "21"]
        bad["user_hometown"] = "London"
        bad["user_location"] = ["id": "1"]
        bad["picture"] = ["url": "x"]
        let claims = try AuthenticationTokenClaims(payload: bad)
        #expect(claims.email == nil)
        #expect(claims.userFriends == nil)
        #expect(claims.userAgeRange == nil)
        #expect(claims.userHometown == nil)
        #expect(claims.userLocation == nil)
        #expect(claims.picture == nil)
        #expect(claims.givenName == "Ada")
        #expect(claims.userBirthday == "12/10/1990")
    }

    @Test("the profile follows the claim mapping of docs/BEHAVIOUR.md, section 7")
    func profile() throws {
        let claims = try AuthenticationTokenClaims(payload: payload)
        let profile = Profile(claims: claims, refreshDate: Date(timeIntervalSince1970: 0))
        #expect(profile.userID == "1029384756")
        #expect(profile.firstName == "Ada")
        #expect(profile.lastName == "Lovelace")
        #expect(profile.name == "Ada Lovelace")
        #expect(profile.email == "ada@example.test")
        #expect(profile.imageURL == URL(string: "https://issuer.test/pictures/1029384756"))
        #expect(profile.linkURL == URL(string: "https://issuer.test/ada"))
        #expect(profile.friendIDs == ["555", "777"])
        #expect(profile.birthday.map(Birthday.string(from:)) == "12/10/1990")
        #expect(profile.ageRange?.min == 21)
        #expect(profile.hometown?.name == "London")
        #expect(profile.location?.id == "111")
        #expect(profile.gender == "female")
        #expect(profile.isLimited)
    }

    @Test("birthdays are strict MM/DD/YYYY calendar dates")
    func birthdays() {
        #expect(Birthday.date(from: "02/29/2000") != nil)
        #expect(Birthday.date(from: "02/29/1900") == nil)
        #expect(Birthday.date(from: "13/01/2000") == nil)
        #expect(Birthday.date(from: "1/1/2000") == nil)
        #expect(Birthday.date(from: "2000-01-01") == nil)
        #expect(Birthday.date(from: "01/32/2000") == nil)
        #expect(Birthday.date(from: "0a/01/2000") == nil)
        #expect(Birthday.date(from: "12/10/1990").map(Birthday.string(from:)) == "12/10/1990")
    }

    @Test("age ranges and locations refuse nonsense")
    func valueTypes() {
        #expect(UserAgeRange(min: nil, max: nil) == nil)
        #expect(UserAgeRange(min: 21, max: 18) == nil)
        #expect(UserAgeRange(min: -1, max: nil) == nil)
        #expect(UserAgeRange(json: ["min": 18, "max": 20]) == UserAgeRange(min: 18, max: 20))
        #expect(UserAgeRange(json: ["min": 18.5]) == nil)
        #expect(UserAgeRange(json: ["min": 18, "other": 1]) == nil)
        #expect(Location(id: "", name: "x") == nil)
        #expect(Location(json: ["id": "1", "name": "Paris"]) == Location(id: "1", name: "Paris"))
    }
}

@Suite("AuthenticationTokenClaims read in place from a JSON document")
struct ClaimsFromDocumentTests {
    let payload = TokenFactory().claims

    func document(_ object: JSONObject) throws -> JSONDocument {
        try JSONDocument(parsing: JSONSerializer.serialize(.object(object)))
    }

    @Test("the document and the object give the same claims, with every claim present")
    func sameClaims() throws {
        #expect(try AuthenticationTokenClaims(document: document(payload)) == AuthenticationTokenClaims(payload: payload))
    }

    @Test("optional claims of the wrong type are dropped the same way")
    func sameDrops() throws {
        var bad = payload
        bad["email"] = 42
        bad["user_friends"] = ["555", 7]
        bad["user_age_range"] = ["min": 21, "other": 1]
        bad["user_hometown"] = "London"
        bad["user_location"] = ["id": "1", "name": 2]
        bad["middle_name"] = nil
        let fromDocument = try AuthenticationTokenClaims(document: document(bad))
        #expect(fromDocument == (try AuthenticationTokenClaims(payload: bad)))
        #expect(fromDocument.email == nil && fromDocument.userFriends == nil && fromDocument.userAgeRange == nil)
        #expect(fromDocument.userHometown == nil && fromDocument.userLocation == nil && fromDocument.middleName == nil)
        #expect(fromDocument.name == "Ada Lovelace")
    }

    @Test("required claims fail in the same order, with the same errors", arguments: ["iss", "aud", "sub", "jti", "nonce", "iat", "exp"])
    func sameErrors(name: String) throws {
        var missing = payload
        missing[name] = nil
        #expect(throws: ClaimsError.missing(name)) { try AuthenticationTokenClaims(document: document(missing)) }
        var mistyped = payload
        mistyped[name] = ["a": 1]
        let expected = name == "iat" || name == "exp" ? "number" : "string"
        #expect(throws: ClaimsError.wrongType(name, expected: expected)) { try AuthenticationTokenClaims(document: document(mistyped)) }
    }

    @Test("a claim name spelled with escapes is the same claim; another spelling is not")
    func escapedNames() throws {
        let text = String(decoding: JSONSerializer.serialize(.object(payload)), as: UTF8.self)
            .replacingOccurrences(of: #""sub":"#, with: #""\u0073ub":"#)
            .replacingOccurrences(of: #""email":"#, with: #""\u0065mai\u006C":"#)
        let claims = try AuthenticationTokenClaims(document: JSONDocument(parsing: Array(text.utf8)))
        #expect(claims.sub == "1029384756")
        #expect(claims.email == payload["email"]?.stringValue)
        for spelling in ["Nonce", "nonce ", "non\u{0063}e\u{0301}"] {
            var other = payload
            other["nonce"] = nil
            other[spelling] = "x"
            #expect(throws: ClaimsError.missing("nonce")) { try AuthenticationTokenClaims(document: document(other)) }
        }
    }

    @Test("a document that is not an object has no claims")
    func notAnObject() throws {
        #expect(throws: ClaimsError.missing("iss")) { try AuthenticationTokenClaims(document: JSONDocument(parsing: Array("[1]".utf8))) }
    }
}

@Suite("Claims: copies share one box, equality and the Codable form are by value")
struct ClaimsStorageTests {
    let payload = TokenFactory().claims

    @Test("the Codable form has one key per property, as stored claims always had, and decodes to an equal claim set")
    func codableForm() throws {
        let claims = try AuthenticationTokenClaims(payload: payload)
        let encoded = try JSONEncoder().encode(claims)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect(
            Set(object.keys) == [
                "jti", "iss", "aud", "nonce", "exp", "iat", "sub", "name", "givenName", "familyName", "email",
                "picture", "userFriends", "userBirthday", "userAgeRange", "userHometown", "userLocation", "userGender", "userLink",
            ])
        #expect(object["sub"] as? String == "1029384756")
        #expect(object["userFriends"] as? [String] == claims.userFriends)
        #expect(try JSONDecoder().decode(AuthenticationTokenClaims.self, from: encoded) == claims)
    }

    @Test("claims read in place from a document have the same Codable form, and decode to an equal claim set")
    func codableFormFromDocument() throws {
        let fromDocument = try AuthenticationTokenClaims(document: JSONDocument(parsing: JSONSerializer.serialize(.object(payload))))
        let fromObject = try AuthenticationTokenClaims(payload: payload)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(fromDocument) == encoder.encode(fromObject))
        let decoded = try JSONDecoder().decode(AuthenticationTokenClaims.self, from: encoder.encode(fromDocument))
        #expect(decoded == fromDocument)
        #expect(decoded.userAgeRange == fromDocument.userAgeRange && decoded.userHometown == fromDocument.userHometown)
        #expect(decoded.json == fromObject.json)
    }

    @Test("two claim sets read separately from equal payloads are equal; a different claim makes them differ")
    func equality() throws {
        let first = try AuthenticationTokenClaims(payload: payload)
        #expect(try AuthenticationTokenClaims(payload: payload) == first)
        var changed = payload
        changed["user_gender"] = "male"
        #expect(try AuthenticationTokenClaims(payload: changed) != first)
        changed = payload
        changed["at_hash"] = "abc"
        #expect(try AuthenticationTokenClaims(payload: changed) != first)
    }
}
