import LimitedLoginJOSE

/// A JSON value inside a Codable fixtures file, where its shape is free (a queued scenario's claims): read
/// and written through `JSONValue`, the JOSE layer's value type.
public struct CodableJSONValue: Sendable, Equatable, Codable {
    public var value: JSONValue

    public init(_ value: JSONValue) {
        self.value = value
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [(String, JSONValue)] = []
            for key in object.allKeys { members.append((key.stringValue, try object.decode(CodableJSONValue.self, forKey: key).value)) }
            value = .object(JSONObject(Dictionary(members, uniquingKeysWith: { _, last in last })))
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(CodableJSONValue.self).value) }
            value = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            value = .null
        } else if let bool = try? single.decode(Bool.self) {
            value = .bool(bool)
        } else if let number = try? single.decode(Double.self) {
            value = .number(number)
        } else {
            value = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .number(let number):
            // As JSONSerializer writes numbers: a whole number as an integer, no spelling for NaN or infinity.
            var single = encoder.singleValueContainer()
            if !number.isFinite {
                try single.encodeNil()
            } else if number.rounded(.towardZero) == number, abs(number) < 9.007_199_254_740_992e15 {
                try single.encode(Int64(number))
            } else {
                try single.encode(number)
            }
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let items):
            var array = encoder.unkeyedContainer()
            for item in items { try array.encode(CodableJSONValue(item)) }
        case .object(let object):
            var container = encoder.container(keyedBy: Key.self)
            for key in object.keys { try container.encode(CodableJSONValue(object[key] ?? .null), forKey: Key(stringValue: key)) }
        }
    }
}
