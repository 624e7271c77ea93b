#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU time used so far, user and system, in seconds: what the benchmarks count per second of CPU, which
/// other processes on a shared machine do not move.
enum CPUTime {
    /// Every thread of this process.
    static func process() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }

    /// The calling thread (the kernel's work for its system calls included).
    static func thread() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }

    /// Every thread of another process (a `serve` the benchmark started); nil when it cannot be read (it
    /// has exited).
    static func process(_ pid: Int32) -> Double? {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        var time = timespec()
        guard clock_gettime(clock, &time) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func read(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
