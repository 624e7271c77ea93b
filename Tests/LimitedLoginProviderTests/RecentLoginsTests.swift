import Testing

@testable import LimitedLoginProvider

/// The recent-logins list keeps the last 50, newest first, whatever the number recorded.
@Suite("Recent logins: bounded, newest first")
struct RecentLoginsTests {
    private func entry(_ time: Int64) -> RecentLogins.Entry {
        RecentLogins.Entry(
            time: time, appID: "1", appName: "App", userID: "2", userName: "Ada", mode: "limited", responseMode: "fragment",
            granted: [], declined: [], returned: ["id_token"], claims: nil
        )
    }

    @Test("fewer than the capacity, exactly the capacity, and far more: the newest first, at most 50")
    func order() {
        for recorded in [0, 1, 7, 49, 50, 51, 120, 1000] {
            let logins = RecentLogins()
            for time in 0..<Int64(recorded) { logins.record(entry(time)) }
            let expected = Array((max(0, recorded - RecentLogins.capacity)..<recorded).reversed()).map(Int64.init)
            #expect(logins.all.map(\.time) == expected, "after \(recorded)")
        }
    }

    @Test("a reset empties the list, and recording starts afresh")
    func reset() {
        let logins = RecentLogins()
        for time in 0..<Int64(75) { logins.record(entry(time)) }
        logins.removeAll()
        #expect(logins.all.isEmpty)
        logins.record(entry(500))
        logins.record(entry(501))
        #expect(logins.all.map(\.time) == [501, 500])
    }
}
