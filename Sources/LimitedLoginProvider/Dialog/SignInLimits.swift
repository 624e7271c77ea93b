/// How many password sign-ins may fail before the dialog refuses more for a while (HTTP 429).
///
/// Attempts are counted in the store, per account (the email typed, known or not, so that a refusal does
/// not tell who exists) and per client address (the connection's address), in a fixed window that
/// starts at the first attempt. A success clears the account's count. Nodes that share a database share
/// the counts.
public struct SignInLimits: Sendable, Equatable {
    /// Failed attempts allowed per account in a window; the next one is refused.
    public var perAccount: Int
    /// Failed attempts allowed from one client address in a window; the next one is refused.
    public var perAddress: Int
    /// The window, in seconds.
    public var window: Int64

    public init(perAccount: Int = 10, perAddress: Int = 10, window: Int64 = 60) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.window = window
    }
}
