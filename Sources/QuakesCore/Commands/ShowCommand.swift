/// `quakes show ID`: every field of one event, found by its id or any of its other ids.
package struct ShowCommand: BlockingCommand {
    package static let name = "show"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Show every field of one event, unknown properties included.",
        discussion: "The event is found by its id or by any id in its 'ids'. A missing id exits with status 1.",
        arguments: [.init("id", help: "An event id, such as ci39746767.")],
        options: [
            DatabaseLocation.option.declaration, format.declaration, CommonOptions.utc.declaration,
        ])

    static let format = CommonOptions.format(Format.self, help: "table or json.", default: .table)

    enum Format: String, Sendable, CaseIterable {
        case table, json
    }

    var database: String?
    var id: String
    var format: Format
    var utc: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 1)
        guard let id = arguments.positionals.first else { throw UsageError("Missing expected argument '<id>'") }
        self.id = id
        database = try arguments.read(DatabaseLocation.option)
        format = try arguments.read(Self.format)
        utc = arguments.read(CommonOptions.utc)
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        let zone = environment.zone(utc: utc)
        let quake = try DatabaseLocation.reader(option: database, in: environment).read(zone: zone) {
            try $0.quake(withID: id)
        }
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
    /// then the unknown properties; a detail feed's `products`, tens of kilobytes of JSON, as the
    /// count of each type (JSON keeps them whole).
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
            case ("mag", _) where quake.magnitude != nil: (name, FieldText.magnitude(quake.magnitude!))
            case ("depth", _) where quake.depth != nil: (name, FieldText.depth(quake.depth!))
            case (_, .null): (name, "-")
            case let (_, .string(text)): (name, text)
            default: (name, value.serialized())
            }
        }
        rows += extra.members.map { member in
            (
                "extra." + member.name,
                member.name == "products" ? ExtraProperties.productSummary(member.raw) : member.raw
            )
        }
        rows.append(("generated", time(quake.feedGenerated)))
        let width = rows.map { TerminalText.width($0.0) }.max() ?? 0
        return rows.map { name, value in
            TerminalText.padded(TerminalText.escaped(name), to: width) + "  " + TerminalText.escaped(value) + "\n"
        }.joined()
    }
}
