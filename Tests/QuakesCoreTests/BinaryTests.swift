import Foundation
import Testing

@testable import QuakesCore

/// The built `quakes` executable, run as a user or cron runs it.
@Suite struct BinaryTests {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The executable beside the test bundle, which `swift build` puts in the same folder.
    static let executable = product("quakes")

    /// The executable product `name` of this package, found beside the test bundle.
    static func product(_ name: String) -> URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = runner.deletingLastPathComponent()
        while folder.path != "/",
            !FileManager.default.isExecutableFile(atPath: folder.appendingPathComponent(name).path)
        {
            folder = folder.deletingLastPathComponent()
        }
        return folder.appendingPathComponent(name)
    }

    private func run(_ arguments: [String], environment: [String: String] = [:], input: FileHandle? = nil)
        async throws -> Result
    {
        let outcome = try await ChildProcess.run(
            Self.executable, arguments,
            environment: ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(environment) { $1 },
            standardInput: input)
        return Result(status: outcome.status, standardOutput: outcome.output, standardError: outcome.errors)
    }

    @Test func theExecutableWasBuilt() {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path), "\(Self.executable.path)")
    }

    @Test func versionAndHelp() async throws {
        let version = try await run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput.hasPrefix("quakes "))
        let help = try await run(["fetch", "--help"])
        #expect(help.status == 0)
        #expect(help.standardOutput.hasPrefix("OVERVIEW: Download USGS earthquake feeds"))
    }

    @Test func fetchIsQuietOnSuccessForCron() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("cron/q.sqlite")
        let quiet = try await run(
            ["fetch", "-q", Fixtures.path(Fixtures.alerts)], environment: ["QUAKES_DB": database])
        #expect(quiet.status == 0)
        #expect(quiet.standardOutput.isEmpty)
        #expect(quiet.standardError.isEmpty)
        let loud = try await run(["fetch", "--db", database, "file://" + Fixtures.path(Fixtures.alerts)])
        #expect(loud.status == 0)
        #expect(loud.standardError.contains(": 18 features, 0 new, 0 updated, 18 unchanged, 0 skipped ("))
    }

    /// The process's variables are read as a command asks for them (`EnvironmentVariables.process`):
    /// a value holding `=` whole, beside other variables, and an empty one as set but empty.
    @Test func theProcessVariablesAreReadWhereTheCommandAsksForThem() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("a=b/q.sqlite")
        let fetched = try await run(
            ["fetch", "-q", Fixtures.path(Fixtures.alerts)], environment: ["QUAKES_DB": database, "TZ": "UTC"])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        #expect(FileManager.default.fileExists(atPath: database))
        let counted = try await run(["count"], environment: ["QUAKES_DB": database])
        #expect(counted.status == 0, "\(counted.standardError)")
        #expect(counted.standardOutput == "18\n")
        let listed = try await run(["list", "--limit", "1"], environment: ["QUAKES_DB": database, "TZ": "Asia/Tokyo"])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.hasPrefix("TIME (Asia/Tokyo)"), "\(listed.standardOutput)")
        let empty = try await run(["count"], environment: ["QUAKES_DB": ""])
        #expect(empty.status == 64)
        #expect(empty.standardError.hasPrefix("Error: QUAKES_DB is set but empty"))
    }

    @Test(
        arguments: [
            (
                ["fetch", "--db", "DB", "/nonexistent/feed.geojson"], 66,
                "Error: /nonexistent/feed.geojson: cannot read: No such file or directory\n"
            ),
            (
                ["fetch", "--db", "DB", "--timeout", "soon"], 64,
                "Error: The value 'soon' is invalid for '--timeout <seconds>'"
            ),
            (["frobnicate"], 64, "Error: Unknown subcommand 'frobnicate'\n"),
        ] as [([String], Int32, String)])
    func errorsAreOneLineAndASysexitsCode(arguments: [String], status: Int32, message: String) async throws {
        let folder = try TemporaryDirectory()
        let result = try await run(arguments.map { $0 == "DB" ? folder.file("q.sqlite") : $0 })
        #expect(result.status == status)
        #expect(result.standardError.hasPrefix(message))
        #expect(!result.standardError.contains("Backtrace"))
        #expect(!result.standardError.contains("Fatal error"))
    }

    @Test func aMalformedFeedExitsWith65AndLeavesTheDatabaseAlone() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        #expect(try await run(["fetch", "--db", database, Fixtures.path(Fixtures.fourFiveLater)]).status == 0)
        let before = try DatabaseState(path: database)
        let html = try folder.write("page.html", "<!doctype html><title>Service Unavailable</title>")
        let result = try await run(["fetch", "--db", database, html])
        #expect(result.status == 65)
        #expect(
            result.standardError
                == "Error: \(html): not a valid GeoJSON feed: the document is not JSON (it looks like HTML or XML) (at byte 0)\n"
        )
        #expect(try DatabaseState(path: database) == before)
    }

    @Test func aClosedPipeEndsAListingQuietly() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        #expect(
            try await run([
                "fetch", "--db", database, Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter),
            ])
            .status == 0)
        for format in ["ndjson", "table"] {
            let child = try ChildProcess(Self.executable, ["list", "--db", database, "--format", format])
            let output = try #require(child.outputHandle)
            // Like `head -1`: read one line, then go away.
            let line = try await Blocking.run {
                var line: [UInt8] = []
                while let byte = try output.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
                try output.close()
                return line
            }
            let outcome = await child.finish(readOutput: false)
            #expect(!line.isEmpty)
            #expect(outcome.reason == .exit)
            #expect(outcome.status == 0)
            #expect(outcome.errors.isEmpty)
        }
    }

    /// The commands that only read (count, list, show, history, status) run on the process's main
    /// thread before anything starts a thread (BlockingCommand: the concurrency runtime's
    /// threads cost `count` more than its query), with the answers, messages and statuses every
    /// command gives. strace shows the threads a run starts: none for them, some for a fetch, the
    /// check that the trace sees threads at all.
    @Test func theReadingCommandsStartNoThread() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        #expect(try await run(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)]).status == 0)
        func traced(_ arguments: [String]) async throws -> (result: Result, threads: Int) {
            let trace = folder.file("trace-\(UUID().uuidString)")
            var environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path]
            // LeakSanitizer stops the process with ptrace at its exit, which strace already holds.
            if let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] {
                environment["ASAN_OPTIONS"] = options + ":detect_leaks=0"
            }
            let outcome = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/strace"),
                ["-f", "-qq", "-e", "trace=clone,clone3", "-o", trace, Self.executable.path] + arguments,
                environment: environment)
            // Read with our own reader: Foundation's leaks a page reading an empty file, which the
            // trace of a run that starts no thread is (LeakSanitizer).
            let bytes = try #require(FileBytes.ofRegularFile(trace, atMost: .max))
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            return (
                Result(status: outcome.status, standardOutput: outcome.output, standardError: outcome.errors),
                lines.filter { $0.contains("clone") }.count
            )
        }
        // The sanitizers' runtimes start threads of their own (ThreadSanitizer's background thread,
        // LeakSanitizer's tracer at exit): `--version`, answered before quakes starts any, counts them.
        let own = try await traced(["--version"]).threads
        if !SuiteMode.isSanitized { #expect(own == 0) }
        let fetch = try await traced(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)])
        #expect(fetch.result.status == 0)
        #expect(fetch.threads > own)
        let newest = try await traced(["list", "--db", database, "--format", "ndjson", "--limit", "1"])
        #expect(newest.result.status == 0)
        let id = try #require(
            try JSONSerialization.jsonObject(with: Data(newest.result.standardOutput.utf8)) as? [String: Any])["id"]
        let cases: [([String], Int32, String)] = [
            (["count", "--db", database], 0, "18\n"),
            // Options before the subcommand, through the same quick path.
            (["--db", database, "count"], 0, "18\n"),
            (["show", "--db", database, "--format", "json", "\(id ?? "")"], 0, "{\"id\":\"\(id ?? "")\""),
            (["status", "--db", database, "--format", "json"], 0, "{"),
            (["history", "--db", database, "--last-token"], 0, "1\n"),
            (["count", "--help"], 0, "OVERVIEW: Count the stored events"),
        ]
        for (arguments, status, output) in cases {
            let run = try await traced(arguments)
            #expect(run.result.status == status, "\(arguments): \(run.result.standardError)")
            #expect(run.result.standardOutput.hasPrefix(output), "\(arguments): \(run.result.standardOutput)")
            #expect(run.threads == own, "\(arguments)")
        }
        let failures: [([String], Int32, String)] = [
            (["count", "--db", folder.file("none.sqlite")], 66, "Error: "),
            (["count", "--db", database, "--min-magnitude", "big"], 64, "Error: The value 'big' is invalid"),
            (["show", "--db", database, "nosuchid"], 1, "Error: "),
        ]
        for (arguments, status, message) in failures {
            let run = try await traced(arguments)
            #expect(run.result.status == status, "\(arguments): \(run.result.standardError)")
            #expect(run.result.standardError.hasPrefix(message), "\(arguments): \(run.result.standardError)")
            #expect(!run.result.standardError.contains("Backtrace"))
            #expect(run.threads == own, "\(arguments)")
        }
    }

    /// The C libraries only some commands need are loaded when first used, as the dynamic
    /// loader's own trace shows (`LD_DEBUG=files`): a query of an SQLite database loads neither
    /// libpq nor libcurl; the same query of a PostgreSQL database loads libpq, not SQLite, and a
    /// download libcurl. None of them loads cairo, which only a PNG or PDF picture needs, and
    /// `--version` loads none of them; a library the binary linked would be in every trace.
    @Test func librariesAreLoadedOnlyByTheCommandsThatUseThem() async throws {
        let store = try TestEngine.sqlite.newDatabase()
        let server = try TestEngine.postgresql.newDatabase()
        for database in [store, server] {
            let fill = try await run(["fetch", "--db", database.location, Fixtures.path(Fixtures.alerts)])
            #expect(fill.status == 0, "\(fill.standardError)")
        }
        func loaded(_ arguments: [String]) async throws -> Set<String> {
            let outcome = try await run(arguments, environment: ["LD_DEBUG": "files"])
            #expect(outcome.status == 0, "\(arguments): \(outcome.standardError)")
            let names = outcome.standardError.split(separator: "\n").compactMap { line -> String? in
                guard let range = line.range(of: "file=") else { return nil }
                return String(line[range.upperBound...].prefix { !$0.isWhitespace && $0 != "[" })
            }
            return Set(names.map { String($0.split(separator: "/").last ?? "") })
        }
        let sqlite = try await loaded(["count", "--db", store.location])
        #expect(sqlite.contains { $0.hasPrefix("libsqlite3.so") }, "\(sqlite)")
        #expect(!sqlite.contains { $0.hasPrefix("libpq.so") }, "\(sqlite)")
        #expect(!sqlite.contains { $0.hasPrefix("libcurl.so") }, "\(sqlite)")
        let postgres = try await loaded(["count", "--db", server.location])
        #expect(postgres.contains { $0.hasPrefix("libpq.so") }, "\(postgres)")
        #expect(!postgres.contains { $0.hasPrefix("libsqlite3.so") }, "\(postgres)")
        #expect(!postgres.contains { $0.hasPrefix("libcurl.so") }, "\(postgres)")
        let download = try await loaded(["fetch", "--db", store.location, "file://" + Fixtures.path(Fixtures.alerts)])
        #expect(download.contains { $0.hasPrefix("libcurl.so") }, "\(download)")
        #expect(!download.contains { $0.hasPrefix("libpq.so") }, "\(download)")
        for trace in [sqlite, postgres, download] {
            #expect(!trace.contains { $0.hasPrefix("libcairo.so") }, "\(trace)")
        }
        let version = try await loaded(["--version"])
        for library in ["libsqlite3.so", "libpq.so", "libcurl.so", "libcairo.so", "libz.so"] {
            #expect(!version.contains { $0.hasPrefix(library) }, "\(version)")
        }
        // Nor does any command load Foundation, not even FoundationEssentials (see Processors and
        // FileBytes): the tests' debug build links Swift's libraries dynamically, so any of its
        // modules that imported one would show here.
        for trace in [sqlite, postgres, download, version] {
            #expect(!trace.contains { $0.hasPrefix("libFoundation") }, "\(trace)")
        }
    }
}
