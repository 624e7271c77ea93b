import LimitedLoginCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the `const char *` arguments of the C entry points: each is checked for NULL, length and
/// UTF-8 before anything else looks at it, so that a bad pointer value is refused, not trusted.
enum CArgument {
    /// The longest argument read, in bytes. Nothing the library takes comes near it; a longer one is a
    /// caller's mistake (an unterminated buffer, say), reported instead of read on.
    static let maximumLength = 65_536

    /// The argument `name` as a string; NULL, too long and invalid UTF-8 are refused.
    static func required(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(NativeError) -> String {
        guard let pointer else { throw NativeError(code: .nullArgument, message: "\(name) is NULL") }
        return try text(pointer, name)
    }

    /// The argument `name` as a string, or nil when it is NULL.
    static func optional(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(NativeError) -> String? {
        guard let pointer else { return nil }
        return try text(pointer, name)
    }

    private static func text(_ pointer: UnsafePointer<CChar>, _ name: String) throws(NativeError) -> String {
        let length = strnlen(pointer, maximumLength + 1)
        guard length <= maximumLength else {
            throw NativeError(code: .argumentTooLong, message: "\(name) is longer than \(maximumLength) bytes")
        }
        let bytes = UnsafeRawPointer(pointer).withMemoryRebound(to: UInt8.self, capacity: length) {
            UnsafeBufferPointer(start: $0, count: length)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw NativeError(code: .invalidUTF8, message: "\(name) is not valid UTF-8")
        }
        return text
    }

    /// A comma-separated permission list (`"email,user_friends"`); empty items are skipped, and every
    /// name must be a valid permission name.
    static func permissions(_ list: String, _ name: String) throws(NativeError) -> [Permission] {
        var permissions: [Permission] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: true) {
            let permission = Permission(name: String(item))
            guard permission.isValid else {
                throw NativeError(code: .invalidPermissionName, message: "\(name): \"\(item)\" is not a valid permission name (only a-z and _)")
            }
            permissions.append(permission)
        }
        return permissions
    }
}
