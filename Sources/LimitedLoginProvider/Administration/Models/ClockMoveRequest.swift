/// What `POST /_admin/clock` takes: `{"advance": SECONDS}`, `{"set": EPOCH}` or `{"reset": true}`, and
/// `"force": true` to let the clock go back before tokens it already issued. Decoded by
/// ``AdminJSONBody/decode(_:accepting:bytes:)``; each fault is an ``AdminError`` naming the key.
struct ClockMoveRequest: Sendable, Decodable {
    var move: ClockMove
    var force: Bool

    static let keys = ["advance", "set", "reset", "force"]

    private enum Key: String, CodingKey { case advance, set, reset, force }

    init(from decoder: any Decoder) throws {
        let body = try decoder.container(keyedBy: Key.self)
        force = (try? body.decodeIfPresent(Bool.self, forKey: .force)) ?? false
        let actions = [Key.advance, .set, .reset].filter(body.contains)
        guard actions.count == 1 else {
            throw AdminError.badRequest("Give exactly one of \"advance\" (seconds), \"set\" (epoch seconds) or \"reset\": true.")
        }
        let number = try? body.decode(Double.self, forKey: actions[0])
        switch actions[0] {
        case .advance:
            guard let seconds = Self.wholeSeconds(number) else {
                if let number, number == number.rounded() {
                    throw AdminError.badRequest("\"advance\" is out of range: the clock shows times from 1970 to 9999.")
                }
                throw AdminError.badRequest("\"advance\" must be a whole number of seconds.")
            }
            move = .advance(seconds: seconds)
        case .set:
            guard let time = Self.wholeSeconds(number) else { throw AdminError.badRequest("\"set\" must be whole seconds since 1970.") }
            move = .set(to: time)
        default:
            guard (try? body.decode(Bool.self, forKey: .reset)) == true else { throw AdminError.badRequest("\"reset\" must be true.") }
            move = .reset
        }
    }

    private static func wholeSeconds(_ number: Double?) -> Int64? {
        guard let number, number == number.rounded(), abs(number) < 1e15 else { return nil }
        return Int64(number)
    }
}
