import LimitedLoginJOSE

/// A place, as in the `user_hometown` and `user_location` claims: `{"id":"…","name":"…"}`.
public struct Location: Sendable, Equatable, Hashable, Codable {
    public let id: String
    public let name: String

    /// A place, or nil when the ID or name is empty.
    public init?(id: String, name: String) {
        guard !id.isEmpty, !name.isEmpty else { return nil }
        self.id = id
        self.name = name
    }

    /// Reads `{"id":"…","name":"…"}`; nil for anything else, so a malformed claim is dropped.
    public init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        self.init(reading: members)
    }

    /// String `id` and `name`; other members are ignored.
    init?(reading members: some ClaimsSource) {
        guard case .value(let id) = members.string(.id), case .value(let name) = members.string(.name) else { return nil }
        self.init(id: id, name: name)
    }

    public var json: JSONValue { .object(["id": .string(id), "name": .string(name)]) }
}
