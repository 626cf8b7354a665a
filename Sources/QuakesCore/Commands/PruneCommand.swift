/// `quakes prune`: deletes old events, and old history, each as one recorded transaction.
package struct PruneCommand: Command {
    package static let name = "prune"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Delete events older than a duration, or history older than a duration.",
        discussion: """
            Deleting events is one transaction, recorded in the history with the author 'prune'. \
            Dropping history never lowers the tokens: new transactions keep counting up.
            """,
        options: [
            DatabaseLocation.option.declaration, olderThan.declaration, historyOlderThan.declaration,
            dryRun.declaration, now.declaration, CommonOptions.utc.declaration, WriteOptions.wait.declaration,
            quiet.declaration,
        ])

    static let olderThan = ValueOption(
        "older-than", value: "duration", help: "Delete events whose time is before now − DURATION (30d, 12w…).",
        expected: TimeExpression.durationForm, TimeExpression.duration)
    static let historyOlderThan = ValueOption(
        "history-older-than", value: "duration", help: "Drop history transactions older than now − DURATION.",
        expected: TimeExpression.durationForm, TimeExpression.duration)
    static let dryRun = Flag("dry-run", help: "Print what would go, and change nothing.")
    static let now = FilterOptions.now(help: "The moment taken as now.")
    static let quiet = Flag("quiet", short: "q", help: "Print nothing on success.")

    var database: String?
    var utc: Bool
    var quiet: Bool
    var olderThan: Int64?
    var historyOlderThan: Int64?
    var dryRun: Bool
    var wait: Double
    var now: TimeExpression.Moment?

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        utc = arguments.read(CommonOptions.utc)
        quiet = arguments.read(Self.quiet)
        olderThan = try arguments.read(Self.olderThan)
        historyOlderThan = try arguments.read(Self.historyOlderThan)
        guard olderThan != nil || historyOlderThan != nil else {
            throw UsageError("Missing '--older-than <duration>' or '--history-older-than <duration>'")
        }
        dryRun = arguments.read(Self.dryRun)
        wait = try arguments.read(WriteOptions.wait)
        now = try arguments.read(Self.now)
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let now = try FilterOptions.now(now, in: environment, zone: environment.zone(utc: utc))
        let database = try DatabaseLocation.writer(option: database, in: environment)
        try await database.checkWritable()
        let eventCutoff = olderThan.map { now - $0 }
        let historyCutoff = historyOlderThan.map { now - $0 }
        let result = try await database.whileHoldingWriter(waiting: wait) {
            try await database.store().prune(
                eventsBefore: eventCutoff, historyBefore: historyCutoff, timestamp: environment.clock(), dryRun: dryRun)
        }
        var lines: [String] = []
        if let eventCutoff {
            let tombstones =
                result.tombstones == 0
                ? "" : " and \(result.tombstones) tombstone\(result.tombstones == 1 ? "" : "s") of deleted events"
            lines.append(
                (dryRun ? "would delete " : "deleted ")
                    + "\(result.events) events\(tombstones) older than \(CivilTime.iso8601(eventCutoff))"
                    + (result.token.map { " (history token \($0))" } ?? ""))
        }
        if let historyCutoff {
            lines.append(
                (dryRun ? "would drop " : "dropped ")
                    + "\(result.transactions) history transactions older than \(CivilTime.iso8601(historyCutoff))")
        }
        if dryRun {
            for line in lines { environment.standardOutput.writeLine(line) }
        } else if !quiet {
            for line in lines { environment.standardError.writeLine("prune: " + line) }
        }
        return .success
    }
}
