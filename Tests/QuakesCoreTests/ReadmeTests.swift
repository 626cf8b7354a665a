import Foundation
import Testing

@testable import QuakesCore

/// The examples of the README and of the pages of `docs/` are run, and must print what they show,
/// so that the documentation cannot drift.
///
/// A transcript is a fenced block whose first line starts with `$ `: each `$ [VAR=value …] quakes …`
/// line is a command, and the lines after it, to the next command, what it prints (standard output,
/// then standard error). In expected output, `…` stands for any text within a line, and a line of
/// `…` alone for any number of lines. The transcripts of `pages` run in order, page after page, as
/// one story, on one database (`QUAKES_DB`), in the repository's folder, with `TZ=UTC` and the
/// clock at `clock`, so history times are the same every run. A `quakes watch` is stopped once it
/// printed what the transcript shows.
@Suite(.serialized) struct ReadmeTests {
    /// The moment the examples run at: an hour after the newer weekly fixture was generated.
    static let clock: Int64 = 1_626_990_000_000

    /// The pages whose transcripts run, in this order: the README's fetches come first, and the
    /// history tokens the later pages show depend on which fetches ran before them.
    static let pages = ["README.md", "docs/commands.md", "docs/pictures.md"]

    struct Command {
        var variables: [String: String]
        var arguments: [String]
        var expected: [String]
        /// Where it is, for messages: the page and the line.
        var page = ""
        var line: Int
    }

    /// The transcripts of `text`, in order.
    static func transcripts(_ text: String) -> [[Command]] {
        var transcripts: [[Command]] = []
        var block: [(String, Int)]?
        for (number, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("```") {
                if let lines = block {
                    if let first = lines.first, first.0.hasPrefix("$ ") { transcripts.append(commands(lines)) }
                    block = nil
                } else {
                    block = []
                }
            } else if block != nil {
                block!.append((line, number + 1))
            }
        }
        return transcripts
    }

    private static func commands(_ lines: [(String, Int)]) -> [Command] {
        var commands: [Command] = []
        for (line, number) in lines {
            if line.hasPrefix("$ ") {
                var words = shellWords(String(line.dropFirst(2)))
                var variables: [String: String] = [:]
                while let first = words.first, let equals = first.firstIndex(of: "="), !first.hasPrefix("-") {
                    variables[String(first[..<equals])] = String(first[first.index(after: equals)...])
                    words.removeFirst()
                }
                commands.append(Command(variables: variables, arguments: words, expected: [], line: number))
            } else if !commands.isEmpty {
                commands[commands.count - 1].expected.append(line)
            }
        }
        return commands
    }

    /// Splits a command line into words as `sh` would, for the quoting the pages use.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// True when `output` is what `expected` shows, `…` standing for anything; CSV's CRLF line
    /// ends are lines too.
    static func matches(_ output: String, _ expected: [String]) -> Bool {
        var lines = output.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        var pattern = expected
        while pattern.last == "" { pattern.removeLast() }
        return match(ArraySlice(lines), ArraySlice(pattern))
    }

    private static func match(_ lines: ArraySlice<String>, _ pattern: ArraySlice<String>) -> Bool {
        guard let first = pattern.first else { return lines.isEmpty }
        if first == "…" {
            let rest = pattern.dropFirst()
            return (lines.startIndex...lines.endIndex).contains { match(lines[$0...], rest) }
        }
        guard let line = lines.first, matchLine(line, first) else { return false }
        return match(lines.dropFirst(), pattern.dropFirst())
    }

    private static func matchLine(_ line: String, _ pattern: String) -> Bool {
        let pieces = pattern.components(separatedBy: "…")
        guard pieces.count > 1 else { return line == pattern }
        guard line.hasPrefix(pieces[0]), line.hasSuffix(pieces[pieces.count - 1]),
            line.count >= pieces[0].count + pieces[pieces.count - 1].count
        else { return false }
        var rest = line.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count)
        for piece in pieces.dropFirst().dropLast() {
            guard let range = rest.range(of: piece) else { return false }
            rest = rest[range.upperBound...]
        }
        return true
    }

    @Test func theMatcherTakesEllipsesForAnyText() {
        #expect(Self.matches("a\nb\nc\n", ["a", "…", "c"]))
        #expect(Self.matches("a\nc\n", ["a", "…", "c"]))
        #expect(!Self.matches("a\nb\n", ["a", "…", "c"]))
        #expect(Self.matches("x: 12 features (0.11 s)\n", ["x: 12 features (… s)"]))
        #expect(!Self.matches("x: 13 features (0.11 s)\n", ["x: 12 features (… s)"]))
        #expect(
            Self.shellWords(#"count --place "Mid Atlantic" --x='a b'"#) == [
                "count", "--place", "Mid Atlantic", "--x=a b",
            ])
    }

    /// The fenced blocks of `text`, each as its lines, without the fences.
    static func blocks(_ text: String) -> [[String]] {
        var blocks: [[String]] = []
        var block: [String]?
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let lines = block { blocks.append(lines) }
                block = block == nil ? [] : nil
            } else {
                block?.append(line)
            }
        }
        return blocks
    }

    /// Every page of the documentation: the README, CONTRIBUTING, the CHANGELOG and `docs/`.
    static func documentation() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Fixtures.repository + "/docs")
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return (["README.md", "CONTRIBUTING.md", "CHANGELOG.md"] + docs.sorted()).filter {
            FileManager.default.fileExists(atPath: Fixtures.repository + "/" + $0)
        }
    }

    /// Every page that shows what `quakes` prints is in `pages`, or its examples would not run; and
    /// a block that shows a `$ quakes` line is a transcript, which starts with it.
    @Test func everyPageThatShowsOutputIsRun() throws {
        var showing: [String] = []
        for page in try Self.documentation() {
            let text = try String(contentsOfFile: Fixtures.repository + "/" + page, encoding: .utf8)
            if !Self.transcripts(text).isEmpty { showing.append(page) }
            for block in Self.blocks(text) where !(block.first?.hasPrefix("$ ") ?? false) {
                #expect(
                    !block.contains { $0.hasPrefix("$ ") }, "\(page): a block that does not start with its command")
            }
        }
        #expect(Set(showing) == Set(Self.pages), "pages with transcripts: \(showing)")
    }

    @Test func everyExampleInTheDocsPrintsWhatItShows() async throws {
        var story: [Command] = []
        for page in Self.pages {
            let text = try String(contentsOfFile: Fixtures.repository + "/" + page, encoding: .utf8)
            let transcripts = Self.transcripts(text)
            #expect(!transcripts.isEmpty, "\(page): no transcript found")
            story += transcripts.joined().map { command in
                var command = command
                command.page = page
                return command
            }
        }
        #expect(story.count >= 30, "the pages' transcripts were not found")
        let folder = try TemporaryDirectory()
        let database = folder.file("readme.sqlite")
        // For whoever edits the pages: QUAKES_README_OUTPUT=FILE writes what each command printed.
        let dump = ProcessInfo.processInfo.environment["QUAKES_README_OUTPUT"]
        var printed = ""
        defer { if let dump { try? printed.write(toFile: dump, atomically: true, encoding: .utf8) } }
        for command in story {
            let place = "\(command.page) line \(command.line)"
            guard command.arguments.first == "quakes" else {
                Issue.record("\(place): a transcript runs only quakes: \(command.arguments)")
                continue
            }
            let variables = ["QUAKES_DB": database, "TZ": "UTC", "HOME": folder.path].merging(command.variables) { $1 }
            let output = try await run(
                Array(command.arguments.dropFirst()), variables: variables, expected: command.expected)
            printed += "# \(place)\n$ " + command.arguments.joined(separator: " ") + "\n" + output
            #expect(
                Self.matches(output, command.expected),
                """
                \(place): `\(command.arguments.joined(separator: " "))` printed
                \(output)
                where the page shows
                \(command.expected.joined(separator: "\n"))
                """)
        }
    }

    /// Runs quakes in-process as the pages' reader would in the repository's folder; a watch is
    /// stopped once it printed as many lines as the transcript shows.
    private func run(_ arguments: [String], variables: [String: String], expected: [String]) async throws -> String {
        let running = RunningQuakes(arguments, variables: variables, directory: Fixtures.repository, now: Self.clock)
        if arguments.first == "watch" {
            let lines = expected.filter { !$0.isEmpty }.count
            try await running.wait { $0.split(separator: "\n").count >= lines }
            _ = await running.stop()
        }
        let run = await running.finished()
        return run.standardOutput + run.standardError
    }
}
