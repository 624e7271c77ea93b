import Foundation
import Testing

@testable import LimitedLoginProvider

/// Issue #20: text on the pages meets WCAG AA contrast (4.5:1), read from the one stylesheet itself.
@Suite("Pages: text contrast")
struct PageContrastTests {
    /// The declarations of the first rule whose selector is `selector`, e.g. `["background": "#1464d0"]`.
    static func rule(_ selector: String) throws -> [String: String] {
        let css = "\n" + Stylesheet.css
        let start = try #require(css.range(of: "\n\(selector) {"), "no rule for \(selector)")
        let body = css[start.upperBound...].prefix { $0 != "}" }
        var declarations: [String: String] = [:]
        for declaration in body.split(separator: ";") {
            let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            if parts.count == 2 { declarations[parts[0]] = parts[1] }
        }
        return declarations
    }

    /// WCAG 2 relative luminance of `#rrggbb` or `#rgb`.
    static func luminance(_ hex: String) throws -> Double {
        let short = hex.count == 4 ? hex.dropFirst().map { "\($0)\($0)" }.joined() : nil
        let digits = try #require(short ?? (hex.hasPrefix("#") && hex.count == 7 ? String(hex.dropFirst()) : nil), "not #rrggbb: \(hex)")
        let value = try #require(UInt32(digits, radix: 16))
        let channels = [value >> 16, (value >> 8) & 0xFF, value & 0xFF].map { Double($0) / 255 }
        let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    }

    static func contrast(_ first: String, _ second: String) throws -> Double {
        let (a, b) = (try luminance(first), try luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    @Test("the primary button, the header, link-styled buttons, error text and body text reach 4.5:1")
    func contrastAA() throws {
        let primary = try Self.rule("button.primary")
        #expect(try Self.contrast(try #require(primary["color"]), try #require(primary["background"])) >= 4.5)
        let header = try Self.rule("header")
        #expect(try Self.contrast(try #require(header["color"]), try #require(header["background"])) >= 4.5)
        // On the white panel (main) where they appear.
        let panel = try #require(try Self.rule("main")["background"])
        #expect(try Self.contrast(try #require(try Self.rule("button.link")["color"]), panel) >= 4.5)
        #expect(try Self.contrast(try #require(try Self.rule(".error")["color"]), panel) >= 4.5)
        let body = try Self.rule("body")
        #expect(try Self.contrast(try #require(body["color"]), try #require(body["background"])) >= 4.5)
        // The measure itself: the old button blue was 4.23:1 against white (issue #20).
        #expect(abs(try Self.contrast("#1877f2", "#ffffff") - 4.23) < 0.01)
    }
}
