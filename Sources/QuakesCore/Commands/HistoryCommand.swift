/// `quakes history`: the persistent history, a transaction log with tokens and authors, for scripts
/// that want to know what changed since they last looked.
package struct HistoryCommand: BlockingCommand {
    package static let name = "history"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "List the transactions that changed the database, and what they changed.",
        discussion: """
            Every fetch or prune that changes the store records one transaction with a strictly \
            increasing token. To follow changes from a script: t=$(cat state); quakes history --since \
            "$t" --changes --format ndjson; quakes history --last-token > state. Each update records \
            the fields it changed, old and new, and each deletion the event's last values; --id, \
            --field and --min-change list only the changes they match, and imply --changes.
            """,
        options: [
            DatabaseLocation.option.declaration, since.declaration, author.declaration, changes.declaration,
            id.declaration, field.declaration, minChange.declaration, lastToken.declaration, format.declaration,
            CommonOptions.utc.declaration,
        ])

    static let since = ValueOption(
        "since", value: "token", help: "Only transactions after TOKEN (exclusive).", default: "0",
        expected: "a token, a whole number 0 or more"
    ) { Int64($0).flatMap { $0 >= 0 ? $0 : nil } }
    .defaulting(to: 0)
    /// Any text, as the history records it.
    static let author = ValueOption(
        "author", value: "name", help: "Only transactions by NAME: fetch, watch, prune, or a fetch's --author.",
        expected: "a name"
    ) { $0 }
    static let changes = Flag("changes", help: "Include each transaction's changed event ids and how they changed.")
    static let id = ValueOption(
        "id", value: "id", help: "Only the changes of the event ID, under any of its ids.", expected: "an event id"
    ) { $0.isEmpty ? nil : $0 }
    static let field = ValueOption(
        "field", value: "name", help: "Only updates that changed the field NAME, such as mag or place.",
        choices: HistoryChangeFilter.fieldNames,
        expected: "a field: " + HistoryChangeFilter.fieldNames.joined(separator: ", "), HistoryChangeFilter.field)
    static let minChange = ValueOption(
        "min-change", value: "x", help: "With a numeric --field: only changes of it by at least X, up or down.",
        expected: "a number 0 or more"
    ) { Double($0).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
    static let lastToken = Flag("last-token", help: "Print only the newest token (0 when there is none).")
    static let format = CommonOptions.format(Format.self, help: "table, json or ndjson.", default: .table)

    enum Format: String, Sendable, CaseIterable {
        case table, json, ndjson
    }

    var database: String?
    var utc: Bool
    var since: Int64
    var author: String?
    var withChanges: Bool
    var lastTokenOnly: Bool
    var format: Format
    /// The event whose story is asked for, by any of its ids.
    var eventID: String?
    /// The changes asked for, but for the event's ids, which only the database knows.
    var filter: HistoryChangeFilter

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        utc = arguments.read(CommonOptions.utc)
        since = try arguments.read(Self.since)
        author = try arguments.read(Self.author)
        withChanges = arguments.read(Self.changes)
        lastTokenOnly = arguments.read(Self.lastToken)
        format = try arguments.read(Self.format)
        eventID = try arguments.read(Self.id)
        filter = HistoryChangeFilter(
            field: try arguments.read(Self.field), minimumChange: try arguments.read(Self.minChange))
        if filter.minimumChange != nil {
            guard let field = filter.field else {
                throw UsageError("'--min-change' needs '--field', the field it measures")
            }
            guard field.kind != .text, !field.isTime else {
                throw UsageError("'--min-change' measures a numeric field, and '--field \(field.name)' is not one")
            }
        }
        withChanges = withChanges || eventID != nil || filter.field != nil
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        let database = try DatabaseLocation.reader(option: database, in: environment)
        if !lastTokenOnly { try Self.requireHistory(of: database, in: environment) }
        let zone = environment.zone(utc: utc)
        let output = environment.standardOutput
        try database.read(zone: .utc) { reader in
            if lastTokenOnly {
                output.writeLine(String(try reader.lastToken()))
                return
            }
            var filter = filter
            if let eventID { filter.ids = try HistoryChangeFilter.ids(ofEvent: eventID, in: reader) }
            var first = true
            if format == .json { output.write("[") }
            try reader.forEachTransaction(
                after: since, author: author, withChanges: withChanges, ofEvents: filter.ids
            ) { transaction in
                var transaction = transaction
                if !filter.keepsEverything {
                    transaction.changes = transaction.changes?.filter(filter.matches)
                    // A transaction none of whose changes match is left out, as it is not asked for.
                    guard transaction.changes?.isEmpty == false else { return !output.isClosed }
                }
                switch format {
                case .json: output.write((first ? "\n" : ",\n") + Self.json(transaction).serialized())
                case .ndjson: output.writeLine(Self.json(transaction).serialized())
                case .table:
                    if first {
                        output.writeLine(
                            "TOKEN  TIME (\(zone.name))".padding(to: 28)
                                + "AUTHOR      INSERTED   UPDATED   DELETED  SOURCE")
                    }
                    output.write(Self.table(transaction, zone: zone))
                }
                first = false
                return !output.isClosed
            }
            if format == .json { output.write(first ? "]\n" : "\n]\n") }
            // A table with no transaction says so, rather than showing a heading over nothing.
            if format == .table, first { output.writeLine(Self.nothingMatches) }
        }
        return .success
    }

    /// Refuses a database whose engine keeps no history, naming those that do.
    static func requireHistory(of database: any DatabaseReader, in environment: Environment) throws(UsageError) {
        guard !database.engine.capabilities.contains(.keepsHistory) else { return }
        throw UsageError(
            "\(database.name) is \(database.engine.kind), which keeps no history of transactions (only its last "
                + "token, for 'quakes history --last-token' and 'quakes watch'); keep the catalogue in "
                + "\(environment.engines.suggestions(for: .keepsHistory)) to list its history")
    }

    /// What the table prints when no transaction is listed.
    static let nothingMatches = "No transactions match."

    /// `{"token":n,"timestamp":…,"author":…,"source":…,"inserted":n,"updated":n,"deleted":n,"changes":[…]}`.
    static func json(_ transaction: HistoryTransaction) -> JSONValue {
        var members =
            origin(of: transaction) + [
                ("inserted", .integer(transaction.inserted)),
                ("updated", .integer(transaction.updated)),
                ("deleted", .integer(transaction.deleted)),
            ]
        if let changes = transaction.changes {
            members.append(("changes", .array(changes.map { .object(Self.members(of: $0)) })))
        }
        return .object(members)
    }

    /// `"token":n,"timestamp":…,"author":…,"source":…`: where a transaction's changes came from.
    static func origin(of transaction: HistoryTransaction) -> [(String, JSONValue)] {
        [
            ("token", .integer(transaction.token)),
            ("timestamp", .string(CivilTime.iso8601(transaction.timestamp))),
            ("author", .string(transaction.author)),
            ("source", .string(transaction.source)),
        ]
    }

    /// `"id":…,"change":…`, then `"mergedInto"` for an id absorbed by another, and `"fields"`:
    /// `{"mag":[5.7,5.4]}` for an update or a deletion, `null` for one recorded before the history
    /// kept fields (or not known); nothing for an insert.
    static func members(of change: HistoryChange) -> [(String, JSONValue)] {
        [("id", .string(change.id)), ("change", .string(change.kind.rawValue))]
            + (change.mergedInto.map { [("mergedInto", JSONValue.string($0))] } ?? [])
            + (change.kind == .insert ? [] : [("fields", change.fields.map { .object($0.map(\.json)) } ?? .null)])
    }

    /// `update  us7000enmc`, `delete  ak02198hmo8v (merged into us7000enm4)`: a change as tables
    /// name it.
    static func text(of change: HistoryChange) -> String {
        change.kind.rawValue.padding(to: 8) + TerminalText.escaped(change.id)
            + (change.mergedInto.map { " (merged into \(TerminalText.escaped($0)))" } ?? "")
    }

    /// `mag 5.7→5.4, place "A"→"B"`, or what the history knows of a change without fields.
    static func fieldsText(_ change: HistoryChange) -> String? {
        guard change.kind != .insert else { return nil }
        guard let fields = change.fields else { return "(fields not recorded)" }
        if change.kind == .delete {
            return "was " + fields.map(\.oldText).joined(separator: ", ")
        }
        return fields.isEmpty ? "(only its update time changed)" : fields.map(\.text).joined(separator: ", ")
    }

    /// One aligned line per transaction, then, indented, one per change.
    static func table(_ transaction: HistoryTransaction, zone: DisplayZone) -> String {
        var text =
            String(transaction.token).leftPadded(to: 5, with: " ") + "  "
            + zone.dateAndTime(transaction.timestamp).padding(to: 21)
            + TerminalText.escaped(transaction.author).padding(to: 10)
            + String(transaction.inserted).leftPadded(to: 10, with: " ")
            + String(transaction.updated).leftPadded(to: 10, with: " ")
            + String(transaction.deleted).leftPadded(to: 10, with: " ") + "  "
            + TerminalText.escaped(transaction.source ?? "-") + "\n"
        for change in transaction.changes ?? [] {
            text += "       " + Self.text(of: change) + (fieldsText(change).map { "  " + $0 } ?? "") + "\n"
        }
        return text
    }
}

extension String {
    /// The text followed by spaces up to `width` columns (at least one space when it is longer).
    func padding(to width: Int) -> String {
        TerminalText.padded(self, to: width - 1) + " "
    }
}
