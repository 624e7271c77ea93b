import Foundation

/// The parts of an HTTP `Cache-Control` header (RFC 9111) that decide how long a key set is kept.
struct CacheControl: Equatable {
    /// `max-age` in seconds, if given.
    var maximumAge: TimeInterval?
    /// `no-store` or `no-cache`: keep it for as short a time as allowed.
    var forbidsReuse: Bool

    init(maximumAge: TimeInterval? = nil, forbidsReuse: Bool = false) {
        self.maximumAge = maximumAge
        self.forbidsReuse = forbidsReuse
    }

    /// Parses the header's directives; unknown directives and malformed values are ignored.
    init(headerValues: [String]) {
        var maximumAge: TimeInterval?
        var forbidsReuse = false
        for value in headerValues {
            for directive in value.split(separator: ",") {
                let parts = directive.split(separator: "=", maxSplits: 1)
                let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                switch name {
                case "no-store", "no-cache":
                    forbidsReuse = true
                case "max-age":
                    guard parts.count == 2 else { continue }
                    let text = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                        // Values too large for an Int are "forever"; the ceiling takes care of them.
                        maximumAge = TimeInterval(Int(text.prefix(12)) ?? Int.max)
                    }
                default:
                    continue
                }
            }
        }
        self.maximumAge = maximumAge
        self.forbidsReuse = forbidsReuse
    }

    /// How long to keep a response, within `floor...ceiling`; `fallback` when the header says nothing.
    func lifetime(floor: TimeInterval, ceiling: TimeInterval, fallback: TimeInterval) -> TimeInterval {
        let wanted: TimeInterval = forbidsReuse ? 0 : (maximumAge ?? fallback)
        return min(max(wanted, floor), ceiling)
    }
}
