import LimitedLoginJOSE

/// What a member turned out to be when read as one type.
enum ClaimRead<Value> {
    case absent
    case wrongType
    case value(Value)
}

/// Where claims are read from: the validated JSON document of a token being verified (read in place,
/// without building a tree), or a ``JSONObject``. The rules of docs/BEHAVIOUR.md, section 3, are written once, against
/// this, in ``AuthenticationTokenClaims``, ``UserAgeRange`` and ``Location``.
protocol ClaimsSource: SendableMetatype {
    func string(_ name: ClaimName) -> ClaimRead<String>
    /// Whether the member is an empty string, without building it.
    func isEmptyString(_ name: ClaimName) -> ClaimRead<Bool>
    func number(_ name: ClaimName) -> ClaimRead<Double>
    /// The member when it is an array of strings only.
    func strings(_ name: ClaimName) -> [String]?
    /// The member when it is an object.
    func object(_ name: ClaimName) -> Self?
    /// How many members this object has.
    var memberCount: Int { get }
}

extension ClaimsSource {
    /// The member when it is a string; nil when it is absent or of another type.
    func optionalString(_ name: ClaimName) -> String? {
        if case .value(let string) = string(name) { return string }
        return nil
    }
}

/// Every member name the claims rules read: the claims of docs/BEHAVIOUR.md, section 3, and the members of the
/// `user_age_range` and location objects.
enum ClaimName: Int, CaseIterable {
    case iss, aud, sub, jti, nonce, iat, exp
    case name, givenName, middleName, familyName, email, picture, userFriends, userBirthday, userAgeRange
    case userHometown, userLocation, userGender, userLink, atHash
    case min, max, id

    /// The name as it is spelled in a token.
    var text: StaticString {
        switch self {
        case .iss: return "iss"
        case .aud: return "aud"
        case .sub: return "sub"
        case .jti: return "jti"
        case .nonce: return "nonce"
        case .iat: return "iat"
        case .exp: return "exp"
        case .name: return "name"
        case .givenName: return "given_name"
        case .middleName: return "middle_name"
        case .familyName: return "family_name"
        case .email: return "email"
        case .picture: return "picture"
        case .userFriends: return "user_friends"
        case .userBirthday: return "user_birthday"
        case .userAgeRange: return "user_age_range"
        case .userHometown: return "user_hometown"
        case .userLocation: return "user_location"
        case .userGender: return "user_gender"
        case .userLink: return "user_link"
        case .atHash: return "at_hash"
        case .min: return "min"
        case .max: return "max"
        case .id: return "id"
        }
    }

    /// For error messages.
    var description: String { text.description }

    /// The names, prepared for one-pass lookups in a document.
    static let memberNames = JSONMemberNames(allCases.map(\.text))
}

extension JSONObject: ClaimsSource {
    func string(_ name: ClaimName) -> ClaimRead<String> {
        guard let value = self[name.text.description] else { return .absent }
        return value.stringValue.map(ClaimRead.value) ?? .wrongType
    }

    func isEmptyString(_ name: ClaimName) -> ClaimRead<Bool> {
        guard let value = self[name.text.description] else { return .absent }
        return value.stringValue.map { ClaimRead.value($0.isEmpty) } ?? .wrongType
    }

    func number(_ name: ClaimName) -> ClaimRead<Double> {
        guard let value = self[name.text.description] else { return .absent }
        return value.numberValue.map(ClaimRead.value) ?? .wrongType
    }

    func strings(_ name: ClaimName) -> [String]? {
        guard let elements = self[name.text.description]?.arrayValue else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    func object(_ name: ClaimName) -> JSONObject? { self[name.text.description]?.objectValue }

    var memberCount: Int { count }
}

/// An object of a ``JSONDocument``, read in place: its members are placed by name in one pass.
struct DocumentObject: ClaimsSource {
    let document: JSONDocument
    let index: Int
    let slots: JSONMemberSlots

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
        self.slots = document.members(of: index, named: ClaimName.memberNames)
    }

    /// The object at `index`, whose members were placed into `slots` before.
    init(document: JSONDocument, index: Int, slots: JSONMemberSlots) {
        self.document = document
        self.index = index
        self.slots = slots
    }

    func string(_ name: ClaimName) -> ClaimRead<String> {
        guard let member = slots[name.rawValue] else { return .absent }
        return document.string(at: member).map(ClaimRead.value) ?? .wrongType
    }

    func isEmptyString(_ name: ClaimName) -> ClaimRead<Bool> {
        guard let member = slots[name.rawValue] else { return .absent }
        return document.isEmptyString(at: member).map(ClaimRead.value) ?? .wrongType
    }

    /// The position of member `name`'s value, or nil when there is no such member.
    func slot(_ name: ClaimName) -> Int? { slots[name.rawValue] }

    func number(_ name: ClaimName) -> ClaimRead<Double> {
        guard let member = slots[name.rawValue] else { return .absent }
        return document.number(at: member).map(ClaimRead.value) ?? .wrongType
    }

    func strings(_ name: ClaimName) -> [String]? {
        guard let member = slots[name.rawValue], document.kind(at: member) == .array else { return nil }
        var strings = [String]()
        strings.reserveCapacity(document.count(at: member))
        var allStrings = true
        document.forEachElement(of: member) { element in
            guard let string = document.string(at: element) else {
                allStrings = false
                return false
            }
            strings.append(string)
            return true
        }
        return allStrings ? strings : nil
    }

    func object(_ name: ClaimName) -> DocumentObject? {
        guard let member = slots[name.rawValue], document.kind(at: member) == .object else { return nil }
        return DocumentObject(document: document, index: member)
    }

    var memberCount: Int { document.count(at: index) }
}
