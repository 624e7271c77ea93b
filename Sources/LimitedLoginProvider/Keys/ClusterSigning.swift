/// Which keys sign and are published, as the store says at the moment of an issuance, a key document's
/// answer, or a check of a token the provider signed.
///
/// Nodes sharing a store (PostgreSQL) reread the keys every few seconds (``SigningKeyring/refreshInterval``); a
/// rotation through another node in between, `drop_previous` above all, left this node signing with a key
/// every node had stopped publishing (4.8–4.9 s after each such rotation, tokens that never verify). So before
/// an ID token is made, one read of two settings: the latest rotation (written in the rotation's transaction)
/// and the cluster's clock offset. A rotation this node has not read, or a clock move it has not adopted,
/// rereads the keys first. The key documents (JWKS, certificates) and the checks of returned tokens read the
/// same way, so that no node serves a key set without the key another node just began to sign with. On SQLite
/// (one process: its own rotations reread the keys at once) nothing is read.
enum ClusterSigning {
    /// The keys to sign with and publish now, having agreed with the store when it is shared.
    static func keys(_ services: ProviderServices) async throws -> SigningKeyring.Snapshot {
        guard services.store.location.isShared else { return try await services.keyring.current() }
        let stored = try await services.store.settingValues([SigningKeyring.latestRotationSetting, ClusterClock.setting])
        services.clusterClock.adopt(stored: stored[ClusterClock.setting])
        let snapshot = try await services.keyring.current()
        guard snapshot.latestRotation != stored[SigningKeyring.latestRotationSetting] else { return snapshot }
        return try await services.keyring.reload()
    }
}
