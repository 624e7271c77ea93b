import Foundation

extension URL {
    /// True when the URL has no port, or one from 1 to 65535: a URL such as `http://127.0.0.1:99999` parses, but
    /// no connection can be made to it (and the HTTP client traps on such a port), so every place that sends a
    /// request checks this first.
    public var hasUsablePort: Bool {
        guard let port else { return true }
        return (1...65535).contains(port)
    }
}
