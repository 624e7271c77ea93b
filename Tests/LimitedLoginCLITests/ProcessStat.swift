import Foundation

/// What `/proc/PID/stat` says of a process: its state and when it started.
struct ProcessStat {
    /// `R`, `S`, `Z` (a zombie, waiting for its parent to reap it), …
    let state: Character
    /// Clock ticks since boot (field 22): with the PID, it names one process, even after the PID is reused.
    let startTime: UInt64

    /// Nil when there is no process `pid`.
    init?(pid: pid_t) {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        // After the command name (which may hold spaces and parentheses): the state is field 3, the start time 22.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let state = fields[0].first, let startTime = UInt64(fields[19]) else { return nil }
        (self.state, self.startTime) = (state, startTime)
    }
}
