import Foundation
import Testing

@testable import QuakesCore

/// The cron and systemd examples in `contrib/` call the installed binary with options it accepts.
@Suite struct ContribTests {
    private static let contrib = Fixtures.directory.deletingLastPathComponent().appendingPathComponent("contrib")

    /// Every `/usr/local/bin/quakes …` command in the examples, as argument lists.
    private func commands() throws -> [[String]] {
        var commands: [[String]] = []
        for file in ["cron/quakes", "systemd/quakes-fetch.service"] {
            let text = try String(contentsOf: Self.contrib.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") where !line.hasPrefix("#") {
                for part in line.components(separatedBy: "/usr/local/bin/quakes ").dropFirst() {
                    let command = part.components(separatedBy: " && ")[0]
                    commands.append(command.split(separator: " ").map(String.init))
                }
            }
        }
        return commands
    }

    @Test func everyExampleCommandParses() throws {
        let commands = try commands()
        #expect(commands.count == 4)
        for arguments in commands {
            let name = try #require(arguments.first)
            let type = try #require(Quakes.commands.first { $0.help.commandName == "quakes \(name)" })
            let parsed = try ParsedArguments(Array(arguments.dropFirst()), for: type.help)
            _ = try type.init(parsed)
        }
    }

    @Test func theCronExampleRunsQuietlyAgainstALocalFeed() async throws {
        let folder = try TemporaryDirectory()
        let fetch = try #require(try commands().first)
        // The same options, with a local file for the feed and a test database.
        let arguments = Array(fetch.dropLast()) + ["--db", folder.file("q.sqlite"), Fixtures.path(Fixtures.alerts)]
        let run = await QuakesRun.run(arguments)
        #expect(run.status == .success)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.isEmpty)
    }
}
