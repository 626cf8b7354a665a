/// `quakes show ID`: every field of one event, found by its id or any of its other ids.
struct ShowCommand: Command {
    static let help = CommandHelp(
        commandName: "quakes show",
        abstract: "Show every field of one event, unknown properties included.",
        discussion: "The event is found by its id or by any id in its 'ids'. A missing id exits with status 1.",
        arguments: [.init("id", help: "An event id, such as ci39746767.")],
        options: [
            DatabaseLocation.option,
            .init("format", value: "format", help: "table or json.", default: "table"),
            CommonOptions.utc,
        ])

    enum Format: String, Sendable {
        case table, json
    }

    var arguments: ParsedArguments
    var id: String
    var format: Format

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 1)
        guard let id = arguments.positionals.first else { throw UsageError("Missing expected argument '<id>'") }
        self.arguments = arguments
        self.id = id
        format = try arguments.value("format", expected: "table or json") { Format(rawValue: $0) } ?? .table
    }

    func run(in environment: Environment) async throws -> ExitStatus {
        let zone = CommonOptions.zone(arguments, in: environment)
        let path = DatabaseLocation.path(option: arguments.value("db"), in: environment)
        let id = id
        let quake = try await Blocking.run { try QueryRunner.reading(path, zone: zone) { try $0.quake(withID: id) } }
        guard let quake else { throw NotFoundError(id: id) }
        let extra = ExtraProperties(quake.extra)
        switch format {
        case .json:
            let members: [(String, JSONValue)] = [
                ("extra", quake.extra == nil ? .null : extra.object),
                ("generated", .string(quake.feedGenerated.map(CivilTime.iso8601))),
            ]
            environment.standardOutput.writeLine(QuakeFormats.jsonObject(quake, extraMembers: members).serialized())
        case .table:
            environment.standardOutput.write(Self.table(quake, extra: extra, zone: zone))
        }
        return .success
    }

    /// `field  value` lines: every field in the JSON order, times in both the local zone and UTC,
    /// then the unknown properties.
    static func table(_ quake: Quake, extra: ExtraProperties, zone: DisplayZone) -> String {
        func time(_ milliseconds: Int64?) -> String {
            guard let milliseconds else { return "-" }
            let local = zone.fields(milliseconds)
            return "\(CivilTime.date(local)) \(CivilTime.clock(local)).\(CivilTime.pad(local.millisecond, 3)) "
                + "\(zone.offsetText(at: milliseconds)) (\(CivilTime.iso8601(milliseconds)))"
        }
        var rows = zip(QuakeFormats.fieldNames, QuakeFormats.values(quake)).map { name, value -> (String, String) in
            switch (name, value) {
            case ("time", _): (name, time(quake.time))
            case ("updated", _): (name, time(quake.updated))
            case (_, .null): (name, "-")
            case let (_, .string(text)): (name, text)
            default: (name, value.serialized())
            }
        }
        rows += extra.members.map { ("extra." + $0.name, $0.raw) }
        rows.append(("generated", time(quake.feedGenerated)))
        let width = rows.map { TerminalText.width($0.0) }.max() ?? 0
        return rows.map { name, value in
            TerminalText.padded(TerminalText.escaped(name), to: width) + "  " + TerminalText.escaped(value) + "\n"
        }.joined()
    }
}
