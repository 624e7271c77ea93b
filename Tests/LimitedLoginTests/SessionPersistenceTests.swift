import Foundation
import LimitedLogin
import LimitedLoginCore
import LimitedLoginTestSupport
import Synchronization
import Testing

/// `current` values: saved to an owner-only file, restored, cleared by logout, every change announced.
@Suite("SDK: the session")
struct SessionPersistenceTests {
    @Test("the default file follows LIMITED_LOGIN_STATE_FILE, then an absolute XDG_STATE_HOME, then HOME")
    func defaultPathFollowsTheEnvironment() {
        let session = "limited-login/session.json"
        #expect(FileTokenStore.defaultPath(environment: ["HOME": "/tmp/elsewhere"]) == "/tmp/elsewhere/.local/state/" + session)
        #expect(FileTokenStore.defaultPath(environment: ["HOME": "/h", "XDG_STATE_HOME": "/x/state"]) == "/x/state/" + session)
        #expect(FileTokenStore.defaultPath(environment: ["HOME": "/h", "XDG_STATE_HOME": "relative"]) == "/h/.local/state/" + session)
        #expect(FileTokenStore.defaultPath(environment: ["HOME": "/h", "XDG_STATE_HOME": ""]) == "/h/.local/state/" + session)
        #expect(
            FileTokenStore.defaultPath(environment: ["HOME": "/h", "XDG_STATE_HOME": "/x", "LIMITED_LOGIN_STATE_FILE": "/s.json"])
                == "/s.json")
        let account = (NSHomeDirectory() as NSString).appendingPathComponent(".local/state/" + session)
        #expect(FileTokenStore.defaultPath(environment: [:]) == account)
        #expect(FileTokenStore.defaultPath(environment: ["HOME": ""]) == account)
    }

    @Test("the saved file is readable by its owner only, and a new session restores it")
    func savedAndRestored() async throws {
        try await withSDKProvider { provider in
            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(permissions: ["email"], tracking: .enabled)))
            let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let folder = (store.path as NSString).deletingLastPathComponent
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder)
            #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)

            let restored = LoginSession(store: FileTokenStore(path: store.path))
            #expect(restored.snapshot == session.snapshot)
            #expect(restored.accessToken?.tokenString == session.accessToken?.tokenString)
        }
    }

    @Test("logOut clears memory and disk")
    func logOut() async throws {
        try await withSDKProvider { provider in
            let (session, store) = provider.makeSession()
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            #expect(FileManager.default.fileExists(atPath: store.path))
            manager.logOut()
            #expect(session.accessToken == nil)
            #expect(session.authenticationToken == nil)
            #expect(session.profile == nil)
            #expect(!FileManager.default.fileExists(atPath: store.path))
            #expect(LoginSession(store: store).snapshot.isEmpty)
        }
    }

    @Test("logOut signs out in memory even when the saved file cannot be changed; clear() throws that failure after")
    func logOutWhenTheFileCannotChange() async throws {
        try await withSDKProvider { provider in
            let (_, file) = provider.makeSession()
            let store = SavesThatCanFail(file)
            let session = LoginSession(store: store)
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            #expect(session.accessToken != nil)
            store.failing = true
            manager.logOut()
            #expect(session.snapshot.isEmpty, "signed out in memory")
            #expect(FileManager.default.fileExists(atPath: file.path), "the file could not be removed")

            store.failing = false
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            store.failing = true
            #expect(throws: SavesThatCanFail.failure) { try session.clear() }
            #expect(session.snapshot.isEmpty)
        }
    }

    @Test("the change stream and the notifications see every change, in order, with old and new")
    func changesInOrder() async throws {
        try await withSDKProvider { provider in
            let center = NotificationCenter()
            let (session, _) = provider.makeSession(notificationCenter: center)
            let stream = session.changes()
            let notified = Mutex<[(Notification.Name, Bool, Bool)]>([])
            var observers: [any NSObjectProtocol] = []
            for (name, oldKey, newKey) in [
                (Notification.Name.AccessTokenDidChange, AccessTokenChangeOldKey, AccessTokenChangeNewKey),
                (.AuthenticationTokenDidChange, AuthenticationTokenChangeOldKey, AuthenticationTokenChangeNewKey),
                (.ProfileDidChange, ProfileChangeOldKey, ProfileChangeNewKey),
            ] {
                observers.append(
                    center.addObserver(forName: name, object: session, queue: nil) { note in
                        let info = note.userInfo ?? [:]
                        notified.withLock { $0.append((name, info[oldKey] != nil, info[newKey] != nil)) }
                    })
            }
            let (manager, _) = provider.manager(alice, session: session)
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .limited)))
            let limitedToken = session.authenticationToken
            let limitedProfile = session.profile
            _ = try await manager.logIn(configuration: try #require(LoginConfiguration(tracking: .enabled)))
            let classic = session.snapshot
            manager.logOut()

            var changes: [SessionChange] = []
            for await change in stream {
                changes.append(change)
                if changes.count == 8 { break }
            }
            #expect(
                changes == [
                    .authenticationToken(old: nil, new: limitedToken),
                    .profile(old: nil, new: limitedProfile),
                    .accessToken(old: nil, new: classic.accessToken),
                    .authenticationToken(old: limitedToken, new: classic.authenticationToken),
                    .profile(old: limitedProfile, new: classic.profile),
                    .accessToken(old: classic.accessToken, new: nil),
                    .authenticationToken(old: classic.authenticationToken, new: nil),
                    .profile(old: classic.profile, new: nil),
                ])
            let names = notified.withLock { $0.map(\.0) }
            #expect(
                names == [
                    .AuthenticationTokenDidChange, .ProfileDidChange, .AccessTokenDidChange, .AuthenticationTokenDidChange,
                    .ProfileDidChange, .AccessTokenDidChange, .AuthenticationTokenDidChange, .ProfileDidChange,
                ])
            let sides = notified.withLock { $0.map { [$0.1, $0.2] } }
            #expect(
                sides == [
                    [false, true], [false, true], [false, true], [true, true], [true, true], [true, false], [true, false], [true, false],
                ])
            for observer in observers { center.removeObserver(observer) }
        }
    }

    @Test("a saved file that is not a login: the session starts signed out and says why; logout removes it")
    func corruptFile() throws {
        let path = temporaryStatePath()
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: path))
        let session = LoginSession(store: FileTokenStore(path: path))
        #expect(session.snapshot.isEmpty)
        let error = try #require(session.loadError)
        guard case .unreadable(let errorPath, _) = error else {
            Issue.record("expected unreadable, got \(error)")
            return
        }
        #expect(errorPath == path)
        try session.clear()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test("a saved file whose mode was widened is made owner-only again before it is read")
    func widenedModeIsNarrowed() async throws {
        let path = temporaryStatePath()
        let store = FileTokenStore(path: path)
        let token = AuthenticationToken(tokenString: "a.b.c", nonce: "n")
        try store.save(SessionSnapshot(authenticationToken: token))
        #expect(chmod(path, 0o644) == 0)
        #expect(try store.load()?.authenticationToken == token)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("a folder others can write is refused for saving and for reading, naming the folder and its mode")
    func folderOthersCanWrite() throws {
        let path = temporaryStatePath()
        let folder = (path as NSString).deletingLastPathComponent
        let store = FileTokenStore(path: path)
        let token = AuthenticationToken(tokenString: "a.b.c", nonce: "n")
        try store.save(SessionSnapshot(authenticationToken: token))
        #expect(chmod(folder, 0o777) == 0)
        let reason =
            "its folder \(folder) can be written by others (mode 777); keep the saved login in a folder only you can write (chmod go-w \(folder), or another LIMITED_LOGIN_STATE_FILE)"
        #expect(throws: TokenStoreError.unwritable(path: path, reason: reason)) { try store.save(SessionSnapshot(authenticationToken: token)) }
        #expect(throws: TokenStoreError.unreadable(path: path, reason: reason)) { try store.load() }
        #expect(chmod(folder, 0o700) == 0)
        #expect(try store.load()?.authenticationToken == token)
    }

    @Test("the temporary file is not at a predictable name, and a link planted at the old one is not written through")
    func plantedLinkIsNotFollowed() throws {
        let path = temporaryStatePath()
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let victim = folder + "/victim.txt"
        try Data("untouched".utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: path + ".tmp-\(getpid())", withDestinationPath: victim)
        let store = FileTokenStore(path: path)
        try store.save(SessionSnapshot(authenticationToken: AuthenticationToken(tokenString: "a.b.c", nonce: "n")))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
        #expect(try store.load()?.authenticationToken?.tokenString == "a.b.c")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasPrefix("session.json.tmp-") && $0 != "session.json.tmp-\(getpid())"
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test("login button: tracking defaults to enabled; an invalid nonce is not kept and a fresh UUID is used")
    @MainActor
    func loginButton() throws {
        let button = FBLoginButton(permissions: ["email"], loginManager: LoginManager(appID: "1", session: LoginSession(store: nil)))
        #expect(button.loginTracking == .enabled)
        button.nonce = "has space"
        #expect(button.nonce == nil)
        let configuration = try #require(button.makeLoginConfiguration())
        #expect(UUID(uuidString: configuration.nonce) != nil)
        button.nonce = ""
        #expect(button.nonce == nil)
        button.nonce = "good-nonce"
        #expect(button.makeLoginConfiguration()?.nonce == "good-nonce")
        button.nonce = "tab\there"
        #expect(button.nonce == nil)
        button.loginTracking = .limited
        button.permissions = ["user_likes"]
        #expect(button.makeLoginConfiguration() == nil)
    }
}

/// A file store whose saves fail on demand (a read-only folder, which root, running these tests, would not get).
private final class SavesThatCanFail: TokenStore {
    static let failure = TokenStoreError.unwritable(path: "/read-only/state.json", reason: "read-only file system")
    private let file: FileTokenStore
    private let state = Mutex(false)
    var failing: Bool {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    init(_ file: FileTokenStore) { self.file = file }

    func load() throws(TokenStoreError) -> SessionSnapshot? { try file.load() }

    func save(_ snapshot: SessionSnapshot) throws(TokenStoreError) {
        if failing { throw Self.failure }
        try file.save(snapshot)
    }
}
