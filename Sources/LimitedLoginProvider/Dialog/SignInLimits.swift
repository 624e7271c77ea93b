/// How many password sign-ins may fail before the dialog refuses more for a while (HTTP 429).
///
/// Failures are counted in the store after the password is checked, per account (the email typed, known
/// or not, so that a refusal does not tell who exists) and per client address (the connection's address),
/// in a fixed window that starts at the first failure. Correct sign-ins never count, so any number of them
/// at once from one address go through; a success clears the account's count. Checks in flight hold a
/// place under the limits on their node, so a burst of guesses is held to the limit
/// too. Nodes that share a database share the counts.
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
