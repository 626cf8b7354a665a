/// `quakes list [FILTERS] [--sort SPEC] [--section KEY] [--limit N] [--format FORMAT]`: the events
/// that match, sorted and sectioned, streamed as they are read.
struct ListCommand: Command {
    static let help = CommandHelp(
        commandName: "quakes list",
        abstract: "List the stored events that match the filters, sorted and in sections.",
        discussion: """
            Sort keys: time (newest first), magnitude (highest first), significance (highest first), \
            depth (shallowest first), place (A to Z); :asc or :desc reverses one. Missing values come \
            last; ties go to the newest, then the lowest id. Sections come in the direction of the \
            first sort key when it is their own (time for day, magnitude for magnitude), else newest \
            or highest first.
            """,
        options: [DatabaseLocation.option] + FilterOptions.options + [
            .init(
                "sort", value: "spec",
                help: "KEY[:asc|:desc][,KEY…] with KEY one of time, magnitude, depth, place, significance.",
                default: "time"),
            CommonOptions.section,
            .init("limit", value: "n", help: "At most N events, the first in output order."),
            .init(
                "format", value: "format",
                help: "table, json, ndjson, csv or geojson. Machine formats write times in UTC.",
                default: "table"),
            CommonOptions.utc,
        ])

    var arguments: ParsedArguments
    var filters: FilterOptions
    var sort: SortSpec
    var section: SectionKey?
    var limit: Int?
    var format: ListFormat

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        self.arguments = arguments
        filters = try FilterOptions(arguments)
        sort = try arguments.value("sort", expected: SortSpec.form) { SortSpec(parsing: $0) } ?? .time
        section = try CommonOptions.section(arguments)
        limit = try arguments.value("limit", expected: "a whole number of events, 0 or more") { text in
            Int(text).flatMap { $0 >= 0 ? $0 : nil }
        }
        format =
            try arguments.value("format", expected: ListFormat.form) { ListFormat(rawValue: $0.lowercased()) } ?? .table
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        var query = QuakeQuery()
        query.filter = try filters.filter(in: environment)
        query.sort = sort
        query.section = section
        query.limit = limit
        query.zone = CommonOptions.zone(arguments, in: environment)
        let path = DatabaseLocation.path(option: arguments.value("db"), in: environment)
        let format = format
        try await Blocking.run { [query] in
            try QueryRunner.reading(path, zone: query.zone) { runner in
                var writer = Self.writer(for: format, zone: query.zone, in: environment)
                try Listing(query: query, runner: runner).write(to: &writer, output: environment.standardOutput)
            }
        }
        return .success
    }

    static func writer(for format: ListFormat, zone: DisplayZone, in environment: Environment) -> any ListingWriter {
        let output = environment.standardOutput
        switch format {
        case .table:
            return TableListingWriter(
                output: output, zone: zone, colour: environment.usesColour,
                columns: environment.terminalColumns)
        case .json: return JSONListingWriter(output: output)
        case .ndjson: return NDJSONListingWriter(output: output)
        case .csv: return CSVListingWriter(output: output)
        case .geojson: return GeoJSONListingWriter(output: output)
        }
    }
}

/// Runs a query and hands its sections and events to a writer, stopping when the reader of the
/// output goes away.
struct Listing {
    var query: QuakeQuery
    var runner: QueryRunner

    func write(to writer: inout some ListingWriter, output: any TextOutput) throws {
        var sections: [(section: QuerySection, shown: Int)] = []
        if query.section != nil {
            var remaining = query.limit ?? Int.max
            for section in try runner.sections(query) where remaining > 0 {
                let shown = min(section.count, remaining)
                sections.append((section, shown))
                remaining -= shown
            }
        }
        let shownBySection = Dictionary(uniqueKeysWithValues: sections.map { ($0.section.id, $0.shown) })
        writer.begin(sectioned: query.section != nil)
        var current: QuerySection?
        try runner.forEachQuake(query, sections: sections.map(\.section)) { quake, section in
            if let section, section.id != current?.id {
                if current != nil { writer.endSection() }
                writer.beginSection(section, shown: shownBySection[section.id] ?? 0)
                current = section
            }
            writer.write(quake, section: section)
            return !output.isClosed
        }
        if current != nil { writer.endSection() }
        writer.end()
    }
}
