/// The forms of an HTML page, read the way a simple browser would: enough to drive the login dialog's
/// plain forms (docs/BEHAVIOUR.md, section 2) without a browser engine.
public struct HTMLForm: Sendable, Equatable {
    public struct Field: Sendable, Equatable {
        public var tag: String
        public var type: String
        public var name: String
        public var value: String
        public var id: String?
        public var checked: Bool
        public var disabled: Bool
    }

    public var id: String?
    public var action: String
    public var method: String
    public var fields: [Field]

    /// The submit buttons of the form.
    public var buttons: [Field] { fields.filter { $0.tag == "button" } }

    /// The form's successful controls without any button: hidden and text inputs, ticked boxes.
    public var baseValues: [(name: String, value: String)] {
        fields.compactMap { field in
            guard field.tag == "input", !field.name.isEmpty, !field.disabled else { return nil }
            if field.type == "checkbox" || field.type == "radio" { return field.checked ? (field.name, field.value) : nil }
            if field.type == "submit" || field.type == "button" || field.type == "image" { return nil }
            return (field.name, field.value)
        }
    }

    /// Every form of `html`, in order.
    public static func forms(in html: String) -> [HTMLForm] {
        var forms: [HTMLForm] = []
        var rest = Substring(html)
        while let start = rest.range(of: "<form") {
            guard let tagEnd = rest[start.upperBound...].firstIndex(of: ">") else { break }
            let tag = rest[start.lowerBound...tagEnd]
            let close = rest[tagEnd...].range(of: "</form>")?.lowerBound ?? rest.endIndex
            let inner = rest[rest.index(after: tagEnd)..<close]
            forms.append(
                HTMLForm(
                    id: attribute("id", in: tag), action: attribute("action", in: tag) ?? "",
                    method: (attribute("method", in: tag) ?? "get").lowercased(), fields: fields(in: inner)
                ))
            rest = rest[close...].dropFirst(close == rest.endIndex ? 0 : 7)
        }
        return forms
    }

    /// The text of the element with `id`, tags removed and entities decoded.
    public static func text(ofElementWithID id: String, in html: String) -> String? {
        guard let marker = html.range(of: "id=\"\(id)\""),
            let open = html[marker.upperBound...].firstIndex(of: ">")
        else { return nil }
        let after = html[html.index(after: open)...]
        guard let end = after.range(of: "</")?.lowerBound else { return nil }
        return unescape(String(after[..<end])).trimmingWhitespace
    }

    /// The page's `<title>`.
    public static func title(in html: String) -> String? {
        guard let start = html.range(of: "<title>"), let end = html[start.upperBound...].range(of: "</title>") else { return nil }
        return unescape(String(html[start.upperBound..<end.lowerBound]))
    }

    private static func fields(in html: Substring) -> [Field] {
        var fields: [Field] = []
        var rest = html
        while let open = rest.firstIndex(of: "<") {
            let afterOpen = rest[rest.index(after: open)...]
            guard let close = afterOpen.firstIndex(of: ">") else { break }
            let tag = rest[open...close]
            let name = afterOpen.prefix { $0.isLetter }.lowercased()
            if name == "input" || name == "button" {
                fields.append(
                    Field(
                        tag: name, type: (attribute("type", in: tag) ?? (name == "button" ? "submit" : "text")).lowercased(),
                        name: attribute("name", in: tag) ?? "", value: attribute("value", in: tag) ?? "", id: attribute("id", in: tag),
                        checked: hasFlag("checked", in: tag), disabled: hasFlag("disabled", in: tag)
                    ))
            }
            rest = rest[rest.index(after: close)...]
        }
        return fields
    }

    static func attribute(_ name: String, in tag: Substring) -> String? {
        var search = tag[...]
        while let range = search.range(of: "\(name)=\"") {
            let before = search[..<range.lowerBound].last
            if before == " " || before == "\n" || before == "\t" {
                let after = search[range.upperBound...]
                guard let end = after.firstIndex(of: "\"") else { return nil }
                return unescape(String(after[..<end]))
            }
            search = search[range.upperBound...]
        }
        return nil
    }

    static func hasFlag(_ name: String, in tag: Substring) -> Bool {
        tag.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == ">" || $0 == "/" }).contains { $0 == Substring(name) }
    }

    /// Decodes the entities a page of the provider uses: named `&amp; &lt; &gt; &quot; &#39;` and
    /// numeric `&#NNN;` / `&#xHH;`.
    public static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var output = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";") {
                let entity = after[..<semicolon]
                var decoded: String?
                switch entity {
                case "amp": decoded = "&"
                case "lt": decoded = "<"
                case "gt": decoded = ">"
                case "quot": decoded = "\""
                case "apos": decoded = "'"
                default:
                    if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                        decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                    } else if entity.hasPrefix("#") {
                        decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                    }
                }
                if let decoded {
                    output += decoded
                    rest = after[after.index(after: semicolon)...]
                    continue
                }
            }
            output += "&"
            rest = after
        }
        output += rest
        return output
    }
}

extension String {
    var trimmingWhitespace: String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
