import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock on `{database}.lock`, and one on the database file itself, held while a provider
/// has the SQLite file open.
///
/// The operating system drops them when the process ends, crash included, so a restart after a crash is
/// never refused. SQLite's own `locking_mode=EXCLUSIVE` is not used: a second process meeting it in WAL
/// mode spins instead of failing. The lock on the file itself (``lockDatabaseFile(_:)``, `flock`, which
/// Linux keeps apart from the `fcntl` locks SQLite takes) is held by the file, not a name: a hard link or a
/// bind mount reaches the same file under another name and is refused too (two servers on one file through
/// two names each kept a `-wal` file of their own and left the store malformed).
final class StoreFileLock: @unchecked Sendable {
    private var descriptor: Int32
    private var fileDescriptor: Int32 = -1
    /// The locked database file's identity, while this lock holds it.
    private var lockedFile: FileIdentity?

    /// A file's device and inode: the file itself, whatever names it has.
    private struct FileIdentity: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The database files this process has locked. A second open of one in the same process is refused before
    /// it opens the file: closing that descriptor would drop the POSIX locks SQLite holds on the file for the
    /// first store (SQLite's own warning), so it must never be opened at all.
    private static let lockedInProcess = Mutex<Set<FileIdentity>>([])

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

    /// Locks the database file itself (it exists: ``createPrivately(databasePath:)`` has made it): refused when
    /// another process holds it, under whatever name it opened it.
    func lockDatabaseFile(_ databasePath: String) throws(StoreError) {
        let inUse = StoreError.unavailable(
            "SQLite file \(databasePath) is in use by another provider process under another name (a hard link or a bind mount of it); "
                + "an SQLite store serves one process: stop the other one, or give another --database")
        var status = stat()
        guard stat(databasePath, &status) == 0 else {
            throw .unavailable("cannot read the SQLite file \(databasePath): \(String(cString: strerror(errno)))")
        }
        let identity = FileIdentity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        guard Self.lockedInProcess.withLock({ $0.insert(identity).inserted }) else { throw inUse }
        let opened = open(databasePath, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else {
            Self.lockedInProcess.withLock { _ = $0.remove(identity) }
            throw .unavailable("cannot open the SQLite file \(databasePath): \(String(cString: strerror(errno)))")
        }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            close(opened)
            Self.lockedInProcess.withLock { _ = $0.remove(identity) }
            throw inUse
        }
        fileDescriptor = opened
        lockedFile = identity
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
        if fileDescriptor >= 0 {
            flock(fileDescriptor, LOCK_UN)
            close(fileDescriptor)
            fileDescriptor = -1
        }
        if let lockedFile {
            Self.lockedInProcess.withLock { _ = $0.remove(lockedFile) }
            self.lockedFile = nil
        }
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
