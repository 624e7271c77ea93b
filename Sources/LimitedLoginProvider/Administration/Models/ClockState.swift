/// A move of the provider's clock.
enum ClockMove: Sendable, Equatable {
    case advance(seconds: Int64)
    case set(to: Int64)
    /// Back to the system's time.
    case reset
}

/// The provider's clock as the admin API shows it, in seconds since 1970: `{"now", "iso8601", "offset",
/// "system_now", "latest_issued_at"?}`.
struct ClockState: Sendable, Equatable, Encodable {
    /// The provider's time.
    var now: Int64
    /// How far the provider's time is from the system's.
    var offset: Int64
    var systemNow: Int64
    /// The latest `iat` the provider issued, which the clock goes back before only when forced.
    var latestIssuedAt: Int64?

    /// The provider's time as an ISO 8601 date.
    var iso8601: String { AdminOperations.iso8601(now) }

    private enum CodingKeys: String, CodingKey {
        case now, iso8601, offset
        case systemNow = "system_now"
        case latestIssuedAt = "latest_issued_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(now, forKey: .now)
        try container.encode(iso8601, forKey: .iso8601)
        try container.encode(offset, forKey: .offset)
        try container.encode(systemNow, forKey: .systemNow)
        try container.encodeIfPresent(latestIssuedAt, forKey: .latestIssuedAt)
    }
}
