import Foundation

/// `quakes watch`: fetches a feed every interval (or follows what other processes write) and
/// prints how the result set of a query changed, like a fetched-results controller's delegate.
struct WatchCommand: Command {
    static let help = CommandHelp(
        commandName: "quakes watch",
        abstract: "Fetch a feed every interval and print how the result of a query changes.",
        discussion: """
            Takes the filters, sort and sections of 'quakes list'. Reports insert, update, delete \
            and move (an update that changed the event's section or position). The first pass reports \
            the current result set as inserts. With --no-fetch it fetches nothing and follows the \
            history instead, so it can run beside a cron fetch. SIGINT ends it with status 0.
            """,
        arguments: [
            .init("source", help: "What to fetch, as for 'quakes fetch'.", isOptional: true, default: "all_hour")
        ],
        options: [DatabaseLocation.option] + FilterOptions.options + [
            .init("sort", value: "spec", help: "As for 'quakes list'.", default: "time"),
            CommonOptions.section,
            .init("limit", value: "n", help: "Watch only the first N events in output order."),
            .init("interval", value: "duration", help: "How long between passes: 30s, 1m, 5m…", default: "1m"),
            .init("format", value: "format", help: "text or ndjson.", default: "text"),
            .init(
                "exec", value: "command",
                help: "Run COMMAND (with sh) once per inserted quake, its JSON on standard input."),
            .init("no-fetch", help: "Fetch nothing: follow the history written by other processes."),
            .init("changes-only", help: "Report nothing for the first pass."),
            .init("timeout", value: "seconds", help: "As for 'quakes fetch'.", default: "60"),
            .init("retries", value: "n", help: "As for 'quakes fetch'.", default: "3"),
            .init("author", value: "name", help: "The author recorded in the history.", default: "watch"),
            CommonOptions.utc,
        ])

    enum Format: String, Sendable {
        case text, ndjson
    }

    var arguments: ParsedArguments
    var source: String
    var filters: FilterOptions
    var query = QuakeQuery()
    var interval: Int64
    var format: Format
    var hook: String?
    var fetches: Bool
    var changesOnly: Bool
    var settings: FetchSettings

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 1)
        self.arguments = arguments
        source = arguments.positionals.first ?? "all_hour"
        filters = try FilterOptions(arguments)
        query.sort = try arguments.value("sort", expected: SortSpec.form) { SortSpec(parsing: $0) } ?? .time
        query.section = try CommonOptions.section(arguments)
        query.limit = try arguments.value("limit", expected: "a whole number of events, 0 or more") { text in
            Int(text).flatMap { $0 >= 0 ? $0 : nil }
        }
        interval =
            try arguments.value("interval", expected: TimeExpression.durationForm, TimeExpression.duration) ?? 60_000
        format = try arguments.value("format", expected: "text or ndjson") { Format(rawValue: $0) } ?? .text
        hook = try arguments.value("exec", expected: "a shell command") { $0.isEmpty ? nil : $0 }
        fetches = !arguments.flag("no-fetch")
        changesOnly = arguments.flag("changes-only")
        settings = try FetchCommand.settings(arguments)
        if arguments.value("author") == nil { settings.author = "watch" }
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let path = DatabaseLocation.path(option: arguments.value("db"), in: environment)
        let feed = try FeedSource(source, currentDirectory: environment.currentDirectory)
        var query = query
        query.zone = CommonOptions.zone(arguments, in: environment)
        var settings = settings
        settings.clock = environment.clock
        let store = QuakeStore(path: path)
        if fetches { try await store.open() }

        var previous: ResultSet?
        var lastToken: Int64 = -1
        while !Task.isCancelled {
            if fetches {
                await fetch(feed, into: store, settings: settings, in: environment)
            }
            let filter = try filters.filter(in: environment)
            query.filter = filter
            let pass = try await Blocking.run { [query] in
                // The token first: a write committed between the two reads is seen again next pass.
                let token = try HistoryReader.reading(path) { try $0.lastToken() }
                let results = try QueryRunner.reading(path, zone: query.zone) { try ResultSet(query, runner: $0) }
                return (results, token)
            }
            if pass.1 != lastToken || previous == nil || filters.dependsOnNow {
                let changes = pass.0.changes(since: previous ?? ResultSet())
                if previous != nil || !changesOnly {
                    report(changes, zone: query.zone, in: environment)
                    await runHooks(for: changes, in: environment)
                }
                previous = pass.0
                lastToken = pass.1
            }
            environment.standardOutput.flush()
            do {
                try await Task.sleep(for: .milliseconds(interval))
            } catch {
                break
            }
        }
        return .success  // SIGINT and SIGTERM end a watch cleanly.
    }

    /// One fetch pass; a failure is reported and the watch goes on.
    private func fetch(
        _ feed: FeedSource, into store: QuakeStore, settings: FetchSettings,
        in environment: Environment
    ) async {
        let lock: WriterLock
        do {
            lock = try await WriterLock.acquire(forDatabase: store.path, waiting: 0)
        } catch is LockedError {
            return  // Another process is writing: its changes will show in this pass's query.
        } catch {
            environment.standardError.writeLine("Error: \(error)")
            return
        }
        let outcomes = await Fetch(
            sources: [feed], settings: settings, store: store,
            downloader: environment.downloader, progress: nil
        ).run()
        withExtendedLifetime(lock) {}
        for case let .failure(failure) in outcomes where !(failure.error is CancellationError) {
            environment.standardError.writeLine("Error: \(failure)")
        }
    }

    private func report(_ changes: [ResultChange], zone: DisplayZone, in environment: Environment) {
        var buffer = JSONBuffer()
        for change in changes {
            switch format {
            case .ndjson:
                buffer.removeAll()
                buffer.raw("{")
                buffer.key("change")
                buffer.string(change.kind.rawValue)
                buffer.raw(",")
                buffer.key("section")
                buffer.string(change.section)
                buffer.raw(",")
                buffer.key("index")
                buffer.integer(change.index)
                buffer.raw(",")
                buffer.key("oldIndex")
                buffer.integer(change.oldIndex)
                buffer.raw(",")
                buffer.key("oldSection")
                buffer.string(change.oldSection)
                buffer.raw(",")
                buffer.key("quake")
                QuakeFormats.writeJSONObject(change.quake, to: &buffer)
                buffer.raw("}\n")
                buffer.bytes.withUnsafeBytes { environment.standardOutput.write(bytes: $0) }
            case .text:
                environment.standardOutput.writeLine(Self.line(change, zone: zone))
            }
        }
    }

    /// `move    2021-07-21#0 (was 2021-07-20#3)  2021-07-21 21:15:12   6.7 mww  68 km S of…  us6000exs5`.
    static func line(_ change: ResultChange, zone: DisplayZone) -> String {
        func position(_ section: String?, _ index: Int?) -> String {
            (section.map { TerminalText.escaped($0) } ?? "") + "#" + (index.map(String.init) ?? "-")
        }
        var location =
            change.kind == .delete
            ? position(change.oldSection, change.oldIndex)
            : position(change.section, change.index)
        if change.kind == .move { location += " (was \(position(change.oldSection, change.oldIndex)))" }
        let quake = change.quake
        let local = zone.fields(quake.time)
        let magnitude = quake.magnitude.map { String(format: "%4.1f", $0) } ?? "   ?"
        return change.kind.rawValue.padding(to: 8) + location + "  \(CivilTime.date(local)) \(CivilTime.clock(local))  "
            + magnitude + " " + TerminalText.escaped(quake.magnitudeType ?? "").padding(to: 6)
            + TerminalText.escaped(quake.place ?? "-") + "  " + TerminalText.escaped(quake.id)
    }

    /// Runs `--exec` once per inserted quake, its JSON on standard input; a failing command is
    /// reported and the watch goes on.
    private func runHooks(for changes: [ResultChange], in environment: Environment) async {
        guard let hook else { return }
        for change in changes where change.kind == .insert {
            var buffer = JSONBuffer()
            QuakeFormats.writeJSONObject(change.quake, to: &buffer)
            buffer.raw(.newline)
            let input = buffer.bytes
            let id = change.quake.id
            let outcome: String? = try? await Blocking.run {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", hook]
                let pipe = Pipe()
                process.standardInput = pipe
                do {
                    try process.run()
                } catch {
                    return "cannot run --exec command: \(error.localizedDescription)"
                }
                try? pipe.fileHandleForWriting.write(contentsOf: input)
                try? pipe.fileHandleForWriting.close()
                process.waitUntilExit()
                guard process.terminationReason == .exit, process.terminationStatus == 0 else {
                    return "--exec command failed for \(id) (status \(process.terminationStatus))"
                }
                return nil
            }
            if let outcome { environment.standardError.writeLine("Warning: " + TerminalText.escaped(outcome)) }
        }
    }
}
