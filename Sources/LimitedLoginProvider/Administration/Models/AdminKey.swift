/// A signing key as `GET /_admin/keys` lists it: `{"kid", "created_at", "signs_from", "signing", "state",
/// "retired_at"?, "unpublished_at"?}`.
struct AdminKey: Sendable, Equatable, Encodable {
    let record: SigningKeyRecord
    let signing: Bool
    let state: String
    /// When a retired key stops being published.
    let unpublishedAt: Int64?

    private enum CodingKeys: String, CodingKey {
        case kid, signing, state
        case createdAt = "created_at"
        case signsFrom = "signs_from"
        case retiredAt = "retired_at"
        case unpublishedAt = "unpublished_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(record.keyID, forKey: .kid)
        try container.encode(record.createdAt, forKey: .createdAt)
        try container.encode(record.signsFrom, forKey: .signsFrom)
        try container.encode(signing, forKey: .signing)
        try container.encode(state, forKey: .state)
        try container.encodeIfPresent(record.retiredAt, forKey: .retiredAt)
        try container.encodeIfPresent(unpublishedAt, forKey: .unpublishedAt)
    }
}

/// What `POST /_admin/keys/rotate` answers: the new key and how it was published.
struct AdminKeyRotation: Sendable, Equatable, Encodable {
    var kid: String
    var signs_from: Int64
    var publish_delay: Int64
    var dropped_previous: Bool
}
