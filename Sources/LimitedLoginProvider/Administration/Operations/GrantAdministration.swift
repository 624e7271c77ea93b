import LimitedLoginCore

/// What people granted apps: list, uninstall, revoke one permission, end the data access of their tokens.
/// `user` takes a test user's ID or email.
extension AdminOperations {
    /// Every grant, or one person's.
    func grants(user: String?) async throws -> [GrantRecord] {
        var userID: String?
        if let user {
            guard let found = try await visibleUser(user) else { throw AdminError.notFound("No test user with ID or email \(user).") }
            userID = found.id
        }
        return try await store.grants(userID: userID).filter { AdminCaller.current.mayTouch(app: $0.appID) }
    }

    /// The person removes the app: the next login asks for consent afresh.
    func uninstall(appID: String, user: String) async throws {
        let grant = try await installedGrant(appID, user)
        if try await store.uninstall(appID: appID, userID: grant.userID), let app = try await store.app(id: appID) {
            try await services.callbacks.appRemoved(app, userID: grant.userID)
        }
        services.logger.notice("app uninstalled by the admin API", metadata: ["app": "\(appID)", "user": "\(grant.userID)"])
    }

    /// The person's decision on that permission is forgotten, so the next login that asks for it shows the
    /// consent page again. Returns the grant as it is now.
    func revoke(appID: String, user: String, permission name: String) async throws -> GrantRecord {
        let permission = Permission(name: name)
        guard permission.isValid else { throw AdminError.badRequest("\(name) is not a valid permission name.") }
        guard permission != .publicProfile else {
            throw AdminError.badRequest("public_profile cannot be revoked alone; DELETE /_admin/grants/\(appID)/\(user) uninstalls the app.")
        }
        // Read, changed and written only if no one changed it meanwhile (an uninstall, another revocation).
        let change = try await store.changeGrantPermissions(
            reading: { try await installedGrant(appID, user) },
            { grant in
                guard grant.granted.remove(permission) != nil else {
                    throw AdminError.notFound("Test user \(user) has not granted \(name) to app \(appID).")
                }
                grant.updatedAt = ProviderTime.now()
                return true
            })
        switch change {
        case .changed(let grant), .unchanged(let grant): return grant
        case .keptChanging:
            throw AdminError.conflict("The grant of app \(appID) to \(user) kept changing while this revocation was made; send it again.")
        }
    }

    /// The person's access tokens for the app keep working but no longer read data, as after 90 days
    /// without a login. Returns how many tokens that touched.
    func expireDataAccess(appID: String, user: String) async throws -> Int {
        let grant = try await installedGrant(appID, user)
        return try await store.expireDataAccess(appID: appID, userID: grant.userID)
    }

    /// The installed grant of this app and person; 404 when there is none.
    private func installedGrant(_ appID: String, _ user: String) async throws -> GrantRecord {
        try requireTouchable(app: appID)
        guard try await store.app(id: appID) != nil else { throw AdminError.notFound("No app with ID \(appID).") }
        guard let userID = try await store.user(idOrEmail: user)?.id else {
            throw AdminError.notFound("No test user with ID or email \(user).")
        }
        guard let grant = try await store.grant(appID: appID, userID: userID), grant.installed else {
            throw AdminError.notFound("Test user \(user) has not installed app \(appID) (no login, or uninstalled).")
        }
        return grant
    }
}
