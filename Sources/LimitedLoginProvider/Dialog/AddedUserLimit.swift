/// "Add a test user" on the sign-in page, limited per client address (``ClientAddress``, behind a trusted
/// proxy the client it names): at most `limit` new users an hour, so that a script cannot fill the store
/// through a public page. Counted on each node, in memory; the admin API and the Graph test-users API are
/// not limited (they need a token).
actor AddedUserLimit {
    let limit: Int
    static let window: Int64 = 3600
    /// Addresses remembered at most; past it, those whose additions all lapsed are forgotten first.
    static let maximumAddresses = 10_000
    private var added: [String: [Int64]] = [:]

    init(limit: Int) { self.limit = limit }

    /// Counts one more user added from `address` at `now` (seconds), or answers how many seconds until
    /// it may add one when it is at the limit (then nothing is counted).
    func admit(address: String, now: Int64) -> Int64? {
        var times = (added[address] ?? []).filter { $0 > now - Self.window }
        if times.count >= limit, let oldest = times.first { return max(1, oldest + Self.window - now) }
        times.append(now)
        if added[address] == nil, added.count >= Self.maximumAddresses {
            added = added.filter { $0.value.contains { $0 > now - Self.window } }
        }
        added[address] = times
        return nil
    }
}
