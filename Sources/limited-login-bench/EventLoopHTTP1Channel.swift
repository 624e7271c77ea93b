import Hummingbird
import HummingbirdCore
@_spi(Benchmarks) import LimitedLoginProvider
import Logging
import NIOCore

/// Hummingbird's HTTP/1.1 channel, each connection's task preferring the connection's event loop.
struct EventLoopHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    let http1: HTTP1Channel

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await withTaskExecutorPreference(EventLoopTaskExecutor(value.channel.eventLoop)) {
            await http1.handle(value: value, logger: logger)
        }
    }
}
