import Dispatch
import Foundation
import LimitedLoginJOSE

/// The C function signature of `LLFBResultCallback`.
public typealias LLFBResultCallback = @convention(c) (Int32, UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void

/// The function a C caller registered for login results, with its context pointer.
///
/// `@unchecked Sendable`: the pointer is the caller's, handed back untouched; `limited_login_native.h`
/// tells the caller that the callback runs on a thread of the library's, so the caller has agreed to
/// its context being used there.
struct ResultCallback: @unchecked Sendable {
    let function: LLFBResultCallback
    let context: UnsafeMutableRawPointer?

    /// The one serial queue results are delivered from: one at a time, in the order they were reached,
    /// never on the caller's thread and never on the Swift concurrency pool (a slow callback holds up
    /// later results, not the logins themselves).
    private static let delivery = DispatchQueue(label: "limited-login.native.results")

    /// Hands `result` to the callback on a thread started for that one call, which ends when the callback
    /// returns; the text lives for the length of the call.
    ///
    /// A thread of its own, not the queue's: a managed runtime adopts the native thread that calls into it
    /// and lets it go only when the thread ends. Measured: Mono, at exit, waited forever for a libdispatch
    /// worker it had adopted, which never ends.
    func deliver(_ requestID: Int32, _ result: JSONValue) {
        let text = JSONSerializer.serialize(result) + [0]
        Self.delivery.async {
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                text.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) { characters in
                        function(requestID, characters.baseAddress, context)
                    }
                }
                finished.signal()
            }
            thread.name = "limited-login result"
            thread.start()
            finished.wait()
        }
    }
}
