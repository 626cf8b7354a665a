/// The options that `backfill` and `sync` share: the service, what it is asked, how politely, and
/// how the run reports, read once into typed values.
struct ServiceOptions: Sendable {
    static let catalog = ValueOption(
        "catalog", value: "name", help: "Only the solutions of this catalog (FDSN catalog: us, ci, ak…).",
        expected: "a catalog name, such as us"
    ) { $0.isEmpty ? nil : $0 }
    static let contributor = ValueOption(
        "contributor", value: "name", help: "Only events contributed by this network (FDSN contributor).",
        expected: "a network name, such as us"
    ) { $0.isEmpty ? nil : $0 }

    /// The filters an FDSN service answers itself: those of `count` and `list` it takes, which
    /// `FilterOptions` reads because the command declares them, then the service's own.
    static let filterOptions: [CommandHelp.Option] = [
        FilterOptions.minMagnitude.declaration, FilterOptions.maxMagnitude.declaration,
        FilterOptions.`type`.declaration, FilterOptions.near.declaration, FilterOptions.radius.declaration,
        FilterOptions.bbox.declaration, FilterOptions.minDepth.declaration, FilterOptions.maxDepth.declaration,
        catalog.declaration, contributor.declaration,
    ]

    static let service = service(help: "The FDSN event service, which must answer GeoJSON.")
    static let concurrency = ValueOption(
        "concurrency", value: "n",
        help: "Requests at a time, 1 to \(maximumConcurrency): the service asks automated clients to be gentle.",
        default: "1", expected: "a whole number from 1 to \(maximumConcurrency)"
    ) { Int($0).flatMap { (1...maximumConcurrency).contains($0) ? $0 : nil } }
    .defaulting(to: 1)
    static let pause = ValueOption(
        "pause", value: "seconds", help: "The pause between one request and the next.", default: "0.5",
        expected: "a number of seconds, 0 or more"
    ) { Double($0).flatMap { $0 >= 0 && $0 <= 600 ? $0 : nil } }
    .defaulting(to: 0.5)

    /// How the service is reached, and the run reported.
    static let options: [CommandHelp.Option] =
        [service.declaration, concurrency.declaration, pause.declaration, WriteOptions.wait.declaration]
        + FetchCommand.downloadOptions + [
            WriteOptions.format.declaration, WriteOptions.quiet.declaration, CommonOptions.utc.declaration,
        ]

    /// `--service`, with the help of the command that takes it: ComCat's unless it names another.
    static func service(help: String) -> DefaultedOption<FDSNService> {
        ValueOption(
            "service", value: "url", help: help, default: FDSNService.comCat, expected: FDSNService.form,
            FDSNService.init
        )
        .defaulting(to: .usgsComCat)
    }

    static let maximumConcurrency = 4

    var service: FDSNService
    /// The filter options as given (`--since` and `--until` among them).
    var filters: FilterOptions
    var filter: FDSNFilter
    /// True when any filter option other than times was given.
    var hasFilter: Bool {
        !filter.parameters.isEmpty
    }
    var concurrency: Int
    var pause: Double
    var settings: FetchSettings
    /// `--wait`, `--format` and `--quiet`.
    var writing: WriteOptions
    var utc: Bool

    /// Reads the options; `author` is the command's `--author`.
    init(_ arguments: ParsedArguments, author: DefaultedOption<String>) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        service = try arguments.read(Self.service)
        filters = try FilterOptions(arguments)
        if filters.measuresDistance, filters.radius == nil {
            throw UsageError("'--near <lat,lon>' needs '--radius <km>' here: the service is asked for a circle")
        }
        filter = FDSNFilter(
            scope: filters.fixed, catalog: try arguments.read(Self.catalog),
            contributor: try arguments.read(Self.contributor))
        concurrency = try arguments.read(Self.concurrency)
        pause = try arguments.read(Self.pause)
        settings = try FetchCommand.settings(arguments, author: author)
        writing = try WriteOptions(arguments)
        utc = arguments.read(CommonOptions.utc)
    }

    /// The options with the place `--near` names looked up, so that the service is asked for the
    /// circle around it.
    func resolvingPlace(in environment: Environment) throws -> ServiceOptions {
        var resolved = self
        resolved.filters = try filters.resolvingPlace(in: environment)
        resolved.filter.scope = resolved.filters.fixed
        return resolved
    }

    /// The settings with the environment's clock and certificate authorities.
    func settings(in environment: Environment) -> FetchSettings {
        var settings = settings
        settings.clock = environment.clock
        settings.trust(environment.variables)
        return settings
    }
}

/// One pass to run: a plan's key, its progress at the start, and how it is asked.
struct ServicePass: Sendable {
    var key: String
    /// What the database kept under `key` when the run began, read once by the command.
    var recorded: FeedState?
    var progress: ServiceProgress
    /// True when the pass was complete before this run: nothing is fetched.
    var wasComplete = false
    var asked: FDSNFilter
    var extraParameters: [(name: String, value: String)] = []
    var admits: (@Sendable ([Quake]) async throws -> [Bool])?
}

extension ServiceOptions {
    /// Runs `passes` one after the other into `store` (whose writer lock the caller holds), drawing a
    /// progress line on a terminal, and stops at the first that fails.
    ///
    /// `holdsAnything` is false for a database that holds nothing yet (none at all, or an empty
    /// one): a new plan is then recorded with its first window, not before its first request, so
    /// that a pass that stores nothing leaves no database behind.
    func run(
        _ passes: [ServicePass], command: ServiceProgress.Kind, store: any QuakeWriting, holdsAnything: Bool,
        in environment: Environment
    )
        async throws -> ServiceSummary
    {
        let started = ContinuousClock.now
        let showsProgress = writing.showsProgress(in: environment)
        var summary = ServiceSummary(command: command, service: service, plans: [], error: nil, seconds: 0)
        for pass in passes {
            let resumed = pass.progress.windows > 0 && !pass.progress.complete
            guard !pass.wasComplete else {
                summary.plans.append(
                    .init(
                        key: pass.key, report: PagedFetchReport(progress: pass.progress), resumed: false,
                        wasComplete: true))
                continue
            }
            // The pass is recorded before its first request, so that an interrupted one keeps its
            // end; when the plan last succeeded stays as it was. In a database that holds nothing
            // yet, a new plan is recorded with its first window instead: a pass that stores nothing
            // (a service that fails at once) leaves no database, and starts afresh next time.
            if holdsAnything || pass.recorded != nil {
                let previous = pass.recorded
                try await store.save(
                    FeedState(
                        url: pass.key, etag: nil, lastModified: nil, fetched: previous?.fetched ?? 0,
                        checked: previous?.checked, outcome: pass.progress.complete ? "complete" : "running",
                        progress: pass.progress.encoded()))
            }
            let output = environment.standardError
            var fetch = PagedFetch(
                service: service, asked: pass.asked, key: pass.key, settings: settings(in: environment), store: store,
                downloader: environment.downloader)
            fetch.extraParameters = pass.extraParameters
            fetch.concurrency = concurrency
            fetch.pause = pause
            fetch.admits = pass.admits
            if showsProgress {
                fetch.observer = { report in
                    output.write("\r\u{1B}[K" + ServiceSummary.progressLine(command, report))
                }
            }
            let (report, error) = try await fetch.run(from: pass.progress)
            if showsProgress { output.write("\r\u{1B}[K") }
            if error == nil { try await Self.recordWhole(report.progress, of: pass, in: store) }
            summary.plans.append(.init(key: pass.key, report: report, resumed: resumed, wasComplete: false))
            if let error {
                summary.error = error
                break
            }
        }
        summary.seconds = (ContinuousClock.now - started).seconds
        return summary
    }

    /// Records the progress of a pass that ran to its end: every window, each seen committed. With
    /// several windows in flight, each window's commit recorded the progress as it stood when that
    /// window's download ended, without the windows committed beside it meanwhile: the last to
    /// commit could leave a finished backfill recorded as running, and the next one fetching a
    /// window again.
    private static func recordWhole(_ progress: ServiceProgress, of pass: ServicePass, in store: any QuakeWriting)
        async throws
    {
        guard var state = try await store.feedState(for: pass.key), state.progress != progress.encoded() else { return }
        state.progress = progress.encoded()
        state.outcome = progress.complete ? "complete" : "running"
        try await store.save(state)
    }

    /// Writes the summary as `--format` and `--quiet` ask, and the error, if any, on standard error.
    func report(_ summary: ServiceSummary, in environment: Environment) -> ExitStatus {
        if let error = summary.error { environment.standardError.writeLine("Error: \(error)") }
        writing.write(json: { summary.json() }, text: { summary.text() }, in: environment)
        return summary.exitStatus
    }
}
