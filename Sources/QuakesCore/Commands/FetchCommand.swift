/// `quakes fetch [SOURCE ...]`: downloads feeds and upserts them into the database, each source in
/// one transaction, several sources at once; made to run from cron.
package struct FetchCommand: Command {
    package static let name = "fetch"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Download USGS earthquake feeds and store them in the database.",
        discussion: """
            Each source is stored in one transaction: all of it or, on any error, none of it. Events \
            are matched by id and by the other ids USGS lists for them; the version with the newest \
            'updated' time is kept. Requests are conditional (If-None-Match, If-Modified-Since), \
            transient failures are retried, and one fetch at a time writes a database. Prints one \
            summary line per source on standard error; nothing with --quiet unless something fails.
            """,
        arguments: [
            .init(
                "source",
                help: """
                    A USGS summary feed name ({significant,4.5,2.5,1.0,all}_{hour,day,week,month}), an http, \
                    https or file URL, the path of a GeoJSON file (gzipped or not), or - for standard input.
                    """, isRepeating: true, isOptional: true, default: defaultSource,
                choices: FeedSource.summaryFeedNames,
                takesPath: true)
        ],
        options: [DatabaseLocation.option.declaration] + downloadOptions + [
            force.declaration, WriteOptions.wait.declaration, author.declaration, WriteOptions.format.declaration,
            WriteOptions.quiet.declaration, confirmVanished.declaration, service.declaration,
        ])

    static let force = Flag(
        "force", help: "Download even what the server says has not changed (no conditional request).")
    static let author = author(default: "fetch")
    static let confirmVanished = Flag(
        "confirm-vanished",
        help:
            "Ask the FDSN service about each stored event a summary feed no longer lists, and record what it says (deleted, merged, revised)."
    )
    static let service = ServiceOptions.service(help: "The FDSN event service --confirm-vanished asks.")

    /// The source fetched when none is given.
    static let defaultSource = "all_day"

    // MARK: - The download options that `fetch`, `watch`, `backfill` and `sync` share

    static let timeout = ValueOption(
        "timeout", value: "seconds", help: "The longest a download may take, time spent storing excluded.",
        default: "60", expected: "a number of seconds greater than 0"
    ) { Double($0).flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }
    .defaulting(to: standard.timeout)
    static let maxBytes = ValueOption(
        "max-bytes", value: "bytes",
        help: "The largest response accepted, after decompression; K, M and G suffixes count in 1024s.",
        default: "1G", expected: "a number of bytes, such as 1048576, 512K, 100M or 1G", ByteCount.parse
    )
    .defaulting(to: standard.maximumBytes)
    static let retries = ValueOption(
        "retries", value: "n", help: "How many times to retry a timeout, a dropped connection, HTTP 429 or 5xx.",
        default: "3", expected: "a whole number, 0 or more"
    ) { Int($0).flatMap { $0 >= 0 ? $0 : nil } }
    .defaulting(to: standard.retries)
    static let cacert = ValueOption(
        "cacert", value: "file",
        help: "Trust the certificate authorities in FILE (PEM) for https, instead of the system's.",
        default: "$CURL_CA_BUNDLE, else $SSL_CERT_FILE and $SSL_CERT_DIR, else the system's", takesPath: true,
        expected: "the path of a PEM file"
    ) { $0.isEmpty ? nil : $0 }

    /// The settings' own defaults, which the download options' are.
    private static let standard = FetchSettings()

    static let downloadOptions: [CommandHelp.Option] = [
        timeout.declaration, maxBytes.declaration, retries.declaration, cacert.declaration,
    ]

    /// `--author`, the author recorded in the history, for a command that records `name` by default.
    static func author(default name: String) -> DefaultedOption<String> {
        ValueOption(
            "author", value: "name", help: "The author recorded in the history.", default: name, expected: "a name"
        ) { $0.isEmpty ? nil : $0 }
        .defaulting(to: name)
    }

    var sources: [String]
    var database: String?
    var settings = FetchSettings()
    /// `--wait`, `--format` and `--quiet`.
    var writing: WriteOptions
    /// The service that confirms vanished events, with `--confirm-vanished`.
    var confirmingService: FDSNService?

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        sources = arguments.positionals.isEmpty ? [Self.defaultSource] : arguments.positionals
        database = try arguments.read(DatabaseLocation.option)
        settings = try Self.settings(arguments, author: Self.author)
        settings.force = arguments.read(Self.force)
        writing = try WriteOptions(arguments)
        let service = try arguments.read(Self.service)
        confirmingService = arguments.read(Self.confirmVanished) ? service : nil
        if sources.filter({ $0 == "-" }).count > 1 {
            throw UsageError("Standard input ('-') can be read only once")
        }
    }

    /// Reads the download options and `author`, the command's `--author`, into settings.
    static func settings(_ arguments: ParsedArguments, author: DefaultedOption<String>) throws(UsageError)
        -> FetchSettings
    {
        var settings = FetchSettings()
        settings.timeout = try arguments.read(timeout)
        settings.maximumBytes = try arguments.read(maxBytes)
        settings.retries = try arguments.read(retries)
        settings.caBundle = try arguments.read(cacert)
        settings.author = try arguments.read(author)
        return settings
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let started = ContinuousClock.now
        let sources = try sources.map { argument throws(UsageError) in
            try FeedSource(argument, currentDirectory: environment.currentDirectory)
        }
        let database = try DatabaseLocation.writer(option: database, in: environment)
        try await database.checkWritable()
        var settings = settings
        settings.clock = environment.clock
        settings.trust(environment.variables)
        let progress = writing.showsProgress(in: environment) ? ProgressDisplay(output: environment.standardError) : nil
        let confirmingService = confirmingService
        let (outcomes, vanished) = try await database.whileHoldingWriter(waiting: writing.wait) { [settings] in
            let store = database.store()
            try await store.open()
            let drawing = progress.map { progress in Task { await progress.run() } }
            let outcomes = await Fetch(
                sources: sources, settings: settings, store: store,
                downloader: environment.downloader, progress: progress
            ).run()
            drawing?.cancel()
            await drawing?.value
            let confirmation = confirmingService.map { service in
                VanishedConfirmation(
                    service: service, settings: settings, store: store, database: database,
                    downloader: environment.downloader)
            }
            do {
                let vanished = try await VanishedEvents.check(
                    outcomes, database: database, store: store, confirmation: confirmation)
                return (outcomes, vanished)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // What was fetched is stored; only the look for vanished events failed.
                environment.standardError.writeLine("Warning: could not look for vanished events: \(error)")
                return (outcomes, [:])
            }
        }
        try Task.checkCancellation()

        let summary = FetchSummary(
            sources: sources, outcomes: outcomes, vanished: vanished, seconds: (ContinuousClock.now - started).seconds)
        for case let .failure(error) in outcomes { environment.standardError.writeLine("Error: \(error)") }
        writing.write(json: { summary.json() }, text: { summary.text() }, in: environment)
        return summary.exitStatus
    }

    /// With `--format json`, a fetch that fails as a whole (a usage error, the lock held, the
    /// database refused, an interruption) still writes its one JSON object, so a script piping it
    /// to `jq` always reads one.
    package static func failureOutput(_ arguments: [String], error: any Error, status: ExitStatus) -> String? {
        WriteOptions.jsonFailure(arguments, for: help) { FetchSummary.failure(error: error, status: status) }
    }
}

/// Reads byte counts such as `1048576`, `512K`, `100M`, `1G` or `2GiB` (powers of 1024).
enum ByteCount {
    static func parse(_ text: String) -> Int64? {
        var digits = text.uppercased()
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) {
            digits.removeLast(suffix.count)
            break
        }
        var multiplier: Int64 = 1
        if let unit = digits.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][unit] {
            multiplier = 1 << (10 * Int64(power))
            digits.removeLast()
        }
        guard let value = Int64(digits), value > 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
    }
}
