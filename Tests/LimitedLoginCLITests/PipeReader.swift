import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Reads a child process's pipe with `read(2)`, retrying a read that a signal interrupted (`EINTR`).
///
/// Foundation's `readDataToEndOfFile()` and `availableData` end in a `try!`, and on Linux a read interrupted
/// by a signal (the SIGCHLD of another test's child, say) crashed the whole test process ("Interrupted
/// system call", seen once in a full run of this target).
enum PipeReader {
    /// Everything until end of file.
    static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        drain(handle) { data.append($0) }
        return data
    }

    /// Passes each piece read to `receive`, on a thread of its own, until end of file.
    static func follow(_ handle: FileHandle, _ receive: @escaping @Sendable (Data) -> Void) {
        Thread { drain(handle, receive) }.start()
    }

    private static func drain(_ handle: FileHandle, _ receive: (Data) -> Void) {
        let descriptor = handle.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                receive(Data(buffer[0..<count]))
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
