/// `quakes show ID`: every field of one event, found by its id or any of its other ids.
package struct ShowCommand: BlockingCommand {
    package static let name = "show"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Show every field of one event, unknown properties included.",
        discussion: """
            The event is found by its id or by any id in its 'ids'. A missing id exits with status 1. \
            With --history, the event's versions follow, newest first: when each was stored, from \
            which source, and what it changed.
            """,
        arguments: [.init("id", help: "An event id, such as ci39746767.")],
        options: [
            DatabaseLocation.option.declaration, history.declaration, format.declaration,
            CommonOptions.utc.declaration,
        ])

    static let history = Flag(
        "history", help: "Also list the event's versions, newest first, from the database's history.")

    static let format = CommonOptions.format(Format.self, help: "table or json.", default: .table)

    enum Format: String, Sendable, CaseIterable {
        case table, json
    }

    var database: String?
    var id: String
    var format: Format
    var utc: Bool
    var withHistory: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 1)
        guard let id = arguments.positionals.first else { throw UsageError("Missing expected argument '<id>'") }
        self.id = id
        database = try arguments.read(DatabaseLocation.option)
        format = try arguments.read(Self.format)
        utc = arguments.read(CommonOptions.utc)
        withHistory = arguments.read(Self.history)
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        let zone = environment.zone(utc: utc)
        let database = try DatabaseLocation.reader(option: database, in: environment)
        if withHistory { try HistoryCommand.requireHistory(of: database, in: environment) }
        let (quake, versions) = try database.read(zone: zone) { reader in
            let quake = try reader.quake(withID: id)
            return (quake, withHistory && quake != nil ? try Self.versions(of: id, in: reader) : [])
        }
        guard let quake else { throw NotFoundError(id: id) }
        let extra = ExtraProperties(quake.extra)
        switch format {
        case .json:
            var members: [(String, JSONValue)] = [
                ("extra", quake.extra == nil ? .null : extra.object),
                ("generated", .string(quake.feedGenerated.map(CivilTime.iso8601))),
            ]
            if withHistory { members.append(("history", .array(versions.map(Self.json)))) }
            environment.standardOutput.writeLine(QuakeFormats.jsonObject(quake, extraMembers: members).serialized())
        case .table:
            environment.standardOutput.write(Self.table(quake, extra: extra, zone: zone))
            if withHistory { environment.standardOutput.write(Self.table(versions, zone: zone)) }
        }
        return .success
    }

    /// One change of the event in one transaction: a version stored, or its id deleted or merged.
    struct EventChange {
        var transaction: HistoryTransaction
        var change: HistoryChange
    }

    /// The changes of the event `id` leads to, under any of its ids, newest first.
    static func versions(of id: String, in reader: some QuakeReading) throws -> [EventChange] {
        let filter = HistoryChangeFilter(ids: try HistoryChangeFilter.ids(ofEvent: id, in: reader))
        var versions: [EventChange] = []
        try reader.forEachTransaction(after: 0, author: nil, withChanges: true, ofEvents: filter.ids) { transaction in
            for change in transaction.changes ?? [] where filter.matches(change) {
                var stored = transaction
                stored.changes = nil
                versions.append(EventChange(transaction: stored, change: change))
            }
            return true
        }
        return versions.reversed()
    }

    /// `{"token":…,"timestamp":…,"author":…,"source":…,"id":…,"change":…,"fields":{…}}`.
    static func json(_ version: EventChange) -> JSONValue {
        .object(HistoryCommand.origin(of: version.transaction) + HistoryCommand.members(of: version.change))
    }

    /// A heading, then a line per version: when, how, from where, then what changed.
    static func table(_ versions: [EventChange], zone: DisplayZone) -> String {
        var text = "\nhistory (\(zone.name)), newest first\n"
        if versions.isEmpty { text += "  (none recorded)\n" }
        for version in versions {
            let change = version.change
            text +=
                "  " + zone.dateAndTime(version.transaction.timestamp) + "  " + HistoryCommand.text(of: change) + "  "
                + TerminalText.escaped(version.transaction.source ?? version.transaction.author) + "\n"
            if let fields = HistoryCommand.fieldsText(change) { text += "    " + fields + "\n" }
        }
        return text
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
