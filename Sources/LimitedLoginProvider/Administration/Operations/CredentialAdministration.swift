import LimitedLoginJOSE

/// Scoped admin credentials (docs/SECURITY.md, "Scoped admin credentials"): made, listed and revoked with
/// the organisation's admin token only (``AdminRouteAccess``).
extension AdminOperations {
    static let credentialNameRule = "a credential's name is 1 to 64 letters, digits, spaces, '.', '_' or '-'"

    /// Makes a credential for existing apps; its token is in the answer and nowhere else.
    func createCredential(_ new: NewCredential) async throws -> CredentialView {
        let allowed = new.name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || " ._-".unicodeScalars.contains($0)
        }
        guard (1...64).contains(new.name.unicodeScalars.count), allowed, new.name.first != " ", new.name.last != " " else {
            throw AdminError.badRequest(Self.sentence(Self.credentialNameRule))
        }
        guard new.name != AdminCaller.organisation.logName else {
            throw AdminError.badRequest("The name organisation is the admin token's in the admin log; choose another.")
        }
        guard !new.apps.isEmpty, new.apps.count <= 100 else { throw AdminError.badRequest("Give \"apps\": the IDs of 1 to 100 apps it may touch.") }
        var apps: [String] = []
        for app in new.apps where !apps.contains(app) {
            guard try await store.app(id: app) != nil else { throw AdminError.badRequest("The app \(app) does not exist (give existing apps' IDs).") }
            apps.append(app)
        }
        let token = AdminCredentialToken.make()
        let record = AdminCredentialRecord(
            name: new.name, tokenSHA256: AdminCredentialToken.hash(token), apps: apps, createdAt: ProviderTime.systemNow(), revokedAt: nil)
        do {
            try await store.createAdminCredential(record)
        } catch {
            guard case .duplicate = error else { throw error }
            throw AdminError.conflict("A credential named \(new.name) exists already (revoked ones keep their names).")
        }
        return CredentialView(record, token: token)
    }

    func credentials() async throws -> [CredentialView] {
        try await store.adminCredentials().map { CredentialView($0) }
    }

    /// Revokes a credential: every node refuses it from its next request.
    func revokeCredential(name: String) async throws {
        guard try await store.revokeAdminCredential(name: name, at: ProviderTime.systemNow()) else {
            throw AdminError.notFound("No credential named \(name) that is not revoked already.")
        }
    }

    /// The admin log, newest first; a scoped credential sees its own writes only.
    func adminLog(limit: Int) async throws -> [AdminLogEntry] {
        guard (1...AdminWriteLog.kept).contains(limit) else { throw AdminError.badRequest("limit must be from 1 to \(AdminWriteLog.kept).") }
        switch AdminCaller.current {
        case .organisation: return try await store.adminLog(limit: limit)
        case .credential(let name, _): return try await store.adminLog(limit: limit, credential: name)
        }
    }
}
