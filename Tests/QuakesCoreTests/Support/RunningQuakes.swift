import Foundation

@testable import QuakesCore

/// The tool running in-process in a task, in a world of the test's as `QuakesRun.run` sets it
/// up, until it ends or is stopped as SIGINT would stop it: for `watch`, which runs until then.
struct RunningQuakes {
    let output = CapturedOutput()
    let errors = CapturedOutput()
    let interruption = Interruption()
    let task: Task<QuakesCore.ExitStatus, Never>

    init(_ arguments: [String], variables: [String: String] = [:], directory: String? = nil, now: Int64? = nil) {
        var environment = Environment(
            variables: variables, currentDirectory: directory ?? FileManager.default.currentDirectoryPath,
            standardOutput: output, standardError: errors)
        if let now { environment.clock = { now } }
        environment.interruption = interruption
        environment.engines = TestEngine.registry
        task = Task { [environment] in await Quakes.main(arguments, in: environment) }
    }

    /// Waits until `condition` holds of the output (a loaded machine under a sanitizer is slow;
    /// an idle one takes well under a second); one that never comes fails the test, with what the
    /// tool printed.
    func wait(until condition: (String) -> Bool) async throws {
        try await StalledFetch.waitUntil(
            "the run printed what was expected (so far: \(output.text) \(errors.text))"
        ) {
            condition(output.text)
        }
    }

    /// Waits until `condition` holds of what the run wrote to standard error.
    func waitForErrors(until condition: (String) -> Bool) async throws {
        try await StalledFetch.waitUntil("the run reported what was expected (so far: \(errors.text))") {
            condition(errors.text)
        }
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
