/// What `POST /_admin/reset` takes: nothing, or `{"empty": true}` to leave the store empty instead of
/// seeding the demo data again. Decoded by ``AdminJSONBody/decode(_:accepting:bytes:)``.
struct ResetRequest: Sendable, Decodable {
    var empty: Bool

    static let keys = ["empty"]

    private enum Key: String, CodingKey { case empty }

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: Key.self)
        guard body.contains(.empty) else {
            empty = false
            return
        }
        guard let flag = try? body.decode(Bool.self, forKey: .empty) else { throw AdminError.badRequest("\"empty\" must be true or false.") }
        empty = flag
    }
}
