import Dispatch
import Glibc
import Locking

/// Turns SIGINT and SIGTERM into cancellation of the running command, and remembers which came,
/// so that a fetch rolls back, releases its lock and ends with 130 or 143, and a watch ends cleanly.
/// The commands that only read (`BlockingCommand`) run before it listens, and end by the signal.
///
/// In the executable it listens to the real signals (`listenToSignals()`); tests call `interrupt(_:)`.
public final class Interruption: Sendable {
    private struct State {
        var signal: Int32?
        var handlers: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

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

    /// Handles SIGINT and SIGTERM from now on, instead of letting them kill the process. Keep the
    /// returned value for as long as signals should be handled: it owns the dispatch sources.
    ///
    /// The signals' default action is set to ignore first, so that no thread dies of them; the
    /// dispatch sources still see them (libdispatch catches them itself) and call `interrupt(_:)`.
    public func listenToSignals() -> SignalSources {
        let sources = [SIGINT, SIGTERM].map { number in
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "quakes.signals"))
            source.setEventHandler { [self] in interrupt(number) }
            source.resume()
            return source
        }
        return SignalSources(sources)
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

/// The dispatch sources that deliver SIGINT and SIGTERM; signals are handled while they live.
public final class SignalSources {
    private let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }
}
