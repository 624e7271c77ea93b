/// Why the audit could not run (exit status 3): the backend or the provider is unreachable or refuses.
struct AuditFailure: Error, Sendable {
    let message: String
    init(_ message: String) { self.message = message }
}
