/// `quakes count [FILTERS] [--section KEY]`: how many events match, counted by the database.
struct CountCommand: Command {
    static let help = CommandHelp(
        commandName: "quakes count",
        abstract: "Count the stored events that match the filters.",
        discussion: """
            Prints one integer. With --section, the count of every non-empty section instead, in the \
            key's natural order: days newest first, magnitude bands highest first, unknown last.
            """,
        options: [DatabaseLocation.option] + FilterOptions.options + [
            CommonOptions.section,
            .init("format", value: "format", help: "text, json or csv.", default: "text"),
            CommonOptions.utc,
        ])

    enum Format: String, Sendable {
        case text, json, csv
    }

    var arguments: ParsedArguments
    var filters: FilterOptions
    var section: SectionKey?
    var format: Format

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        self.arguments = arguments
        filters = try FilterOptions(arguments)
        section = try CommonOptions.section(arguments)
        format = try arguments.value("format", expected: "text, json or csv") { Format(rawValue: $0) } ?? .text
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        var query = QuakeQuery()
        query.filter = try filters.filter(in: environment)
        query.section = section
        query.zone = CommonOptions.zone(arguments, in: environment)
        let path = DatabaseLocation.path(option: arguments.value("db"), in: environment)
        let format = format
        let text = try await Blocking.run { [query] in
            try QueryRunner.reading(path, zone: query.zone) { runner in
                guard query.section != nil else { return String(try runner.count(query.filter)) + "\n" }
                return Self.render(try runner.sections(query), as: format)
            }
        }
        environment.standardOutput.write(text)
        return .success
    }

    /// Sections as aligned `id  title  count` lines, a JSON array, or CSV rows.
    static func render(_ sections: [QuerySection], as format: Format) -> String {
        switch format {
        case .json:
            return JSONValue.array(
                sections.map { section in
                    .object([
                        ("id", .string(section.id)), ("title", .string(section.title)),
                        ("count", .integer(section.count)),
                    ])
                }
            ).serialized() + "\n"
        case .csv:
            return "section,title,count\r\n"
                + sections.map { section in
                    "\(QuakeFormats.csvQuoted(section.id)),\(QuakeFormats.csvQuoted(section.title)),\(section.count)\r\n"
                }.joined()
        case .text:
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
