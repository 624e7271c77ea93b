import LimitedLoginJOSE

/// Why a minting request's claims or times cannot be used.
struct TokenClaimOverrideError: Error, Sendable {
    let text: String
}

/// The claims a minting request (`POST /_admin/tokens`) sets on its token beside the ones a login would
/// give: `claims` (any claim added or replaced; `null` removes it), `lifetime` (`exp` = `iat` + it), and
/// `iat` / `exp` outright. Tests need tokens a login cannot make: an old `iat`, an `exp` a second away, a
/// claim missing or of another type.
enum TokenClaimOverrides {
    /// The longest `lifetime` accepted: ten years, as `serve --id-token-lifetime`.
    static let longestLifetime: Int64 = 10 * 366 * 86400

    /// What a minting request asks for: claims to set, and the token's lifetime when it gives one.
    struct Request: Sendable {
        var claims: [String: JSONValue]
        var lifetime: Int64?
    }

    /// The overrides `body` asks for, for a token issued at `issuedAt` that would last `lifetime` seconds.
    static func read(_ body: JSONObject, issuedAt: Int64, lifetime: Int64) -> Result<Request, TokenClaimOverrideError> {
        var overrides: [String: JSONValue] = [:]
        switch body["claims"] {
        case nil: break
        case .object(let claims)?:
            for name in claims.keys { overrides[name] = claims[name] }
        default: return .failure(TokenClaimOverrideError(text: "\"claims\" must be an object of claim names and values (null removes a claim)."))
        }
        var iat = issuedAt
        var requestedLifetime: Int64?
        if let value = body["iat"] {
            guard let time = wholeSeconds(value) else { return .failure(TokenClaimOverrideError(text: "\"iat\" must be whole seconds since 1970.")) }
            iat = time
            overrides["iat"] = .number(Double(time))
        }
        if let value = body["lifetime"] {
            guard body["exp"] == nil else { return .failure(TokenClaimOverrideError(text: "Give \"lifetime\" or \"exp\", not both.")) }
            guard let seconds = wholeSeconds(value), (1...longestLifetime).contains(seconds) else {
                return .failure(
                    TokenClaimOverrideError(text: "\"lifetime\" must be a whole number of seconds from 1 to \(longestLifetime) (ten years)."))
            }
            requestedLifetime = seconds
            // From a given `iat` here; from the issuer's own `iat` otherwise (``TokenIssuer`` takes the lifetime).
            if body["iat"] != nil { overrides["exp"] = .number(Double(iat + seconds)) }
        }
        if let value = body["exp"] {
            guard let time = wholeSeconds(value) else { return .failure(TokenClaimOverrideError(text: "\"exp\" must be whole seconds since 1970.")) }
            overrides["exp"] = .number(Double(time))
        } else if body["iat"] != nil, body["lifetime"] == nil {
            // An `iat` moved alone keeps the token's usual lifetime from it.
            overrides["exp"] = .number(Double(iat + lifetime))
        }
        return .success(Request(claims: overrides, lifetime: requestedLifetime))
    }

    static func wholeSeconds(_ value: JSONValue) -> Int64? {
        guard case .number(let number) = value, number == number.rounded(), number >= 0, number < 253_402_300_800 else { return nil }
        return Int64(number)
    }
}
