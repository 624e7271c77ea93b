import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files the CLI writes that hold secrets (`--ready-file` and `--export-on-exit` hold the admin token, the
/// export the signing keys): readable by the owner only from their first byte, written whole or not at all,
/// never through a link someone planted, never over a folder.
enum PrivateFile {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Why `path` cannot be written later (`flag` names the option), or nil when it can: checked at start, so
    /// that a mistake ends the command at once instead of after the work.
    static func problem(writing path: String, flag: String) -> String? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            return "\(flag) \(path) is a folder; give a file's path"
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return "\(flag) \(path): the folder \(folder) does not exist"
        }
        guard access(folder, W_OK | X_OK) == 0 else {
            return "\(flag) \(path): the folder \(folder) cannot be written to (\(String(cString: strerror(errno))))"
        }
        return nil
    }

    /// Writes `data` to `path`, mode 0600: to a new temporary file beside it (created with `O_EXCL` and
    /// `O_NOFOLLOW`, so neither an existing file nor a planted link is written through), then renamed over
    /// `path` (a rename replaces a link at `path` itself, never what it points to, and refuses a folder).
    static func write(_ data: Data, to path: String) throws(Problem) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Problem(description: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        let failed: Int32? = data.withUnsafeBytes { bytes -> Int32? in
            while written < bytes.count {
                guard let base = bytes.baseAddress else { return EFAULT }
                let result = systemWrite(descriptor, base + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return fsync(descriptor) == 0 ? nil : errno
        }
        close(descriptor)
        if let failed {
            unlink(temporary)
            throw Problem(description: "cannot write \(path): \(String(cString: strerror(failed)))")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Problem(description: "cannot write \(path): \(reason)")
        }
    }
}

/// write(2), named apart from ``PrivateFile/write(_:to:)``.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
