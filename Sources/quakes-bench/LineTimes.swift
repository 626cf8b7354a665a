import Foundation

/// The moments at which a child process's output lines arrive, read on a thread of their own so
/// that each is taken when the line comes, whatever the benchmark is doing.
final class LineTimes: @unchecked Sendable {
    // @unchecked: `arrivals` is touched only under `lock`; `available` only signals.
    private let lock = NSLock()
    private var arrivals: [Date] = []
    private let available = DispatchSemaphore(value: 0)

    /// Captures `process`'s standard output, which must not have started yet.
    init(_ process: Process) {
        let pipe = Pipe()
        process.standardOutput = pipe
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                guard !data.isEmpty else { return }
                let now = Date()
                for byte in data where byte == UInt8(ascii: "\n") {
                    lock.withLock { arrivals.append(now) }
                    available.signal()
                }
            }
        }
    }

    /// When the next line arrived, waiting up to `seconds` for it.
    func next(within seconds: Double) -> Date? {
        guard available.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { arrivals.removeFirst() }
    }
}
