import LimitedLoginVerifier
@preconcurrency import PostgresKit

/// What went wrong talking to PostgreSQL, in words for people. `PSQLError`'s own description hides the
/// cause on purpose (it may hold query data); this reads its code, the server's message and the network
/// error beneath, and never shows a query.
enum PostgresFailure {
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return TransportFailure.reason(error) }
        switch error.code {
        case .connectionError:
            return error.underlying.map(TransportFailure.reason) ?? "the connection failed"
        case .server:
            let message = error.serverInfo?[.message] ?? "an error"
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            return "the server said: \(message)\(state)"
        case .sslUnsupported:
            return "the server does not accept TLS, which the URL asks for (drop sslmode or set sslmode=disable)"
        case .authMechanismRequiresPassword:
            return "the server wants a password, and the URL has none"
        case .unsupportedAuthMechanism, .saslError:
            return "authentication failed (the user name or password is wrong, or the server's method is not supported)"
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown:
            return "the connection closed"
        default:
            return "PostgreSQL failed (\(error.code))"
        }
    }
}
