import Crypto
import LimitedLoginJOSE

/// The console sessions' generation, kept in the store (so every node and every restart sees it): each
/// console cookie is signed for the generation it was made in, and a new generation ends every console
/// session made before it, for good.
///
/// A new generation is made when someone signs out of the console (the console has one admin token, so one
/// sign-in and another are the same identity: signing out ends them all) and when the provider starts with an
/// admin token other than the one the store last saw (going back to an older token later does not revive the
/// sessions made with it).
enum ConsoleEpoch {
    static let setting = "console_epoch"
    static let adminTokenSetting = "console_admin_token_sha256"

    /// The current generation (made on first use).
    static func current(_ store: ProviderStore) async throws(StoreError) -> String {
        try await store.setting(setting) { RandomIdentifiers.secret() }
    }

    /// Ends every console session made so far.
    static func renew(_ store: ProviderStore) async throws(StoreError) {
        try await store.setSetting(setting, to: RandomIdentifiers.secret())
    }

    /// At start: a new generation when the admin token is not the one the store last saw.
    /// `stored`: the setting ``adminTokenSetting`` as the start read it (nil: never set).
    static func noteAdminToken(_ adminToken: String, stored: String?, in store: ProviderStore) async throws(StoreError) {
        let hash = Base64URL.encode(Array(SHA256.hash(data: Array(adminToken.utf8))))
        guard stored != hash else { return }
        try await renew(store)
        try await store.setSetting(adminTokenSetting, to: hash)
    }
}
