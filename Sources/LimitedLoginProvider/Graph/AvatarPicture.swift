/// A person's generated picture: their initials in white on a color of their own, square, as a PNG (what
/// the real endpoint serves and every SDK's image loader reads) or, when asked, an SVG.
struct AvatarPicture {
    let initials: String
    /// 0–359: the background's hue, from the person's ID.
    let hue: Int

    init(user: TestUserRecord) {
        initials = String(user.firstName.prefix(1)) + String(user.lastName.prefix(1))
        hue = user.id.utf8.reduce(0) { ($0 * 31 + Int($1)) % 360 }
    }

    /// The side in pixels for the real endpoint's `type` and `width`/`height`: `square` and `small` 50,
    /// `album` 50, `normal` 100, `large` 200; a width or height gives the larger of the two, up to 512;
    /// nothing given: 50, the real default. Nil for an unknown type or a size that is not a positive number.
    static func side(type: String?, width: String?, height: String?) -> Int? {
        if width != nil || height != nil {
            let sizes = [width, height].compactMap { $0 }.map { Int($0) }
            guard sizes.allSatisfy({ ($0 ?? 0) > 0 }) else { return nil }
            return min(512, sizes.compactMap { $0 }.max() ?? 50)
        }
        switch type {
        case nil, "square", "small", "album": return 50
        case "normal": return 100
        case "large": return 200
        default: return nil
        }
    }

    func png(side: Int) -> [UInt8] {
        var image = PNGImage(width: side, height: side, filling: Self.rgb(hue: hue))
        let letters = Array(initials.uppercased().unicodeScalars.prefix(2))
        guard !letters.isEmpty else { return image.encoded }
        // Glyphs of 5 × 7 cells with a cell between them, scaled to about half the picture's width.
        let columns = letters.count * 6 - 1
        let cell = max(1, side / 2 / columns)
        let left = (side - columns * cell) / 2
        let top = (side - 7 * cell) / 2
        for (index, letter) in letters.enumerated() {
            let rows = Self.glyphs[letter] ?? Self.unknownGlyph
            for (row, bits) in rows.enumerated() {
                for column in 0..<5 where bits & (0b10000 >> column) != 0 {
                    image.fill(x: left + (index * 6 + column) * cell, y: top + row * cell, width: cell, height: cell, color: (255, 255, 255))
                }
            }
        }
        return image.encoded
    }

    func svg(side: Int) -> String {
        let text = HTMLEscaping.escape(initials)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(side)" height="\(side)" viewBox="0 0 200 200">\
            <rect width="200" height="200" fill="hsl(\(hue),55%,55%)"/>\
            <text x="100" y="128" font-family="Helvetica,Arial,sans-serif" font-size="84" fill="#fff" text-anchor="middle">\(text)</text>\
            </svg>
            """
    }

    /// HSL(hue, 55 %, 55 %) in RGB, as the SVG's fill.
    static func rgb(hue: Int) -> (UInt8, UInt8, UInt8) {
        let saturation = 0.55
        let lightness = 0.55
        let chroma = (1 - abs(2 * lightness - 1)) * saturation
        let section = Double(hue % 360) / 60
        let x = chroma * (1 - abs(section.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double)
        switch Int(section) {
        case 0: (r, g, b) = (chroma, x, 0)
        case 1: (r, g, b) = (x, chroma, 0)
        case 2: (r, g, b) = (0, chroma, x)
        case 3: (r, g, b) = (0, x, chroma)
        case 4: (r, g, b) = (x, 0, chroma)
        default: (r, g, b) = (chroma, 0, x)
        }
        let m = lightness - chroma / 2
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, ((value + m) * 255).rounded()))) }
        return (byte(r), byte(g), byte(b))
    }

    /// A filled block, for a letter outside A–Z.
    static let unknownGlyph: [UInt8] = [0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111, 0b11111]

    /// A 5 × 7 font for A–Z, a row a byte, the leftmost cell the highest of five bits.
    static let glyphs: [Unicode.Scalar: [UInt8]] = [
        "A": [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "B": [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],
        "C": [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],
        "D": [0b11110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11110],
        "E": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],
        "F": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],
        "G": [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
        "H": [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "I": [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "J": [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],
        "K": [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],
        "L": [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
        "M": [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],
        "N": [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],
        "O": [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "P": [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],
        "Q": [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],
        "R": [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
        "S": [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
        "T": [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
        "U": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "V": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],
        "W": [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],
        "X": [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],
        "Y": [0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100, 0b00100],
        "Z": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],
    ]
}
