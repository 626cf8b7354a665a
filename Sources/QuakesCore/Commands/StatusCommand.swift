/// `quakes status [--fresh-within DURATION]`: what the database holds and how current it is, for
/// people and for monitoring.
package struct StatusCommand: BlockingCommand {
    package static let name = "status"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Show what the database holds and when each source was last fetched.",
        discussion: """
            The database, its schema version, its events and tombstones, their time range, the newest \
            event, the newest history token, and for each source when a fetch of it last succeeded (a \
            stored download or a 304 Not Modified), with its validators. With --fresh-within it exits \
            with status 1 when no fetch succeeded in that time: a check for monitoring.
            """,
        options: [
            DatabaseLocation.option.declaration, freshWithin.declaration, now.declaration, format.declaration,
            CommonOptions.utc.declaration,
        ])

    static let freshWithin = ValueOption(
        "fresh-within", value: "duration",
        help: "Exit with status 1 unless a fetch succeeded within DURATION (2h, 30m…) of now.",
        expected: TimeExpression.durationForm, TimeExpression.duration)
    static let now = FilterOptions.now(help: "The moment taken as now.")
    static let format = CommonOptions.format(Format.self, help: "table or json.", default: .table)

    enum Format: String, Sendable, CaseIterable {
        case table, json
    }

    var database: String?
    var freshWithin: Int64?
    var now: TimeExpression.Moment?
    var format: Format
    var utc: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        freshWithin = try arguments.read(Self.freshWithin)
        now = try arguments.read(Self.now)
        format = try arguments.read(Self.format)
        utc = arguments.read(CommonOptions.utc)
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        let zone = environment.zone(utc: utc)
        let now = try FilterOptions.now(now, in: environment, zone: zone)
        let database = try DatabaseLocation.reader(option: database, in: environment)
        let status = try database.read(zone: .utc) { try $0.status() }
        let checksRecorded = database.engine.capabilities.contains(.recordsChecks)
        if freshWithin != nil, !checksRecorded {
            let engine = database.engine
            throw UsageError(
                "\(status.path) does not record when a fetch last succeeded (it is \(engine.kind)"
                    + (engine.limitation.map { ", and \($0)" } ?? "") + "), so --fresh-within cannot tell; keep "
                    + "the catalogue in \(environment.engines.suggestions(for: .recordsChecks)) to monitor it this way")
        }
        let fresh = freshWithin.map { window in (status.lastSuccess ?? .min) >= now - window }
        switch format {
        case .json:
            environment.standardOutput.writeLine(
                Self.json(status, checksRecorded: checksRecorded, fresh: fresh).serialized())
        case .table: environment.standardOutput.write(Self.table(status, checksRecorded: checksRecorded, zone: zone))
        }
        guard fresh == false, let freshWithin else { return .success }
        let last = status.lastSuccess.map { "the last one: \(Self.time($0, zone: zone))" } ?? "none ever did"
        environment.standardError.writeLine(
            "Error: no fetch succeeded within \(formatDuration(freshWithin)) of \(Self.time(now, zone: zone)) (\(last))"
        )
        return .failure
    }

    /// `{"database":…,"schemaVersion":n,"events":n,"tombstones":n,"earliest":…,"latest":…,
    /// "newest":{quake}|null,"lastToken":n,"lastSuccess":…,"checksRecorded":b,"sources":[…]}`, and `"fresh"` with `--fresh-within`.
    static func json(_ status: DatabaseStatus, checksRecorded: Bool, fresh: Bool?) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("database", .string(status.path)),
            ("schemaVersion", .integer(Int64(status.schemaVersion))),
            ("events", .integer(status.events)),
            ("tombstones", .integer(status.tombstones)),
            ("earliest", .string(status.earliest.map(CivilTime.iso8601))),
            ("latest", .string(status.latest.map(CivilTime.iso8601))),
            ("newest", status.newest.map { QuakeFormats.jsonObject($0) } ?? .null),
            ("lastToken", .integer(status.lastToken)),
            ("lastSuccess", .string(status.lastSuccess.map(CivilTime.iso8601))),
            ("checksRecorded", .bool(checksRecorded)),
            (
                "sources",
                .array(
                    status.sources.map { source in
                        .object([
                            ("url", .string(source.url)),
                            ("checked", .string(source.checked.map(CivilTime.iso8601))),
                            ("outcome", .string(source.outcome)),
                            ("etag", .string(source.etag)),
                            ("lastModified", .string(source.lastModified)),
                        ])
                    })
            ),
        ]
        if let fresh { members.append(("fresh", .bool(fresh))) }
        return .object(members)
    }

    /// `name  value` lines, times in the display zone.
    static func table(_ status: DatabaseStatus, checksRecorded: Bool, zone: DisplayZone) -> String {
        var rows: [(String, String)] = [
            ("database", status.path),
            ("schema", "version \(status.schemaVersion)"),
            ("events", String(status.events)),
            ("tombstones", String(status.tombstones)),
        ]
        if let earliest = status.earliest, let latest = status.latest {
            rows.append(("time range", "\(time(earliest, zone: zone)) to \(time(latest, zone: zone))"))
        }
        if let newest = status.newest {
            let magnitude = newest.magnitude.map { "M \(JSONValue.number($0))" } ?? "M ?"
            rows.append(
                ("newest event", "\(newest.id), \(magnitude), \(newest.place ?? "-"), \(time(newest.time, zone: zone))")
            )
        }
        rows.append(("history token", String(status.lastToken)))
        rows.append(
            (
                "last success",
                checksRecorded ? status.lastSuccess.map { time($0, zone: zone) } ?? "never" : "not recorded"
            ))
        for source in status.sources {
            rows.append(("source", source.url))
            if checksRecorded {
                rows.append(
                    ("  checked", source.checked.map { "\(time($0, zone: zone)) (\(source.outcome ?? "ok"))" } ?? "-"))
            }
            if let etag = source.etag { rows.append(("  etag", etag)) }
            if let lastModified = source.lastModified { rows.append(("  last modified", lastModified)) }
        }
        let width = rows.map { TerminalText.width($0.0) }.max() ?? 0
        return rows.map { name, value in
            TerminalText.padded(name, to: width) + "  " + TerminalText.escaped(value) + "\n"
        }.joined()
    }

    /// `2021-07-22 20:39:44 UTC`: a moment in the display zone.
    static func time(_ milliseconds: Int64, zone: DisplayZone) -> String {
        "\(zone.dateAndTime(milliseconds)) \(zone.name)"
    }
}

/// `2h`, `90m`, `1.5d`: a duration as `--last` takes it, in its largest whole unit.
func formatDuration(_ milliseconds: Int64) -> String {
    for (unit, size) in [("w", Int64(604_800_000)), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
    where milliseconds >= size && milliseconds % size == 0 {
        return "\(milliseconds / size)\(unit)"
    }
    return "\(formatSeconds(Double(milliseconds) / 1000))s"
}
