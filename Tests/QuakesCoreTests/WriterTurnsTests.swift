import Testing

@testable import QuakesCore

/// Writes take turns on a store's connection (`WriterTurns`), under the same executors as a fetch:
/// the store actor on a queue of its own, each source's ingest on a task executor of its own.
/// There, three sources of one fetch once all found the connection free and began on top of one
/// another; the first two then failed with "the ingest transaction has already ended".
@Suite struct WriterTurnsTests {
    /// A store's writer in miniature: ingests hold their turn across calls; other writes take one
    /// for a single call. It keeps who held the connection at each step.
    private actor Writer {
        private let executor = QueueExecutor(label: "tests.writer-turns")
        private let turns = WriterTurns<String>()
        /// The name of every write, once when its turn starts and once when it ends.
        private(set) var trace: [String] = []

        nonisolated var unownedExecutor: UnownedSerialExecutor {
            executor.asUnownedSerialExecutor()
        }

        func beginIngest(_ name: String) async -> IngestTicket {
            let ticket = await turns.take()
            turns.begin(ticket, name)
            trace.append(name)
            return ticket
        }

        func ingest(for ticket: IngestTicket) throws(StoreError) -> String {
            try turns.context(of: ticket, in: "writer")
        }

        func commit(_ ticket: IngestTicket) throws(StoreError) {
            trace.append(try turns.context(of: ticket, in: "writer"))
            turns.end(ticket)
        }

        func rollback(_ ticket: IngestTicket) {
            turns.end(ticket)
        }

        func save(_ name: String) async {
            let turn = await turns.take()
            defer { turns.end(turn) }
            trace.append(name)
            trace.append(name)
        }
    }

    /// A fetch's sources and `save`s, all at once, many times: each ingest keeps the connection from
    /// its first batch to its commit, and each write that ends hands it on. A turn lost on the way
    /// leaves the writes behind it waiting for ever: the test then fails after five minutes, rather
    /// than hang.
    ///
    /// Nothing here runs on the cooperative pool, which the other tests' fetches fill, and which
    /// would make the rounds wait on them.
    @Test func writesBegunAtOnceEachHoldTheConnectionToTheirEnd() async throws {
        let writer = Writer()
        let rounds = 500
        let finished = await Self.finishes(withinSeconds: 300) {
            for round in 0..<rounds {
                let names = (0..<3).map { "ingest \(round).\($0)" } + (0..<2).map { "save \(round).\($0)" }
                await withTaskGroup(of: Void.self) { group in
                    for name in names {
                        group.addTask(executorPreference: QueueTaskExecutor(label: "tests.\(name)")) {
                            if name.hasPrefix("ingest") {
                                await Self.ingest(name, into: writer)
                            } else {
                                await writer.save(name)
                            }
                        }
                    }
                }
            }
        }
        #expect(finished, "a write still waits for its turn")
        // Every write's start is followed by its own end, never by another write.
        let trace = await writer.trace
        #expect(trace.count == rounds * 5 * 2)
        let pairs = stride(from: 0, to: trace.count - 1, by: 2).map { (trace[$0], trace[$0 + 1]) }
        #expect(pairs.filter { $0.0 != $0.1 }.map { "\($0.0) then \($0.1)" } == [])
    }

    /// Three batches and a commit, as a fetch's source stores them, each batch after a suspension
    /// (a decoder's job, in a fetch).
    private static func ingest(_ name: String, into writer: Writer) async {
        var ticket: IngestTicket?
        do {
            for _ in 0..<3 {
                await Task.yield()
                if ticket == nil { ticket = await writer.beginIngest(name) }
                #expect(try await writer.ingest(for: ticket!) == name)
            }
            try await writer.commit(ticket!)
        } catch {
            Issue.record(error, "\(name)")
            if let ticket { await writer.rollback(ticket) }
        }
    }

    /// Whether `work` ends within `seconds`. When it does not, its tasks are left waiting.
    private static func finishes(withinSeconds seconds: Int, _ work: @escaping @Sendable () async -> Void) async -> Bool
    {
        let (ends, end) = AsyncStream<Bool>.makeStream()
        let worker = Task(executorPreference: QueueTaskExecutor(label: "tests.writer-turns.rounds")) {
            await work()
            end.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            end.yield(false)
        }
        for await finished in ends {
            timer.cancel()
            if !finished { worker.cancel() }
            return finished
        }
        return false
    }
}
