/// A command whose whole work is blocking calls on the thread that runs it: one read of the
/// database (count, list, show, history, status) or none at all.
///
/// The executable runs such a command on its main thread before Swift's concurrency runtime starts
/// a thread: starting the runtime's threads, and a thread of its own for the read, would cost
/// `quakes count` more than its read, which on the main thread costs what `sqlite3`'s does. Run
/// from a task (`Quakes.main`, as the tests run commands in-process), the same work goes to a
/// thread of its own, off the cooperative pool.
package protocol BlockingCommand: Command {
    /// Does the work on the calling thread; returns how the process should end.
    func runBlocking(in environment: Environment) throws -> ExitStatus
}

extension BlockingCommand {
    package static var blocking: (any BlockingCommand.Type)? {
        self
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        try await Blocking.run { [self] in try runBlocking(in: environment) }
    }
}
