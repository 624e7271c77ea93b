import LimitedLoginCore

/// How the consent page describes each permission.
enum PermissionWording {
    private static let words: [String: String] = [
        "public_profile": "Your name and profile picture",
        "email": "Your email address",
        "user_friends": "Your friends list (friends who also use this app)",
        "user_birthday": "Your birthday",
        "user_age_range": "Your age range",
        "user_gender": "Your gender",
        "user_hometown": "Your hometown",
        "user_location": "Your current town or city",
        "user_link": "A link to your profile",
        "gaming_profile": "Your gaming profile",
        "gaming_user_picture": "Your gaming profile picture",
        "user_messenger_contact": "Contacting you on Messenger",
        "user_likes": "Pages you like",
        "user_posts": "Your posts",
        "user_photos": "Your photos",
        "user_videos": "Your videos",
        "user_events": "Your events",
        "user_tagged_places": "Places you are tagged at",
        "pages_show_list": "The Pages you manage",
        "business_management": "Your businesses",
    ]

    static func words(for permission: Permission) -> String {
        words[permission.name] ?? "The permission \(permission.name)"
    }
}
