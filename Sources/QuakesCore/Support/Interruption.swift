import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into cancellation of the running command, and remembers which came,
/// so that a fetch rolls back, releases its lock and ends with 130 or 143, and a watch ends cleanly.
///
/// In the executable it listens to the real signals (`listenToSignals()`); tests call `interrupt(_:)`.
public final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// The signal that interrupted the command, if one did.
    public var signal: Int32? {
        state.withLock { $0.signal }
    }

    /// Interrupts the command as `signal` would.
    public func interrupt(_ signal: Int32) {
        let handlers = state.withLock { state in
            state.signal = state.signal ?? signal
            return state.handlers
        }
        for handler in handlers { handler() }
    }

    /// Calls `handler` when the command is interrupted (at once, if it already was).
    func onInterrupt(_ handler: @escaping @Sendable () -> Void) {
        let interrupted = state.withLock { state in
            state.handlers.append(handler)
            return state.signal != nil
        }
        if interrupted { handler() }
    }

    /// Handles SIGINT and SIGTERM from now on, instead of letting them kill the process: they are
    /// blocked in every thread and taken, one at a time, by a thread waiting in `sigwait`.
    ///
    /// Call it first thing in `main`, before any other thread starts: a thread that does not block
    /// the signals could still be picked to die of them.
    public func listenToSignals() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)  // Inherited by every thread started from here on.
        let waited = signals
        Thread { [self] in
            var signals = waited
            var received: Int32 = 0
            while true {
                if sigwait(&signals, &received) == 0 { interrupt(received) }
            }
        }.start()
    }

    /// The exit status for an interruption by `signal`: 128 plus its number, as shells report it.
    static func status(for signal: Int32) -> ExitStatus {
        signal == SIGINT ? .interrupted : .terminated
    }

    /// The signal's name, for messages.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
