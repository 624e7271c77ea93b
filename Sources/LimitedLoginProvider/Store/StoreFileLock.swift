import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock on `{database}.lock`, held while a provider has the SQLite file open.
///
/// The operating system drops it when the process ends, crash included, so a restart after a crash is
/// never refused. SQLite's own `locking_mode=EXCLUSIVE` is not used: a second process meeting it in WAL
/// mode spins instead of failing.
final class StoreFileLock: @unchecked Sendable {
    private var descriptor: Int32

    /// Locks the database file that `databasePath` names, however it is named: the lock file sits beside
    /// the file the path resolves to (symbolic links and `..` followed), so a second process that reaches the
    /// same file through a link is refused too (issue #36: it served the same file beside the first).
    init(databasePath: String) throws(StoreError) {
        let lockPath = Self.resolved(databasePath) + ".lock"
        descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .unavailable("cannot create the lock file \(lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            descriptor = -1
            throw .unavailable(
                "SQLite file \(databasePath) is in use by another provider process (an SQLite store serves one process; stop the other one, or give another --database)"
            )
        }
    }

    /// The path with symbolic links and `..` resolved: the file's when it exists, else its folder's plus its name.
    static func resolved(_ path: String) -> String {
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let url = URL(fileURLWithPath: path)
        guard let folder = realpath(url.deletingLastPathComponent().path, nil) else { return path }
        defer { free(folder) }
        return String(cString: folder) + "/" + url.lastPathComponent
    }

    /// Refuses an existing database file that is empty: what a failed copy or a truncated file looks like.
    /// Starting on it would make a new store (new signing key, no apps or users) without a word.
    static func refuseEmpty(databasePath: String) throws(StoreError) {
        var status = stat()
        guard stat(databasePath, &status) == 0, status.st_size == 0 else { return }
        throw .unavailable(
            "the SQLite file \(databasePath) is empty (a failed copy?); give the file that holds the store, or add --init to start a new store in it"
        )
    }

    /// Makes a new database file readable and writable by its owner only (0600) before SQLite opens it: it
    /// holds the admin token, the CSRF secret, the signing keys and the app secrets, and SQLite makes the
    /// `-wal` and `-shm` files with the database file's mode. An existing file is left as it is.
    static func createPrivately(databasePath: String) throws(StoreError) {
        let descriptor = open(databasePath, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else {
            throw .unavailable("cannot create the SQLite file \(databasePath): \(String(cString: strerror(errno)))")
        }
    }

    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
