extension Array {
    /// An array of at most `capacity` elements, written in place by `initializer` as with
    /// `Array(unsafeUninitializedCapacity:initializingWith:)`: it gets the whole uninitialized buffer and
    /// sets how many elements it wrote.
    ///
    /// Why not that initializer: on Linux it allocates through the standard library's unspecialized
    /// array buffer, which looks the storage class's metadata up in the runtime's generic-type cache on
    /// every call (a lock-free but hashed search; a fifth of a small array's cost in `perf`). Appending
    /// to an empty array goes through the specialized path, with the metadata known at compile time.
    /// The verifier allocates three arrays per token, so this is on its hot path.
    @inlinable
    package static func uninitialized(
        capacity: Int,
        initializingWith initializer: (UnsafeMutableBufferPointer<Element>, inout Int) -> Void
    ) -> [Element] {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            var array: [Element] = []
            array.append(addingCapacity: capacity) { span in
                span.withUnsafeMutableBufferPointer { buffer, initialized in initializer(buffer, &initialized) }
            }
            return array
        } else {
            return [Element](unsafeUninitializedCapacity: capacity) { buffer, initialized in initializer(buffer, &initialized) }
        }
    }
}
