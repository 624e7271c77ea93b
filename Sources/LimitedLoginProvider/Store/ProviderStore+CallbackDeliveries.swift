import SQLKit

private struct DeliveryRow: Codable, Sendable {
    var id: String
    var appId: String
    var kind: String
    var userId: String
    var url: String
    var signedRequest: String
    var status: String
    var attempts: Int64
    var nextAttemptAt: Int64?
    var lastError: String?
    var responseStatus: Int64?
    var confirmationCode: String?
    var statusUrl: String?
    var createdAt: Int64
    var updatedAt: Int64

    init(_ delivery: CallbackDelivery) {
        id = delivery.id
        appId = delivery.appID
        kind = delivery.kind.rawValue
        userId = delivery.userID
        url = delivery.url
        signedRequest = delivery.signedRequest
        status = delivery.status.rawValue
        attempts = Int64(delivery.attempts)
        nextAttemptAt = delivery.nextAttemptAt
        lastError = delivery.lastError
        responseStatus = delivery.responseStatus.map(Int64.init)
        confirmationCode = delivery.confirmationCode
        statusUrl = delivery.statusURL
        createdAt = delivery.createdAt
        updatedAt = delivery.updatedAt
    }

    var record: CallbackDelivery {
        CallbackDelivery(
            id: id, appID: appId, kind: CallbackDelivery.Kind(rawValue: kind) ?? .deauthorize, userID: userId, url: url,
            signedRequest: signedRequest, status: CallbackDelivery.Status(rawValue: status) ?? .failed, attempts: Int(attempts),
            nextAttemptAt: nextAttemptAt, lastError: lastError, responseStatus: responseStatus.map(Int.init),
            confirmationCode: confirmationCode, statusURL: statusUrl, createdAt: createdAt, updatedAt: updatedAt
        )
    }
}

extension ProviderStore {
    /// Records a new delivery.
    func saveNewDelivery(_ delivery: CallbackDelivery) async throws(StoreError) {
        try await run("callback delivery") {
            try await db.insert(into: "ll_callback_deliveries").model(DeliveryRow(delivery), keyEncodingStrategy: .convertToSnakeCase).run()
        }
    }

    /// Takes a pending delivery's next attempt for the caller, until `leaseUntil` (its `next_attempt_at`
    /// meanwhile); false when it is not the caller's to make: the attempt is not due (`next_attempt_at` after
    /// `now`, and not the `ownSchedule` the caller wrote itself), or another node took it or recorded it first
    /// (`attempts` moved on), or the delivery has ended. Nodes sharing a database so post each attempt once.
    func claimDeliveryAttempt(
        id: String, attempts: Int, now: Int64, leaseUntil: Int64, ownSchedule: Int64?
    ) async throws(StoreError) -> Bool {
        try await run("callback delivery") {
            var due = SQLQueryString("next_attempt_at IS NULL OR next_attempt_at <= \(bind: now)")
            if let ownSchedule { due = "\(due) OR next_attempt_at = \(bind: ownSchedule)" }
            return try await db.raw(
                """
                UPDATE ll_callback_deliveries SET next_attempt_at = \(bind: leaseUntil) \
                WHERE id = \(bind: id) AND status = 'pending' AND attempts = \(bind: Int64(attempts)) AND (\(due)) \
                RETURNING id
                """
            ).all().isEmpty == false
        }
    }

    /// Writes a delivery's outcome so far, when no one recorded this attempt before (`attempts` is still
    /// `previousAttempts`); false when another node did.
    func updateDelivery(_ delivery: CallbackDelivery, previousAttempts: Int) async throws(StoreError) -> Bool {
        try await run("callback delivery") {
            try await db.update("ll_callback_deliveries")
                .set("status", to: delivery.status.rawValue).set("attempts", to: Int64(delivery.attempts))
                .set("next_attempt_at", to: delivery.nextAttemptAt).set("last_error", to: delivery.lastError)
                .set("response_status", to: delivery.responseStatus.map(Int64.init)).set("confirmation_code", to: delivery.confirmationCode)
                .set("status_url", to: delivery.statusURL).set("updated_at", to: delivery.updatedAt)
                .where("id", .equal, delivery.id).where("attempts", .equal, Int64(previousAttempts))
                .returning("id").all().isEmpty == false
        }
    }

    /// The deliveries, newest first (at most `limit`), or those with `status`.
    package func deliveries(status: CallbackDelivery.Status? = nil, limit: Int = 500) async throws(StoreError) -> [CallbackDelivery] {
        try await run("callback delivery") {
            var select = db.select().columns("*").from("ll_callback_deliveries")
            if let status { select = select.where("status", .equal, status.rawValue) }
            return try await select.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit)
                .all(decoding: DeliveryRow.self, keyDecodingStrategy: .convertFromSnakeCase).map(\.record)
        }
    }

    /// One delivery by its ID.
    package func delivery(id: String) async throws(StoreError) -> CallbackDelivery? {
        try await run("callback delivery") {
            try await db.select().columns("*").from("ll_callback_deliveries").where("id", .equal, id)
                .first(decoding: DeliveryRow.self, keyDecodingStrategy: .convertFromSnakeCase)?.record
        }
    }
}
