import LimitedLoginJOSE

/// A test user as the admin API answers it: the wire shape (``ProviderFixtures/User``, without the
/// password) with the IDs of their friends.
struct AdminUser: Sendable, Equatable {
    let record: TestUserRecord
    let friends: [String]

    var fixture: ProviderFixtures.User { ProviderFixtures.User(record: record, friends: friends) }
    var json: JSONValue { fixture.json }
}
