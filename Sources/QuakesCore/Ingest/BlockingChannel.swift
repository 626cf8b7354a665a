import Dispatch
import Locking

/// Carries values from a thread that may block (a download's) to an async consumer, holding at most
/// `capacity` of them: a producer that gets ahead waits for the consumer instead of filling memory.
///
/// Only the producer ever blocks, in `send`, and it must never run on Swift's cooperative pool.
/// The consumer awaits without blocking a thread.
final class BlockingChannel<Element: Sendable>: Sendable {
    private struct State {
        var buffer: [Element] = []
        var consumer: CheckedContinuation<Element?, any Error>?
        /// Set by the producer: the end of the values, or the error that ended them.
        var end: Result<Void, any Error>?
        /// Set by the consumer when it stops listening; `send` then throws it.
        var abandonment: (any Error)?
    }

    private enum NextAction {
        case deliver(Element)
        case end(Result<Void, any Error>)
        case wait
    }

    private let state = Locked(State())
    private let freeSlots: DispatchSemaphore

    init(capacity: Int) {
        // libdispatch traps when a semaphore is released with a value below its initial value, which
        // happens here whenever the consumer stops early. Starting at 0 and signalling up to the
        // capacity keeps the initial value at 0, so the release is always safe.
        freeSlots = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { freeSlots.signal() }
    }

    /// Producer: hands over `element`, waiting while the channel is full; throws once the consumer
    /// has stopped listening.
    func send(_ element: Element) throws {
        freeSlots.wait()
        let waitingConsumer = try state.withLock { state throws -> CheckedContinuation<Element?, any Error>? in
            if let abandonment = state.abandonment { throw abandonment }
            guard let consumer = state.consumer else {
                state.buffer.append(element)
                return nil
            }
            state.consumer = nil
            return consumer
        }
        if let waitingConsumer {
            freeSlots.signal()  // Handed straight over: the value never took a slot.
            waitingConsumer.resume(returning: element)
        }
    }

    /// Producer: no more values will come; `error`, when given, is what the consumer receives next.
    func finish(throwing error: (any Error)? = nil) {
        let waitingConsumer = state.withLock { state -> CheckedContinuation<Element?, any Error>? in
            guard state.end == nil else { return nil }
            state.end = error.map { .failure($0) } ?? .success(())
            defer { state.consumer = nil }
            return state.consumer
        }
        if let error { waitingConsumer?.resume(throwing: error) } else { waitingConsumer?.resume(returning: nil) }
    }

    /// Consumer: the next value, or nil once the producer has finished; throws the producer's error.
    func next() async throws -> Element? {
        try await withCheckedThrowingContinuation { continuation in
            let action = state.withLock { state -> NextAction in
                if !state.buffer.isEmpty { return .deliver(state.buffer.removeFirst()) }
                if let end = state.end { return .end(end) }
                state.consumer = continuation
                return .wait
            }
            switch action {
            case let .deliver(element):
                freeSlots.signal()
                continuation.resume(returning: element)
            case .end(.success):
                continuation.resume(returning: nil)
            case let .end(.failure(error)):
                continuation.resume(throwing: error)
            case .wait:
                break
            }
        }
    }

    /// Consumer: stops listening. The producer's next `send` throws `error`, and one already waiting
    /// in `send` wakes up to do so.
    func abandon(with error: any Error) {
        state.withLock { state in
            state.abandonment = state.abandonment ?? error
            state.buffer.removeAll()
        }
        freeSlots.signal()
    }
}
