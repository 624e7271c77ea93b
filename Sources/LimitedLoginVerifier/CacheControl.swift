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
                // Empty pieces kept: a directive that is only "=" has an empty name (ignored), not no name.
                let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let first = parts.first else { continue }
                let name = first.trimmingCharacters(in: .whitespaces).lowercased()
                switch name {
                case "no-store", "no-cache":
                    forbidsReuse = true
                case "max-age":
                    guard parts.count == 2 else { continue }
                    let text = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
                        // Leading zeros are allowed (RFC 9111 delta-seconds). Values of more than twelve digits
                        // are "forever"; the ceiling takes care of them.
                        let digits = text.drop { $0 == "0" }
                        maximumAge = digits.count > 12 ? TimeInterval(Int.max) : TimeInterval(Int(digits) ?? 0)
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
