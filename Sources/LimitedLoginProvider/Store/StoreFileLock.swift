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

    init(databasePath: String) throws(StoreError) {
        let lockPath = databasePath + ".lock"
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
