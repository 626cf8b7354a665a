import Foundation
import Locking
import Registry
import Testing

@testable import QuakesCore

/// The tool running in-process in a task, in a world of the test's as `QuakesRun.run` sets it
/// up, until it ends or is stopped as SIGINT would stop it: for `watch`, which runs until then.
struct RunningQuakes {
    let output = CapturedOutput()
    let errors = CapturedOutput()
    let interruption = Interruption()
    let task: Task<QuakesCore.ExitStatus, Never>
    /// Set when the run has returned, so that a wait that times out says whether it is still running.
    private let ended = Locked(false)

    init(_ arguments: [String], variables: [String: String] = [:], directory: String? = nil, now: Int64? = nil) {
        var environment = Environment(
            variables: variables, currentDirectory: directory ?? FileManager.default.currentDirectoryPath,
            standardOutput: output, standardError: errors)
        if let now { environment.clock = { now } }
        environment.interruption = interruption
        Registry.equip(&environment)
        task = Task { [environment, ended] in
            let status = await Quakes.main(arguments, in: environment)
            ended.withLock { $0 = true }
            return status
        }
    }

    /// Waits until `condition` holds of the output (a loaded machine under a sanitizer is slow;
    /// an idle one takes well under a second); one that never comes fails the test, with what the
    /// tool printed, at once when the run has ended.
    func wait(until condition: (String) -> Bool) async throws {
        try await waitUntil("printed what was expected", of: output, condition)
    }

    /// Waits until `condition` holds of what the run wrote to standard error.
    func waitForErrors(until condition: (String) -> Bool) async throws {
        try await waitUntil("reported what was expected", of: errors, condition)
    }

    private func waitUntil(_ what: String, of text: CapturedOutput, _ condition: (String) -> Bool) async throws {
        try await StalledFetch.waitUntil("the run \(what) (so far: \(output.text) \(errors.text)); \(state)") {
            // Read before the text: once the run has ended, the text is all it will ever print.
            let hasEnded = ended.withLock { $0 }
            if condition(text.text) { return true }
            if hasEnded {
                Issue.record("the run ended before it \(what); it printed: \(output.text) \(errors.text)")
                throw CancellationError()
            }
            return false
        }
    }

    /// Whether the run has ended and, when it has not, where the threads of the tool's code stand:
    /// a run that hangs in CI then names the call it hangs in.
    private var state: String {
        if ended.withLock({ $0 }) { return "the run has ended" }
        return
            "the run is still running; its threads: \(ChildProcess.stacksOfThisProcess(mentioning: ["Quakes", "Postgres", "SQLite", "PQ", "curl"]))"
    }

    /// Interrupts the run as SIGINT would, and waits for it to end.
    func stop() async -> QuakesCore.ExitStatus {
        interruption.interrupt(SIGINT)
        return await task.value
    }

    /// Waits for the run to end, and what it wrote.
    func finished() async -> QuakesRun {
        QuakesRun(status: await task.value, standardOutput: output.text, standardError: errors.text)
    }
}
