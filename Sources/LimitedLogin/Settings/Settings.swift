import Foundation
import LimitedLoginJOSE
import Synchronization

/// The app's Facebook settings, as the iOS SDK's `Settings.shared`.
///
/// On iOS the values come from `Info.plist`; here each value is taken, in this order, from what code set,
/// from an environment variable named like the `Info.plist` key (`FacebookAppID`, `FacebookClientToken`,
/// `FacebookDisplayName`, `FacebookGraphAPIVersion`, `FacebookAdvertiserTrackingEnabled`,
/// `LimitedLoginProviderURL`), or from the same keys in a JSON object file. ``shared``
/// reads `$LIMITED_LOGIN_SETTINGS_FILE`, else `FacebookSettings.json` in the working directory.
public final class Settings: Sendable {
    /// The process's settings, read by `LoginManager()` and `FBLoginButton()`.
    public static let shared = Settings(sources: SettingsSources.processDefault())

    private struct Values {
        var appID: String?
        var clientToken: String?
        var displayName: String?
        var graphAPIVersion: String?
        var isAdvertiserTrackingEnabled: Bool?
        var loginEndpoints: LoginEndpoints?
        var presenter: (any AuthorizationPresenter)?
    }

    private let sources: SettingsSources
    private let values = Mutex(Values())

    /// Settings that read only what code sets (no environment, no file): for tests and embedders.
    public convenience init() {
        self.init(sources: SettingsSources(environment: [:], file: [:]))
    }

    /// Settings that fall back to `environment` (keys named like `Info.plist`'s) and then to the JSON
    /// object file at `fileURL` when code has not set a value.
    public convenience init(environment: [String: String], fileURL: URL?) {
        let (file, problem) = fileURL.map(SettingsSources.readFile) ?? ([:], nil)
        self.init(sources: SettingsSources(environment: environment, file: file, fileProblem: problem))
    }

    init(sources: SettingsSources) {
        self.sources = sources
    }

    /// Why the settings file was not used although it exists (unreadable, not JSON, not an object), or nil.
    /// A login without an app ID says it too.
    public var fileProblem: String? { sources.fileProblem }

    /// The SDK's version (this project's).
    public var sdkVersion: String { ProjectVersion.current }

    /// The Graph API version used when none is set.
    public var defaultGraphAPIVersion: String { LoginEndpoints.defaultGraphVersion }

    /// The app's Facebook ID (`FacebookAppID`). A login without one fails with `LoginError.missingAppID`.
    public var appID: String? {
        get { values.withLock { $0.appID } ?? sources.string("FacebookAppID") }
        set { values.withLock { $0.appID = newValue } }
    }

    /// The app's client token (`FacebookClientToken`), sent with picture URLs when no access token is current.
    public var clientToken: String? {
        get { values.withLock { $0.clientToken } ?? sources.string("FacebookClientToken") }
        set { values.withLock { $0.clientToken = newValue } }
    }

    /// The app's name as shown by Facebook (`FacebookDisplayName`).
    public var displayName: String? {
        get { values.withLock { $0.displayName } ?? sources.string("FacebookDisplayName") }
        set { values.withLock { $0.displayName = newValue } }
    }

    /// The Graph API version in dialog and Graph paths (`FacebookGraphAPIVersion`, else
    /// ``defaultGraphAPIVersion``).
    public var graphAPIVersion: String {
        get { values.withLock { $0.graphAPIVersion } ?? sources.string("FacebookGraphAPIVersion") ?? defaultGraphAPIVersion }
        set { values.withLock { $0.graphAPIVersion = newValue } }
    }

    /// Whether the person allows tracking (on iOS, App Tracking Transparency's answer). When false,
    /// `LoginManager` performs a classic login request as a limited one, as the iOS SDK does since v17.
    /// Linux has no tracking prompt, so it is true unless code or `FacebookAdvertiserTrackingEnabled` says
    /// otherwise.
    public var isAdvertiserTrackingEnabled: Bool {
        get { values.withLock { $0.isAdvertiserTrackingEnabled } ?? sources.bool("FacebookAdvertiserTrackingEnabled") ?? true }
        set { values.withLock { $0.isAdvertiserTrackingEnabled = newValue } }
    }

    /// Where logins go (not in the iOS SDK, whose hosts are fixed): the real service, or a provider of
    /// this project. `LimitedLoginProviderURL` sets a provider's base URL. The Graph API version in its paths
    /// is ``graphAPIVersion`` when that was set (in code, the environment or the file), else the one of the
    /// endpoints code set, else ``defaultGraphAPIVersion``.
    public var loginEndpoints: LoginEndpoints {
        get {
            let (set, version) = values.withLock { ($0.loginEndpoints, $0.graphAPIVersion) }
            var endpoints =
                set
                ?? sources.string("LimitedLoginProviderURL").flatMap(URL.init(string:)).map(LoginEndpoints.provider)
                ?? .facebook
            if let explicit = version ?? sources.string("FacebookGraphAPIVersion") {
                endpoints.graphVersion = explicit
            } else if set == nil {
                endpoints.graphVersion = defaultGraphAPIVersion
            }
            return endpoints
        }
        set { values.withLock { $0.loginEndpoints = newValue } }
    }

    /// How `LoginManager()` shows the dialog (not in the iOS SDK, which always uses its own web
    /// session): the system browser with a loopback redirect by default.
    public var authorizationPresenter: any AuthorizationPresenter {
        get { values.withLock { $0.presenter } ?? LoopbackPresenter() }
        set { values.withLock { $0.presenter = newValue } }
    }
}

/// Where ``Settings`` looks when code set nothing: the environment, then a JSON file.
struct SettingsSources: Sendable {
    let environment: [String: String]
    let file: [String: JSONValue]
    var fileProblem: String? = nil

    func string(_ key: String) -> String? {
        if let value = environment[key], !value.isEmpty { return value }
        switch file[key] {
        case .string(let value)? where !value.isEmpty: return value
        default: return nil
        }
    }

    func bool(_ key: String) -> Bool? {
        if let value = environment[key] {
            switch value.lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no": return false
            default: break
            }
        }
        if case .bool(let value)? = file[key] { return value }
        return nil
    }

    /// The members of a JSON object file: none when it is absent; none and the reason when it exists but
    /// cannot be used.
    static func readFile(_ url: URL) -> (members: [String: JSONValue], problem: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return ([:], nil) }
        guard let data = try? Data(contentsOf: url) else { return ([:], "the settings file \(url.path) cannot be read") }
        let parsed: JSONValue
        do { parsed = try StrictJSONParser(maximumSize: 1 << 20).parse(Array(data)) } catch {
            return ([:], "the settings file \(url.path) is not valid JSON: \(error)")
        }
        guard case .object(let object) = parsed else { return ([:], "the settings file \(url.path) is not a JSON object") }
        return (object.dictionary, nil)
    }

    /// `$LIMITED_LOGIN_SETTINGS_FILE`, else `./FacebookSettings.json`.
    static func processDefault() -> SettingsSources {
        let environment = ProcessInfo.processInfo.environment
        let path = environment["LIMITED_LOGIN_SETTINGS_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "FacebookSettings.json"
        let (file, problem) = readFile(URL(fileURLWithPath: path))
        return SettingsSources(environment: environment, file: file, fileProblem: problem)
    }
}
