import Foundation
import LimitedLogin
import LimitedLoginTestSupport
import Testing

/// `Settings`: values from code, else the environment, else a JSON file, under `Info.plist`'s key names.
@Suite("SDK: Settings")
struct SettingsTests {
    @Test("code wins over the environment, which wins over the file; defaults otherwise")
    func precedence() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("FacebookSettings.json")
        try Data(
            #"""
            {"FacebookAppID":"from-file","FacebookClientToken":"file-token","FacebookDisplayName":"File App",
             "FacebookAdvertiserTrackingEnabled":false,"LimitedLoginProviderURL":"http://127.0.0.1:9/"}
            """#.utf8
        ).write(to: file)
        let settings = Settings(environment: ["FacebookAppID": "from-env", "FacebookGraphAPIVersion": "v18.0"], fileURL: file)

        #expect(settings.appID == "from-env")
        #expect(settings.fileProblem == nil)
        #expect(settings.clientToken == "file-token")
        #expect(settings.displayName == "File App")
        #expect(settings.graphAPIVersion == "v18.0")
        #expect(!settings.isAdvertiserTrackingEnabled)
        #expect(settings.loginEndpoints.dialogURL.absoluteString == "http://127.0.0.1:9/v18.0/dialog/oauth")
        settings.appID = "from-code"
        settings.isAdvertiserTrackingEnabled = true
        #expect(settings.appID == "from-code")
        #expect(settings.isAdvertiserTrackingEnabled)

        let empty = Settings()
        #expect(empty.appID == nil)
        #expect(empty.graphAPIVersion == empty.defaultGraphAPIVersion)
        #expect(empty.isAdvertiserTrackingEnabled, "Linux has no tracking prompt")
        #expect(empty.loginEndpoints == .facebook)
        #expect(!empty.sdkVersion.isEmpty)
    }

    @Test("LoginManager(settings:) takes the app ID, endpoints and presenter from the settings; no app ID is missingAppID")
    func managerFromSettings() async throws {
        try await withSDKProvider { provider in
            let settings = Settings()
            settings.loginEndpoints = provider.endpoints
            settings.authorizationPresenter = ScriptedPresenter(person: alice)
            let (session, _) = provider.makeSession()
            let withoutID = LoginManager(settings: settings, session: session)
            await #expect(throws: LoginError.missingAppID) {
                try await withoutID.logIn(configuration: LoginConfiguration(tracking: .limited))
            }

            settings.appID = TestFixtures.appID
            let manager = LoginManager(settings: settings, session: session)
            #expect(manager.appID == TestFixtures.appID)
            #expect(manager.endpoints == provider.endpoints)
            let result = try await manager.logIn(configuration: LoginConfiguration(permissions: ["email"], tracking: .limited))
            #expect(result.tracking == .limited)
            #expect(session.profile?.email == "alice@example.com")
        }
    }
}

@Suite("Settings: a settings file that cannot be used")
struct SettingsFileProblemTests {
    @Test("a file that is not JSON, or not an object, is not used, and the settings say why; an absent file is no problem")
    func fileProblems() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let broken = folder.appendingPathComponent("broken.json")
        try Data(#"{"FacebookAppID": "123",}"#.utf8).write(to: broken)
        let fromBroken = Settings(environment: [:], fileURL: broken)
        #expect(fromBroken.appID == nil)
        #expect(fromBroken.fileProblem?.hasPrefix("the settings file \(broken.path) is not valid JSON: ") == true, "\(fromBroken.fileProblem ?? "")")
        let array = folder.appendingPathComponent("array.json")
        try Data(#"["FacebookAppID"]"#.utf8).write(to: array)
        #expect(Settings(environment: [:], fileURL: array).fileProblem == "the settings file \(array.path) is not a JSON object")
        #expect(Settings(environment: [:], fileURL: folder.appendingPathComponent("absent.json")).fileProblem == nil)
    }
}
