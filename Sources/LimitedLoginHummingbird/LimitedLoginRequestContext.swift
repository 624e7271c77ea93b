import Hummingbird

/// A request context that can carry the identity ``LimitedLoginAuthenticator`` verified.
public protocol LimitedLoginRequestContext: RequestContext {
    var limitedLoginIdentity: LimitedLoginIdentity? { get set }
}

/// The simplest such context, for a server that needs nothing else in its context.
public struct BasicLimitedLoginRequestContext: LimitedLoginRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var limitedLoginIdentity: LimitedLoginIdentity?

    public init(source: Source) {
        self.coreContext = .init(source: source)
    }
}
