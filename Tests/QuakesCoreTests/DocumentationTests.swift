import Foundation
import Registry
import Testing

@testable import QuakesCore

/// The documentation and `--help` name the same commands and options: every command and option
/// that help lists is documented in its command's section of docs/commands.md, and no page of the
/// README or of `docs/` names a `quakes` command or an option that does not exist.
///
/// Names are read where a reader would copy them from: code (inline spans and fenced blocks). In
/// code, `quakes WORD` must name a subcommand, and an option after it must be one of that
/// command's; a piece of code that starts with a subcommand's name (`list --format geojson`) is
/// that command's too. Options in code that another program runs (`systemctl --user`,
/// `quakes-bench run --backfill-only`, `swift test --filter`) are that program's and are not
/// checked: a piece of code that starts with another word is another program's until a `quakes`
/// word or a shell separator. Any other `--option`, in code or prose, must be one some command
/// takes.
@Suite struct DocumentationTests {
    /// The pages whose names are checked: the README and every page of `docs/`.
    static let pages: [String] = {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.repository + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }()

    static func text(_ page: String) throws -> String {
        try String(contentsOfFile: Fixtures.repository + "/" + page, encoding: .utf8)
    }

    /// Every option name each command takes, `help` included, by the command's name; `""` is the
    /// root command, `quakes --version`.
    static let options: [String: Set<String>] = {
        var options = [
            // Before the subcommand: the root's own, and those every command that takes them reads there.
            "": Set(
                Quakes.help(commands: Registry.commands, engines: Registry.engines).options.map(\.name)
                    + LeadingOptions.declarations.map(\.name) + ["help"])
        ]
        for command in Registry.commands {
            options[command.name] = Set(command.help.options.map(\.name) + ["help"])
        }
        return options
    }()

    /// The words that may follow `quakes`: the subcommands and `help`.
    static var subcommands: Set<String> { Set(Registry.commands.map { $0.name } + ["help"]) }

    // MARK: - Every command and option is documented

    /// The sections of a page of commands, by the command each `## ` heading names in code
    /// (`` ## `quakes fetch` ``): the text from the heading to the next `## `.
    static func sections(_ text: String) -> [String: String] {
        var sections: [String: String] = [:]
        for part in text.components(separatedBy: "\n## ").dropFirst() {
            let heading = part.prefix { $0 != "\n" }
            guard let start = heading.range(of: "`quakes ") else { continue }
            let name = heading[start.upperBound...].prefix { $0.isLetter || $0 == "-" }
            sections[String(name)] = sections[String(name), default: ""] + part
        }
        return sections
    }

    /// True when `text` mentions the option `--name` (or `-x`), not merely a longer one.
    static func mentions(_ spelling: String, in text: String) -> Bool {
        var rest = text[...]
        while let found = rest.range(of: spelling) {
            let after = rest[found.upperBound...].first
            let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
            let continues = after.map { $0.isLetter || $0.isNumber || $0 == "-" } ?? false
            let joined = before.map { $0.isLetter || $0.isNumber || $0 == "-" } ?? false
            if !continues && !joined { return true }
            rest = rest[found.upperBound...]
        }
        return false
    }

    /// The spellings of `help`'s options that `section` does not mention: `--name`, and `-x` for
    /// an option with a short name. `-h, --help`, which every command takes, is documented once.
    static func undocumented(_ help: CommandHelp, in section: String) -> [String] {
        help.options.filter { $0.name != "help" }.flatMap { option in
            ["--" + option.name] + (option.short.map { ["-\($0)"] } ?? [])
        }
        .filter { !mentions($0, in: section) }
    }

    @Test func everyCommandAndOptionThatHelpListsIsDocumented() throws {
        let page = try Self.text("docs/commands.md")
        let sections = Self.sections(page)
        for command in Registry.commands {
            guard let section = sections[command.name] else {
                Issue.record("docs/commands.md has no section `quakes \(command.name)`")
                continue
            }
            let missing = Self.undocumented(command.help, in: section)
            #expect(missing.isEmpty, "docs/commands.md, `quakes \(command.name)` does not document \(missing)")
        }
        #expect(
            Self.undocumented(Quakes.help(commands: Registry.commands, engines: Registry.engines), in: page).isEmpty,
            "docs/commands.md: \(Quakes.help(commands: Registry.commands, engines: Registry.engines).options)")
        #expect(page.contains("`quakes help "), "docs/commands.md does not document `quakes help`")
        #expect(Self.mentions("--help", in: page) && Self.mentions("-h", in: page), "docs/commands.md: -h, --help")
    }

    /// The usage block that opens a command's section (the first fenced block that starts with
    /// `quakes NAME`) names every option the command's help lists, the filters standing for
    /// themselves as FILTERS where it says so: a reader copies a command line from there.
    @Test func everyUsageBlockNamesEveryOption() throws {
        let sections = Self.sections(try Self.text("docs/commands.md"))
        let filters = Set(FilterOptions.options.map { "--" + $0.name })
        for command in Registry.commands {
            let blocks = (sections[command.name] ?? "").components(separatedBy: "```").enumerated()
                .filter { $0.offset % 2 == 1 }.map { $0.element.drop { $0 != "\n" }.dropFirst() }
            guard let usage = blocks.first(where: { $0.hasPrefix("quakes \(command.name)") }) else {
                Issue.record("docs/commands.md, `quakes \(command.name)` has no usage block")
                continue
            }
            let missing = command.help.options.map { "--" + $0.name }.filter { option in
                option != "--help" && !Self.mentions(option, in: String(usage))
                    && !(usage.contains("FILTERS") && filters.contains(option))
            }
            #expect(missing.isEmpty, "docs/commands.md, `quakes \(command.name)`'s usage block leaves out \(missing)")
        }
    }

    /// The README stays a page a newcomer reads in five minutes.
    @Test func theREADMEIsAtMost250Lines() throws {
        let lines = try Self.text("README.md").split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 250, "README.md has \(lines) lines")
    }

    // MARK: - No name that does not exist

    /// The code of `text`: each line of its fenced blocks, then its inline spans (which may run over
    /// a line break); and the prose left around them.
    static func code(_ text: String) -> (code: [String], prose: String) {
        var code: [String] = []
        var prose = ""
        for (index, part) in text.components(separatedBy: "```").enumerated() {
            if index % 2 == 1 {
                code += part.components(separatedBy: "\n").dropFirst()
                continue
            }
            for (index, piece) in part.components(separatedBy: "`").enumerated() {
                if index % 2 == 1 {
                    code.append(piece.replacingOccurrences(of: "\n", with: " "))
                } else {
                    prose += piece + "\n"
                }
            }
        }
        return (code, prose)
    }

    /// A word without the quotes and brackets around it.
    static func bare(_ word: Substring) -> Substring {
        let leading: Set<Character> = ["'", "\"", "(", "[", "{", "$"]
        let trailing: Set<Character> = ["'", "\"", ")", "]", "}", ",", ".", ";", ":"]
        var word = word
        while let first = word.first, leading.contains(first) { word = word.dropFirst() }
        while let last = word.last, trailing.contains(last) { word = word.dropLast() }
        return word
    }

    /// The option named by `word`, `--name` or `--name=value`, without its dashes.
    static func option(_ word: Substring) -> String? {
        guard word.hasPrefix("--") else { return nil }
        let name = word.dropFirst(2).prefix { $0.isLowercase || $0.isNumber || $0 == "-" }
        return name.first?.isLowercase == true ? String(name) : nil
    }

    /// True when `word`, the word after `previous` in a piece of code, runs quakes: the program's
    /// path, or `quakes` where a command starts (first, after a variable's assignment, a cron
    /// field, `$` or `sudo`) rather than in the middle of a message's sentence.
    static func runsQuakes(_ word: Substring, after previous: Substring?) -> Bool {
        if word.hasSuffix("/quakes") && !word.contains("://") { return true }
        guard word == "quakes" else { return false }
        guard let previous else { return true }
        return previous.contains("=") || !previous.contains(where: \.isLetter)
            || ["sudo", "exec", "env", "root"].contains(previous)
    }

    /// Commands the docs show mistyped on purpose, to show what quakes answers.
    static let mistyped: Set<String> = ["quakes lst"]

    /// True for a word of shell that ends one command and may start another: a pipe, `&&`, `;`, a
    /// redirection.
    static func separates(_ word: Substring) -> Bool {
        ["|", "\\|", "&", ">", "2>", "<"].contains { word.hasPrefix($0) } && !word.hasSuffix(">")
            || word == ">" || word.hasSuffix(";") || word.hasSuffix("|")
    }

    /// What each piece of `code` names that quakes has not: `quakes WORD` for a WORD that is no
    /// subcommand, and `quakes COMMAND … --option` for an option COMMAND does not take.
    static func unknownNames(inCode code: [String]) -> [String] {
        let anyOption = options.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        var unknown: [String] = []
        for piece in code {
            let words = piece.split(whereSeparator: \.isWhitespace)
            // Whose options follow: nil for another program's, "*" for any command's, "" for the
            // root command's, else a subcommand's.
            var context: String?
            var index = 0
            func start() {
                guard let first = words.dropFirst(index).first.map(bare) else { return }
                if first.hasPrefix("-") {
                    context = "*"
                } else if subcommands.contains(String(first)) {
                    context = String(first)
                    index += 1
                } else {
                    context = nil
                }
            }
            start()
            while index < words.count {
                let raw = words[index]
                let word = bare(raw)
                index += 1
                if separates(raw) {
                    start()
                    continue
                }
                if runsQuakes(word, after: index > 1 ? words[index - 2] : nil) {
                    guard let next = words.dropFirst(index).first.map(bare), let first = next.first else {
                        context = "*"
                        continue
                    }
                    if first == "-" {
                        context = ""
                    } else if first.isLowercase, next.allSatisfy({ $0.isLowercase || $0 == "-" }) {
                        index += 1
                        if subcommands.contains(String(next)) {
                            context = next == "help" ? "" : String(next)
                        } else {
                            if !mistyped.contains("quakes \(next)") { unknown.append("quakes \(next)") }
                            context = "*"
                        }
                    } else {
                        context = "*"
                    }
                    continue
                }
                guard let context, let name = option(word) else { continue }
                let known = context == "*" ? anyOption : options[context] ?? anyOption
                if !known.contains(name) {
                    unknown.append(context == "*" ? "--\(name)" : "quakes \(context) --\(name)")
                }
            }
        }
        return unknown
    }

    /// The options prose names (outside code) that no command takes.
    static func unknownOptions(inProse prose: String) -> [String] {
        let anyOption = options.values.reduce(into: Set<String>()) { $0.formUnion($1) }
        return prose.split(whereSeparator: \.isWhitespace).map(bare).compactMap(option).filter {
            !anyOption.contains($0)
        }
        .map { "--" + $0 }
    }

    @Test func everyPageOfTheDocsIsChecked() {
        #expect(Self.pages.count >= 9, "\(Self.pages)")
    }

    @Test(arguments: DocumentationTests.pages)
    func thePageNamesNoCommandOrOptionThatDoesNotExist(page: String) throws {
        let (code, prose) = Self.code(try Self.text(page))
        let unknown = Self.unknownNames(inCode: code) + Self.unknownOptions(inProse: prose)
        #expect(unknown.isEmpty, "\(page) names \(unknown)")
    }

    // MARK: - The checks can fail

    @Test func aMissingOptionIsFound() throws {
        let sections = Self.sections(try Self.text("docs/commands.md"))
        let fetch = try #require(sections["fetch"])
        #expect(Self.undocumented(FetchCommand.help, in: fetch).isEmpty)
        let without = fetch.replacingOccurrences(of: "--confirm-vanished", with: "confirm vanished")
            .replacingOccurrences(of: "`-q`, ", with: "")
        #expect(Self.undocumented(FetchCommand.help, in: without) == ["-q", "--confirm-vanished"])
        // A longer option does not document a shorter one.
        #expect(!Self.mentions("--limit", in: "`--limit-per-section <n>`"))
        #expect(Self.mentions("--limit", in: "`--limit <n>`, `--limit-per-section <n>`"))
    }

    @Test func aNameThatDoesNotExistIsFound() {
        let page = """
            Run `quakes frob` or `quakes list --frobnicate`, then `count --sort magnitude`; prose may say
            --wibble too, and messages `another quakes process`; `quakes lst` is mistyped on purpose.

            ```sh
            QUAKES_DB=x.sqlite quakes fetch --quiet all_day | quakes lsit --limit 3
            systemctl --user enable --now quakes-fetch.timer
            quakes-bench run --backfill-only
            */5 * * * * root /usr/local/bin/quakes prune --older-than 52w --dry-run --frob
            ```
            """
        let (code, prose) = Self.code(page)
        #expect(
            Self.unknownNames(inCode: code) == [
                "quakes frob", "quakes list --frobnicate", "quakes count --sort", "quakes lsit", "quakes prune --frob",
            ])
        #expect(Self.unknownOptions(inProse: prose) == ["--wibble"])
    }
}
