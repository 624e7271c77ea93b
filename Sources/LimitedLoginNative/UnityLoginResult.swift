import LimitedLogin
import LimitedLoginCore
import LimitedLoginJOSE

/// A login's result as the Unity SDK's native side sends it to C# (`FBUnityUtility`'s messages, read by
/// `Facebook.Unity.LoginResult`): a flat object whose values are strings, keyed by `callback_id`.
enum UnityLoginResult {
    /// The login started; its result will follow through the callback.
    static func accepted(_ requestID: Int32) -> JSONValue {
        .object(JSONObject(["callback_id": callbackID(requestID)]))
    }

    /// The person cancelled: `"cancelled":"true"`, as the Unity SDK sends it.
    static func cancelled(_ requestID: Int32) -> JSONValue {
        .object(JSONObject(["callback_id": callbackID(requestID), "cancelled": "true"]))
    }

    /// The login was refused or failed: `error` (the message) and `error_code` (its name, ours).
    static func failed(_ requestID: Int32, _ error: NativeError) -> JSONValue {
        var members = error.members
        members["callback_id"] = callbackID(requestID)
        return .object(JSONObject(members))
    }

    /// A login that succeeded: the authentication token as `auth_token_string` and `auth_nonce`, the
    /// access token's members after a classic login, and (ours) the granted and declined permissions.
    static func succeeded(_ requestID: Int32, _ result: LoginManagerLoginResult) -> JSONValue {
        var members: [String: JSONValue] = [
            "callback_id": callbackID(requestID),
            "granted_permissions": names(result.grantedPermissions),
            "declined_permissions": names(result.declinedPermissions),
        ]
        if let token = result.authenticationToken {
            members.merge(UnityCurrentValues.authenticationTokenMembers(token)) { $1 }
        }
        if let token = result.token {
            members["opened"] = "true"
            members.merge(UnityCurrentValues.accessTokenMembers(token)) { $1 }
        }
        return .object(JSONObject(members))
    }

    private static func callbackID(_ requestID: Int32) -> JSONValue { .string(String(requestID)) }

    /// Permission names, sorted, as a JSON array.
    private static func names(_ permissions: Set<Permission>) -> JSONValue {
        .array(permissions.map(\.name).sorted().map { .string($0) })
    }
}
