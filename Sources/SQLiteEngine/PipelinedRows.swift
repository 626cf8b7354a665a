import Dispatch
import Locking
import QuakesCore
import SQLite

/// Steps a listing's statement on one thread while the caller's thread writes the rows: a long
/// export spends about as long in SQLite as in formatting, and on two cores the two then overlap.
///
/// The caller reads the first batch itself, so a short listing starts no thread. Past it, a thread
/// of its own (see `Blocking`) copies rows into batches (`SQLiteRowBatch`) and hands them over, at
/// most two ahead of the writer. Rows reach `body` in the statement's order.
enum PipelinedRows {
    /// Rows per batch: large enough that handing a batch over costs nothing per row, small enough
    /// that the first rows come out at once.
    static let batchSize = 2048
    /// A batch also ends once its text passes this many bytes, which bounds its memory whatever the
    /// rows hold.
    static let batchText = 4 << 20

    /// Calls `body` with each row of `statement`, until it returns false. An error of SQLite's is
    /// thrown after the rows before it have been written, as when one thread did both.
    static func forEach(
        in statement: Statement, batchSize: Int = batchSize, _ body: (any QuakeRow) throws -> Bool
    ) throws {
        var first = SQLiteRowBatch(capacity: batchSize)
        let firstEnd = fill(&first, batchSize: batchSize, from: statement)
        guard case .more = firstEnd else {
            guard try first.forEach(body) else { return }
            if case let .failed(error) = firstEnd { throw error }
            return
        }
        let handOff = HandOff(capacity: 2)
        // The statement, and the connection it belongs to, are used by the producer alone from here
        // until `finished` is signalled: this thread only reads the batches it is handed, and waits
        // for `finished` before it returns, whatever ends the listing.
        let lent = Lent(statement)
        let finished = DispatchSemaphore(value: 0)
        Blocking.start {
            defer { finished.signal() }
            produce(from: lent.statement, batchSize: batchSize, into: handOff)
        }
        defer {
            handOff.stop()
            finished.wait()
        }
        guard try first.forEach(body) else { return }
        while true {
            let (batch, end) = handOff.receive()
            guard try batch.forEach(body) else { return }
            switch end {
            case .more: continue
            case .done: return
            case let .failed(error): throw error
            }
        }
    }

    /// How filling a batch ended.
    private enum End: Sendable {
        /// The batch is full: rows may remain.
        case more
        /// The statement has no more rows.
        case done
        /// SQLite failed after the rows in the batch.
        case failed(SQLiteError)
    }

    /// Fills `batch` from `statement`.
    private static func fill(_ batch: inout SQLiteRowBatch, batchSize: Int, from statement: Statement) -> End {
        do {
            while batch.count < batchSize, batch.textCount < batchText {
                guard try statement.step() else { return .done }
                batch.append(statement)
            }
            return .more
        } catch {
            return .failed(error)
        }
    }

    private static func produce(from statement: Statement, batchSize: Int, into handOff: HandOff) {
        while true {
            var batch = SQLiteRowBatch(capacity: batchSize)
            let end = fill(&batch, batchSize: batchSize, from: statement)
            guard handOff.send((batch, end)), case .more = end else { return }
        }
    }

    /// What the producer hands over: rows, and how the statement went on after them.
    private typealias Delivery = (rows: SQLiteRowBatch, end: End)

    /// The statement, lent to the producer thread: `@unchecked Sendable` is sound because the two
    /// threads never use it at once (see `forEach(in:batchSize:_:)`), and the semaphores that start and end
    /// the lending order every use by one thread before every use by the other.
    private struct Lent: @unchecked Sendable {
        let statement: Statement
        init(_ statement: Statement) { self.statement = statement }
    }

    /// A queue of at most `capacity` deliveries between two threads that both block: the producer
    /// while it is full, the writer while it is empty. Once the writer stops, sending fails.
    private final class HandOff: Sendable {
        private struct State {
            var deliveries: [Delivery] = []
            var stopped = false
        }

        private let state = Locked(State())
        private let delivered = DispatchSemaphore(value: 0)
        private let freeSlots: DispatchSemaphore

        init(capacity: Int) {
            // Started at 0 and raised, as in `BlockingChannel`: libdispatch traps when a semaphore
            // is released below its initial value, as this one is when the writer stops early.
            freeSlots = DispatchSemaphore(value: 0)
            for _ in 0..<capacity { freeSlots.signal() }
        }

        /// False once the writer has stopped: the producer then ends.
        func send(_ delivery: Delivery) -> Bool {
            freeSlots.wait()
            let sent = state.withLock { state in
                guard !state.stopped else { return false }
                state.deliveries.append(delivery)
                return true
            }
            if sent { delivered.signal() }
            return sent
        }

        func receive() -> Delivery {
            delivered.wait()
            defer { freeSlots.signal() }
            return state.withLock { $0.deliveries.removeFirst() }
        }

        /// The writer is done: a producer waiting for room, or coming to wait, sends nothing more.
        func stop() {
            state.withLock { $0.stopped = true }
            freeSlots.signal()
        }
    }
}
