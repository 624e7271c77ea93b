import Foundation
import LimitedLoginCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A ``TokenStore`` in one JSON file that only its owner can read or write (mode 0600, in a directory
/// of mode 0700), replaced atomically on every change so that a crash leaves the old or the new login,
/// never half of one. On Linux this stands in for the iOS keychain.
///
/// A folder that others can write (group or world write permission) is refused, for reading and for
/// saving: someone else could put a login of their choosing there. The file is written through a
/// temporary of an unpredictable name, created exclusively and without following a link, then renamed.
public struct FileTokenStore: TokenStore {
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// `$LIMITED_LOGIN_STATE_FILE`, else `$XDG_STATE_HOME/limited-login/session.json`, else
    /// `$HOME/.local/state/limited-login/session.json` (the account's home when `HOME` is not set).
    public static var defaultPath: String { defaultPath(environment: ProcessInfo.processInfo.environment) }

    /// ``defaultPath`` for these variables. An empty variable counts as unset, and so does an
    /// `XDG_STATE_HOME` that is not an absolute path (the XDG base directory rule).
    public static func defaultPath(environment: [String: String]) -> String {
        func value(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let explicit = value("LIMITED_LOGIN_STATE_FILE") { return explicit }
        // Foundation's home directory on Linux is the account's (the password database), not `$HOME`: a
        // user or a CI job that points HOME elsewhere expects its files there.
        let home = value("HOME") ?? NSHomeDirectory()
        let stateHome =
            value("XDG_STATE_HOME").flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (home as NSString).appendingPathComponent(".local/state")
        return (stateHome as NSString).appendingPathComponent("limited-login/session.json")
    }

    public static var `default`: FileTokenStore { FileTokenStore(path: defaultPath) }

    public func load() throws(TokenStoreError) -> SessionSnapshot? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        if let problem = folderProblem() { throw .unreadable(path: path, reason: problem) }
        var status = stat()
        guard stat(path, &status) == 0 else { throw .unreadable(path: path, reason: Self.errnoText()) }
        guard status.st_uid == geteuid() else { throw .unreadable(path: path, reason: "it belongs to another user") }
        if status.st_mode & 0o077 != 0 {
            // Someone widened the file's mode: narrow it again before reading a secret from it.
            guard chmod(path, 0o600) == 0 else { throw .unreadable(path: path, reason: "it is readable by others and cannot be made private") }
        }
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        do {
            return try Self.decoder.decode(SessionSnapshot.self, from: data)
        } catch {
            throw .unreadable(path: path, reason: "it is not a saved login (\(error))")
        }
    }

    public func save(_ snapshot: SessionSnapshot) throws(TokenStoreError) {
        if snapshot.isEmpty {
            if unlink(path) != 0, errno != ENOENT { throw .unwritable(path: path, reason: Self.errnoText()) }
            return
        }
        let data: Data
        do { data = try Self.encoder.encode(snapshot) } catch { throw .unwritable(path: path, reason: "\(error)") }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
                )
            } catch { throw .unwritable(path: path, reason: error.localizedDescription) }
        }
        if let problem = folderProblem() { throw .unwritable(path: path, reason: problem) }
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            temporary = path + ".tmp-\(getpid())-" + (0..<8).map { _ in String(UInt8.random(in: .min ... .max), radix: 16) }.joined()
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw .unwritable(path: path, reason: Self.errnoText()) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, base + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written, synced, rename(temporary, path) == 0 else {
            let reason = Self.errnoText()
            unlink(temporary)
            throw .unwritable(path: path, reason: reason)
        }
    }

    /// Why the file's folder cannot be trusted with a login (others can write to it), or nil.
    private func folderProblem() -> String? {
        var directory = (path as NSString).deletingLastPathComponent
        if directory.isEmpty { directory = "." }
        var status = stat()
        guard stat(directory, &status) == 0 else { return nil }  // a missing folder is made 0700 when saving
        guard status.st_mode & 0o022 != 0 else { return nil }
        let mode = String(status.st_mode & 0o7777, radix: 8)
        return "its folder \(directory) can be written by others (mode \(mode)); keep the saved login in a folder only you "
            + "can write (chmod go-w \(directory), or another LIMITED_LOGIN_STATE_FILE)"
    }

    private static func errnoText() -> String { String(cString: strerror(errno)) }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate  // seconds since 2001: restores the exact Date
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return decoder
    }
}
