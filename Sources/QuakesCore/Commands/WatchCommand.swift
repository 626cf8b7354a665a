/// `quakes watch`: fetches a feed every interval (or follows what other processes write) and
/// prints how the result set of a query changed, like a fetched-results controller's delegate.
package struct WatchCommand: Command {
    package static let name = "watch"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Fetch a feed every interval and print how the result of a query changes.",
        discussion: """
            Takes the filters, sort and sections of 'quakes list'. Reports insert, update, delete \
            and move (an update that changed the event's section or position). The first pass reports \
            the current result set as inserts. With --no-fetch it fetches nothing and follows the \
            history instead, so it can run beside a cron fetch; where the storage engine announces \
            commits (see 'quakes --help'), every commit, from any host, wakes it at once. SIGINT ends \
            it with status 0.
            """,
        arguments: [
            .init(
                "source", help: "What to fetch, as for 'quakes fetch'.", isOptional: true, default: "all_hour",
                choices: FeedSource.summaryFeedNames, takesPath: true)
        ],
        options: [DatabaseLocation.option.declaration] + FilterOptions.options + [
            sort.declaration, CommonOptions.section.declaration, limit.declaration,
            CommonOptions.limitPerSection.declaration, interval.declaration, format.declaration, exec.declaration,
            noFetch.declaration, changesOnly.declaration,
        ] + FetchCommand.downloadOptions + [author.declaration, CommonOptions.utc.declaration])

    static let sort = ListCommand.sort(help: "As for 'quakes list'.")
    static let limit = CommonOptions.limit(help: "Watch only the first N events in output order.")
    static let interval = ValueOption(
        "interval", value: "duration", help: "How long between passes: 30s, 1m, 5m…", default: "1m",
        expected: TimeExpression.durationForm, TimeExpression.duration
    )
    .defaulting(to: 60_000)
    static let format = CommonOptions.format(Format.self, help: "table (also text) or ndjson.", default: .table)
    static let exec = ValueOption(
        "exec", value: "command", help: "Run COMMAND (with sh) once per inserted quake, its JSON on standard input.",
        expected: "a shell command"
    ) { $0.isEmpty ? nil : $0 }
    static let noFetch = Flag("no-fetch", help: "Fetch nothing: follow the history written by other processes.")
    static let changesOnly = Flag("changes-only", help: "Report nothing for the first pass.")
    static let author = FetchCommand.author(default: "watch")

    enum Format: String, Sendable, CaseIterable {
        case table, ndjson
    }

    var database: String?
    var utc: Bool
    var source: String
    var filters: FilterOptions
    var query = QuakeQuery()
    var interval: Int64
    var format: Format
    var hook: String?
    var fetches: Bool
    var changesOnly: Bool
    var settings: FetchSettings

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 1)
        database = try arguments.read(DatabaseLocation.option)
        utc = arguments.read(CommonOptions.utc)
        source = arguments.positionals.first ?? "all_hour"
        guard source != "-" else {
            throw UsageError(
                "'quakes watch' fetches its source again every interval: it cannot read standard input ('-')")
        }
        filters = try FilterOptions(arguments)
        query.sort = try ListCommand.sort(arguments, Self.sort, measuresDistance: filters.measuresDistance)
        query.section = try arguments.read(CommonOptions.section)
        (query.limit, query.limitPerSection) = try CommonOptions.limits(
            arguments, limit: Self.limit, sectioned: query.section != nil)
        interval = try arguments.read(Self.interval)
        format = try arguments.read(Self.format)
        hook = try arguments.read(Self.exec)
        fetches = !arguments.read(Self.noFetch)
        changesOnly = arguments.read(Self.changesOnly)
        settings = try FetchCommand.settings(arguments, author: Self.author)
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let database = try DatabaseLocation.writer(option: database, in: environment)
        let feed = try FeedSource(source, currentDirectory: environment.currentDirectory)
        let filters = try filters.resolvingPlace(in: environment)
        var query = query
        query.origin = filters.origin
        query.zone = environment.zone(utc: utc)
        // The filter is resolved at every pass; resolved once here first, bounds that contradict
        // each other are a usage error before anything is fetched.
        _ = try filters.filter(in: environment, zone: query.zone)
        var settings = settings
        settings.clock = environment.clock
        settings.trust(environment.variables)
        let store = database.store()
        if fetches {
            try await database.checkWritable()
            try await store.open()
        }

        // Without fetches of its own, a watch on a server is woken by other hosts' commits.
        var listener: (any ChangeListener)? = nil
        var listens = !fetches
        var previous: WatchPass?
        let keepsHistory = database.engine.capabilities.contains(.keepsHistory)
        let dependsOnNow = filters.dependsOnNow
        // A database that fails before the watch has once reached it is most likely named wrongly
        // (host, port, password): the watch ends with the status a script acts on, as `count` would.
        // Its store opening (for a watch that fetches) or its listener connecting is reaching it: a
        // server that stops before the first pass's reading is then down for a while, as later.
        var hasReached = fetches
        while !Task.isCancelled {
            do {
                if listens, listener == nil, database.engine.capabilities.contains(.announcesCommits) {
                    listener = try await database.changeListener()
                }
                listens = listener != nil
                hasReached = hasReached || listens
                if fetches,
                    let failure = await fetch(feed, into: store, of: database, settings: settings, in: environment)
                {
                    // A source that can never work ends the watch, as it would end a fetch.
                    throw failure
                }
                let filter = try filters.filter(in: environment, zone: query.zone)
                query.filter = filter
                // One snapshot: the token, the results and why events came and went agree, and a
                // later commit changes the token.
                let read: @Sendable (any QuakeReading) throws -> (pass: WatchPass, changes: [ResultChange])? = {
                    [query, previous] reader in
                    try WatchPass.read(
                        query, reader: reader, after: previous, keepsHistory: keepsHistory, dependsOnNow: dependsOnNow)
                }
                // A watch that fetches writes the database: before a fetch of its has stored
                // anything, it may not exist yet.
                let pass =
                    fetches
                    ? try await database.readingAsWriter(zone: query.zone, read)
                    : try await database.reading(zone: query.zone, read)
                if let pass {
                    if previous != nil || !changesOnly {
                        report(pass.changes, of: query, firstPass: previous == nil, in: environment)
                        await runHooks(for: pass.changes, in: environment)
                    }
                    previous = pass.pass
                }
                hasReached = true
            } catch let error where hasReached && Self.mayPass(error) {
                // A server that is down or full for now: said, and tried again at the next pass.
                environment.standardError.writeLine("Error: \(error)")
            }
            environment.standardOutput.flush()
            do {
                if let waiting = listener {
                    do {
                        try await waiting.waitForChange(upTo: .milliseconds(interval))
                    } catch let error where !(error is CancellationError) {
                        // The listener's connection went; a new one listens from the next pass.
                        environment.standardError.writeLine("Error: \(error)")
                        listener = nil
                        try await Task.sleep(for: .milliseconds(interval))
                    }
                } else {
                    try await Task.sleep(for: .milliseconds(interval))
                }
            } catch is CancellationError {
                break
            }
        }
        return .success  // SIGINT and SIGTERM end a watch cleanly.
    }

    /// True for a failure of the database that trying again may cure (no server answered, or it
    /// takes no session now, or ended the one under way, or another process held the database too
    /// long): a watch reports it and goes on, as it does for a fetch that fails for such a reason.
    private static func mayPass(_ error: any Error) -> Bool {
        (error as? StoreError)?.sessionEnded == true
            || [ExitStatus.unavailable, .temporaryFailure].contains(ExitStatus(for: error))
    }

    /// One fetch pass. A failure that trying again may cure (the network, the server, a feed that
    /// is damaged today) is reported and the watch goes on; one that cannot (a local file that is
    /// missing or unreadable) is returned, and ends it.
    private func fetch(
        _ feed: FeedSource, into store: any QuakeWriting, of database: any DatabaseWriter, settings: FetchSettings,
        in environment: Environment
    ) async -> IngestFailure? {
        let outcomes: [Result<IngestReport, IngestFailure>]
        do {
            outcomes = try await database.whileHoldingWriter(waiting: 0) {
                await Fetch(
                    sources: [feed], settings: settings, store: store, downloader: environment.downloader,
                    progress: nil
                ).run()
            }
        } catch is LockedError {
            return nil  // Another process is writing: its changes will show in this pass's query.
        } catch {
            environment.standardError.writeLine("Error: \(error)")
            return nil
        }
        for case let .failure(failure) in outcomes where !(failure.error is CancellationError) {
            if case .unreadableFile = failure.error as? DownloadError { return failure }
            // The source failed (the network, the server, today's document): the next pass tries
            // again. A failure of the database itself is an error, as at the pass's reading.
            let ofTheSource =
                failure.error is DownloadError || failure.error is FeedError
                || failure.error is UnusableFeedError
            environment.standardError.writeLine(
                ofTheSource
                    ? "Warning: \(failure), trying again in \(Self.seconds(interval)) s" : "Error: \(failure)")
        }
        return nil
    }

    /// 60000 as `60`, 300 as `0.3`: a duration in milliseconds as seconds.
    static func seconds(_ milliseconds: Int64) -> String {
        var text = String(milliseconds / 1000)
        var fraction = milliseconds % 1000
        guard fraction > 0 else { return text }
        text += "."
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        return text + String(fraction).leftPadded(to: digits)
    }

    /// Writes `changes` to `query`'s result set: its zone is the display zone, its origin the point
    /// of `--near`, a place's once looked up. In the table, a pass that reports anything starts
    /// with its moment; a first pass that finds nothing says so, where a later pass with no change
    /// stays silent.
    private func report(
        _ changes: [ResultChange], of query: QuakeQuery, firstPass: Bool, in environment: Environment
    ) {
        let zone = query.zone
        switch format {
        case .ndjson:
            var buffer = JSONBuffer()
            for change in changes {
                buffer.removeAll()
                Self.writeJSON(change, of: query, to: &buffer)
                buffer.bytes.withUnsafeBytes { environment.standardOutput.write(bytes: $0) }
            }
        case .table:
            guard !changes.isEmpty || (firstPass && query.asksForEvents) else { return }
            environment.standardOutput.writeLine(zone.dateAndTime(environment.clock()) + " (\(zone.name))")
            if changes.isEmpty { environment.standardOutput.writeLine(QuakeQuery.nothingMatches) }
            for line in Self.table(changes, zone: zone, origin: query.origin, columns: environment.terminalColumns) {
                environment.standardOutput.writeLine(line)
            }
        }
    }

    /// One change as a line of ndjson: `{"change":"delete","reason":"left",…,"fields":{…},"quake":{…}}`.
    static func writeJSON(_ change: ResultChange, of query: QuakeQuery, to buffer: inout JSONBuffer) {
        buffer.raw(#"{"change":"#)
        buffer.string(change.kind.rawValue)
        if let reason = change.reason {
            buffer.raw(#","reason":"#)
            buffer.string(reason.name)
            if case let .merged(into) = reason {
                buffer.raw(#","mergedInto":"#)
                buffer.string(into)
            }
        }
        buffer.raw(#","section":"#)
        buffer.string(change.section)
        buffer.raw(#","index":"#)
        buffer.integer(change.index)
        buffer.raw(#","oldIndex":"#)
        buffer.integer(change.oldIndex)
        buffer.raw(#","oldSection":"#)
        buffer.string(change.oldSection)
        if query.section != nil {
            buffer.raw(#","zone":"#)
            buffer.string(query.zone.name)
        }
        if let fields = change.fields {
            buffer.raw(#","fields":"#)
            buffer.raw(text: JSONValue.object(fields.map(\.json)).serialized())
        }
        buffer.raw(#","quake":"#)
        QuakeFormats.writeJSONObject(change.quake, distance: query.origin?.distance(to: change.quake), to: &buffer)
        buffer.raw("}\n")
    }

    /// A pass's changes as the table's lines: the change, its position, the event in the columns of
    /// `list`'s table (`QuakeTableLayout`, laid out for this pass's rows), then why or what changed:
    /// `delete  #0  2021-07-19 23:02:08   5.7 mww …  us7000enjy  left the query: mag 5.7→5.4 …`.
    static func table(_ changes: [ResultChange], zone: DisplayZone, origin: GeoPoint?, columns: Int?) -> [String] {
        func position(_ section: String?, _ index: Int?) -> String {
            (section.map { TerminalText.escaped($0) } ?? "") + "#" + (index.map(String.init) ?? "-")
        }
        let positions = changes.map { change in
            change.kind == .delete
                ? position(change.oldSection, change.oldIndex)
                : position(change.section, change.index)
                    + (change.kind == .move ? " (was \(position(change.oldSection, change.oldIndex)))" : "")
        }
        let positionWidth = positions.map(TerminalText.width).max() ?? 0
        let rows = changes.map { QuakeTableRow($0.quake, zone: zone, origin: origin) }
        let layout = QuakeTableLayout(
            rows: rows, zone: zone, origin: origin, columns: columns, besides: 8 + positionWidth + 2)
        return changes.indices.map { index in
            let why = Self.why(changes[index])
            return changes[index].kind.rawValue.padding(to: 8)
                + TerminalText.padded(positions[index], to: positionWidth)
                + "  " + layout.render(rows[index], colour: false, padsID: !why.isEmpty)
                + (why.isEmpty ? "" : "  " + why)
        }
    }

    /// Why a change happened, as the table's last column says it: `new`, `merged into ci39746767`,
    /// `left the query: mag 5.7→5.4`, or an update's fields. Nothing for the first pass's inserts.
    static func why(_ change: ResultChange) -> String {
        let fields = change.fields.map(Self.text) ?? ""
        switch change.reason {
        case .initial?: return ""
        case .new?: return "new"
        case .deleted?: return "deleted"
        case let .merged(into)?: return "merged into " + TerminalText.escaped(into)
        case .entered?: return "entered the query" + (fields.isEmpty ? "" : ": " + fields)
        case .left?: return "left the query" + (fields.isEmpty ? "" : ": " + fields)
        case nil: return fields
        }
    }

    /// The fields a table shows the values of when they change: what a reader of a catalogue
    /// watches for. Other fields that changed are named after them.
    private static let fieldsWithValues: Set<QuakeField> = [
        .magnitude, .magnitudeType, .place, .depth, .status, .alert,
    ]

    /// `mag 5.7→5.4, depth 30.7→28.15 (also time, sig)`, or `time, sig changed` when none of the
    /// fields the table gives values of changed; empty when none changed.
    static func text(_ fields: [FieldChange]) -> String {
        let valued = fields.filter { fieldsWithValues.contains($0.field) }.map(\.text)
        let named = fields.filter { !fieldsWithValues.contains($0.field) }.map(\.field.name)
        guard !valued.isEmpty else { return named.isEmpty ? "" : named.joined(separator: ", ") + " changed" }
        return valued.joined(separator: ", ") + (named.isEmpty ? "" : " (also " + named.joined(separator: ", ") + ")")
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
                ShellCommand.run(hook, input: input).map { "--exec command failed for \(id) (\($0))" }
            }
            if let outcome { environment.standardError.writeLine("Warning: " + TerminalText.escaped(outcome)) }
        }
    }
}
