import LimitedLoginJOSE

/// A permission an app asks a person to grant, by its Graph API name.
///
/// The cases are those of the iOS SDK's `Permission` enum (18.x, with `userLink` and `userAgeRange`) plus `openid`, `gaming_profile`,
/// `gaming_user_picture` and `user_messenger_contact`. Every other name is ``custom(_:)``; a custom name
/// is valid only when it is non-empty and made of `a-z` and `_` (see ``isValid``). Two permissions are
/// equal when their names are, so `.custom("email") == .email`.
///
/// The iOS SDK spells the fitness action permission `user_action.fitness`; the Graph API's name, used
/// here, is `user_actions.fitness`.
public enum Permission: Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// A subset of the person's public profile: name, first and last name, picture.
    case publicProfile
    /// The list of the person's friends who also use the app.
    case userFriends
    /// The person's primary email address.
    case email
    /// The person's personal description.
    case userAboutMe
    /// Book actions published by apps the person used.
    case userActionsBooks
    /// Fitness actions published by apps the person used.
    case userActionsFitness
    /// Music actions published by apps the person used.
    case userActionsMusic
    /// News actions published by apps the person used.
    case userActionsNews
    /// Video actions published by apps the person used.
    case userActionsVideo
    /// The person's birthday.
    case userBirthday
    /// The person's education history.
    case userEducationHistory
    /// Events the person hosts or has answered.
    case userEvents
    /// The person's game activity.
    case userGamesActivity
    /// The person's gender.
    case userGender
    /// The person's hometown.
    case userHometown
    /// Pages and objects the person liked.
    case userLikes
    /// The person's current city.
    case userLocation
    /// Groups the person administers.
    case userManagedGroups
    /// Photos the person uploaded or is tagged in.
    case userPhotos
    /// Posts on the person's timeline.
    case userPosts
    /// The person's relationship status and family.
    case userRelationships
    /// The person's relationship interests.
    case userRelationshipDetails
    /// The person's religious and political views.
    case userReligionPolitics
    /// Places the person was tagged at.
    case userTaggedPlaces
    /// Videos the person uploaded or is tagged in.
    case userVideos
    /// The person's website.
    case userWebsite
    /// The person's work history.
    case userWorkHistory
    /// The names of the person's custom friend lists.
    case readCustomFriendlists
    /// Insights for Pages, apps and domains the person owns.
    case readInsights
    /// Audience Network insights for apps the person owns.
    case readAudienceNetworkInsights
    /// The inboxes of Pages the person manages.
    case readPageMailboxes
    /// The list of Pages the person manages.
    case pagesShowList
    /// Call-to-action buttons of Pages the person manages.
    case pagesManageCta
    /// Instant Articles of Pages the person manages.
    case pagesManageInstantArticles
    /// Ads Insights for ad accounts the person can see.
    case adsRead
    /// The link to the person's Facebook profile.
    case userLink
    /// The person's age range.
    case userAgeRange
    /// OpenID Connect sign-in; always implied.
    case openid
    /// The person's gaming profile.
    case gamingProfile
    /// The person's gaming profile picture.
    case gamingUserPicture
    /// Permission to contact the person on Messenger.
    case userMessengerContact
    /// Any other permission, by name.
    case custom(String)

    /// The names of the known cases (every permission but ``custom(_:)``).
    public static var knownNames: [String] { byName.keys.sorted() }

    /// The permission with this name: a known case when there is one, else ``custom(_:)``.
    public init(name: String) {
        self = Self.byName[name] ?? .custom(name)
    }

    public init(stringLiteral value: String) {
        self.init(name: value)
    }

    /// The Graph API name, as sent in `scope`.
    public var name: String {
        switch self {
        case .publicProfile: return "public_profile"
        case .userFriends: return "user_friends"
        case .email: return "email"
        case .userAboutMe: return "user_about_me"
        case .userActionsBooks: return "user_actions.books"
        case .userActionsFitness: return "user_actions.fitness"
        case .userActionsMusic: return "user_actions.music"
        case .userActionsNews: return "user_actions.news"
        case .userActionsVideo: return "user_actions.video"
        case .userBirthday: return "user_birthday"
        case .userEducationHistory: return "user_education_history"
        case .userEvents: return "user_events"
        case .userGamesActivity: return "user_games_activity"
        case .userGender: return "user_gender"
        case .userHometown: return "user_hometown"
        case .userLikes: return "user_likes"
        case .userLocation: return "user_location"
        case .userManagedGroups: return "user_managed_groups"
        case .userPhotos: return "user_photos"
        case .userPosts: return "user_posts"
        case .userRelationships: return "user_relationships"
        case .userRelationshipDetails: return "user_relationship_details"
        case .userReligionPolitics: return "user_religion_politics"
        case .userTaggedPlaces: return "user_tagged_places"
        case .userVideos: return "user_videos"
        case .userWebsite: return "user_website"
        case .userWorkHistory: return "user_work_history"
        case .readCustomFriendlists: return "read_custom_friendlists"
        case .readInsights: return "read_insights"
        case .readAudienceNetworkInsights: return "read_audience_network_insights"
        case .readPageMailboxes: return "read_page_mailboxes"
        case .pagesShowList: return "pages_show_list"
        case .pagesManageCta: return "pages_manage_cta"
        case .pagesManageInstantArticles: return "pages_manage_instant_articles"
        case .adsRead: return "ads_read"
        case .userLink: return "user_link"
        case .userAgeRange: return "user_age_range"
        case .openid: return "openid"
        case .gamingProfile: return "gaming_profile"
        case .gamingUserPicture: return "gaming_user_picture"
        case .userMessengerContact: return "user_messenger_contact"
        case .custom(let name): return name
        }
    }

    public var description: String { name }

    /// Every known case, in the order above.
    public static let knownCases: [Permission] = [
        .publicProfile,
        .userFriends,
        .email,
        .userAboutMe,
        .userActionsBooks,
        .userActionsFitness,
        .userActionsMusic,
        .userActionsNews,
        .userActionsVideo,
        .userBirthday,
        .userEducationHistory,
        .userEvents,
        .userGamesActivity,
        .userGender,
        .userHometown,
        .userLikes,
        .userLocation,
        .userManagedGroups,
        .userPhotos,
        .userPosts,
        .userRelationships,
        .userRelationshipDetails,
        .userReligionPolitics,
        .userTaggedPlaces,
        .userVideos,
        .userWebsite,
        .userWorkHistory,
        .readCustomFriendlists,
        .readInsights,
        .readAudienceNetworkInsights,
        .readPageMailboxes,
        .pagesShowList,
        .pagesManageCta,
        .pagesManageInstantArticles,
        .adsRead,
        .userLink,
        .userAgeRange,
        .openid,
        .gamingProfile,
        .gamingUserPicture,
        .userMessengerContact,
    ]

    private static let byName: [String: Permission] = Dictionary(
        uniqueKeysWithValues: knownCases.map { ($0.name, $0) }
    )

    /// True for a known case, or a custom name that is non-empty and made only of `a-z` and `_`.
    public var isValid: Bool {
        if Self.byName[name] != nil { return true }
        return Self.isValidCustomName(name)
    }

    /// True when `name` is non-empty and made only of `a-z` and `_`.
    public static func isValidCustomName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
    }
}

extension Permission: Hashable {
    // Byte-exact, like every identifier here (String's == is Unicode canonical equivalence).
    public static func == (lhs: Permission, rhs: Permission) -> Bool { lhs.name.hasSameBytes(as: rhs.name) }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

extension Permission: Codable {
    public init(from decoder: any Decoder) throws {
        self.init(name: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
