import Crypto
import SQLKit

extension ProviderStore {
    /// Marks a form token used. True the first time; false when it was used before, also when two
    /// requests (on any nodes of a shared database) post it at once: the insert is the test.
    ///
    /// Only a 64-bit key made from the token's hash is kept (``usedFormKey(_:)``), until `expiresAt`, after
    /// which the token is refused anyway.
    func consumeFormToken(hash: String, expiresAt: Int64) async throws(StoreError) -> Bool {
        try await run("form token") {
            try await db.insert(into: "ll_used_forms").columns("form_key", "expires_at")
                .values(Self.usedFormKey(hash), expiresAt)
                .ignoringConflicts(with: ["form_key"])
                .returning("form_key")
                .first() != nil
        }
    }

    /// The stored key of a used form: the first 64 bits of SHA-256 of its token's hash. Two forms posted
    /// within the same hour share a key with a chance of about one in 10¹⁵ even at a million posts; the
    /// cost of that would be one form refused as used, never one accepted twice.
    static func usedFormKey(_ hash: String) -> Int64 {
        SHA256.hash(data: Array(hash.utf8)).withUnsafeBytes { bytes in
            bytes.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }
        }
    }

    static let usedFormsHorizonSetting = "used_forms_forgotten_before"

    /// Forgets used tokens that expired before a horizon, and records the horizon first (in the store, for
    /// every node): a form that expired before it can no longer be told used or not, so ``usedFormsHorizon()``
    /// refuses it whatever the clock shows later. A clock moved back therefore never makes a used form
    /// usable again. The horizon is `settled` (``ProviderTime/settledNow()``: never ahead of the system's
    /// time), recorded when it has moved on by a minute, so that a form post costs a write a minute at most.
    func purgeUsedFormTokens(settled: Int64) async throws(StoreError) {
        var horizon = caches.usedFormsHorizon.load(ordering: .relaxed)
        if settled - horizon >= 60 {
            try await run("form token") {
                try await db.raw(
                    """
                    INSERT INTO ll_settings (name, value) VALUES (\(bind: Self.usedFormsHorizonSetting), \(bind: String(settled)))
                    ON CONFLICT (name) DO UPDATE SET value = excluded.value
                    WHERE CAST(ll_settings.value AS BIGINT) < CAST(excluded.value AS BIGINT)
                    """
                ).run()
            }
            caches.usedFormsHorizon.store(settled, ordering: .relaxed)
            horizon = settled
        }
        guard horizon > 0 else { return }
        try await run("form token") {
            try await db.delete(from: "ll_used_forms").where("expires_at", .lessThan, horizon).run()
        }
    }

    /// The time before which used forms may have been forgotten (0: none yet); a form that expires before
    /// it is refused as expired.
    func usedFormsHorizon() async throws(StoreError) -> Int64 {
        Int64(try await settingValue(Self.usedFormsHorizonSetting) ?? "") ?? 0
    }
}
