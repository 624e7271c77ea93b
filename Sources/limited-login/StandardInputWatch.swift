import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --exit-with-stdin`: the provider stops when its standard input closes. A parent that runs it with a
/// pipe as its input (the Python package's `Provider`) never writes to it; when the parent ends, however it
/// ends, the kernel closes the pipe's other end, and the provider stops as it does on SIGTERM (requests in
/// flight finish, the ready file is removed, the store is closed). Nothing ties a child to its parent
/// otherwise: a test run killed by its CI runner left its provider running, port open.
enum StandardInputWatch {
    static func stopWhenClosed() {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 256)
            // What is written is read and dropped: only the end of the input counts.
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count > 0 || (count < 0 && errno == EINTR) { continue }
                break
            }
            kill(getpid(), SIGTERM)
        }
    }
}
