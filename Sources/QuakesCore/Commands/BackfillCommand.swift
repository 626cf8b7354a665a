/// `quakes backfill --since DATE [--until DATE] [FILTERS]`: stores the events of a past time range,
/// beyond the summary feeds' 30 days, from the FDSN event service, in windows the service can
/// answer whole.
package struct BackfillCommand: Command {
    package static let name = "backfill"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Store the events of a past time range from the FDSN event service (USGS ComCat).",
        discussion: """
            Asks the service for the events from --since to --until (or to when the backfill first \
            started) that match the filters, in time windows small enough for the service to answer \
            whole (ComCat answers at most 20,000 events a request): a window it refuses as too large \
            is split. Each window is stored in one transaction with the backfill's progress, so an \
            interrupted backfill goes on where it stopped when the same command runs again (--restart \
            starts over), and a complete one fetches nothing. For recent events, prefer 'quakes fetch' \
            (the summary feeds) and keep a backfilled copy current with 'quakes sync'.
            """,
        options: [
            DatabaseLocation.option.declaration, FilterOptions.since.declaration, FilterOptions.until.declaration,
        ]
            + ServiceOptions.filterOptions + [restart.declaration, author.declaration] + ServiceOptions.options)

    static let restart = Flag(
        "restart", help: "Start over, forgetting the progress of an earlier run of the same backfill.")
    static let author = FetchCommand.author(default: "backfill")

    var database: String?
    var options: ServiceOptions
    var restart: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        database = try arguments.read(DatabaseLocation.option)
        options = try ServiceOptions(arguments, author: Self.author)
        restart = arguments.read(Self.restart)
        guard options.filters.since != nil else {
            throw UsageError("'--since <when>' is required: the start of the time range to backfill")
        }
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let options = try options.resolvingPlace(in: environment)
        let zone = environment.zone(utc: options.utc)
        let times = try options.filters.filter(in: environment, zone: zone)
        let now = try options.filters.now(in: environment, zone: zone)
        guard let since = times.earliest else { throw UsageError("'--since <when>' is required") }
        // A --since not before --until is the filter's usage error; without --until, the range ends now.
        let until = times.before
        if until == nil, since >= now {
            throw UsageError("'--since <when>' is in the future: there is nothing to backfill yet")
        }
        // The plan is named by what it asks; without --until its end is fixed when it first runs.
        let key = options.service.queryURL(
            [("format", "geojson")] + options.filter.parameters + [("starttime", CivilTime.iso8601(since))]
                + (until.map { [("endtime", CivilTime.iso8601($0))] } ?? []))
        let database = try DatabaseLocation.writer(option: database, in: environment)
        try await database.checkWritable()
        let restart = restart
        let summary = try await database.whileHoldingWriter(waiting: options.writing.wait) {
            let store = database.store()
            try await store.open()
            let state = try await store.feedState(for: key)
            let recorded = restart ? nil : state?.progress.flatMap(ServiceProgress.init)
            let progress =
                recorded.flatMap { $0.kind == .backfill ? $0 : nil }
                ?? ServiceProgress(
                    kind: .backfill, filter: options.filter, since: since, until: until ?? now, started: now)
            let pass = ServicePass(
                key: key, recorded: state, progress: progress, wasComplete: progress.complete, asked: options.filter)
            let holdsAnything = try await !database.readingAsWriter { try $0.status() }.holdsNothing
            return try await options.run(
                [pass], command: .backfill, store: store, holdsAnything: holdsAnything, in: environment)
        }
        return options.report(summary, in: environment)
    }

    package static func failureOutput(_ arguments: [String], error: any Error, status: ExitStatus) -> String? {
        WriteOptions.jsonFailure(arguments, for: help) {
            ServiceSummary.failure(.backfill, error: error, status: status)
        }
    }
}
