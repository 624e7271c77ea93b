import LimitedLoginCore

extension LoginConfiguration {
    /// The configuration a login is performed with, and the permissions it leaves out.
    ///
    /// Since v17 the iOS SDK performs every login of a person who opted out of tracking as a limited one.
    /// So when `advertiserTrackingEnabled` is false a classic (`.enabled`) configuration becomes a limited
    /// one with the same nonce, `auth_type` and Messenger page, asking only for the permissions a limited
    /// login may ask for; the others are returned, to be reported declined.
    func performed(advertiserTrackingEnabled: Bool) -> (LoginConfiguration, leftOut: Set<Permission>) {
        guard tracking == .enabled, !advertiserTrackingEnabled else { return (self, []) }
        let kept = requestedPermissions.filter(\.isAllowedInLimitedLogin)
        guard
            let limited = LoginConfiguration(
                permissions: kept, tracking: .limited, nonce: nonce, messengerPageId: messengerPageId, authType: authType,
                codeVerifier: codeVerifier
            )
        else { return (self, []) }
        return (limited, requestedPermissions.subtracting(kept))
    }
}
