import LimitedLoginJOSE
import Synchronization

/// The last logins this node completed, newest first, for testers (`GET /_admin/logins`, the console's
/// "Recent logins").
///
/// Bounded (``capacity``), kept in memory by each node, and empty after a restart. An entry keeps the
/// decoded claims of the ID token it carried, never the token, the code or the access token: the list
/// holds nothing that could be used to call an app or the Graph API.
final class RecentLogins: Sendable {
    struct Entry: Sendable {
        let time: Int64
        let appID: String
        let appName: String
        let userID: String
        let userName: String
        /// `limited` or `classic`.
        let mode: String
        /// How the answer went back: `fragment`, `query` or `form_post`.
        let responseMode: String
        let granted: [String]
        let declined: [String]
        /// What the answer carried: `id_token`, `access_token`, `code`.
        let returned: [String]
        /// The ID token's decoded claims, or nil when none was issued.
        let claims: JSONObject?
    }

    static let capacity = 50

    /// A ring: every login records one entry, so recording overwrites the oldest in place rather than
    /// shifting the whole list (it runs on each login's path).
    private struct Ring {
        var entries: [Entry] = []
        /// Where the next entry goes: the oldest once the ring is full.
        var next = 0
    }

    private let ring = Mutex(Ring())

    func record(_ entry: Entry) {
        ring.withLock { ring in
            if ring.entries.count < Self.capacity {
                ring.entries.append(entry)
            } else {
                ring.entries[ring.next] = entry
            }
            ring.next = (ring.next + 1) % Self.capacity
        }
    }

    /// Newest first.
    var all: [Entry] {
        ring.withLock { ring in
            let count = ring.entries.count
            return (0..<count).map { ring.entries[(ring.next - 1 - $0 + count) % count] }
        }
    }

    func removeAll() {
        ring.withLock { $0 = Ring() }
    }
}

extension RecentLogins.Entry {
    var json: JSONValue {
        var object: [String: JSONValue] = [
            "time": .number(Double(time)), "app_id": .string(appID), "app_name": .string(appName),
            "user_id": .string(userID), "user_name": .string(userName), "mode": .string(mode),
            "response_mode": .string(responseMode), "granted_scopes": .array(granted.map { .string($0) }),
            "denied_scopes": .array(declined.map { .string($0) }), "returned": .array(returned.map { .string($0) }),
        ]
        if let claims { object["id_token_claims"] = .object(claims) }
        return .object(JSONObject(object))
    }
}
