import Foundation
import Registry
import Testing

@testable import QuakesCore

/// `quakes completions SHELL`: each script, loaded into the real shell, completes what the
/// commands' definitions say, and nothing that they do not.
@Suite struct CompletionTests {
    static let bash = ChildProcess.installed("bash")
    static let zsh = ChildProcess.installed("zsh")
    static let fish = ChildProcess.installed("fish")

    /// The script `quakes completions SHELL` prints.
    static func script(_ shell: String) async throws -> String {
        let run = await QuakesRun.run(["completions", shell])
        try #require(run.status == .success, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        return run.standardOutput
    }

    /// The options of `command` as a user may write them: `-q`, `--quiet`, `--help`…
    static func spellings(_ command: CommandHelp) -> Set<String> {
        Set(command.options.flatMap(ShellCompletion.spellings))
    }

    static func option(_ name: String, of command: CommandHelp) throws -> CommandHelp.Option {
        try #require(command.options.first { $0.name == name })
    }

    /// Lines every shell completes alike, with what it offers for each.
    static let everyShellCompletes: [(String, [String])] = [
        ("quakes li", ["list"]),
        ("quakes list --sort ", SortSpec.choices),
        ("quakes count --format ", CountCommand.Format.allCases.map(\.rawValue)),
        ("quakes list --se", ["--section"]),
        ("quakes help sh", ["show"]),
        ("quakes completions ", ShellCompletion.Shell.allCases.map(\.rawValue)),
    ]

    // MARK: bash

    /// The words bash hands a completion function for `line`, the cursor at its end: split at
    /// blanks and around the COMP_WORDBREAKS characters `=` and `:`, each run of which is a word.
    static func bashWords(_ line: String) -> [String] {
        var words: [String] = []
        for part in line.split(separator: " ") {
            var word = ""
            var wordIsBreak = false
            for character in part {
                let isBreak = character == "=" || character == ":"
                if !word.isEmpty, isBreak != wordIsBreak {
                    words.append(word)
                    word = ""
                }
                word.append(character)
                wordIsBreak = isBreak
            }
            words.append(word)
        }
        if line.hasSuffix(" ") { words.append("") }
        return words
    }

    /// What bash offers for `line`: the script sourced into a bash without start-up files, the
    /// function that `complete -p quakes` names called with COMP_WORDS, COMP_CWORD, COMP_LINE and
    /// COMP_POINT set as readline sets them, and COMPREPLY read back.
    static func bashCompletions(_ line: String, script: String, in folder: TemporaryDirectory) async throws
        -> [String]
    {
        let bash = try #require(Self.bash)
        let path = try folder.write("quakes.bash", script)
        let program = """
            source "$1" || exit 1
            function=$(complete -p quakes | sed -n 's/.* -F \\([^ ]*\\) .*/\\1/p')
            [[ -n $function ]] || { echo "no completion function for quakes" >&2; exit 1; }
            COMP_LINE=$2
            COMP_POINT=${#COMP_LINE}
            shift 2
            COMP_WORDS=("$@")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            "$function" quakes "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let run = try await ChildProcess.run(
            bash, ["--norc", "--noprofile", "-c", program, "bash", path, line] + bashWords(line),
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], currentDirectory: folder.path)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(line): \(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test(
        .enabled(if: bash != nil, "bash is not installed"),
        arguments: everyShellCompletes + [
            ("quakes list --sort=", SortSpec.choices),
            ("quakes list --sort=ma", ["magnitude"]),
            ("quakes list --sort time,ma", ["time,magnitude"]),
            ("quakes watch --sort=time:desc,d", ["desc,depth", "desc,distance"]),
            ("quakes list --alert o", ["orange"]),
            ("quakes fetch all_w", ["all_week"]),
            ("quakes fetch -q 4.5_m", ["4.5_month"]),
            ("quakes -", ["--version", "-h", "--help"]),
            ("quakes list --db x --format c", ["csv"]),
            ("quakes list --limit ", []),
            ("quakes list --utc ", []),
            ("quakes show ", []),
            ("quakes frob -", []),
        ])
    func bashCompletes(_ line: String, _ expected: [String]) async throws {
        let folder = try TemporaryDirectory()
        #expect(try await Self.bashCompletions(line, script: try await Self.script("bash"), in: folder) == expected)
    }

    @Test(.enabled(if: bash != nil, "bash is not installed"))
    func theFirstWordIsASubcommandOrHelp() async throws {
        let folder = try TemporaryDirectory()
        let offered = try await Self.bashCompletions("quakes ", script: try await Self.script("bash"), in: folder)
        #expect(offered == Registry.commands.map { $0.name } + ["help"])
        let afterHelp = try await Self.bashCompletions(
            "quakes help ", script: try await Self.script("bash"), in: folder)
        #expect(afterHelp == Registry.commands.map { $0.name })
    }

    /// Every option of every command, short and long, is offered after `-`, and nothing else: the
    /// script is derived from the definitions, so a new option cannot be forgotten.
    @Test(.enabled(if: bash != nil, "bash is not installed"))
    func everyCommandOffersExactlyItsOptions() async throws {
        let folder = try TemporaryDirectory()
        let script = try await Self.script("bash")
        for command in Registry.commands {
            let offered = try await Self.bashCompletions("quakes \(command.name) -", script: script, in: folder)
            #expect(Set(offered) == Self.spellings(command.help), "\(command.name)")
            #expect(offered.count == Set(offered).count, "\(command.name) offers an option twice")
        }
    }

    @Test func theBashScriptsOptionsAreTheUnionOfEveryCommandsOptions() async throws {
        let script = try await Self.script("bash")
        var named = Set<String>()
        for line in script.split(separator: "\n") where line.contains("options=(") {
            let inside = line.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" }
            named.formUnion(inside.split(separator: " ").map(String.init))
        }
        let defined = Registry.commands.map { Self.spellings($0.help) }.reduce(
            Self.spellings(Quakes.help(commands: Registry.commands, engines: Registry.engines))
        ) {
            $0.union($1)
        }
        #expect(named == defined)
        #expect(named.contains("--limit-per-section") && named.contains("--cacert"))
    }

    /// A value that is a file path completes file names, after a blank or after `=`.
    @Test(.enabled(if: bash != nil, "bash is not installed"))
    func pathsCompleteFileNames() async throws {
        let folder = try TemporaryDirectory()
        try folder.write("quakes-data.sqlite", "")
        try folder.write("feed.geojson", "")
        let script = try await Self.script("bash")
        let database = folder.file("quakes-da")
        #expect(
            try await Self.bashCompletions("quakes list --db \(database)", script: script, in: folder) == [
                folder.file("quakes-data.sqlite")
            ])
        #expect(
            try await Self.bashCompletions("quakes list --db=\(database)", script: script, in: folder) == [
                folder.file("quakes-data.sqlite")
            ])
        // A source is a feed name or a file: relative to the working folder.
        #expect(try await Self.bashCompletions("quakes fetch fe", script: script, in: folder) == ["feed.geojson"])
        #expect(try await Self.bashCompletions("quakes fetch -- fe", script: script, in: folder) == ["feed.geojson"])
    }

    // MARK: zsh and fish, where installed

    /// What zsh offers for `line`, from the script installed as `_quakes` in a folder of `fpath` (as
    /// `make install` does) or sourced after `compinit`: an interactive zsh on a pseudo-terminal, whose
    /// `compadd` prints the matches, is sent the line and a Tab.
    static func zshCompletions(_ line: String, script: String, sourced: Bool = false) async throws -> [String] {
        let zsh = try #require(Self.zsh)
        let folder = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: folder.file("functions"), withIntermediateDirectories: true)
        let scriptPath = try folder.write(sourced ? "quakes.zsh" : "functions/_quakes", script)
        try folder.write(
            "setup.zsh",
            """
            PROMPT=
            fpath=(\(folder.file("functions")) $fpath)
            autoload -U compinit
            compinit -u -d \(folder.file("zcompdump"))
            \(sourced ? "source \(scriptPath)" : "")
            bindkey '^I' complete-word
            null-line() { echo -E - $'\\0' }
            compprefuncs=(null-line)
            comppostfuncs=(null-line exit)
            zstyle ':completion:*' insert-tab false
            compadd() {
                if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then
                    builtin compadd "$@"
                    return $?
                fi
                local -a hits
                builtin compadd -A hits "$@"
                local hit
                for hit in $hits; do echo -E - "$IPREFIX$hit"; done
            }
            """)
        let driver = try folder.write(
            "driver.zsh",
            """
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "source \(folder.file("setup.zsh"))"
            zpty -w z "$1"$'\\t'
            integer between=0
            while zpty -r z; do :; done | while IFS= read -r line; do
                if [[ $line == *$'\\0\\r' ]]; then
                    (( between++ )) && exit 0 || continue
                fi
                (( between )) && echo -E - ${line%$'\\r'}
            done
            exit 2
            """)
        let run = try await ChildProcess.run(
            zsh, ["-f", driver, line], environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path, "TERM": "dumb"],
            currentDirectory: folder.path, timeLimit: 30)
        #expect(run.status == 0 && !run.timedOut, "\(line): \(run.standardError)")
        return run.standardOutput.split(separator: "\n").map(String.init)
    }

    @Test(
        .enabled(if: zsh != nil, "zsh is not installed"), arguments: everyShellCompletes)
    func zshCompletes(_ line: String, _ expected: [String]) async throws {
        let offered = try await Self.zshCompletions(line, script: try await Self.script("zsh"))
        #expect(offered.sorted() == expected.sorted())
    }

    @Test(.enabled(if: zsh != nil, "zsh is not installed"))
    func zshCompletesWhenTheScriptIsSourced() async throws {
        let offered = try await Self.zshCompletions(
            "quakes list --sort ", script: try await Self.script("zsh"), sourced: true)
        #expect(offered.sorted() == SortSpec.choices.sorted())
    }

    @Test(.enabled(if: zsh != nil, "zsh is not installed"))
    func zshOffersEveryOptionOfACommand() async throws {
        let script = try await Self.script("zsh")
        for command in [ListCommand.help, FetchCommand.help] {
            let offered = try await Self.zshCompletions("\(command.commandName) -", script: script)
            #expect(Set(offered) == Self.spellings(command), "\(command.commandName)")
        }
    }

    /// What fish offers for `line`: `complete -C`, which completes a command line as the
    /// interactive shell would, the words without their descriptions.
    static func fishCompletions(_ line: String, script: String) async throws -> [String] {
        let fish = try #require(Self.fish)
        let folder = try TemporaryDirectory()
        let path = try folder.write("quakes.fish", script)
        let run = try await ChildProcess.run(
            fish, ["--no-config", "-c", "source $argv[1]; and complete -C $argv[2]", path, line],
            environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], currentDirectory: folder.path, timeLimit: 30)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(line): \(run.standardError)")
        return run.standardOutput.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
    }

    @Test(
        .enabled(if: fish != nil, "fish is not installed"),
        arguments: everyShellCompletes + [
            ("quakes list --sort=", SortSpec.choices.map { "--sort=" + $0 }),
            ("quakes list --limit ", []),
        ])
    func fishCompletes(_ line: String, _ expected: [String]) async throws {
        let offered = try await Self.fishCompletions(line, script: try await Self.script("fish"))
        #expect(offered.sorted() == expected.sorted())
    }

    @Test(.enabled(if: fish != nil, "fish is not installed"))
    func fishOffersExactlyEachCommandsOptions() async throws {
        let script = try await Self.script("fish")
        for command in Registry.commands {
            // fish lists long options for `--` and short ones for `-`.
            let long = try await Self.fishCompletions("quakes \(command.name) --", script: script)
            let short = try await Self.fishCompletions("quakes \(command.name) -", script: script)
            #expect(Set(long + short) == Self.spellings(command.help), "\(command.name)")
        }
    }

    // MARK: the command

    @Test func anUnknownShellIsAUsageError() async throws {
        let unknown = await QuakesRun.run(["completions", "tcsh"])
        #expect(unknown.status == .usage)
        #expect(unknown.standardOutput.isEmpty)
        #expect(
            unknown.standardError.hasPrefix(
                "Error: The value 'tcsh' is invalid for '<shell>': expected bash, zsh or fish\n"))
        let typo = await QuakesRun.run(["completions", "bsah"])
        #expect(typo.status == .usage)
        #expect(typo.standardError.contains("did you mean 'bash'?"))
        let missing = await QuakesRun.run(["completions"])
        #expect(missing.status == .usage)
        #expect(missing.standardError.hasPrefix("Error: Missing expected argument '<shell>'\n"))
        let extra = await QuakesRun.run(["completions", "bash", "zsh"])
        #expect(extra.status == .usage)
    }

    @Test func theBinaryPrintsTheScripts() async throws {
        for shell in ShellCompletion.Shell.allCases {
            let run = try await ChildProcess.run(BinaryTests.executable.path, ["completions", shell.rawValue])
            #expect(run.status == 0 && run.standardError.isEmpty)
            let completion = ShellCompletion(
                root: Quakes.help(commands: Registry.commands, engines: Registry.engines),
                subcommands: Registry.commands.map { $0.help })
            #expect(run.standardOutput == completion.script(for: shell))
        }
        let unknown = try await ChildProcess.run(BinaryTests.executable.path, ["completions", "tcsh"])
        #expect(unknown.status == 64)
    }
}
