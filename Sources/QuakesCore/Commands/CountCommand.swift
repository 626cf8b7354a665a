/// `quakes count [FILTERS] [--section KEY]`: how many events match, counted by the database.
package struct CountCommand: BlockingCommand {
    package static let name = "count"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Count the stored events that match the filters.",
        discussion: """
            Prints one integer. With --section, the count of every non-empty section instead, in the \
            key's natural order: days newest first, magnitude bands highest first, unknown last.
            """,
        options: [DatabaseLocation.option.declaration] + FilterOptions.options + [
            CommonOptions.section.declaration, format.declaration, CommonOptions.utc.declaration,
        ])

    static let format = CommonOptions.format(Format.self, help: "table (also text), json or csv.", default: .table)

    enum Format: String, Sendable, CaseIterable {
        case table, json, csv
    }

    var database: String?
    var filters: FilterOptions
    var section: SectionKey?
    var format: Format
    var utc: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        filters = try FilterOptions(arguments)
        section = try arguments.read(CommonOptions.section)
        format = try arguments.read(Self.format)
        utc = arguments.read(CommonOptions.utc)
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        var query = QuakeQuery()
        query.zone = environment.zone(utc: utc)
        query.filter = try filters.resolvingPlace(in: environment).filter(in: environment, zone: query.zone)
        query.section = section
        let text = try DatabaseLocation.reader(option: database, in: environment).read(zone: query.zone) {
            reader in
            guard query.section != nil else { return String(try reader.count(query.filter)) + "\n" }
            return Self.render(try reader.sections(query), zone: query.zone, as: format)
        }
        environment.standardOutput.write(text)
        return .success
    }

    /// Sections as aligned `id  title  count` lines, a JSON array, or CSV rows; the machine formats
    /// name the zone their calendar sections are days, hours, weeks or months of.
    static func render(_ sections: [QuerySection], zone: DisplayZone, as format: Format) -> String {
        switch format {
        case .json:
            return JSONValue.array(
                sections.map { section in
                    .object([
                        ("id", .string(section.id)), ("title", .string(section.title)),
                        ("count", .integer(section.count)), ("zone", .string(zone.name)),
                    ])
                }
            ).serialized() + "\n"
        case .csv:
            return "section,title,count,zone\r\n"
                + sections.map { section in
                    "\(QuakeFormats.csvQuoted(section.id)),\(QuakeFormats.csvQuoted(section.title)),\(section.count),"
                        + "\(QuakeFormats.csvQuoted(zone.name))\r\n"
                }.joined()
        case .table:
            guard !sections.isEmpty else { return QuakeQuery.nothingMatches + "\n" }
            let idWidth = sections.map { TerminalText.width(TerminalText.escaped($0.id)) }.max() ?? 0
            let titleWidth = sections.map { TerminalText.width(TerminalText.escaped($0.title)) }.max() ?? 0
            let countWidth = sections.map { String($0.count).count }.max() ?? 0
            return sections.map { section in
                TerminalText.padded(TerminalText.escaped(section.id), to: idWidth) + "  "
                    + TerminalText.padded(TerminalText.escaped(section.title), to: titleWidth) + "  "
                    + String(section.count).leftPadded(to: countWidth, with: " ") + "\n"
            }.joined()
        }
    }
}
