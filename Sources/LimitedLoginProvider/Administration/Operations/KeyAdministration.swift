import LimitedLoginJOSE

/// The signing keys: list and rotate.
extension AdminOperations {
    func keys() async throws -> [AdminKey] {
        let snapshot = try await services.keyring.reload()
        let now = ProviderTime.now()
        let signer = snapshot.signer.keyID
        return snapshot.records.map { record in
            AdminKey(
                record: record, signing: record.keyID.hasSameBytes(as: signer), state: Self.state(of: record, now: now, signer: signer),
                unpublishedAt: record.retiredAt.map { $0 + services.keyring.retention }
            )
        }
    }

    static func state(of record: SigningKeyRecord, now: Int64, signer: String) -> String {
        if record.keyID.hasSameBytes(as: signer) { return "signing" }
        if record.signsFrom > now { return "published, signs later" }
        return "retired, still published"
    }

    /// Publishes a new key now, signing `publishDelay` seconds later (0 to 30 days); with `dropPrevious`
    /// (which needs no delay) every other key is unpublished at once.
    func rotateKeys(publishDelay: Int64 = RotationDefaults.publishDelay, dropPrevious: Bool = false) async throws -> SigningKeyRecord {
        guard (0...(30 * 24 * 3600)).contains(publishDelay) else {
            throw AdminError.badRequest("publish_delay must be a number of seconds from 0 to 2592000.")
        }
        if dropPrevious, publishDelay != 0 {
            throw AdminError.badRequest("drop_previous needs publish_delay=0: the new key must sign at once when the others are dropped.")
        }
        // On the cluster's clock: a move through another node that this one has not adopted yet would put the new
        // key's schedule on the old time (it signed at once after a +120 s move with a 30 s delay).
        await services.clusterClock.refreshIfDue(now: true)
        let record = try await services.keyring.rotate(publishDelay: publishDelay, dropPrevious: dropPrevious)
        services.logger.notice("signing key rotation scheduled", metadata: ["kid": "\(record.keyID)", "signs_from": "\(record.signsFrom)"])
        return record
    }
}
