import Foundation
import Registry
import Testing

@testable import QuakesCore

/// `quakes manual`: a man page that documents every command and option the definitions hold, that
/// `man` renders without a warning, and whose roff escapes are right.
@Suite struct ManualPageTests {
    static let man = ChildProcess.installed("man")
    static let groff = ChildProcess.installed("groff")

    static func page() async throws -> String {
        let run = await QuakesRun.run(["manual"])
        try #require(run.status == .success, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        return run.standardOutput
    }

    /// The lines of the page from the line `start` up to the next `.SH` or `.SS`.
    static func section(_ start: String, of page: String) throws -> String {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        let first = try #require(lines.firstIndex { $0 == start }, "no \(start)")
        let end = lines[(first + 1)...].firstIndex { $0.hasPrefix(".SH ") || $0.hasPrefix(".SS ") } ?? lines.endIndex
        return lines[first..<end].joined(separator: "\n")
    }

    /// How the page writes an option's names: `\fB\-q\fR, \fB\-\-quiet\fR`.
    static func label(_ option: CommandHelp.Option) -> String {
        ShellCompletion.spellings(of: option).map { "\\fB" + $0.replacingOccurrences(of: "-", with: "\\-") + "\\fR" }
            .joined(separator: ", ")
    }

    @Test func everyCommandAndEveryOptionIsDocumented() async throws {
        let page = try await Self.page()
        #expect(page.hasPrefix(#".\" quakes(1)"#))
        #expect(page.contains("\n.TH QUAKES 1 "))
        for heading in [
            "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "STORAGE ENGINES", "EXIT STATUS", "ENVIRONMENT",
            "FILES",
        ] {
            #expect(page.contains("\n.SH \(heading)\n"), "\(heading)")
        }
        let synopsis = try Self.section(".SH SYNOPSIS", of: page)
        let root = try Self.section(".SH OPTIONS", of: page)
        for option in Quakes.help(commands: Registry.commands, engines: Registry.engines).options {
            #expect(root.contains(Self.label(option)), "--\(option.name)")
        }
        for command in Registry.commands {
            let help = command.help
            #expect(synopsis.contains(".B \(help.commandName)\n"), "\(help.commandName)")
            let section = try Self.section(".SS \"\(help.commandName)\"", of: page)
            #expect(section.contains(help.abstract.replacingOccurrences(of: "-", with: "\\-")), "\(help.commandName)")
            for option in help.options {
                #expect(section.contains(Self.label(option)), "\(help.commandName) --\(option.name)")
                if let defaultValue = option.defaultValue {
                    #expect(section.contains("(default: \(defaultValue)"), "\(help.commandName) --\(option.name)")
                }
            }
            for argument in help.arguments {
                #expect(section.contains("\\fI\(argument.name)\\fR"), "\(help.commandName) <\(argument.name)>")
            }
        }
        let engines = try Self.section(".SH STORAGE ENGINES", of: page)
        for engine in Registry.engines {
            #expect(engines.contains(".B \(RoffText.escape(engine.description.values))\n"), "\(engine.description)")
        }
        let status = try Self.section(".SH EXIT STATUS", of: page)
        for (exitStatus, _) in ExitStatus.documented {
            #expect(status.contains(".B \(exitStatus.code)\n"))
        }
        let environment = try Self.section(".SH ENVIRONMENT", of: page)
        for name in ["QUAKES_DB", "XDG_DATA_HOME", "HOME", "TZ", "QUAKES_NOW", "NO_COLOR", "TERM", "SSL_CERT_FILE"] {
            #expect(environment.contains(".B \(name)\n"), "\(name)")
        }
    }

    /// The exit codes the table of docs/commands.md documents are the ones the page lists, and each
    /// of the page's codes is a status the tool has.
    @Test func theExitStatusesAreTheDocumentedOnes() throws {
        let commands = try String(contentsOfFile: Fixtures.repository + "/docs/commands.md", encoding: .utf8)
        let table = commands.components(separatedBy: "\n## Exit status\n").dropFirst().first?.components(
            separatedBy: "\n## "
        )
        .first
        let rows = try #require(table).split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| status") }
        let documentedCodes = Set(
            rows.flatMap { row in
                row.dropFirst(2).prefix { $0 != "|" }.split(separator: ",").compactMap {
                    Int32($0.trimmingCharacters(in: .whitespaces))
                }
            })
        let documented = ExitStatus.documented.map(\.status.code)
        #expect(!documentedCodes.isEmpty)
        // The same codes, each documented in both places.
        #expect(documentedCodes == Set(documented), "\(documentedCodes.symmetricDifference(documented))")
        #expect(documented.count == Set(documented).count)
    }

    @Test(.enabled(if: man != nil || groff != nil, "neither man nor groff is installed"))
    func manRendersItWithoutWarnings() async throws {
        let folder = try TemporaryDirectory()
        let path = try folder.write("quakes.1", try await Self.page())
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path, "MANWIDTH": "80", "LANG": "C.UTF-8"]
        if let man = Self.man {
            let run = try await ChildProcess.run(man, ["--warnings", "-l", path], environment: environment)
            #expect(run.status == 0)
            #expect(run.standardError.isEmpty, "\(run.standardError)")
            // `\-` renders as a character that can be copied back into a shell.
            #expect(run.standardOutput.contains("--sort spec"))
            #expect(run.standardOutput.contains("quakes list [options]"))
            #expect(run.standardOutput.contains("EXIT STATUS"))
        }
        if let groff = Self.groff {
            let run = try await ChildProcess.run(groff, ["-man", "-ww", "-z", path], environment: environment)
            #expect(run.status == 0)
            #expect(run.standardError.isEmpty, "\(run.standardError)")
        }
    }

    @Test func roffSpecialCharactersAreEscaped() {
        #expect(RoffText.line(".hidden request") == "\\&.hidden request")
        #expect(RoffText.line("'quoted' start") == "\\&'quoted' start")
        #expect(RoffText.line("  .after spaces") == "\\&.after spaces")
        #expect(RoffText.line("a \\ backslash") == "a \\e backslash")
        #expect(RoffText.escape("--sort, -1, - for stdin") == "\\-\\-sort, \\-1, \\- for stdin")
        #expect(RoffText.escape("read-only 2021-07-20 (--near)") == "read-only 2021-07-20 (\\-\\-near)")
        #expect(RoffText.escape("now − DURATION ≤ time") == "now \\[u2212] DURATION \\[u2264] time")
        #expect(RoffText.name("--max-bytes") == "\\-\\-max\\-bytes")
    }

    @Test func theManualCommandTakesNoArguments() async throws {
        let run = await QuakesRun.run(["manual", "extra"])
        #expect(run.status == .usage)
        #expect(run.standardOutput.isEmpty)
    }
}
