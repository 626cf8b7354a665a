import Foundation

/// `quakes fetch [SOURCE ...]`: downloads feeds and upserts them into the database, each source in
/// one transaction, several sources at once.
struct FetchCommand: Command {
    static let help = CommandHelp(
        commandName: "quakes fetch",
        abstract: "Download USGS earthquake feeds and store them in the database.",
        discussion: """
            Each source is stored in one transaction: all of it or, on any error, none of it. Events \
            are matched by id and by the other ids USGS lists for them; the version with the newest \
            'updated' time is kept. Prints one summary line per source on standard error; nothing \
            with --quiet unless something fails.
            """,
        arguments: [
            .init("source", help: """
                A USGS summary feed name ({significant,4.5,2.5,1.0,all}_{hour,day,week,month}), an http, \
                https or file URL, or the path of a GeoJSON file.
                """, isRepeating: true, isOptional: true, default: "all_day"),
        ],
        options: [
            DatabaseLocation.option,
            .init("timeout", value: "seconds", help: "The longest a download may take, time spent storing excluded.",
                  default: "60"),
            .init("max-bytes", value: "bytes", help: """
                The largest response accepted, after decompression; K, M and G suffixes count in 1024s.
                """, default: "1G"),
            .init("format", value: "format", help: "The summary's format: text (on standard error) or json (on standard output).",
                  default: "text"),
            .init("quiet", short: "q", help: "Print nothing on success (for cron)."),
        ])

    enum Format: String, Sendable {
        case text, json
    }

    var sources: [String]
    var databasePath: String?
    var timeout: Double
    var maximumBytes: Int64
    var format: Format
    var quiet: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        sources = arguments.positionals.isEmpty ? ["all_day"] : arguments.positionals
        databasePath = arguments.value("db")
        timeout = try arguments.value("timeout", expected: "a number of seconds greater than 0") { text in
            Double(text).flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        } ?? 60
        maximumBytes = try arguments.value("max-bytes", expected: "a number of bytes, such as 1048576, 512K, 100M or 1G",
                                           ByteCount.parse) ?? 1 << 30
        format = try arguments.value("format", expected: "text or json") { Format(rawValue: $0) } ?? .text
        quiet = arguments.flag("quiet")
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let sources = try sources.map { argument throws(UsageError) in
            try FeedSource(argument, currentDirectory: environment.currentDirectory)
        }
        let started = ContinuousClock.now
        let store = QuakeStore(path: DatabaseLocation.path(option: databasePath, in: environment))
        try await store.open()

        let outcomes = await withTaskGroup(of: (Int, Result<IngestReport, any Error>).self) { group in
            for (position, source) in sources.enumerated() {
                let ingest = FeedIngest(
                    source: source,
                    request: DownloadRequest(url: source.url, timeout: timeout, maximumBytes: maximumBytes,
                                             userAgent: "quakes/\(Quakes.version)"),
                    store: store,
                    downloader: environment.downloader)
                group.addTask {
                    do { return (position, .success(try await ingest.run())) } catch { return (position, .failure(error)) }
                }
            }
            var outcomes = [Result<IngestReport, any Error>?](repeating: nil, count: sources.count)
            for await (position, outcome) in group { outcomes[position] = outcome }
            return outcomes.compactMap { $0 }
        }

        let summary = FetchSummary(sources: sources, outcomes: outcomes, seconds: (ContinuousClock.now - started).seconds)
        for case let .failure(error) in outcomes { environment.standardError.writeLine("Error: \(error)") }
        switch format {
        case .json:
            environment.standardOutput.writeLine(summary.json().serialized())
        case .text where !quiet:
            environment.standardError.write(summary.text())
        case .text:
            break
        }
        return summary.exitStatus
    }
}

/// Reads byte counts such as `1048576`, `512K`, `100M`, `1G` or `2GiB` (powers of 1024).
enum ByteCount {
    static func parse(_ text: String) -> Int64? {
        var digits = text.uppercased()
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits.removeLast(suffix.count); break }
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
