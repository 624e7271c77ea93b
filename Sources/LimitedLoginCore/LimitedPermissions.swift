extension Permission {
    /// The permissions a limited login may ask for (Facebook's Limited Login documentation), with
    /// `openid`, which every login implies.
    public static let limitedSet: Set<Permission> = [
        .publicProfile, .email, .gamingProfile, .gamingUserPicture, .userAgeRange, .userBirthday,
        .userFriends, .userGender, .userHometown, .userLink, .userLocation, .userMessengerContact,
        .openid,
    ]

    /// True when a limited login may ask for this permission.
    public var isAllowedInLimitedLogin: Bool { Self.limitedSet.contains(self) }

    /// True for permissions that act for a business (`business_management`, `pages_*`, `ads_*`,
    /// `read_insights`, …), which a limited login never grants.
    public var isBusinessPermission: Bool {
        let name = self.name
        return name == "business_management" || name.hasPrefix("pages_") || name.hasPrefix("ads_")
            || name == "read_insights" || name == "read_audience_network_insights" || name == "read_page_mailboxes"
            || name.hasPrefix("instagram_") || name.hasPrefix("whatsapp_") || name == "catalog_management"
            || name == "leads_retrieval"
    }
}
