/// `quakes list [FILTERS] [--sort SPEC] [--section KEY] [--limit N] [--format FORMAT]`: the events
/// that match, sorted and sectioned, streamed as they are read.
package struct ListCommand: BlockingCommand {
    package static let name = "list"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "List the stored events that match the filters, sorted and in sections.",
        discussion: """
            Sort keys: time (newest first), magnitude (highest first), significance (highest first), \
            depth (shallowest first), place (A to Z, ignoring case and accents), distance (nearest \
            first, with --near); :asc or :desc reverses one. Missing values come last; ties go to the \
            newest, then the lowest id. Sections come in the direction of the first sort key when it \
            is their own (time for day, magnitude for magnitude), else newest or highest first.
            """,
        options: [DatabaseLocation.option.declaration] + FilterOptions.options + [
            sort.declaration, CommonOptions.section.declaration, limit.declaration,
            CommonOptions.limitPerSection.declaration, format.declaration, CommonOptions.color.declaration,
            CommonOptions.utc.declaration,
        ])

    static let sort = sort(
        help: "KEY[:asc|:desc][,KEY…] with KEY one of time, magnitude, depth, place, significance, distance.")
    static let limit = CommonOptions.limit(help: "At most N events, the first in output order.")
    static let format = CommonOptions.format(
        ListFormat.self, help: "table, json, ndjson, csv or geojson. Machine formats write times in UTC.",
        default: .table)

    var database: String?
    var filters: FilterOptions
    var sort: SortSpec
    var section: SectionKey?
    var limit: Int?
    var limitPerSection: Int?
    var format: ListFormat
    var color: CommonOptions.ColorChoice
    var utc: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        filters = try FilterOptions(arguments)
        sort = try Self.sort(arguments, Self.sort, measuresDistance: filters.measuresDistance)
        section = try arguments.read(CommonOptions.section)
        (limit, limitPerSection) = try CommonOptions.limits(arguments, limit: Self.limit, sectioned: section != nil)
        format = try arguments.read(Self.format)
        color = try arguments.read(CommonOptions.color)
        utc = arguments.read(CommonOptions.utc)
    }

    /// `--sort`, with the help of the command that takes it.
    static func sort(help: String) -> DefaultedOption<SortSpec> {
        ValueOption(
            "sort", value: "spec", help: help, default: "time", choices: SortSpec.choices, expected: SortSpec.form
        ) { SortSpec(parsing: $0) }
        .defaulting(to: .time)
    }

    /// `--sort`, as `option` declares it, read; `distance` needs the point of `--near`.
    static func sort(_ arguments: ParsedArguments, _ option: DefaultedOption<SortSpec>, measuresDistance: Bool)
        throws(UsageError) -> SortSpec
    {
        let sort = try arguments.read(option)
        if sort.needsOrigin, !measuresDistance {
            throw UsageError("'--sort distance' needs '--near <lat,lon>', the point distances are measured from")
        }
        return sort
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        let filters = try filters.resolvingPlace(in: environment)
        var query = QuakeQuery()
        query.zone = environment.zone(utc: utc)
        query.filter = try filters.filter(in: environment, zone: query.zone)
        query.sort = sort
        query.section = section
        query.limit = limit
        query.limitPerSection = limitPerSection
        query.origin = filters.origin
        let colour = color.usesColour(in: environment)
        try DatabaseLocation.reader(option: database, in: environment).read(zone: query.zone) { reader in
            var writer = Self.writer(for: format, query: query, colour: colour, in: environment)
            try Listing(query: query, reader: reader).write(to: &writer, output: environment.standardOutput)
        }
        return .success
    }

    static func writer(for format: ListFormat, query: QuakeQuery, colour: Bool, in environment: Environment)
        -> any ListingWriter
    {
        let output = environment.standardOutput
        let context = ListingContext(origin: query.origin, zone: query.zone)
        switch format {
        case .table:
            return TableListingWriter(
                output: output, zone: query.zone, colour: colour, columns: environment.terminalColumns,
                origin: query.origin, whenEmpty: query.asksForEvents ? QuakeQuery.nothingMatches : nil)
        case .json: return JSONListingWriter(output: output, context: context)
        case .ndjson: return NDJSONListingWriter(output: output, context: context)
        case .csv: return CSVListingWriter(output: output, context: context)
        case .geojson: return GeoJSONListingWriter(output: output)
        }
    }
}

/// Runs a query and hands its sections and events to a writer, stopping when the reader of the
/// output goes away.
struct Listing {
    var query: QuakeQuery
    var reader: any QuakeReading

    func write(to writer: inout some ListingWriter, output: any TextOutput) throws {
        let sections = try reader.sections(query)
        let shownBySection = Dictionary(
            uniqueKeysWithValues: query.shown(in: sections).map { ($0.section.id, $0.shown) })
        writer.begin(sectioned: query.section != nil)
        var current: QuerySection?
        try reader.forEachRow(query, sections: sections) { row, section in
            if let section, section.id != current?.id {
                if current != nil { writer.endSection() }
                writer.beginSection(section, shown: shownBySection[section.id] ?? 0)
                current = section
            }
            writer.write(row: row, section: section)
            return !output.isClosed
        }
        if current != nil { writer.endSection() }
        writer.end()
    }
}

extension QuakeQuery {
    /// The sections that show events, each with how many it shows once `limit` and
    /// `limitPerSection` have cut the listing.
    func shown(in sections: [QuerySection]) -> [(section: QuerySection, shown: Int)] {
        var remaining = limit ?? Int.max
        var shown: [(section: QuerySection, shown: Int)] = []
        for section in sections where remaining > 0 {
            let count = min(section.count, remaining, limitPerSection ?? Int.max)
            guard count > 0 else { continue }
            shown.append((section, count))
            remaining -= count
        }
        return shown
    }
}
