import Foundation
import LocalHTTPServer
import Registry
import SQLite
import Testing

@testable import PostgresEngine
@testable import QuakesCore
@testable import SQLiteEngine

@Suite struct ParsedArgumentsTests {
    private static let limit = ValueOption(
        "limit", short: "n", value: "n", help: "A limit.", expected: "a whole number"
    ) { Int($0) }
    private static let minMagnitude = ValueOption(
        "min-magnitude", value: "m", help: "A magnitude.", expected: "a number", Double.init)
    private static let quiet = Flag("quiet", short: "q", help: "Quiet.")
    private static let utc = Flag("utc", help: "UTC.")

    private let command = CommandHelp(
        commandName: "quakes test", abstract: "A test command.",
        arguments: [.init("word", help: "Words.", isRepeating: true, isOptional: true)],
        options: [limit.declaration, minMagnitude.declaration, quiet.declaration, utc.declaration])

    @Test func readsEverySpellingOfOptionsAndFlags() throws {
        let parsed = try ParsedArguments(
            ["a", "--limit", "5", "--min-magnitude=-1.5", "-q", "b", "--utc", "--", "--c", "-q"],
            for: command)
        #expect(try parsed.read(Self.limit) == 5)
        #expect(try parsed.read(Self.minMagnitude) == -1.5)
        #expect(parsed.read(Self.quiet))
        #expect(parsed.read(Self.utc))
        #expect(!parsed.wantsHelp)
        #expect(parsed.positionals == ["a", "b", "--c", "-q"])
    }

    @Test func aValueOptionTakesTheNextWordEvenWhenItStartsWithADash() throws {
        let parsed = try ParsedArguments(["--min-magnitude", "-1", "-n", "-2"], for: command)
        #expect(try parsed.read(Self.minMagnitude) == -1)
        #expect(try parsed.read(Self.limit) == -2)
    }

    @Test func groupedShortFlagsAndAnAttachedShortValue() throws {
        let parsed = try ParsedArguments(["-qh", "-n10"], for: command)
        #expect(parsed.read(Self.quiet))
        #expect(parsed.wantsHelp)
        #expect(try parsed.read(Self.limit) == 10)
    }

    @Test func theLastOfARepeatedValueWinsAndAllAreKept() throws {
        let parsed = try ParsedArguments(
            ["--limit", "1", "-q", "--min-magnitude", "3", "--limit", "2", "--quiet"], for: command)
        #expect(try parsed.read(Self.limit) == 2)
        #expect(try parsed.values(Self.limit) == [1, 2])
        #expect(try parsed.values(Self.minMagnitude) == [3])
        #expect(parsed.given(Self.limit.declaration) == .value("2"))
        #expect(parsed.read(Self.quiet))
        #expect(parsed.given(Self.quiet.declaration) == .flag)
        #expect(!parsed.read(Self.utc))
        #expect(parsed.given(Self.utc.declaration) == nil)
    }

    @Test func aLoneDashIsAPositional() throws {
        #expect(try ParsedArguments(["-"], for: command).positionals == ["-"])
    }

    @Test(arguments: [
        (["--frob"], "Unknown option '--frob'"),
        (["-x"], "Unknown option '-x'"),
        (["--limit"], "Missing value for '--limit <n>'"),
        (["--quiet=yes"], "The option '--quiet' does not take a value"),
    ])
    func mistakesAreUsageErrors(arguments: [String], message: String) throws {
        let error = try #require(throws: UsageError.self) { try ParsedArguments(arguments, for: command) }
        #expect(error.message == message)
    }

    @Test func convertedValuesNameTheOptionAndTheAcceptedFormWhenMalformed() throws {
        let parsed = try ParsedArguments(["--limit", "abc"], for: command)
        let error = try #require(throws: UsageError.self) { try parsed.read(Self.limit) }
        #expect(error.message == "The value 'abc' is invalid for '--limit <n>': expected a whole number")
        #expect(try parsed.read(Self.minMagnitude) == nil)
        // An option not given reads as its default, the value of the text help shows.
        let defaulted = ValueOption(
            "min-magnitude", value: "m", help: "A magnitude.", default: "2.5", expected: "a number", Double.init)
        #expect(try parsed.read(defaulted.defaulting(to: 2.5)) == 2.5)
    }

    @Test func neverCrashesOnArbitraryArguments() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = [
            "-", "--", "--limit", "-n", "-q", "--quiet", "=", "--=", "-qn", "--limit=", "x", "", "---", "-h",
            "--min-magnitude", "--utc=1", "é", "-é",
        ]
        for _ in 0..<5_000 {
            let arguments = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
                    + (Bool.random(using: &generator) ? "" : pieces.randomElement(using: &generator)!)
            }
            do {
                _ = try ParsedArguments(arguments, for: command)
            } catch {
                #expect(!error.message.isEmpty)
            }
        }
    }
}

@Suite struct HelpTests {
    @Test func theFetchHelpScreenLooksLikeArgumentParsers() async throws {
        let run = await QuakesRun.run(["fetch", "--help"])
        #expect(run.status == .success)
        #expect(
            run.standardOutput == """
                OVERVIEW: Download USGS earthquake feeds and store them in the database.

                Each source is stored in one transaction: all of it or, on any error, none of
                it. Events are matched by id and by the other ids USGS lists for them; the
                version with the newest 'updated' time is kept. Requests are conditional
                (If-None-Match, If-Modified-Since), transient failures are retried, and one
                fetch at a time writes a database. Prints one summary line per source on
                standard error; nothing with --quiet unless something fails.

                USAGE: quakes fetch [<options>] [<source> ...]

                ARGUMENTS:
                  <source>                A USGS summary feed name
                                          ({significant,4.5,2.5,1.0,all}_{hour,day,week,month}),
                                          an http, https or file URL, the path of a GeoJSON file
                                          (gzipped or not), or - for standard input. (default:
                                          all_day)

                OPTIONS:
                  --db <path>             Where the catalogue is kept: a file, or a database
                                          server's URI; the value says which storage engine
                                          keeps it (see 'quakes --help'). (default: $QUAKES_DB,
                                          else $XDG_DATA_HOME/quakes/quakes.sqlite, else
                                          ~/.local/share/quakes/quakes.sqlite)
                  --timeout <seconds>     The longest a download may take, time spent storing
                                          excluded. (default: 60)
                  --max-bytes <bytes>     The largest response accepted, after decompression; K,
                                          M and G suffixes count in 1024s. (default: 1G)
                  --retries <n>           How many times to retry a timeout, a dropped
                                          connection, HTTP 429 or 5xx. (default: 3)
                  --cacert <file>         Trust the certificate authorities in FILE (PEM) for
                                          https, instead of the system's. (default:
                                          $CURL_CA_BUNDLE, else $SSL_CERT_FILE and
                                          $SSL_CERT_DIR, else the system's)
                  --force                 Download even what the server says has not changed (no
                                          conditional request).
                  --wait <seconds>        How long to wait for another quakes process writing
                                          the database. (default: 0)
                  --author <name>         The author recorded in the history. (default: fetch)
                  --format <format>       The summary's format: table (also text; lines on
                                          standard error) or json (one object on standard
                                          output). (default: table)
                  -q, --quiet             Print nothing on success (for cron).
                  --confirm-vanished      Ask the FDSN service about each stored event a summary
                                          feed no longer lists, and record what it says
                                          (deleted, merged, revised).
                  --service <url>         The FDSN event service --confirm-vanished asks.
                                          (default: https://earthquake.usgs.gov/fdsnws/event/1/)
                  -h, --help              Show help information.

                """)
        #expect(run.standardError.isEmpty)
    }

    @Test func theRootHelpListsTheSubcommands() async throws {
        for arguments in [[], ["--help"], ["-h"], ["help"]] {
            let run = await QuakesRun.run(arguments)
            #expect(run.status == .success)
            #expect(
                run.standardOutput.hasPrefix(
                    """
                    OVERVIEW: Keep a local copy of the USGS earthquake catalogue and answer questions about it.

                    The options --db, --utc, --color and --quiet may also come before the
                    subcommand, where every command that takes them reads them: quakes --db
                    quakes.sqlite count.

                    USAGE: quakes <subcommand>

                    OPTIONS:
                      --version               Show the version.
                      -h, --help              Show help information.

                    SUBCOMMANDS:
                      fetch                   Download USGS earthquake feeds and store them in the
                                              database.
                      backfill                Store the events of a past time range from the FDSN
                                              event service (USGS ComCat).
                      sync                    Bring stored events up to date with the FDSN event
                                              service: revisions and deletions.
                      count                   Count the stored events that match the filters.
                      list                    List the stored events that match the filters, sorted
                                              and in sections.
                      show                    Show every field of one event, unknown properties
                                              included.
                      history                 List the transactions that changed the database, and
                                              what they changed.
                      chart                   Draw how many events match, by time, magnitude or
                                              depth, as a bar chart.
                      map                     Draw the events that match on a map, in the terminal
                                              or as a picture.
                      prune                   Delete events older than a duration, or history older
                                              than a duration.
                      watch                   Fetch a feed every interval and print how the result
                                              of a query changes.
                      status                  Show what the database holds and when each source was
                                              last fetched.
                      completions             Print the shell completion script for bash, zsh or
                                              fish.
                      manual                  Print the man page in roff: quakes manual | man -l -
                      help                    Show subcommand help information.

                      See 'quakes help <subcommand>' for detailed help.

                    STORAGE ENGINES:
                      The database --db or $QUAKES_DB names is kept by the first engine that takes
                      the value:

                    """))
            // Each registered engine says, in its own words, which values it takes.
            for engine in Registry.engines {
                #expect(run.standardOutput.contains("\n  \(engine.description.values) "), "\(engine.description)")
            }
        }
    }

    @Test func helpForASubcommandIsItsHelpScreen() async throws {
        let viaHelp = await QuakesRun.run(["help", "fetch"])
        let viaFlag = await QuakesRun.run(["fetch", "-h"])
        #expect(viaHelp.standardOutput == viaFlag.standardOutput)
        #expect(viaHelp.standardOutput.hasPrefix("OVERVIEW: Download USGS earthquake feeds"))
    }

    @Test func versionPrintsTheVersion() async throws {
        let run = await QuakesRun.run(["--version"])
        #expect(run.status == .success)
        #expect(run.standardOutput == "quakes \(Quakes.version)\n")
    }

    @Test(arguments: [
        (["frob"], "Unknown subcommand 'frob'", "quakes <subcommand>", "quakes"),
        (["--frob"], "Unknown option '--frob'", "quakes <subcommand>", "quakes"),
        (["help", "frob"], "Unknown subcommand 'frob'", "quakes <subcommand>", "quakes"),
        (["fetch", "--frob"], "Unknown option '--frob'", "quakes fetch [<options>] [<source> ...]", "quakes fetch"),
        (
            ["fetch", "--timeout", "0"],
            "The value '0' is invalid for '--timeout <seconds>': expected a number of seconds greater than 0",
            "quakes fetch", "quakes fetch"
        ),
        (
            ["fetch", "--max-bytes", "lots"],
            "The value 'lots' is invalid for '--max-bytes <bytes>': expected a number of bytes, such as 1048576, 512K, 100M or 1G",
            "quakes fetch", "quakes fetch"
        ),
        (
            ["fetch", "--format", "xml"], "The value 'xml' is invalid for '--format <format>': expected table or json",
            "quakes fetch", "quakes fetch"
        ),
        (
            ["fetch", "gopher://example.org/feed"],
            "Unsupported URL scheme 'gopher' in 'gopher://example.org/feed': quakes fetches http, https and file URLs",
            "quakes fetch", "quakes fetch"
        ),
    ])
    func usageErrorsExitWith64AndPointToHelp(arguments: [String], message: String, usage: String, command: String) async
    {
        let run = await QuakesRun.run(arguments)
        #expect(run.status == .usage)
        #expect(run.status.code == 64)
        #expect(run.standardOutput.isEmpty)
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines.first == "Error: \(message)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: \(usage)") == true)
        #expect(lines.dropFirst(2).first == "  See '\(command) --help' for more information.")
    }

    @Test func byteCountsAcceptBinarySuffixes() {
        #expect(ByteCount.parse("1048576") == 1_048_576)
        #expect(ByteCount.parse("512K") == 524_288)
        #expect(ByteCount.parse("100m") == 104_857_600)
        #expect(ByteCount.parse("1G") == 1 << 30)
        #expect(ByteCount.parse("2GiB") == 2 << 30)
        #expect(ByteCount.parse("3KB") == 3072)
        #expect(ByteCount.parse("0") == nil)
        #expect(ByteCount.parse("-5") == nil)
        #expect(ByteCount.parse("9999999999T") == nil)
        #expect(ByteCount.parse("") == nil)
    }
}

@Suite struct SourceAndLocationTests {
    @Test func feedNamesMapToTheUSGSSummaryFeeds() throws {
        for threshold in FeedSource.feedThresholds {
            for period in FeedSource.feedPeriods {
                let source = try FeedSource("\(threshold)_\(period)", currentDirectory: "/")
                #expect(
                    source.url
                        == "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/\(threshold)_\(period).geojson")
                #expect(source.localPath == nil)
            }
        }
        #expect(!FeedSource.isSummaryFeedName("all_days"))
        #expect(!FeedSource.isSummaryFeedName("3.0_day"))
    }

    @Test func pathsBecomeFileURLsAndURLsStayAsGiven() throws {
        let relative = try FeedSource("feeds/a b#1.geojson", currentDirectory: "/data")
        #expect(relative.url == "file:///data/feeds/a%20b%231.geojson")
        #expect(relative.localPath == "/data/feeds/a b#1.geojson")
        #expect(relative.label == "feeds/a b#1.geojson")
        #expect(try FeedSource("./all_day", currentDirectory: "/d").localPath == "/d/all_day")
        #expect(try FeedSource("HTTPS://Example.org/x", currentDirectory: "/").url == "HTTPS://Example.org/x")
        #expect(try FeedSource("file:///tmp/x.json", currentDirectory: "/").localPath == nil)
    }

    @Test func theDatabaseIsFoundByOptionThenVariablesThenHome() throws {
        func path(_ option: String?, _ variables: [String: String], account: String? = "/home/account")
            throws(UsageError)
            -> String
        {
            var environment = Environment(
                variables: variables, currentDirectory: "/work",
                standardOutput: CapturedOutput(), standardError: CapturedOutput())
            environment.accountHome = { account }
            Registry.equip(&environment)
            return try DatabaseLocation.writer(option: option, in: environment).name
        }
        let all = ["QUAKES_DB": "/env/q.sqlite", "XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]
        #expect(try path("mine.sqlite", all) == "/work/mine.sqlite")
        #expect(try path(nil, all) == "/env/q.sqlite")
        #expect(try path(nil, ["XDG_DATA_HOME": "/xdg", "HOME": "/home/me"]) == "/xdg/quakes/quakes.sqlite")
        #expect(
            try path(nil, ["XDG_DATA_HOME": "relative", "HOME": "/home/me"])
                == "/home/me/.local/share/quakes/quakes.sqlite")
        // A system unit without User= has no HOME: the account's home from the password database.
        #expect(try path(nil, [:]) == "/home/account/.local/share/quakes/quakes.sqlite")
        #expect(try path(nil, ["HOME": ""]) == "/home/account/.local/share/quakes/quakes.sqlite")
        #expect(throws: UsageError.self) { try path(nil, [:], account: nil) }
        // An unset variable in a script is a mistake, never the user's real database.
        #expect(throws: UsageError.self) { try path(nil, ["HOME": "/home/me", "QUAKES_DB": ""]) }
    }

    @Test func aPostgreSQLURIOfAnyCaseIsAServersDatabaseNamedWithoutItsPassword() throws {
        func database(_ value: String) throws(UsageError) -> any DatabaseWriter {
            var environment = Environment(
                variables: [:], currentDirectory: "/work", standardOutput: CapturedOutput(),
                standardError: CapturedOutput())
            Registry.equip(&environment)
            return try DatabaseLocation.writer(option: value, in: environment)
        }
        for (value, uri) in [
            ("postgresql://u:secret@db/quakes", "postgresql://u:secret@db/quakes"),
            ("postgres://u:secret@db/quakes", "postgres://u:secret@db/quakes"),
            // libpq knows its schemes in lower case only: handed any other way, it reads key=value
            // settings and quotes the whole value, password and all, in its error.
            ("POSTGRESQL://u:secret@db/quakes", "postgresql://u:secret@db/quakes"),
            ("Postgres://u:secret@db/Quakes", "postgres://u:secret@db/Quakes"),
        ] {
            let server = try #require(try database(value) as? PostgresDatabase, "\(value)")
            #expect(server.uri == uri)
            #expect(!server.name.contains("secret"))
        }
        #expect(try database("postgresql.sqlite") is SQLiteDatabase)
        #expect(try database("postgresql:/x").name == "/work/postgresql:/x")
    }

    @Test func anEmptyDatabaseOptionOrVariableIsAUsageError() async throws {
        let folder = try TemporaryDirectory()
        let home = ["HOME": folder.path]
        for (arguments, variables) in [
            (["count", "--db", ""], home), (["count", "--db="], home),
            (["fetch", "--db", "", Fixtures.path(Fixtures.alerts)], home),
            (["count"], home.merging(["QUAKES_DB": ""]) { $1 }),
            (["fetch", Fixtures.path(Fixtures.alerts)], home.merging(["QUAKES_DB": ""]) { $1 }),
        ] {
            let run = await QuakesRun.run(arguments, variables: variables)
            #expect(run.status == .usage, "\(arguments) \(variables)")
            #expect(run.standardError.hasPrefix("Error: "), "\(run.standardError)")
        }
        // Nothing was written into the default database.
        #expect(!FileManager.default.fileExists(atPath: folder.file(".local/share/quakes/quakes.sqlite")))
    }

    @Test func missingFoldersOfTheDatabaseAreCreated() async throws {
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.run(
            ["fetch", Fixtures.path(Fixtures.alerts)],
            variables: ["XDG_DATA_HOME": folder.file("data"), "HOME": folder.path])
        #expect(run.status == .success)
        #expect(FileManager.default.fileExists(atPath: folder.file("data/quakes/quakes.sqlite")))
    }

    @Test func aMissingInputFileExitsWith66() async throws {
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([folder.file("nope.geojson"), "all_dya"], database: folder.file("q.sqlite"))
        #expect(run.status == .noInput)
        #expect(run.status.code == 66)
        #expect(
            run.standardError == """
                Error: \(folder.file("nope.geojson")): cannot read: No such file or directory
                Error: all_dya: cannot read: no such file, and not a feed name (significant, 4.5, 2.5, 1.0, all then _hour, _day, _week, _month)

                """)
        let directory = await QuakesRun.fetch([folder.path], database: folder.file("q.sqlite"))
        #expect(directory.status == .noInput)
        #expect(directory.standardError == "Error: \(folder.path): cannot read: it is a folder\n")
    }

    @Test func aDatabaseThatCannotBeWrittenExitsWith74() async throws {
        let folder = try TemporaryDirectory()
        let notADatabase = try folder.write("not.sqlite", String(repeating: "not a database ", count: 500))
        let run = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: notADatabase)
        #expect(run.status == .ioError)
        #expect(run.standardError == "Error: database \(notADatabase): file is not a database\n")
        let newer = folder.file("newer.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: newer)
        try setUserVersion(99, of: newer)
        let refused = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: newer)
        #expect(refused.status == .ioError)
        #expect(refused.standardError.contains("schema version 99, newer than this version of quakes understands"))
    }

    private func setUserVersion(_ version: Int32, of path: String) throws {
        try Connection(path: path).setUserVersion(version)
    }
}

/// Random command lines through the whole tool, in-process, against a real database: each one
/// runs, or ends with an `Error:` line and a sysexits code; none crashes or hangs.
@Suite struct CommandLineFuzzTests {
    @Test func arbitraryCommandLinesRunOrFailCleanly() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        // No feed names or http URLs: nothing here may reach the network. No `watch`: it runs until stopped.
        let commands = [
            "count", "list", "show", "history", "prune", "fetch", "help", "--help", "--version", "frobnicate", "",
        ]
        let words = [
            "--last", "5h", "-1h", "2021-07-20", "--since", "--until", "yesterday", "--min-magnitude", "4.5",
            "nan", "--max-magnitude", "-3", "--sort", "magnitude", "-time", "place,magnitude", "depth:desc",
            "--section", "day", "week", "magnitude", "hour", "--limit", "0", "-5", "99999999999999999999",
            "--format", "json", "ndjson", "csv", "geojson", "table", "text", "--place", "Alaska",
            "'; DROP TABLE quake; --",
            "--near", "35,-120", "--within", "100km", "--utc", "--type", "earthquake", "--status", "reviewed",
            "us6000len8", "--changes", "--author", "cron", "--older-than", "30d", "--dry-run", "--history-older-than",
            "-q", "--quiet", "--timeout", "0", "--max-bytes", "1K", "--retries", "-1", "--force", "--wait", "1",
            Fixtures.path(Fixtures.emptyFeed), folder.file("missing.geojson"), "--db", database, "--now",
            "2023-10-11T00:00:00Z", "-", "--", "=", "é", "\u{1B}[31m", "",
        ]
        let iterations = SuiteMode.rounds(1_500, long: 20_000, sanitized: 300)
        var random = SplitMix64(seed: 42)
        var outcomes: [Int32: Int] = [:]
        for iteration in 0..<iterations {
            var arguments = [commands.randomElement(using: &random)!].filter { !$0.isEmpty }
            arguments += (0..<Int.random(in: 0...6, using: &random)).map { _ in words.randomElement(using: &random)! }
            // The database given last wins, so most runs use the test's file; when a random option
            // swallows that `--db`, the path it ends up with is relative to the test's folder. A
            // fetch always has a file among its sources, or it would fetch the default feed from USGS.
            arguments += ["--db", database]
            if arguments.first == "fetch" { arguments.append(Fixtures.path(Fixtures.emptyFeed)) }
            let run = await QuakesRun.run(
                arguments, variables: ["HOME": folder.path], directory: folder.path,
                now: 1_697_000_000_000)
            outcomes[run.status.code, default: 0] += 1
            #expect(
                [0, 1, 64, 65, 66, 69, 74, 75].contains(run.status.code), "\(iteration): \(arguments) → \(run.status)")
            if run.status.code != 0 {
                #expect(run.standardError.hasPrefix("Error: "), "\(iteration): \(arguments) → \(run.standardError)")
            }
        }
        #expect(try DatabaseContent.integrity(of: database) == "ok")
        let summary = outcomes.keys.sorted().map { "\(outcomes[$0]!) exit \($0)" }.joined(separator: ", ")
        ReliabilityReport.record(
            "Command line", "random command lines of real words, options and values", runs: iterations,
            "\(summary); every failure an `Error:` line, no crash, the database sound")
    }
}

/// `--db`, `--utc`, `--color` and `--quiet` before the subcommand, as git and cargo take theirs.
@Suite struct LeadingOptionsTests {
    @Test func theyMoveAfterTheSubcommandsName() {
        #expect(
            LeadingOptions.moved(["--db", "q.sqlite", "count", "--last", "5h"]) == [
                "count", "--db", "q.sqlite", "--last", "5h",
            ])
        #expect(
            LeadingOptions.moved(["--db=q.sqlite", "-q", "--utc", "fetch", "all_hour"]) == [
                "fetch", "--db=q.sqlite", "-q", "--utc", "all_hour",
            ])
        #expect(LeadingOptions.moved(["--color", "never", "list"]) == ["list", "--color", "never"])
        // Anything else stays as it is, for the route to answer.
        for arguments in [
            ["count", "--db", "q"], ["--version"], ["--help"], ["--db"], ["--db", "q"], ["--limit", "3", "list"], [],
        ] {
            #expect(LeadingOptions.moved(arguments) == arguments, "\(arguments)")
        }
    }

    @Test func aCommandReadsThemAsItsOwn() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let before = await QuakesRun.run(["--db", database, "--utc", "list", "--limit", "3"])
        let after = await QuakesRun.run(["list", "--db", database, "--utc", "--limit", "3"])
        #expect(before.status == .success, "\(before.standardError)")
        #expect(before.standardOutput == after.standardOutput)
        #expect(!before.standardOutput.isEmpty)
    }

    @Test func aCommandThatDoesNotTakeOneSaysSo() async throws {
        let run = await QuakesRun.run(["--quiet", "count"])
        #expect(run.status == .usage)
        #expect(run.standardError.hasPrefix("Error: Unknown option '--quiet'\nUsage: quakes count"))
    }

    @Test func withoutASubcommandTheyAreAMissingSubcommand() async throws {
        let run = await QuakesRun.run(["--db", "q.sqlite"])
        #expect(run.status == .usage)
        #expect(
            run.standardError.hasPrefix("Error: Missing subcommand after '--db q.sqlite'\nUsage: quakes <subcommand>"))
    }
}
