import Foundation
import LimitedLoginCore
import LimitedLoginJOSE

/// The one translation between a test user's wire shape (``ProviderFixtures/User``: the fixtures file,
/// the admin API, `export`) and its stored record. A new field of test users is added to both types and
/// here, and shows up in the admin API, the fixtures and the export at once.
extension ProviderFixtures.User {
    /// The user as the wire shape carries it: everything stored but the password, `pickable` always written.
    init(record user: TestUserRecord, friends: [String]?, apps: [String]? = nil) {
        self.init(
            id: user.id, firstName: user.firstName, middleName: user.middleName, lastName: user.lastName, email: user.email,
            birthday: user.birthday, gender: user.gender, hometown: user.hometown.map { .init(id: $0.id, name: $0.name) },
            location: user.location.map { .init(id: $0.id, name: $0.name) }, link: user.link, friends: friends, pickable: user.pickable
        )
        ageRange = user.ageRange.map { .init(min: $0.min, max: $0.max) }
        gamingName = user.gamingName
        self.apps = apps
    }
}

extension TestUserRecord {
    /// The record a wire-shaped user is stored as, with this ID.
    init(fixture user: ProviderFixtures.User, id: String) {
        self.init(
            id: id, firstName: user.firstName, middleName: user.middleName, lastName: user.lastName, email: user.email,
            birthday: user.birthday, gender: user.gender, hometown: user.hometown.flatMap { Location(id: $0.id, name: $0.name) },
            location: user.location.flatMap { Location(id: $0.id, name: $0.name) }, link: user.link, pickable: user.isPickable,
            ageRange: user.ageRange.flatMap { UserAgeRange(min: $0.min, max: $0.max) }, gamingName: user.gamingName
        )
    }
}
