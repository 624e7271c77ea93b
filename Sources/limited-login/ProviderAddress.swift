import Foundation
import LimitedLoginCore

/// Reads a provider's address as people type it: a URL, or `host:port` alone (`127.0.0.1:8080`,
/// `localhost:9000`), which means plain HTTP there, as `serve` prints it.
enum ProviderAddress {
    /// The base URL (no trailing slash), or nil when `text` is neither an http(s) URL nor `host[:port]`.
    static func url(_ text: String) -> URL? {
        var text = text.trimmingCharacters(in: .whitespaces)
        while text.hasSuffix("/") { text.removeLast() }
        if !text.contains("://") { text = "http://" + text }
        guard let url = URL(string: text),
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty, url.hasUsablePort
        else { return nil }
        return url
    }
}
