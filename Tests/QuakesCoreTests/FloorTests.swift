import Foundation
import QuakesCore
import SQLite
import SQLiteEngine
import Testing

/// `quakes-floor`, the floors of `make bench`: a floor is only a bound if it does the case's work,
/// so the ingest floor must write every row a fetch stored into the same schema, and the read
/// floor must read every row the export reads.
@Suite struct FloorTests {
    static let floor = BinaryTests.product("quakes-floor")

    /// A database two fetches wrote: updates, aliases, history of two transactions, feed state.
    private func fetched(into folder: TemporaryDirectory) async throws -> String {
        let database = folder.file("source.sqlite")
        for feed in [Fixtures.weekBefore, Fixtures.weekAfter] {
            let fetch = try await ChildProcess.run(
                BinaryTests.executable, ["fetch", "-q", "--db", database, "file://" + Fixtures.path(feed)],
                environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
            #expect(fetch.status == 0, "\(fetch.errors)")
        }
        return database
    }

    /// Every row of `table`, as text, sorted: equal lists mean equal tables.
    private func rows(of table: String, in connection: Connection) throws -> [String] {
        let all = try connection.prepare("SELECT * FROM \"\(table)\"")
        var rows: [String] = []
        while try all.step() {
            rows.append(
                (0..<all.columnCount).map { all.string(at: $0) ?? "NULL" }.joined(separator: "\u{1F}"))
        }
        return rows.sorted()
    }

    /// The ingest floors: one INSERT a row, the bulk load (many rows an INSERT, in statements of the
    /// largest size and one-row ones for the rest, indexes built last), and the bulk load in the
    /// order a fetch writes the rows.
    @Test(arguments: ["ingest", "bulk", "streamed"]) func theIngestFloorCopiesEveryRowIntoTheSameSchema(mode: String)
        async throws
    {
        let folder = try TemporaryDirectory()
        let source = try await fetched(into: folder)
        let target = folder.file("floor.sqlite")
        let run = try await ChildProcess.run(Self.floor, [mode, source, target])
        #expect(run.status == 0, "\(run.errors)")
        let fields = run.output.split(separator: " ")
        #expect(fields.count == 2 && Double(fields[0]) != nil)

        let old = try Connection(path: source, mode: .readOnly)
        let new = try Connection(path: target, mode: .readOnly)
        func schema(_ connection: Connection) throws -> [String] {
            let statement = try connection.prepare(
                "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
            var entries: [String] = []
            while try statement.step() { entries.append(statement.string(at: 0) ?? "") }
            return entries
        }
        #expect(try schema(new) == schema(old))
        #expect(try new.userVersion() == old.userVersion())
        #expect(try new.applicationID() == old.applicationID())
        #expect(try new.pragma("journal_mode") == "wal")
        #expect(try new.pragma("integrity_check") == "ok")

        let tables = try old.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        var total = 0
        while try tables.step() {
            let table = tables.string(at: 0) ?? ""
            let copied = try rows(of: table, in: new)
            #expect(copied == (try rows(of: table, in: old)), "\(table)")
            if !table.hasPrefix("sqlite_") { total += copied.count }
        }
        #expect(total > 300)
        #expect(fields.count == 2 && Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) == total)
    }

    @Test func theReadFloorReadsEveryRowOfTheExport() async throws {
        let folder = try TemporaryDirectory()
        let source = try await fetched(into: folder)
        let listing = SQLiteDatabase.listingSQL(QuakeQuery())
        #expect(listing.values == [.integer(-1)])
        let run = try await ChildProcess.run(Self.floor, ["read", source, listing.sql, "int:-1"])
        #expect(run.status == 0, "\(run.errors)")
        let count = try Connection(path: source, mode: .readOnly).prepare("SELECT count(*) FROM quake")
        _ = try count.step()
        let fields = run.output.split(separator: " ")
        #expect(fields.count == 2 && Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines)) == count.int(at: 0))
    }

    @Test func refusesAnExistingTargetAndBadParameters() async throws {
        let folder = try TemporaryDirectory()
        let source = try await fetched(into: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: source))
        let again = try await ChildProcess.run(Self.floor, ["ingest", source, source])
        #expect(again.status != 0)
        #expect(again.errors.hasPrefix("Error: "))
        #expect(try Data(contentsOf: URL(fileURLWithPath: source)) == before)
        let parameter = try await ChildProcess.run(Self.floor, ["read", source, "SELECT ?1", "7"])
        #expect(parameter.status != 0)
        #expect(parameter.errors.hasPrefix("Error: "))
    }
}
