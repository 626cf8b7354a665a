import Foundation
import LocalHTTPServer
import Registry
import Testing

@testable import QuakesCore

/// The cron and systemd examples in `contrib/` are copied as they are by users: they must call the
/// installed binary with options it accepts, on the schedule docs/scheduling.md explains, in units
/// systemd loads.
@Suite struct ContribTests {
    private static let contrib = Fixtures.directory.deletingLastPathComponent().appendingPathComponent("contrib")
    private static let installed = "/usr/local/bin/quakes"

    /// The systemd units, by file name: every service, and the timer that starts it.
    private static let units: [String] = {
        let folder = contrib.appendingPathComponent("systemd").path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasSuffix(".service") || $0.hasSuffix(".timer") }.sorted()
    }()

    /// `systemd-analyze`, where the machine has one; containers and macOS often do not.
    private static let systemdAnalyze: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
        return folders.map { $0 + "/systemd-analyze" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    private static func text(_ file: String) throws -> String {
        try String(contentsOf: contrib.appendingPathComponent(file), encoding: .utf8)
    }

    /// Every `/usr/local/bin/quakes …` command in the examples, as argument lists: the cron jobs,
    /// then the services in name order.
    private func commands() throws -> [[String]] {
        var commands: [[String]] = []
        for file in ["cron/quakes"] + Self.units.filter({ $0.hasSuffix(".service") }).map({ "systemd/" + $0 }) {
            for line in try Self.text(file).split(separator: "\n") where !line.hasPrefix("#") {
                for part in line.components(separatedBy: Self.installed + " ").dropFirst() {
                    let command = part.components(separatedBy: " && ")[0]
                    commands.append(command.split(separator: " ").map(String.init))
                }
            }
        }
        return commands
    }

    /// A line of the cron file that runs a command.
    private struct CronJob {
        var schedule: String
        var user: String
        var arguments: [String]
    }

    /// The cron file's variable settings and jobs, read as cron reads a `/etc/cron.d` file: five
    /// time fields, the user, then the command.
    private func cronFile() throws -> (variables: [(name: String, value: String)], jobs: [CronJob]) {
        var variables: [(name: String, value: String)] = []
        var jobs: [CronJob] = []
        for line in try Self.text("cron/quakes").split(separator: "\n") {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            // NAME=value, where the name is a shell identifier; a job's first field never is one.
            if let equals = line.firstIndex(of: "="), case let name = line[..<equals],
                name.first.map({ $0.isLetter || $0 == "_" }) ?? false,
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            {
                variables.append((String(name), String(line[line.index(after: equals)...])))
                continue
            }
            let fields = line.split(separator: " ").map(String.init)
            try #require(fields.count > 7, "not a cron.d job: \(line)")
            try #require(fields[6] == Self.installed, "a job runs something else: \(line)")
            jobs.append(
                CronJob(
                    schedule: fields[0..<5].joined(separator: " "), user: fields[5],
                    arguments: Array(fields[7...])))
        }
        return (variables, jobs)
    }

    /// A unit file's settings, as `Section.Key` and value, in file order.
    private func settings(of unit: String) throws -> [(key: String, value: String)] {
        var section = ""
        var settings: [(key: String, value: String)] = []
        for line in try Self.text("systemd/" + unit).split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                settings.append((section + "." + line[..<equals], String(line[line.index(after: equals)...])))
            }
        }
        return settings
    }

    @Test func everyExampleCommandParses() throws {
        let commands = try commands()
        // Five cron jobs and five services.
        #expect(commands.count == 10)
        for arguments in commands {
            let name = try #require(arguments.first)
            let type = try #require(Registry.commands.first { $0.help.commandName == "quakes \(name)" })
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), for: type.help)
            _ = try type.init(parsed)
        }
    }

    /// The map page of the GeoJSON-file store (`contrib/web/index.html`): the cron line its comment
    /// gives fetches into the file the page reads, and every property the page's script reads is
    /// one the store's features carry.
    @Test func theMapPageReadsWhatItsCronLineWrites() async throws {
        let page = try Self.text("web/index.html")
        let line = try #require(page.split(separator: "\n").first { $0.contains("quakes fetch") })
        var arguments = Array(line.split(separator: " ").map(String.init).drop { $0 != "quakes" }.dropFirst())
        #expect(arguments.prefix(4) == ["fetch", "--quiet", "--db", "/var/www/quakes/m45.geojson"])
        #expect(arguments.last == "4.5_week")
        #expect(page.contains(#"|| "m45.geojson""#), "the page reads the file the cron line writes")
        // The same command, into a folder of the test's own, from the 4.5_week fixture.
        let folder = try TemporaryDirectory()
        arguments[3] = folder.file("m45.geojson")
        arguments[arguments.count - 1] = Fixtures.path(Fixtures.fourFiveLater)
        let run = await QuakesRun.run(arguments)
        #expect(run.status == .success, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        let store = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: arguments[3])))
                as? [String: Any])
        let features = try #require(store["features"] as? [[String: Any]])
        #expect(features.count == 78)
        let read = Set(
            page.matches(of: /properties\.([a-z]+)/).map { String($0.output.1) })
        #expect(read == ["mag", "place", "time", "url", "alert"])
        for feature in features {
            let properties = try #require(feature["properties"] as? [String: Any])
            #expect(read.isSubset(of: properties.keys), "\(feature["id"] ?? "?")")
        }
    }

    /// The schedule that keeps revisions: a feed lists the events whose origin falls in its window,
    /// so each feed is fetched as often as the next shorter window lasts (all_day hourly, all_week
    /// daily), at minutes clear of the five-minute job, and prune runs after the weekly fetch.
    @Test func theCronFileSetsTheDatabaseAndSchedulesFiveJobs() throws {
        let (variables, jobs) = try cronFile()
        #expect(variables.map(\.name) == ["QUAKES_DB"])
        #expect(variables.first?.value == "/var/lib/quakes/quakes.sqlite")
        let schedule = jobs.map { job in
            [job.schedule, job.arguments[0], job.arguments[0] == "fetch" ? job.arguments.last! : ""]
        }
        #expect(
            schedule == [
                ["*/5 * * * *", "fetch", "all_hour"],
                ["7 * * * *", "fetch", "all_day"],
                ["17 3 * * *", "fetch", "all_week"],
                ["47 3 * * *", "prune", ""],
                ["17 4 * * *", "sync", ""],
            ])
        for job in jobs {
            #expect(job.user == "root")
            #expect(job.arguments.contains("--quiet"), "\(job.arguments)")
            #expect(job.arguments.contains("--wait"), "\(job.arguments)")
        }
    }

    /// A user who picks systemd gets the same jobs as one who picks cron, each timer starts a
    /// service of its name, and a timer keeps firing without a login session only with lingering.
    @Test func theTimersRunTheCronJobs() throws {
        #expect(
            Self.units == [
                "quakes-fetch-day.service", "quakes-fetch-day.timer", "quakes-fetch-week.service",
                "quakes-fetch-week.timer", "quakes-fetch.service", "quakes-fetch.timer", "quakes-prune.service",
                "quakes-prune.timer", "quakes-sync.service", "quakes-sync.timer",
            ])
        let jobs = try cronFile().jobs.map(\.arguments)
        let expected: [(unit: String, calendar: String, job: Int)] = [
            ("quakes-fetch", "*:0/5", 0), ("quakes-fetch-day", "*:07", 1), ("quakes-fetch-week", "*-*-* 03:17", 2),
            ("quakes-prune", "*-*-* 03:47", 3), ("quakes-sync", "*-*-* 04:17", 4),
        ]
        for (unit, calendar, job) in expected {
            let service = try settings(of: unit + ".service")
            let start = try #require(service.first { $0.key == "Service.ExecStart" }?.value)
            #expect(start == ([Self.installed] + jobs[job]).joined(separator: " "), "\(unit)")
            #expect(service.contains { $0 == ("Service.SuccessExitStatus", "75") }, "\(unit)")
            let timer = try settings(of: unit + ".timer")
            #expect(timer.filter { $0.key == "Timer.OnCalendar" }.map(\.value) == [calendar], "\(unit)")
            #expect(timer.contains { $0 == ("Timer.Persistent", "true") }, "\(unit)")
            #expect(timer.contains { $0.key == "Timer.RandomizedDelaySec" }, "\(unit)")
            #expect(try Self.text("systemd/\(unit).timer").contains("loginctl enable-linger USER"), "\(unit)")
            for file in [unit + ".service", unit + ".timer"] {
                #expect(try Self.text("systemd/" + file).hasPrefix("# ~/.config/systemd/user/\(file)"))
            }
        }
    }

    /// docs/scheduling.md shows these files to users who copy from it rather than from `contrib/`:
    /// what it shows must be what the files say, and its install steps must enable every timer.
    @Test func theSchedulingPageShowsTheFilesAsTheyAre() throws {
        let page = try String(contentsOfFile: Fixtures.repository + "/docs/scheduling.md", encoding: .utf8)
        // The code blocks' lines, without the line that opens each (and names its language).
        let blocks = page.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map {
            Array($0.element.components(separatedBy: "\n").dropFirst().filter { !$0.isEmpty })
        }
        let cron = try Self.text("cron/quakes").split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") }
        #expect(blocks.contains(cron), "the cron file's lines, as docs/scheduling.md shows them")
        let enable = try #require(blocks.joined().first { $0.hasPrefix("systemctl --user enable --now ") })
        for timer in Self.units where timer.hasSuffix(".timer") {
            #expect(enable.split(separator: " ").contains(Substring(timer)), "\(timer)")
        }
        var unit: String?
        var shown = 0
        for line in try #require(blocks.first { $0.first?.hasPrefix("# quakes-") ?? false }) {
            if line.hasPrefix("# ") {
                unit = String(line.dropFirst(2))
                continue
            }
            let name = try #require(unit)
            #expect(
                try Self.text("systemd/" + name).split(separator: "\n").contains(Substring(line)), "\(name): \(line)")
            shown += 1
        }
        #expect(shown > 0)
    }

    /// The cron jobs in order against a test database named by `QUAKES_DB`, as cron passes it,
    /// with a local server for each feed (under the feed's own name, as a mirror would serve it)
    /// and an FDSN emulator for the sync: each succeeds and prints nothing, so cron mails nothing.
    @Test func theCronJobsRunQuietlyAgainstALocalFeed() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("lib/quakes.sqlite")
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server)
        for job in try cronFile().jobs {
            var arguments = job.arguments
            if arguments[0] == "fetch" {
                let path = "/summary/\(arguments[arguments.count - 1]).geojson"
                server.route(path, .respond(status: 200, body: try Fixtures.bytes(Fixtures.alerts)))
                arguments[arguments.count - 1] = server.url(path)
            }
            if arguments[0] == "sync" { arguments += ["--service", emulator.serviceURL, "--pause", "0"] }
            // The feed's own time, so that the prune keeps its events and the sync has some to ask about.
            let run = await QuakesRun.run(
                arguments, variables: ["QUAKES_DB": database, "QUAKES_NOW": "2023-10-12T00:00:00Z"])
            #expect(run.status == .success, "\(arguments): \(run.standardError)")
            #expect(run.standardOutput.isEmpty, "\(arguments)")
            #expect(run.standardError.isEmpty, "\(arguments)")
        }
        #expect(FileManager.default.fileExists(atPath: database))
        #expect(emulator.requests.query > 0, "the sync asked the service")
    }

    /// What `systemd-analyze verify` printed and how it exited.
    private struct Verification {
        var status: Int32
        var output: String
    }

    /// Verifies copies of the units, edited by `edit`, in a folder of their own. `verify` refuses a
    /// unit whose `ExecStart` binary is missing, so the copies run the built executable instead of
    /// the installed one. The user manager needs a runtime folder; a private `HOME` keeps units the
    /// developer installed out of the way.
    private func verify(user: Bool, edit: (String, String) -> String = { $1 }) async throws -> Verification {
        let analyze = try #require(Self.systemdAnalyze)
        let executable = BinaryTests.executable.path
        try #require(FileManager.default.isExecutableFile(atPath: executable))
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(
            atPath: folder.file("runtime"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        // Quoted, with systemd's own escapes for %, $, \ and " in the path.
        var quoted = ""
        for character in executable {
            switch character {
            case "%": quoted += "%%"
            case "$": quoted += "$$"
            case "\\", "\"": quoted += "\\" + String(character)
            default: quoted.append(character)
            }
        }
        try FileManager.default.createDirectory(atPath: folder.file("units"), withIntermediateDirectories: false)
        var paths: [String] = []
        for unit in Self.units {
            let text = try Self.text("systemd/" + unit).replacingOccurrences(
                of: "ExecStart=" + Self.installed + " ", with: "ExecStart=\"\(quoted)\" ")
            paths.append(try folder.write("units/" + unit, edit(unit, text)))
        }
        let environment = [
            "PATH": "/usr/bin:/bin", "HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config"),
            "XDG_RUNTIME_DIR": folder.file("runtime"),
        ]
        return try await Self.run(analyze, ["verify"] + (user ? ["--user"] : []) + paths, environment: environment)
    }

    /// Runs a program to its end (`ChildProcess` waits off the cooperative pool), its two outputs
    /// together.
    private static func run(_ program: String, _ arguments: [String], environment: [String: String]) async throws
        -> Verification
    {
        let outcome = try await ChildProcess.run(program, arguments, environment: environment)
        return Verification(status: outcome.status, output: outcome.output + outcome.errors)
    }

    /// As user units, where docs/scheduling.md installs them, and as system units, which their
    /// headers offer.
    /// `verify` exits 0 on settings it ignores, so anything it prints is a failure too.
    @Test(
        .enabled(if: ContribTests.systemdAnalyze != nil, "systemd-analyze is not installed"), arguments: [true, false])
    func systemdAnalyzeVerifiesTheUnits(user: Bool) async throws {
        let verification = try await verify(user: user)
        if verification.status != 0 || !verification.output.isEmpty {
            Issue.record(
                "systemd-analyze verify\(user ? " --user" : "") exited \(verification.status):\n\(verification.output)")
        }
    }

    /// The check above can fail: a misspelt key is refused, and a value systemd ignores is reported.
    @Test(.enabled(if: ContribTests.systemdAnalyze != nil, "systemd-analyze is not installed"))
    func systemdAnalyzeRejectsBrokenUnits() async throws {
        let misspelt = try await verify(user: true) { unit, text in
            unit == "quakes-fetch.timer" ? text.replacingOccurrences(of: "OnCalendar=", with: "OnCalender=") : text
        }
        #expect(misspelt.status != 0)
        #expect(misspelt.output.contains("Unknown key 'OnCalender'"), "\(misspelt.output)")
        let ignored = try await verify(user: true) { unit, text in
            unit == "quakes-prune.service"
                ? text.replacingOccurrences(of: "SuccessExitStatus=75", with: "SuccessExitStatus=busy") : text
        }
        #expect(ignored.output.contains("busy"), "\(ignored.output)")
    }
}
