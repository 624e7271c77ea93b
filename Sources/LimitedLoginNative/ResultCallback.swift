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
}

/// Where the registered callback lives, and the promise of `LLFBSetResultCallback`: once it returns, the
/// callback it replaced is never called again, so the caller may free that callback's context at once (as a
/// Unity domain reload does).
///
/// A result is handed to the callback registered when the call is made, not when the login finished (a
/// result reached while none is registered is dropped). Replacing the callback waits for a call in
/// progress to return, unless the replacing happens inside that call (a callback may unregister itself).
final class ResultCallbackSlot: @unchecked Sendable {
    // `@unchecked Sendable`: every stored property is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var callback: ResultCallback?
    /// The thread running the callback now, if any (calls are one at a time: ``delivery``).
    private var callingThread: pthread_t?

    /// The one serial queue results are delivered from: one at a time, in the order they were reached,
    /// never on the caller's thread and never on the Swift concurrency pool (a slow callback holds up
    /// later results, not the logins themselves).
    private static let delivery = DispatchQueue(label: "limited-login.native.results")

    var isSet: Bool {
        condition.lock()
        defer { condition.unlock() }
        return callback != nil
    }

    /// `LLFBSetResultCallback`: replaces the callback, and returns once no call of the old one is running.
    func replace(with new: ResultCallback?) {
        condition.lock()
        defer { condition.unlock() }
        callback = new
        let me = pthread_self()
        while let calling = callingThread, pthread_equal(calling, me) == 0 {
            condition.wait()
        }
    }

    /// Hands `result` to the callback registered at the time of the call, on a thread started for that one
    /// call, which ends when the callback returns; the text lives for the length of the call.
    ///
    /// A thread of its own, not the queue's: a managed runtime adopts the native thread that calls into it
    /// and lets it go only when the thread ends. Measured: Mono, at exit, waited forever for a libdispatch
    /// worker it had adopted, which never ends.
    func deliver(_ requestID: Int32, _ result: JSONValue) {
        let text = JSONSerializer.serialize(result) + [0]
        Self.delivery.async {
            let finished = DispatchSemaphore(value: 0)
            let thread = Thread {
                self.call(requestID, text)
                finished.signal()
            }
            thread.name = "limited-login result"
            thread.start()
            finished.wait()
        }
    }

    private func call(_ requestID: Int32, _ text: [UInt8]) {
        condition.lock()
        guard let current = callback else {
            condition.unlock()
            return
        }
        callingThread = pthread_self()
        condition.unlock()
        text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                current.function(requestID, characters.baseAddress, current.context)
            }
        }
        condition.lock()
        callingThread = nil
        condition.broadcast()
        condition.unlock()
    }
}
