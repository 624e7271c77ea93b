import ArgumentParser
import Foundation
import LimitedLoginProvider

/// `serve`'s token options: the issuer and how long ID tokens, access tokens and data access last.
struct ServeTokenOptions: ParsableArguments {
    @Option(help: "The 'iss' of issued ID tokens (default: the public base URL), e.g. https://www.facebook.com.")
    var issuer: String?

    @Option(name: .customLong("id-token-lifetime"), help: "Seconds from an ID token's iat to its exp.")
    var idTokenLifetime: Int64 = TokenLifetimes.defaultIDToken

    @Option(name: .customLong("access-token-lifetime"), help: "Seconds a classic access token lasts.")
    var accessTokenLifetime: Int64 = TokenLifetimes.defaultAccessToken

    @Option(name: .customLong("data-access-lifetime"), help: "Seconds data access lasts after a login; then me/permissions says expired.")
    var dataAccessLifetime: Int64 = TokenLifetimes.defaultDataAccess

    var lifetimes: TokenLifetimes {
        TokenLifetimes(idToken: idTokenLifetime, accessToken: accessTokenLifetime, dataAccess: dataAccessLifetime)
    }

    func validate() throws {
        for (flag, value) in [
            ("--id-token-lifetime", idTokenLifetime), ("--access-token-lifetime", accessTokenLifetime),
            ("--data-access-lifetime", dataAccessLifetime),
        ] {
            guard (1...(10 * 366 * 86400)).contains(value) else {
                throw ValidationError("\(flag) must be a number of seconds from 1 to 316224000 (ten years).")
            }
        }
        if let issuer, URL(string: issuer)?.scheme == nil { throw ValidationError("--issuer must be a URL, e.g. https://www.facebook.com.") }
    }
}
