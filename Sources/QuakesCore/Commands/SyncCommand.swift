/// `quakes sync [FILTERS] [--since DATE]`: keeps a copy correct by asking the FDSN event service
/// for the events updated since the last sync, deleted ones included: revisions to events older
/// than any feed, and deletions, arrive.
package struct SyncCommand: Command {
    package static let name = "sync"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Bring stored events up to date with the FDSN event service: revisions and deletions.",
        discussion: """
            Asks the service for the events updated since the last sync (updatedafter, an hour early \
            to cover the service's indexing delay), deleted ones included, and applies them with the \
            usual rules. Without filters it asks about what the database was filled with: the filters \
            of its backfills, and the lowest magnitude threshold of its summary feeds, from its oldest \
            event; events outside that scope are stored only when they are revisions of stored ones \
            (the magnitude floor is asked one unit lower so that a lowered magnitude still arrives). \
            With filters or --since it asks about those instead. Made for cron: a lock, --quiet, exit codes.
            """,
        options: [DatabaseLocation.option.declaration, FilterOptions.since.declaration] + ServiceOptions.filterOptions
            + [author.declaration] + ServiceOptions.options)

    static let author = FetchCommand.author(default: "sync")

    /// How much lower a sync asks the magnitude floor than its scope's, to see lowered magnitudes.
    static let magnitudeMargin = 1.0
    /// How long before a sync started the next one asks from, in milliseconds: the service indexes
    /// a revision some time after its `updated`.
    static let overlap: Int64 = 3_600_000

    var database: String?
    var options: ServiceOptions

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        database = try arguments.read(DatabaseLocation.option)
        options = try ServiceOptions(arguments, author: Self.author)
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let options = try options.resolvingPlace(in: environment)
        let zone = environment.zone(utc: options.utc)
        let since = try options.filters.filter(in: environment, zone: zone).earliest
        let now = try options.filters.now(in: environment, zone: zone)
        let database = try DatabaseLocation.writer(option: database, in: environment)
        try await database.checkWritable()
        let summary = try await database.whileHoldingWriter(waiting: options.writing.wait) {
            let store = database.store()
            try await store.open()
            let status = try await database.readingAsWriter { try $0.status() }
            let scopes = try Self.scopes(options: options, since: since, status: status)
            var passes: [ServicePass] = []
            for scope in scopes {
                let key = options.service.queryURL(
                    [("format", "geojson"), ("includedeleted", "true")] + scope.filter.parameters)
                let state = try await store.feedState(for: key)
                let recorded = state?.progress.flatMap(ServiceProgress.init)
                var progress: ServiceProgress
                if let recorded, recorded.kind == .sync, !recorded.complete {
                    progress = recorded
                } else {
                    progress = ServiceProgress(
                        kind: .sync, filter: scope.filter, since: scope.since, until: now, started: now)
                    progress.updatedAfter = recorded?.nextUpdatedAfter ?? scope.updatedAfter
                    progress.nextUpdatedAfter = now - Self.overlap
                }
                let updatedAfter = progress.updatedAfter ?? scope.since
                passes.append(
                    ServicePass(
                        key: key, recorded: state, progress: progress,
                        asked: scope.filter.widened(byMagnitude: Self.magnitudeMargin),
                        extraParameters: [
                            ("includedeleted", "true"), ("updatedafter", FDSNService.time(updatedAfter)),
                        ],
                        admits: Self.admission(scope: scope.filter, database: database)))
            }
            var summary = try await options.run(
                passes, command: .sync, store: store, holdsAnything: !status.holdsNothing, in: environment)
            if summary.error == nil {
                let confirmation = VanishedConfirmation(
                    service: options.service, settings: options.settings(in: environment), store: store,
                    database: database, downloader: environment.downloader)
                summary.confirmations = try await VanishedEvents.confirmRecorded(by: confirmation)
            }
            return summary
        }
        return options.report(summary, in: environment)
    }

    /// What a sync asks about: its filter, the oldest event time it covers, and where its first
    /// pass starts asking for updates.
    struct Scope: Equatable {
        var filter: FDSNFilter
        var since: Int64
        var updatedAfter: Int64
    }

    /// The scopes of a sync: the options' when any filter or `--since` was given, else what the
    /// database was filled with: every backfill's filter from its start (updates asked from an hour
    /// before the backfill began: it stored the versions of then), and the summary feeds' lowest
    /// magnitude threshold from the oldest stored event.
    static func scopes(options: ServiceOptions, since: Int64?, status: DatabaseStatus) throws -> [Scope] {
        if options.hasFilter || since != nil {
            guard let start = since ?? status.earliest else {
                throw UsageError("The database holds no events: give '--since <when>' to say where the sync starts")
            }
            return [Scope(filter: options.filter, since: start, updatedAfter: start)]
        }
        var scopes: [Scope] = []
        func add(_ scope: Scope) {
            if let index = scopes.firstIndex(where: { $0.filter == scope.filter }) {
                scopes[index].since = min(scopes[index].since, scope.since)
                scopes[index].updatedAfter = min(scopes[index].updatedAfter, scope.updatedAfter)
            } else {
                scopes.append(scope)
            }
        }
        for source in status.sources {
            guard let progress = source.progress.flatMap(ServiceProgress.init), progress.kind == .backfill else {
                continue
            }
            add(Scope(filter: progress.filter, since: progress.since, updatedAfter: progress.started - overlap))
        }
        let thresholds = status.sources.compactMap { FeedSource.threshold(ofSummaryFeed: $0.url) }
        // Feeds fetched but no event stored (all pruned, or none yet): nothing to keep correct.
        if !thresholds.isEmpty, status.earliest == nil { return scopes }
        if let lowest = thresholds.min(by: { ($0 ?? -.infinity) < ($1 ?? -.infinity) }), let earliest = status.earliest
        {
            var filter = FDSNFilter()
            filter.scope.minimumMagnitude = lowest
            add(Scope(filter: filter, since: earliest, updatedAfter: earliest))
        }
        guard !scopes.isEmpty else {
            throw UsageError(
                "Nothing to sync: the database has no backfill and no summary feed to take a scope from; give filters (--min-magnitude…) or '--since <when>'"
            )
        }
        return scopes
    }

    /// Which features of an answer a sync stores: those in its scope, and any that names a stored
    /// event (a revision that moved it out of the scope, a deletion, a merge). Other deletions and
    /// events of the widened margin are left out, so the copy never grows beyond its scope.
    static func admission(scope: FDSNFilter, database: any DatabaseWriter) -> @Sendable ([Quake]) async throws -> [Bool]
    {
        { quakes in
            let inScope = quakes.map { !$0.isDeleted && scope.contains($0) }
            let asked = quakes.indices.filter { !inScope[$0] }.map { quakes[$0].namedIDs }
            guard !asked.isEmpty else { return inScope }
            let known = try await database.readingAsWriter { reader in
                Set(try asked.joined().filter { try reader.owner(of: $0) != nil })
            }
            return quakes.indices.map { index in
                inScope[index] || quakes[index].namedIDs.contains(where: known.contains)
            }
        }
    }

    package static func failureOutput(_ arguments: [String], error: any Error, status: ExitStatus) -> String? {
        WriteOptions.jsonFailure(arguments, for: help) { ServiceSummary.failure(.sync, error: error, status: status) }
    }
}
