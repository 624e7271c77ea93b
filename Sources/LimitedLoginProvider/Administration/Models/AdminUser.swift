/// A test user as the admin API answers it: the wire shape (``ProviderFixtures/User``, without the
/// password) with the IDs of their friends and of the apps they are a test user of.
struct AdminUser: Sendable, Equatable {
    let record: TestUserRecord
    let friends: [String]
    let apps: [String]

    var fixture: ProviderFixtures.User { ProviderFixtures.User(record: record, friends: friends, apps: apps) }
}
