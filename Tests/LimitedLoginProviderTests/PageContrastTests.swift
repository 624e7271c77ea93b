import Foundation
import Testing

@testable import LimitedLoginProvider

/// Issue #20: text on the pages meets WCAG AA contrast (4.5:1), read from the one stylesheet itself.
@Suite("Pages: text contrast")
struct PageContrastTests {
    /// The color variables of each scheme: the first `:root` rule (light) and the one inside
    /// `@media (prefers-color-scheme: dark)`, e.g. `["--accent": "#1464d0", …]`.
    static func palettes() throws -> (light: [String: String], dark: [String: String]) {
        let css = Stylesheet.css
        var palettes: [[String: String]] = []
        var rest = css[...]
        while let start = rest.range(of: ":root {") {
            let body = rest[start.upperBound...].prefix { $0 != "}" }
            var variables: [String: String] = [:]
            for declaration in body.split(separator: ";") {
                let parts = declaration.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
                if parts.count == 2, parts[0].hasPrefix("--") { variables[parts[0]] = parts[1] }
            }
            palettes.append(variables)
            rest = rest[start.upperBound...]
        }
        try #require(palettes.count == 2, "a light and a dark :root rule")
        let darkStart = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
        try #require(css.range(of: ":root {")!.lowerBound < darkStart.lowerBound, "the light one first")
        return (palettes[0], palettes[1])
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

    /// Each text color and the background it sits on.
    static let pairs: [(text: String, background: String)] = [
        ("--text", "--bg"), ("--text", "--panel"), ("--muted", "--panel"), ("--link", "--panel"), ("--error", "--panel"),
        ("--error", "--error-bg"), ("--accent-text", "--accent"), ("--danger-text", "--danger"), ("--notice-text", "--notice-bg"),
        ("--limited-text", "--limited-bg"), ("--tag-text", "--tag-bg"), ("--header-text", "--header-bg"), ("--text", "--soft"),
        ("--text", "--field"), ("--muted", "--soft"),
    ]

    @Test("every text color reaches 4.5:1 on its background, in the light and the dark scheme")
    func contrastAA() throws {
        let (light, dark) = try Self.palettes()
        for (name, palette) in [("light", light), ("dark", dark)] {
            for pair in Self.pairs {
                let text = try #require(palette[pair.text], "\(name) has no \(pair.text)")
                let background = try #require(palette[pair.background], "\(name) has no \(pair.background)")
                #expect(try Self.contrast(text, background) >= 4.5, "\(name): \(pair.text) \(text) on \(pair.background) \(background)")
            }
        }
        // The avatars: white letters on each of their colors.
        for color in ["#1464d0", "#0f6e5f", "#7b3fa0", "#a33b00", "#4b5563", "#9c1f5a"] {
            #expect(Stylesheet.css.contains(color), "\(color) is an avatar color")
            #expect(try Self.contrast("#ffffff", color) >= 4.5, "white on \(color)")
        }
        // The measure itself: the old button blue was 4.23:1 against white (issue #20).
        #expect(abs(try Self.contrast("#1877f2", "#ffffff") - 4.23) < 0.01)
    }
}
