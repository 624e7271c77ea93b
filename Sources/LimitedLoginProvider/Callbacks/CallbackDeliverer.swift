import AsyncHTTPClient
import Foundation
import LimitedLoginCore
import LimitedLoginJOSE
import LimitedLoginVerifier
import Logging
import NIOCore
import Synchronization

/// Posts the apps' Deauthorize and Data Deletion Request callbacks, as the real service does
/// (docs/BEHAVIOUR.md, section 4): `signed_request=…` (form-encoded; `{"algorithm": "HMAC-SHA256",
/// "issued_at", "user_id"}` signed with the app secret, `user_id` the app-scoped ID) to the app's URL.
///
/// Every delivery is recorded before its first attempt, and each attempt's outcome after it; a failed
/// attempt (no connection, no answer within ``ProviderConfiguration/callbackAttemptTimeout``, a status other than 2xx, a data deletion
/// answered without `{"url", "confirmation_code"}`) is tried again after each of
/// ``ProviderConfiguration/callbackRetryDelays``, then the delivery is marked failed with the last reason.
/// Nothing is lost: a delivery still pending when the provider stops is tried again when it starts.
final class CallbackDeliverer: Sendable {
    private let store: ProviderStore
    private let logger: Logger
    private let retryDelays: [Duration]
    /// The deliveries this node is posting now (a second start of the same one is ignored).
    private let inFlight = Mutex<Set<String>>([])

    /// How long one attempt may take, from connecting to the whole answer.
    private let attemptTimeout: TimeAmount

    /// The callbacks' HTTP client: it follows no redirect (a callback is posted where the app said), and
    /// a connection that cannot be made fails the attempt at once instead of being tried again until the
    /// attempt's time is up: the retries are the deliverer's own, on its schedule.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow)
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Whether callbacks may go to the provider's own network (``CallbackAddressPolicy``).
    private let allowsPrivateAddresses: Bool

    init(store: ProviderStore, logger: Logger, retryDelays: [Duration], attemptTimeout: Duration, allowsPrivateAddresses: Bool = false) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.store = store
        self.logger = logger
        self.retryDelays = retryDelays
        let (seconds, attoseconds) = attemptTimeout.components
        self.attemptTimeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// The person removed the app: its Deauthorize Callback, if it has one.
    @discardableResult
    func appRemoved(_ app: AppRecord, userID: String) async throws -> CallbackDelivery? {
        guard let url = app.deauthorizeCallbackURL else { return nil }
        return try await start(.deauthorize, app: app, userID: userID, url: url)
    }

    /// The person asked the app to delete their data: its Data Deletion Request Callback.
    func dataDeletionRequested(_ app: AppRecord, userID: String) async throws -> CallbackDelivery {
        guard let url = app.dataDeletionCallbackURL else {
            throw AdminError.badRequest("App \(app.id) has no data deletion callback URL (data_deletion_callback_url).")
        }
        return try await start(.dataDeletion, app: app, userID: userID, url: url)
    }

    /// Takes up the deliveries left pending (the provider stopped during them), each from its next attempt.
    func resumePending() async {
        do {
            for delivery in try await store.deliveries(status: .pending) { launch(delivery, resumed: true) }
        } catch {
            logger.error("callback deliveries left pending cannot be read: \(error)")
        }
    }

    private func start(_ kind: CallbackDelivery.Kind, app: AppRecord, userID: String, url: String) async throws -> CallbackDelivery {
        // The store's clock, the provider's (moved by the harness): also in the detached task that posts.
        let now = store.now()
        let asid = try await store.appScopedID(appID: app.id, userID: userID)
        let delivery = CallbackDelivery(
            id: RandomIdentifiers.numericID(), appID: app.id, kind: kind, userID: userID, url: url,
            signedRequest: SignedRequest.make(userID: asid, code: nil, issuedAt: now, secret: app.secret), status: .pending, attempts: 0,
            nextAttemptAt: now, lastError: nil, responseStatus: nil, confirmationCode: nil, statusURL: nil, createdAt: now, updatedAt: now
        )
        try await store.saveNewDelivery(delivery)
        launch(delivery)
        return delivery
    }

    private func launch(_ delivery: CallbackDelivery, resumed: Bool = false) {
        guard inFlight.withLock({ $0.insert(delivery.id).inserted }) else { return }
        Task.detached { [self] in
            await deliver(delivery, resumed: resumed)
            _ = inFlight.withLock { $0.remove(delivery.id) }
        }
    }

    /// Attempts until one succeeds or the retries are spent, recording each.
    ///
    /// Each attempt is taken in the store first (``ProviderStore/claimDeliveryAttempt(id:attempts:now:leaseUntil:ownSchedule:)``)
    /// and recorded only if no one recorded it before: a node that starts while another is still retrying a
    /// delivery (both read it as pending) waits for its next attempt's time and leaves it to whichever node
    /// takes it, instead of posting it again and overwriting a delivered one with its own failure.
    private func deliver(_ first: CallbackDelivery, resumed: Bool = false) async {
        var delivery = first
        // The next attempt's time as this node read or wrote it: a claim finds it unchanged unless another node
        // took the attempt first (a claim rewrites it). A delivery this node starts is due at once.
        var ownSchedule: Int64? = first.nextAttemptAt
        if resumed, let due = first.nextAttemptAt {
            // Left by a run before this one: at its time, but never more than the longest retry delay away (the
            // time is the provider's clock, which a restart may have set back; sleeping is the system's).
            let longest = retryDelays.map { $0.components.seconds }.max() ?? 0
            let wait = min(due - store.now(), max(1, longest))
            if wait > 0 {
                do { try await Task.sleep(for: .seconds(wait)) } catch { return }
            }
        }
        while delivery.status == .pending {
            let now = store.now()
            let lease = now + Int64(attemptTimeout.nanoseconds / 1_000_000_000) + 30
            do {
                guard
                    try await store.claimDeliveryAttempt(
                        id: delivery.id, attempts: delivery.attempts, now: now, leaseUntil: lease, ownSchedule: ownSchedule)
                else { return }
            } catch {
                logger.error("callback delivery \(delivery.id) cannot be taken: \(error)")
                return
            }
            let previousAttempts = delivery.attempts
            let outcome = await attempt(delivery)
            delivery.attempts += 1
            delivery.updatedAt = store.now()
            delivery.responseStatus = outcome.status
            switch outcome.result {
            case .success(let answer):
                delivery.status = .delivered
                delivery.lastError = nil
                delivery.nextAttemptAt = nil
                delivery.statusURL = answer?.url
                delivery.confirmationCode = answer?.code
            case .failure(let failure):
                delivery.lastError = failure.reason
                if delivery.attempts > retryDelays.count {
                    delivery.status = .failed
                    delivery.nextAttemptAt = nil
                } else {
                    let delay = retryDelays[delivery.attempts - 1]
                    delivery.nextAttemptAt = delivery.updatedAt + max(1, delay.components.seconds)
                }
            }
            do {
                guard try await store.updateDelivery(delivery, previousAttempts: previousAttempts) else {
                    logger.notice("callback delivery \(delivery.id): this attempt was recorded by another node; leaving it to that one")
                    return
                }
            } catch {
                logger.error("callback delivery \(delivery.id) cannot be recorded: \(error)")
                return
            }
            ownSchedule = delivery.nextAttemptAt
            switch delivery.status {
            case .delivered:
                logger.info("callback delivered", metadata: ["app": "\(delivery.appID)", "kind": "\(delivery.kind.rawValue)"])
            case .failed:
                logger.warning(
                    "callback failed after \(delivery.attempts) attempts: \(delivery.lastError ?? "")",
                    metadata: ["app": "\(delivery.appID)", "kind": "\(delivery.kind.rawValue)", "url": "\(delivery.url)"])
            case .pending:
                do { try await Task.sleep(for: retryDelays[delivery.attempts - 1]) } catch { return }
            }
        }
    }

    private struct Outcome {
        var status: Int?
        var result: Result<(url: String, code: String)?, AttemptFailure>
    }

    static let noAnswer = "no answer: no connection, or no HTTP answer in time"

    private struct AttemptFailure: Error {
        let reason: String
    }

    /// One POST; success carries a data deletion's `{url, confirmation_code}`.
    private func attempt(_ delivery: CallbackDelivery) async -> Outcome {
        // Checked when the URL was set; a store written before that check could still hold one.
        guard let target = URL(string: delivery.url), target.hasUsablePort else {
            return Outcome(status: nil, result: .failure(AttemptFailure(reason: "the callback URL's port is not 1 to 65535")))
        }
        // Checked when the URL is set, and here again: a name may resolve elsewhere now, and a store written
        // before the check (or under --allow-private-callbacks) may hold such a URL.
        if !allowsPrivateAddresses {
            var problem = CallbackAddressPolicy.problem(url: target)
            if problem == nil { problem = await CallbackAddressPolicy.resolvedProblem(host: target.host ?? "") }
            if let problem { return Outcome(status: nil, result: .failure(AttemptFailure(reason: "not posted: the callback URL \(problem)"))) }
        }
        var request = HTTPClientRequest(url: delivery.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "User-Agent", value: "limited-login provider (callback)")
        request.body = .bytes(ByteBuffer(string: "signed_request=" + delivery.signedRequest))
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await Self.client.execute(request, timeout: attemptTimeout)
            body = try await response.body.collect(upTo: 64 * 1024)
        } catch {
            // One reason for every way of not answering (refused, filtered, not HTTP, too slow): a delivery's
            // record must not tell a closed port from a filtered one (docs/SECURITY.md).
            _ = error
            return Outcome(status: nil, result: .failure(AttemptFailure(reason: Self.noAnswer)))
        }
        let status = Int(response.status.code)
        guard (200..<300).contains(status) else {
            return Outcome(status: status, result: .failure(AttemptFailure(reason: "answered \(status)")))
        }
        guard delivery.kind == .dataDeletion else { return Outcome(status: status, result: .success(nil)) }
        guard let answer = try? StrictJSONParser().parse(Array(buffer: body)).objectValue,
            let url = answer["url"]?.stringValue, !url.isEmpty,
            let code = answer["confirmation_code"]?.stringValue, !code.isEmpty
        else {
            return Outcome(
                status: status,
                result: .failure(AttemptFailure(reason: "answered \(status) without a JSON object holding url and confirmation_code")))
        }
        return Outcome(status: status, result: .success((url, code)))
    }
}
