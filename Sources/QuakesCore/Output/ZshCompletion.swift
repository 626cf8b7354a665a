/// The zsh completion script: `_arguments` specifications generated from the commands'
/// definitions, so zsh shows each option's help beside it as `--help` words it.
///
/// The file works both ways zsh users load completions: as `_quakes` in a folder of `$fpath`
/// (autoloaded through its `#compdef` line) and sourced after `compinit`, when it registers itself
/// with `compdef`.
struct ZshCompletion {
    var completion: ShellCompletion

    init(_ completion: ShellCompletion) {
        self.completion = completion
    }

    var script: String {
        let program = completion.program
        let function = "_" + BashCompletion.identifier(program)
        let first = completion.firstWords.map { Self.quoted(Self.describeEntry($0.name, $0.abstract)) }
        let runnable = completion.subcommands.map { Self.quoted(Self.describeEntry($0.name, $0.help.abstract)) }
        let rootSpecs = completion.root.options.map(Self.optionSpec) + ["'1: :->subcommand'", "'*:: :->argument'"]
        return """
            #compdef \(program)
            # zsh completion for \(program), written by `\(program) completions zsh` from the definitions
            # behind `\(program) --help`. Install it as \(function) in a folder of $fpath, or load it after
            # compinit with: source <(\(program) completions zsh)

            \(helpers)
            \(function)() {
                local curcontext=$curcontext state state_descr line ret=1
                local -a first subcommands
                first=(
            \(first.map { "        " + $0 }.joined(separator: "\n"))
                )
                subcommands=(
            \(runnable.map { "        " + $0 }.joined(separator: "\n"))
                )
                _arguments -C \\
            \(rootSpecs.map { "        " + $0 }.joined(separator: " \\\n")) && ret=0
                case $state in
                subcommand)
                    _describe -t subcommands '\(program) subcommand' first && ret=0
                    ;;
                argument)
                    curcontext=${curcontext%:*:*}:\(program)-$words[1]:
                    case $words[1] in
                    help)
                        (( CURRENT == 2 )) && _describe -t subcommands '\(program) subcommand' subcommands && ret=0
                        ;;
            \(commandCases)
                    esac
                    ;;
                esac
                return ret
            }

            if [[ $funcstack[1] == \(function) ]]; then
                \(function) "$@"
            else
                compdef \(function) \(program)
            fi

            """
    }

    /// One `_arguments` call for each subcommand.
    private var commandCases: String {
        completion.subcommands.map { command in
            let specs =
                command.help.options.map(Self.optionSpec)
                + command.help.arguments.enumerated().map { index, argument in
                    argumentSpec(argument, of: command, index: index)
                }
            return """
                        \(command.name))
                            _arguments -s -S \\
                \(specs.map { "                " + $0 }.joined(separator: " \\\n")) && ret=0
                            ;;
                """
        }.joined(separator: "\n")
    }

    /// Functions for arguments that are both words and file names, which one action cannot say.
    private var helpers: String {
        completion.subcommands.flatMap { command in
            command.help.arguments.enumerated().compactMap { index, argument -> String? in
                guard !argument.choices.isEmpty, argument.takesPath else { return nil }
                let words = argument.choices.map(Self.choice).joined(separator: " ")
                return """
                    # The \(argument.name) of '\(completion.program) \(command.name)': one of its words, or a file.
                    \(helperName(command, index))() {
                        _alternative \(Self.quoted("words:\(Self.escapeColons(argument.name)):(\(words))")) 'files:file:_files'
                    }

                    """
            }
        }.joined()
    }

    private func helperName(_ command: ShellCompletion.Subcommand, _ index: Int) -> String {
        "_" + BashCompletion.identifier("\(completion.program)_\(command.name)_argument\(index)")
    }

    /// `'*:source:action'`, with `::` when the argument may be left out.
    private func argumentSpec(_ argument: CommandHelp.Argument, of command: ShellCompletion.Subcommand, index: Int)
        -> String
    {
        let position = argument.isRepeating ? "*:" : (argument.isOptional ? "::" : ":")
        let action =
            !argument.choices.isEmpty && argument.takesPath
            ? helperName(command, index) : Self.action(argument.choices, paths: argument.takesPath)
        return Self.quoted(position + Self.escapeColons(argument.name) + ":" + action)
    }

    /// `'--format=[help]:format:(table json)'`, or for an option with a short name,
    /// `'(-q --quiet)'{-q,--quiet}'[help]'`.
    private static func optionSpec(_ option: CommandHelp.Option) -> String {
        let help = option.help + (option.defaultValue.map { " (default: \($0))" } ?? "")
        var tail = "[" + escapeBrackets(help) + "]"
        if let value = option.value {
            tail += ":" + escapeColons(value) + ":" + action(option.choices, paths: option.takesPath)
        }
        let equals = option.value == nil ? "" : "="
        guard let short = option.short else { return quoted("--\(option.name)\(equals)" + tail) }
        return quoted("(-\(short) --\(option.name))") + "{-\(short),--\(option.name)\(equals)}" + quoted(tail)
    }

    /// `(table json)`, `_files`, or a space: a message and nothing to complete.
    private static func action(_ choices: [String], paths: Bool) -> String {
        if !choices.isEmpty { return "(" + choices.map(choice).joined(separator: " ") + ")" }
        return paths ? "_files" : " "
    }

    /// `name:abstract` for `_describe`, a colon in the name escaped.
    private static func describeEntry(_ name: String, _ abstract: String) -> String {
        escapeColons(name) + ":" + abstract
    }

    /// A word of a `(…)` action, its shell characters escaped.
    private static func choice(_ word: String) -> String {
        String(word.flatMap { $0.isLetter || $0.isNumber || "_.,-+/".contains($0) ? [$0] : ["\\", $0] })
    }

    private static func escapeColons(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery(":", with: "\\:")
    }

    private static func escapeBrackets(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery("[", with: "\\[")
            .replacingEvery("]", with: "\\]")
    }

    /// `text` in single quotes, a quote inside written `'\''`.
    private static func quoted(_ text: String) -> String {
        BashCompletion.quoted(text)
    }
}
