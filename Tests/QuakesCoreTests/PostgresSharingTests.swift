import Foundation
import LocalHTTPServer
import PostgreSQL
import Testing

@testable import PostgresEngine
@testable import QuakesCore

/// Several quakes processes on one PostgreSQL database, as cron jobs on several hosts have it:
/// writers take turns, readers never see half a fetch, and a server that dies mid-fetch loses
/// nothing that was committed.
@Suite(.serialized) struct PostgresSharingTests {
    @Test func severalFetchesAtOnceStoreEveryEventOnceWithTokensInCommitOrder() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let files = QueryUniverse.files + [Fixtures.weekBefore, Fixtures.alerts]
        // Every process at once, each taking its turn through the writer lock.
        let outcomes = try await withThrowingTaskGroup(of: ChildProcess.Outcome.self) { group in
            for file in files {
                group.addTask {
                    try await ChildProcess.run(
                        BinaryTests.executable, ["fetch", "--db", store.location, "--wait", "300", Fixtures.path(file)])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        for outcome in outcomes { #expect(outcome.status == 0, "\(outcome.errors)") }

        // The same versions fetched one after the other into SQLite: the same events, whatever the order.
        let sequential = try TestEngine.sqlite.newDatabase()
        for file in files { _ = await QuakesRun.fetch([Fixtures.path(file)], database: sequential.location) }
        let expected = try await sequential.read { try $0.allQuakes() }
        let stored = try await store.read { try $0.allQuakes() }
        #expect(stored.count == expected.count)
        #expect(stored == expected)
        #expect(Set(stored.map(\.id)).count == stored.count)

        let transactions = try await store.read { reader in
            var all: [HistoryTransaction] = []
            try reader.forEachTransaction(after: 0, author: nil, withChanges: false) { transaction in
                all.append(transaction)
                return true
            }
            return all
        }
        #expect(transactions.map(\.token) == Array(1...Int64(transactions.count)))
        #expect(transactions.map(\.timestamp) == transactions.map(\.timestamp).sorted())
        #expect(Set(transactions.compactMap(\.source)).count == transactions.count)
    }

    /// A script that follows the history (`history --since` its last token, again and again) while
    /// fetches on several hosts commit sees every transaction once: tokens are given in commit
    /// order, so none commits under a token lower than one already read.
    @Test func aReaderFollowingTheHistoryWhileOthersWriteMissesNothing() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let files = QueryUniverse.files + [Fixtures.weekBefore, Fixtures.weekAfter, Fixtures.alerts]
        let writers = try files.map { file in
            try ChildProcess(
                BinaryTests.executable, ["fetch", "--db", store.location, "--wait", "300", Fixtures.path(file)],
                captureOutput: false)
        }
        let finishing = Task {
            await withTaskGroup(of: Int32.self) { group in
                for writer in writers { group.addTask { await writer.finish().status } }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
        var seen: [Int64] = []
        var passes = 0
        func follow() async {
            let run = await QuakesRun.run([
                "history", "--db", store.location, "--since", String(seen.last ?? 0), "--format", "ndjson",
            ])
            // Until the first fetch has made the tables, there is no history to read.
            #expect(run.status == .success || (seen.isEmpty && run.status == .noInput), "\(run.standardError)")
            for line in run.standardOutput.split(separator: "\n") {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let token = (object?["token"] as? NSNumber)?.int64Value { seen.append(token) }
            }
            passes += 1
        }
        while writers.contains(where: { $0.process.isRunning }) { await follow() }
        let statuses = await finishing.value
        await follow()
        #expect(statuses.allSatisfy { $0 == 0 }, "\(statuses)")
        let all = try await store.read { reader in
            var tokens: [Int64] = []
            try reader.forEachTransaction(after: 0, author: nil, withChanges: false) { transaction in
                tokens.append(transaction.token)
                return true
            }
            return tokens
        }
        // Two of the files are fetched twice, and a second fetch changes nothing, records nothing.
        #expect(all == Array(1...Int64(files.count - 2)))
        #expect(seen == all, "\(passes) passes")
    }

    @Test func aReaderNeverSeesHalfAFetch() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        let before = try await store.read { try $0.count() }
        let server = try await StalledFetch.server()
        defer { server.stop() }
        let child = try ChildProcess(
            BinaryTests.executable, ["fetch", "--db", store.location, server.url(StalledFetch.path)],
            captureOutput: false)
        try await store.waitUntilWriting()
        for command in [["count"], ["list", "--format", "ndjson"], ["status", "--format", "json"]] {
            let run = await QuakesRun.run([command[0], "--db", store.location] + command.dropFirst())
            #expect(run.status == .success)
            if command == ["count"] { #expect(run.standardOutput == "\(before)\n") }
            if command[0] == "list" { #expect(run.standardOutput.split(separator: "\n").count == before) }
        }
        kill(child.identifier, SIGKILL)
        _ = await child.finish()
        #expect(try await store.read { try $0.count() } == before)
        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: store.location)
        #expect(next.status == .success, "\(next.standardError)")
    }

    /// `pg_ctl stop -m immediate` in the middle of a fetch, on a server of the test's own.
    @Test func theServerStoppedDuringAFetchLeavesNothingAndTheNextFetchCompletes() async throws {
        let cluster = try await PrivateCluster.start()
        defer { cluster.remove() }
        let database = cluster.uri
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let before = try await TestStore.reading(database) { try $0.allQuakes() }
        let server = try await StalledFetch.server()
        defer { server.stop() }
        let child = try ChildProcess(
            BinaryTests.executable, ["fetch", "--db", database, server.url(StalledFetch.path)], captureOutput: false)
        try await TestStore.waitUntilWriting(database)
        try await cluster.control("stop", "-m", "immediate")
        server.release(StalledFetch.path)
        let outcome = await child.finish()
        #expect(outcome.status == ExitStatus.ioError.code, "\(outcome.errors)")
        #expect(outcome.errors.hasPrefix("Error: "), "\(outcome.errors)")
        try await cluster.control("start")
        #expect(try await TestStore.reading(database) { try $0.allQuakes() } == before)
        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        #expect(next.status == .success, "\(next.standardError)")
        #expect(try await TestStore.reading(database) { try $0.count() } > before.count)
    }
}

/// A watch on a laptop outlives the shared server's restart: it says the server went away, and
/// reports what a fetch commits once the server is back.
@Suite(.serialized) struct PostgresRestartTests {
    @Test func aWatchGoesOnThroughARestartOfTheServer() async throws {
        let cluster = try await PrivateCluster.start()
        defer { cluster.remove() }
        let database = cluster.uri
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let watch = RunningQuakes(
            ["watch", "--no-fetch", "--db", database, "--interval", "0.2s", "--format", "ndjson"],
            variables: ["TZ": "UTC"])
        // The first listing (the 18 events, as inserts) is what later changes are told against: a
        // watch that never read the database before the server went has nothing to compare with.
        try await watch.wait { $0.split(separator: "\n").count >= 18 }
        try await cluster.control("stop", "-m", "fast")
        try await watch.waitForErrors { $0.contains("Error: ") }
        try await cluster.control("start")
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        try await watch.wait { $0.split(separator: "\n").count >= 18 + 78 }
        #expect(await watch.stop() == .success)
        #expect(watch.output.text.split(separator: "\n").allSatisfy { $0.hasPrefix(#"{"change":"insert""#) })
        #expect(watch.errors.text.split(separator: "\n").allSatisfy { $0.hasPrefix("Error: ") }, "\(watch.errors.text)")
    }

    /// A watch that fetches keeps its write connection between passes: once the server is back,
    /// the next pass connects again and stores what its source says, a file or a URL. A URL's pass
    /// first reads the validators saved for it, on that connection, which failed every pass after
    /// the restart.
    @Test(arguments: [false, true]) func aWatchThatFetchesGoesOnThroughARestartOfTheServer(overHTTP: Bool)
        async throws
    {
        let cluster = try await PrivateCluster.start()
        defer { cluster.remove() }
        let database = cluster.uri
        let folder = try TemporaryDirectory()
        let feed = try folder.write("feed.geojson", Array(try Fixtures.data(Fixtures.alerts)))
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route("/feed.geojson", .respond(status: 200, body: Array(try Fixtures.data(Fixtures.alerts))))
        let source = overHTTP ? server.url("/feed.geojson") : feed
        let watch = RunningQuakes(
            ["watch", "--db", database, "--interval", "0.2s", "--format", "ndjson", source], variables: ["TZ": "UTC"])
        // Its first listing: the 18 events it fetched, as inserts.
        try await watch.wait { $0.split(separator: "\n").count >= 18 }
        try await cluster.control("stop", "-m", "fast")
        try await watch.waitForErrors { $0.contains("Error: ") }
        try await cluster.control("start")
        // Replaced whole, as a download would be: the watch never reads half a file.
        server.route("/feed.geojson", .respond(status: 200, body: Array(try Fixtures.data(Fixtures.fourFiveLater))))
        let next = try folder.write("next.geojson", Array(try Fixtures.data(Fixtures.fourFiveLater)))
        #expect(rename(next, feed) == 0)
        try await watch.wait { $0.split(separator: "\n").count >= 18 + 78 }
        #expect(await watch.stop() == .success)
        #expect(watch.output.text.split(separator: "\n").allSatisfy { $0.hasPrefix(#"{"change":"insert""#) })
        #expect(watch.errors.text.split(separator: "\n").allSatisfy { $0.hasPrefix("Error: ") }, "\(watch.errors.text)")
    }
}

/// A server that asks for passwords, as a shared one does: a wrong or missing password is 77, and
/// no output of any command, failing or not, shows the password, from the URI or `PGPASSWORD`.
@Suite(.serialized) struct PostgresPasswordTests {
    @Test func aWrongPasswordIs77AndNoOutputEverShowsOne() async throws {
        let cluster = try await PrivateCluster.start()
        defer { cluster.remove() }
        let secret = "s3cret-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let wrong = "wr0ng-" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let admin = try PostgresConnection(uri: cluster.uri)
        try admin.execute("CREATE ROLE quakes_writer LOGIN PASSWORD '\(secret)'")
        try admin.execute("CREATE DATABASE quakes OWNER quakes_writer")
        try cluster.requirePasswords(exceptFor: "postgres")
        try admin.execute("SELECT pg_reload_conf()")

        let folder = try TemporaryDirectory()
        let base = ["HOME": folder.path, "PGPASSFILE": folder.file("none"), "TZ": "UTC"]
        func run(_ arguments: [String], password: String?, variables: [String: String] = [:]) async throws
            -> ChildProcess.Outcome
        {
            let uri = "postgresql://quakes_writer\(password.map { ":" + $0 } ?? "")@/quakes?host=\(cluster.folder)"
            return try await ChildProcess.run(
                BinaryTests.executable, arguments + ["--db", uri], environment: base.merging(variables) { $1 })
        }
        func expectNoPassword(_ outcome: ChildProcess.Outcome, _ comment: String) {
            let everything = outcome.output + outcome.errors
            #expect(!everything.contains(secret) && !everything.contains(wrong), "\(comment): \(everything)")
        }

        // Turned away: 77, saying why, never with the password.
        for (password, variables) in [(wrong, [:]), (nil, [:]), (nil, ["PGPASSWORD": wrong])] {
            for command in [["count"], ["fetch", Fixtures.path(Fixtures.alerts)], ["status", "--format", "json"]] {
                let outcome = try await run(command, password: password, variables: variables)
                #expect(outcome.status == 77, "\(command) \(variables): \(outcome.errors)")
                #expect(outcome.errors.hasPrefix("Error: "), "\(outcome.errors)")
                #expect(outcome.errors.contains("password"), "\(outcome.errors)")
                expectNoPassword(outcome, "\(command) with \(password ?? "no password") \(variables)")
            }
        }

        // Let in, by the URI or by PGPASSWORD: every command works, and none shows the password,
        // not even status, which names the database.
        for (password, variables) in [(secret, [:]), (nil, ["PGPASSWORD": secret])] {
            for command in [
                ["fetch", "--format", "json", Fixtures.path(Fixtures.alerts)],
                ["fetch", Fixtures.path(Fixtures.detail)],
                ["count"], ["list", "--limit", "3"], ["show", "us6000len8"], ["show", "nothing-here"],
                ["history", "--changes"], ["status"], ["status", "--format", "json"],
                ["prune", "--older-than", "100000d", "--dry-run"],
            ] {
                let outcome = try await run(command, password: password, variables: variables)
                #expect(
                    outcome.status == (command == ["show", "nothing-here"] ? 1 : 0),
                    "\(command) \(variables): \(outcome.errors)")
                expectNoPassword(outcome, "\(command) with \(password ?? "no password") \(variables)")
                if command.first == "status", password != nil {
                    #expect(outcome.output.contains("postgresql://quakes_writer:***@/quakes"), "\(outcome.output)")
                }
            }
        }
    }
}

/// A PostgreSQL server of one test's own, made by scripts/test-postgres, that the test may stop
/// and start again.
struct PrivateCluster {
    let folder: String
    var uri: String { "postgresql:///postgres?host=\(folder)&user=postgres" }

    static func start() async throws -> PrivateCluster {
        let folder = try await ChildProcess.shell("mktemp -d /tmp/quakes-pg.XXXXXX").output
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let cluster = PrivateCluster(folder: folder)
        try await cluster.detached(script, ["start", folder])
        return cluster
    }

    /// Runs a program that starts a server and waits for its exit status, the server's output
    /// going to its log. Not through Foundation's `Process`: that learns of a child's end when
    /// every copy of a socket it hands the child is closed, and a server left running keeps its
    /// copy, so the wait would last as long as the server. Here the child gets only the standard
    /// descriptors (on /dev/null) and is waited for with `waitpid`.
    private func detached(_ executable: String, _ arguments: [String]) async throws {
        let status = try await Blocking.run { () throws -> Int32 in
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for descriptor: Int32 in 0...2 {
                posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0)
            }
            // glibc has it since 2.34, but Swift's Glibc module does not show it.
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard
                let closeFrom = dlsym(
                    UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { throw POSIXError(.ENOSYS) }
            _ = unsafeBitCast(closeFrom, to: CloseFrom.self)(&actions, 3)
            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for argument in argv { free(argument) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
            guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            return status
        }
        let logs = ["server.log", "initdb.log"].compactMap {
            try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)
        }
        try #require(status == 0, "\(executable) \(arguments) failed (\(status)): \(logs.joined())")
    }

    /// Makes every role but `trusted` give its password (SCRAM) to connect, from the next reload
    /// of the server's configuration on.
    func requirePasswords(exceptFor trusted: String) throws {
        let rules = "local all \(trusted) trust\nlocal all all scram-sha-256\n"
        // Written in place, so that the file keeps its owner, the server's user.
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/data/pg_hba.conf"))
        defer { try? file.close() }
        try file.truncate(atOffset: 0)
        try file.write(contentsOf: Data(rules.utf8))
    }

    /// Runs `pg_ctl ARGUMENTS` on the cluster, as the server's user.
    func control(_ arguments: String...) async throws {
        try await detached(
            "/bin/sh",
            [
                "-c",
                "bin=$(ls -d /usr/lib/postgresql/*/bin | sort -t / -k 5 -n | tail -n 1); as=; "
                    + "[ \"$(id -u)\" -eq 0 ] && as='runuser -u postgres --'; "
                    + "cd \(folder) && $as \"$bin/pg_ctl\" -D \(folder)/data -l \(folder)/server.log -w "
                    + arguments.joined(separator: " "),
            ])
    }

    func remove() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.script)
        process.arguments = ["stop", folder]
        try? process.run()
        process.waitUntilExit()
    }

    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/test-postgres").standardized.path
}

extension TestStore {
    /// Reads the PostgreSQL database at `location` through its engine's reader.
    static func reading<Result: Sendable>(
        _ location: String, _ body: @escaping @Sendable (any QuakeReading) throws -> Result
    ) async throws -> Result {
        try await PostgresDatabase(uri: location).reading(body)
    }
}
