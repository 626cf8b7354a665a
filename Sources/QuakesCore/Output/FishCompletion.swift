/// The fish completion script: one `complete` line per subcommand, option and argument, generated
/// from the commands' definitions, with their help as fish's descriptions.
///
/// Fish offers files for any word unless told otherwise, so the script turns that off (`-f`) and
/// asks for files only where a definition says `takesPath`.
struct FishCompletion {
    var completion: ShellCompletion

    init(_ completion: ShellCompletion) {
        self.completion = completion
    }

    var script: String {
        let program = completion.program
        let prefix = "__" + BashCompletion.identifier(program)
        let command = "complete -c \(Self.quoted(program))"
        let atFirst = "-n \(prefix)_needs_subcommand"
        var lines = ["\(command) -f"]
        for word in completion.firstWords {
            lines.append("\(command) \(atFirst) -a \(Self.quoted(word.name)) -d \(Self.quoted(word.abstract))")
        }
        for option in completion.root.options {
            lines.append("\(command) \(atFirst) \(Self.option(option))")
        }
        let names = completion.subcommands.map(\.name).joined(separator: " ")
        lines.append(
            "\(command) -n \(Self.quoted("\(prefix)_subcommand_is help; and \(prefix)_words_are 2")) -a \(Self.quoted(names))"
        )
        for subcommand in completion.subcommands {
            let condition = "-n \(Self.quoted("\(prefix)_subcommand_is \(subcommand.name)"))"
            for option in subcommand.help.options {
                lines.append("\(command) \(condition) \(Self.option(option))")
            }
            for argument in subcommand.help.arguments where !argument.choices.isEmpty || argument.takesPath {
                let words =
                    argument.choices.isEmpty ? "" : " -a \(Self.words(argument.choices, described: argument.name))"
                lines.append("\(command) \(condition)\(words)\(argument.takesPath ? " -F" : "")")
            }
        }
        return """
            # fish completion for \(program), written by `\(program) completions fish` from the definitions
            # behind `\(program) --help`. Install it as \(program).fish in a folder of $fish_complete_path,
            # or load it with: \(program) completions fish | source

            # True while the subcommand is being typed.
            function \(prefix)_needs_subcommand
                test (count (commandline -opc)) -eq 1
            end

            # True when the subcommand is $argv[1].
            function \(prefix)_subcommand_is
                set -l words (commandline -opc)
                test (count $words) -ge 2; and test "$words[2]" = "$argv[1]"
            end

            # True when $argv[1] words come before the cursor.
            function \(prefix)_words_are
                test (count (commandline -opc)) -eq $argv[1]
            end

            \(lines.joined(separator: "\n"))

            """
    }

    /// `-s q -l quiet -d '…'`, with `-x -a '…'` (a value of these words), `-r -F` (a file) or `-x`
    /// (a value, nothing to offer) for an option that takes a value.
    private static func option(_ option: CommandHelp.Option) -> String {
        var parts = option.short.map { ["-s", quoted(String($0))] } ?? []
        parts += ["-l", quoted(option.name)]
        if let value = option.value {
            if !option.choices.isEmpty {
                parts += ["-x", "-a", words(option.choices, described: value)]
            } else if option.takesPath {
                parts += ["-r", "-F"]
            } else {
                parts += ["-x"]
            }
        }
        let help = option.help + (option.defaultValue.map { " (default: \($0))" } ?? "")
        return (parts + ["-d", quoted(help)]).joined(separator: " ")
    }

    /// The argument of `-a`: `'table\\tformat json\\tformat'`, each word described by the
    /// placeholder of what it is a value of (the option's help would repeat on every line).
    private static func words(_ words: [String], described description: String) -> String {
        quoted(words.map { word($0) + "\\t" + word(description) }.joined(separator: " "))
    }

    /// A word as `-a` reads it, which expands it as fish would: shell characters escaped.
    private static func word(_ text: String) -> String {
        String(text.flatMap { $0.isLetter || $0.isNumber || "_.,-+/".contains($0) ? [$0] : ["\\", $0] })
    }

    /// `text` in fish's single quotes, where only a backslash and a quote need a backslash.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'") + "'"
    }
}
