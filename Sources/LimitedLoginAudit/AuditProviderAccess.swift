import LimitedLoginJOSE
import LimitedLoginVerifier

/// The provider the audited backend trusts, as the audit uses it: it mints the audit's tokens, publishes the
/// key set the forgeries are made against, and (with `--faults`) rotates keys and injects faults. The CLI
/// reaches it through the admin API (`AuditProvider`); a failure is an ``AuditFailure`` saying why.
package protocol AuditProviderAccess: Sendable {
    /// The provider's address, as the report names it.
    var baseURL: String { get }
    /// An ID token minted by `POST /_admin/tokens` with `body`.
    func mint(_ body: JSONObject) async throws -> String
    /// The key set the provider publishes now.
    func keySet() async throws -> JSONWebKeySet
    /// Rotates the signing key at once; `dropPrevious` unpublishes the others.
    func rotateKeys(dropPrevious: Bool) async throws
    /// Injects a fault on the key endpoints (`POST /_admin/faults`).
    func setFault(_ body: JSONObject) async throws
    func clearFaults() async throws
}
