/// What a backfill or a sync did, as the lines people read, the JSON scripts read, and the progress
/// line a terminal shows while it runs.
struct ServiceSummary {
    /// One plan's part of the run: a backfill has one, a sync one per scope.
    struct Plan {
        var key: String
        var report: PagedFetchReport
        /// True when the pass had stored windows before this run.
        var resumed: Bool
        /// True when the pass was complete before this run, which then fetched nothing.
        var wasComplete: Bool
    }

    var command: ServiceProgress.Kind
    var service: FDSNService
    var plans: [Plan]
    /// What the service said of the vanished events the feeds recorded (a sync's).
    var confirmations: [VanishedConfirmation.Outcome] = []
    /// The error that ended the run, when one did.
    var error: (any Error)?
    var seconds: Double

    var exitStatus: ExitStatus {
        error.map { ExitStatus(for: $0) } ?? .success
    }

    /// One line per plan on standard error: `backfill 2011-01-01T00:00:00Z – 2026-12-04T00:00:00Z:
    /// 53 windows, 61 requests (8 refused, 0 retried), 812345 events: 812000 new, …`.
    func text() -> String {
        plans.map { plan in
            let report = plan.report
            let progress = report.progress
            var line = "\(command.rawValue) \(CivilTime.iso8601(progress.since)) – \(CivilTime.iso8601(progress.until))"
            if let updatedAfter = progress.updatedAfter { line += " updated since \(CivilTime.iso8601(updatedAfter))" }
            if plan.wasComplete {
                return line + ": complete already, nothing to fetch; "
                    + (command == .backfill
                        ? "later events come with 'quakes sync' or 'quakes fetch'\n" : "the next sync asks again\n")
            }
            line +=
                ": \(report.windows) windows, \(report.requests) requests (\(report.refused) refused, "
                + "\(report.retried) retried), \(report.features) events: \(report.inserted) new, "
                + "\(report.updated) updated, \(report.unchanged) unchanged, \(report.deleted) deleted, "
                + "\(report.skipped) skipped (" + String(cFormat: "%.2f s", report.seconds) + ")"
            if progress.complete {
                line += command == .backfill ? "; complete: later events come with 'quakes sync' or 'quakes fetch'" : ""
            } else {
                line += "; stopped at \(CivilTime.iso8601(progress.done)): run the same command again to go on"
            }
            return line + "\n"
        }.joined()
            + confirmations.map { confirmation in
                "\(command.rawValue): \(confirmation.text)\n"
            }.joined()
    }

    /// `{"command":"backfill","service":…,"plans":[{…}],"status":"ok","exitCode":0,"seconds":s}`.
    func json() -> JSONValue {
        let status = exitStatus
        var members: [(String, JSONValue)] = [
            ("command", .string(command.rawValue)), ("service", .string(service.base)),
            ("plans", .array(plans.map(Self.json))),
            ("confirmed", .array(confirmations.map(\.json))),
            ("status", .string(status == .success ? "ok" : "error")),
        ]
        if let error { members.append(("error", .string(String(describing: error)))) }
        members += [("exitCode", .integer(Int(status.code))), ("seconds", .number((seconds * 1000).rounded() / 1000))]
        return .object(members)
    }

    private static func json(_ plan: Plan) -> JSONValue {
        let report = plan.report
        let progress = report.progress
        return .object([
            ("plan", .string(plan.key)),
            ("parameters", .object(progress.filter.parameters.map { ($0.name, JSONValue.string($0.value)) })),
            ("since", .string(CivilTime.iso8601(progress.since))),
            ("until", .string(CivilTime.iso8601(progress.until))),
            ("updatedAfter", .string(progress.updatedAfter.map(CivilTime.iso8601))),
            ("complete", .bool(progress.complete)), ("resumed", .bool(plan.resumed)),
            ("wasComplete", .bool(plan.wasComplete)),
            ("done", .string(CivilTime.iso8601(progress.done))),
            ("windows", .integer(report.windows)), ("requests", .integer(report.requests)),
            ("refused", .integer(report.refused)), ("retried", .integer(report.retried)),
            ("features", .integer(report.features)), ("inserted", .integer(report.inserted)),
            ("updated", .integer(report.updated)), ("unchanged", .integer(report.unchanged)),
            ("deleted", .integer(report.deleted)), ("skipped", .integer(report.skipped)),
            ("totalWindows", .integer(progress.windows)), ("totalRequests", .integer(progress.requests)),
            ("seconds", .number((report.seconds * 1000).rounded() / 1000)),
        ])
    }

    /// The progress line of a running plan: windows done and planned, events stored, rate, time left.
    static func progressLine(_ command: ServiceProgress.Kind, _ report: PagedFetchReport) -> String {
        let progress = report.progress
        let planned = progress.windows + report.windowsLeft
        let rate = report.seconds > 0 ? Double(report.features) / report.seconds : 0
        var line = "\(command.rawValue): \(progress.windows)/\(planned) windows, \(progress.features) events"
        if rate > 0 { line += ", \(Int(rate)) events/s" }
        let secondsPerWindow = report.windows > 0 ? report.seconds / Double(report.windows) : 0
        if secondsPerWindow > 0, report.windowsLeft > 0 {
            line += ", about \(Self.duration(secondsPerWindow * Double(report.windowsLeft))) left"
        }
        return line
    }

    private static func duration(_ seconds: Double) -> String {
        seconds < 90
            ? "\(Int(seconds.rounded())) s"
            : seconds < 5400
                ? "\(Int((seconds / 60).rounded())) min"
                : String(cFormat: "%.1f h", seconds / 3600)
    }

    /// The JSON of a run that failed before any plan could start.
    static func failure(_ command: ServiceProgress.Kind, error: any Error, status: ExitStatus) -> JSONValue {
        .object([
            ("command", .string(command.rawValue)), ("plans", .array([])), ("status", .string("error")),
            ("error", .string(String(describing: error))), ("exitCode", .integer(Int(status.code))),
            ("seconds", .number(0)),
        ])
    }
}
