/// One entry of a Graph `fields=` list: a field's name and its modifiers, as in `picture.type(large)` or
/// `picture.width(200).height(200)` (the Graph API's field syntax). Only `picture` takes modifiers here
/// (`type`, `width`, `height`, as `me/picture` takes them); field expansion (`friends{name}`) is refused
/// with what to ask for instead.
struct GraphFieldRequest: Sendable {
    let name: String
    /// In the order given; each name once.
    let modifiers: [(name: String, value: String)]

    /// The value of modifier `name`, if given.
    func modifier(_ name: String) -> String? { modifiers.first { $0.name == name }?.value }

    static let pictureModifiers = ["type", "width", "height"]

    /// Parses one entry (already split at the list's commas and trimmed).
    static func parse(_ text: String) throws(GraphError) -> GraphFieldRequest {
        if text.contains("{") || text.contains("}") {
            throw GraphError(
                "(#100) Field expansion ({…}) is not supported by this provider: ask for \(text.prefix { $0 != "{" }) alone (its default fields).",
                code: 100)
        }
        var parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts.removeFirst())
        var rest = parts.first.map(String.init) ?? ""
        var modifiers: [(name: String, value: String)] = []
        if !text.contains(".") { return GraphFieldRequest(name: name, modifiers: []) }
        if rest.isEmpty { throw malformed(text) }
        // `mod(value)` steps joined by dots: type(large).width(100)
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else {
                throw malformed(text)
            }
            let modifier = String(rest[..<open])
            let value = String(rest[rest.index(after: open)..<close])
            guard !modifier.isEmpty, !value.isEmpty, !value.contains("("), !modifiers.contains(where: { $0.name == modifier }) else {
                throw malformed(text)
            }
            modifiers.append((modifier, value))
            rest = String(rest[rest.index(after: close)...])
            if rest.hasPrefix(".") { rest.removeFirst() } else if !rest.isEmpty { throw malformed(text) }
        }
        guard name == "picture" else {
            throw GraphError("(#100) Only picture takes modifiers (type, width, height); \(name) does not: \(text)", code: 100)
        }
        for modifier in modifiers where !pictureModifiers.contains(modifier.name) {
            throw GraphError("(#100) picture takes the modifiers type, width and height, not \(modifier.name): \(text)", code: 100)
        }
        return GraphFieldRequest(name: name, modifiers: modifiers)
    }

    private static func malformed(_ text: String) -> GraphError {
        GraphError("(#100) Syntax error in the field \(text): a modifier is written .name(value), as in picture.type(large)", code: 100)
    }
}
