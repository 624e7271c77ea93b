import Testing

@testable import LimitedLoginCore

@Suite("Permission and the limited set")
struct PermissionTests {
    @Test("known names map to their cases, others to custom, and equality goes by name")
    func names() {
        #expect(Permission(name: "public_profile") == .publicProfile)
        #expect(Permission(name: "user_messenger_contact") == .userMessengerContact)
        #expect(Permission(name: "gaming_user_picture") == .gamingUserPicture)
        #expect(Permission(name: "user_actions.books") == .userActionsBooks)
        #expect(Permission(name: "user_age_range") == .userAgeRange)
        #expect(Permission(name: "user_link") == .userLink)
        #expect(Permission.custom("email") == .email)
        #expect(Set<Permission>([.custom("email"), .email]).count == 1)
        #expect(Permission.knownCases.count == 41)
        // Canonically equivalent but different bytes: different permissions.
        #expect(Permission.custom("caf\u{e9}") != Permission.custom("cafe\u{301}"))
        #expect(Set(Permission.knownCases.map(\.name)).count == 41)
    }

    @Test("custom names must be non-empty a-z and _")
    func validity() {
        #expect(Permission.custom("my_permission").isValid)
        #expect(!Permission.custom("").isValid)
        #expect(!Permission.custom("User_likes").isValid)
        #expect(!Permission.custom("user likes").isValid)
        #expect(!Permission.custom("user-likes").isValid)
        #expect(!Permission.custom("user_likes2").isValid)
        #expect(!Permission.custom("email,user_likes").isValid)
        #expect(Permission.userActionsFitness.isValid)
    }

    @Test("the limited set is exactly the documented twelve plus openid")
    func limitedSet() {
        let names = Set(Permission.limitedSet.map(\.name))
        #expect(
            names == [
                "public_profile", "email", "gaming_profile", "gaming_user_picture", "user_age_range", "user_birthday",
                "user_friends", "user_gender", "user_hometown", "user_link", "user_location", "user_messenger_contact", "openid",
            ])
        #expect(!Permission.userLikes.isAllowedInLimitedLogin)
        #expect(!Permission.custom("business_management").isAllowedInLimitedLogin)
        #expect(Permission.custom("business_management").isBusinessPermission)
        #expect(Permission.pagesShowList.isBusinessPermission)
        #expect(Permission.adsRead.isBusinessPermission)
        #expect(!Permission.email.isBusinessPermission)
    }
}
