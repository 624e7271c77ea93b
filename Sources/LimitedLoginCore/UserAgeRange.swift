import LimitedLoginJOSE

/// The age bracket a person is in, such as `{"min":21}` or `{"min":18,"max":20}`.
public struct UserAgeRange: Sendable, Equatable, Hashable, Codable {
    /// Lower bound, inclusive.
    public let min: Int?
    /// Upper bound, inclusive.
    public let max: Int?

    /// A range, or nil when it has no bound, a negative bound, or `min > max`.
    public init?(min: Int?, max: Int?) {
        if min == nil, max == nil { return nil }
        if let min, min < 0 { return nil }
        if let max, max < 0 { return nil }
        if let min, let max, min > max { return nil }
        self.min = min
        self.max = max
    }

    /// Reads `{"min":…,"max":…}`; nil for anything else, so a malformed claim is dropped.
    public init?(json: JSONValue) {
        guard let members = json.objectValue else { return nil }
        self.init(reading: members)
    }

    /// Integer `min` and `max` and no other member.
    init?(reading members: some ClaimsSource) {
        var found = 0
        func bound(_ name: ClaimName) -> Int?? {
            switch members.number(name) {
            case .absent: return .some(nil)
            case .wrongType: return nil
            case .value(let number):
                found += 1
                return JSONValue.exactInteger(number).map { .some($0) }
            }
        }
        guard let min = bound(.min), let max = bound(.max), found == members.memberCount else { return nil }
        self.init(min: min, max: max)
    }

    public var json: JSONValue {
        var members: JSONObject = [:]
        if let min { members["min"] = .number(Double(min)) }
        if let max { members["max"] = .number(Double(max)) }
        return .object(members)
    }
}
