import LimitedLoginJOSE

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The strings the C entry points hand out: copied into memory from `malloc`, NUL-terminated, owned by
/// the caller until it gives them back to `LLFBFreeString`.
enum NativeString {
    /// A caller-owned copy of `bytes` (which hold no NUL: they are JSON text), or nil when memory is short.
    static func make(_ bytes: some Collection<UInt8>) -> UnsafeMutablePointer<CChar>? {
        guard let memory = malloc(bytes.count + 1) else { return nil }
        let buffer = memory.bindMemory(to: UInt8.self, capacity: bytes.count + 1)
        var index = 0
        for byte in bytes {
            buffer[index] = byte
            index += 1
        }
        buffer[bytes.count] = 0
        return UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self)
    }

    /// A caller-owned copy of a JSON value's compact text.
    static func json(_ value: JSONValue) -> UnsafeMutablePointer<CChar>? {
        make(JSONSerializer.serialize(value))
    }

    /// A caller-owned copy of a JSON object made of `members`.
    static func object(_ members: [String: JSONValue]) -> UnsafeMutablePointer<CChar>? {
        json(.object(JSONObject(members)))
    }

    /// Gives back a string from ``make(_:)``.
    static func release(_ string: UnsafeMutablePointer<CChar>?) {
        guard let string else { return }
        free(string)
    }
}
