import Foundation

/// How ``LoopbackPresenter`` shows the dialog to the person.
public enum BrowserOpener: Sendable {
    /// Opens the system browser (`$BROWSER`, else `xdg-open`, else `open`) when there is one; the URL is
    /// announced either way, so the person can open it by hand.
    case system
    /// Only announces the URL (for a terminal on another machine, or a test that drives a browser itself).
    case announceOnly
    /// Hands the URL to a function (a test's browser, an app's own window).
    case custom(@Sendable (URL) -> Void)

    func open(_ url: URL) -> Bool {
        switch self {
        case .announceOnly:
            return false
        case .custom(let open):
            open(url)
            return true
        case .system:
            let environment = ProcessInfo.processInfo.environment
            var candidates: [[String]] = []
            if let browser = environment["BROWSER"], !browser.isEmpty { candidates.append([browser]) }
            candidates.append(["xdg-open"])
            candidates.append(["open"])
            for command in candidates {
                guard let path = Self.executable(named: command[0], environment: environment) else { continue }
                let process = Process()
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = Array(command.dropFirst()) + [url.absoluteString]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                do {
                    try process.run()
                    return true
                } catch {
                    continue
                }
            }
            return false
        }
    }

    static func executable(named name: String, environment: [String: String]) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        for directory in (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
