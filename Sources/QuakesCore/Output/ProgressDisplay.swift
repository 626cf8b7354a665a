import Locking

/// A one-line progress display on a terminal's standard error, for long transfers and ingests:
/// bytes received of the total, features stored, and the rate, redrawn in place a few times a second.
///
/// Used only when standard error is a terminal and `--quiet` is not given. Sources report through
/// their `Handle` from any thread; `run()` draws until cancelled, then clears the line.
final class ProgressDisplay: Sendable {
    private struct Source {
        var label: String
        var received: Int64 = 0
        var expected: Int64?
        var stored = 0
        var retryingAt: ContinuousClock.Instant?
        var done = false
    }

    private let output: any TextOutput
    private let sources = Locked<[Source]>([])
    private let started = ContinuousClock.now
    /// Nothing is drawn for fetches quicker than this, to spare the flicker.
    private static let delay = Duration.milliseconds(500)
    private static let interval = Duration.milliseconds(250)

    init(output: any TextOutput) {
        self.output = output
    }

    /// What one source reports its progress through.
    struct Handle: Sendable {
        fileprivate let display: ProgressDisplay
        fileprivate let index: Int

        func transfer(received: Int64, expected: Int64?) {
            display.update(index) {
                $0.received = received
                $0.expected = expected
                $0.retryingAt = nil
            }
        }

        func stored(_ count: Int) {
            display.update(index) { $0.stored = count }
        }

        func retrying(in seconds: Double) {
            display.update(index) {
                $0.retryingAt = .now + .milliseconds(Int64(seconds * 1000))
                $0.stored = 0
            }
        }

        func finished() {
            display.update(index) { $0.done = true }
        }
    }

    func handle(for label: String) -> Handle {
        let index = sources.withLock { sources in
            sources.append(Source(label: label))
            return sources.count - 1
        }
        return Handle(display: self, index: index)
    }

    /// Draws the line every quarter of a second until the task is cancelled, then clears it.
    func run() async {
        var drawn = false
        defer { if drawn { output.write("\r\u{1B}[K") } }
        do {
            try await Task.sleep(for: Self.delay)
            while true {
                output.write("\r\u{1B}[K" + line())
                drawn = true
                try await Task.sleep(for: Self.interval)
            }
        } catch {
            return  // Cancelled: the fetch is over.
        }
    }

    /// `all_week: 1.2 of 3.4 MB, 2,345 stored (11,000/s)`, one part per source still running.
    func line() -> String {
        let elapsed = max(0.001, (ContinuousClock.now - started).seconds)
        return sources.withLock { sources in
            sources.filter { !$0.done }.map { source in
                var text = TerminalText.escaped(source.label) + ": "
                if let retryingAt = source.retryingAt {
                    let wait = max(0, (retryingAt - .now).seconds)
                    return text + "retrying in \(Int(wait.rounded(.up))) s"
                }
                text += megabytes(source.received) + (source.expected.map { " of " + megabytes($0) } ?? "") + " MB"
                if source.stored > 0 {
                    text +=
                        ", \(TerminalText.grouped(source.stored)) stored (\(TerminalText.grouped(Int(Double(source.stored) / elapsed)))/s)"
                }
                return text
            }.joined(separator: " · ")
        }
    }

    private func update(_ index: Int, _ change: (inout Source) -> Void) {
        sources.withLock { change(&$0[index]) }
    }

    private func megabytes(_ bytes: Int64) -> String {
        String(cFormat: "%.1f", Double(bytes) / 1_048_576)
    }
}
