import Foundation

/// Seconds since 1970, the unit of every time the provider stores or puts in a token.
enum ProviderTime {
    static func now() -> Int64 { Int64(Date().timeIntervalSince1970) }
}
