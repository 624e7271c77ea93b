import LimitedLoginJOSE

// The C entry points of `include/limited_login_native.h`. Each reads its arguments through `CArgument`,
// hands them to `NativeLibrary`, and turns what comes back (or the error) into a caller-owned JSON
// string; none of them does any work of its own.

/// Runs `body` and returns its members as a caller-owned JSON object, or the error's members.
private func respond(_ body: () throws(NativeError) -> [String: JSONValue]) -> UnsafeMutablePointer<CChar>? {
    do throws(NativeError) {
        return NativeString.object(try body())
    } catch {
        return NativeString.object(error.members)
    }
}

@_cdecl("LLFBInit")
public func LLFBInit(
    _ appID: UnsafePointer<CChar>?, _ provider: UnsafePointer<CChar>?, _ stateFile: UnsafePointer<CChar>?
) -> UnsafeMutablePointer<CChar>? {
    respond { () throws(NativeError) in
        let setup = try NativeSetup(
            appID: try CArgument.required(appID, "app_id"), provider: try CArgument.required(provider, "provider"),
            stateFile: try CArgument.optional(stateFile, "state_file")
        )
        NativeLibrary.shared.initialize(setup)
        return [:]
    }
}

@_cdecl("LLFBSetResultCallback")
public func LLFBSetResultCallback(_ callback: LLFBResultCallback?, _ context: UnsafeMutableRawPointer?) {
    NativeLibrary.shared.setCallback(callback.map { ResultCallback(function: $0, context: context) })
}

@_cdecl("LLFBLoginWithTrackingPreference")
public func LLFBLoginWithTrackingPreference(
    _ requestID: Int32, _ scope: UnsafePointer<CChar>?, _ tracking: UnsafePointer<CChar>?, _ nonce: UnsafePointer<CChar>?
) -> UnsafeMutablePointer<CChar>? {
    do throws(NativeError) {
        let configuration = try NativeLoginRequest.configuration(
            scope: try CArgument.required(scope, "scope"), tracking: try CArgument.required(tracking, "tracking"),
            nonce: try CArgument.optional(nonce, "nonce")
        )
        try NativeLibrary.shared.startLogin(requestID, configuration: configuration)
        return NativeString.json(UnityLoginResult.accepted(requestID))
    } catch {
        return NativeString.json(UnityLoginResult.failed(requestID, error))
    }
}

@_cdecl("LLFBLogOut")
public func LLFBLogOut() -> UnsafeMutablePointer<CChar>? {
    respond { () throws(NativeError) in
        try NativeLibrary.shared.logOut()
        return [:]
    }
}

@_cdecl("LLFBCurrentAuthenticationToken")
public func LLFBCurrentAuthenticationToken() -> UnsafeMutablePointer<CChar>? {
    do throws(NativeError) {
        guard let token = try NativeLibrary.shared.currentAuthenticationToken() else { return NativeString.make([]) }
        return NativeString.object(UnityCurrentValues.authenticationTokenMembers(token))
    } catch {
        return NativeString.object(error.members)
    }
}

@_cdecl("LLFBCurrentAccessToken")
public func LLFBCurrentAccessToken() -> UnsafeMutablePointer<CChar>? {
    do throws(NativeError) {
        guard let token = try NativeLibrary.shared.currentAccessToken() else { return NativeString.make([]) }
        return NativeString.object(UnityCurrentValues.accessTokenMembers(token))
    } catch {
        return NativeString.object(error.members)
    }
}

@_cdecl("LLFBCurrentProfile")
public func LLFBCurrentProfile() -> UnsafeMutablePointer<CChar>? {
    do throws(NativeError) {
        guard let profile = try NativeLibrary.shared.currentProfile() else { return NativeString.make([]) }
        return NativeString.object(UnityCurrentValues.profileMembers(profile))
    } catch {
        return NativeString.object(error.members)
    }
}

@_cdecl("LLFBFreeString")
public func LLFBFreeString(_ string: UnsafeMutablePointer<CChar>?) {
    NativeString.release(string)
}

@_cdecl("LLFBUseScriptedPerson")
public func LLFBUseScriptedPerson(
    _ email: UnsafePointer<CChar>?, _ password: UnsafePointer<CChar>?, _ untick: UnsafePointer<CChar>?, _ cancel: Int32
) -> UnsafeMutablePointer<CChar>? {
    respond { () throws(NativeError) in
        let person = try NativePerson.scripted(
            email: try CArgument.required(email, "email"), password: try CArgument.optional(password, "password"),
            untick: try CArgument.optional(untick, "untick"), cancel: cancel != 0
        )
        NativeLibrary.shared.use(person)
        return [:]
    }
}

@_cdecl("LLFBUseSystemBrowser")
public func LLFBUseSystemBrowser() {
    NativeLibrary.shared.use(.systemBrowser)
}
