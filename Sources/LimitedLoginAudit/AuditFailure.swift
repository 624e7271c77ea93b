/// Why the audit could not run (exit status 3): the backend or the provider is unreachable or refuses.
package struct AuditFailure: Error, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
