/// The manual page, `quakes(1)`, in roff with the man(7) macros, made from the same `CommandHelp`
/// values as `--help`: what `man quakes` shows can never disagree with what the parser accepts.
///
/// Only what the definitions cannot say is written here: the environment variables the tool
/// reads (one short list, `environmentVariables`) and the page's few sentences of its own.
struct ManualPage {
    var root: CommandHelp
    var commands: [CommandHelp]
    var version: String

    /// The manual of `quakes` in `environment`, from the root's help and its commands'.
    static func quakes(in environment: Environment) -> ManualPage {
        ManualPage(
            root: Quakes.help(in: environment), commands: environment.commands.map { $0.help },
            version: Quakes.version)
    }

    /// The environment variables that change what quakes does, and how: the ENVIRONMENT section.
    static let environmentVariables: [(name: String, meaning: String)] = [
        (
            "QUAKES_DB",
            "The database, a file or a server's URI (see STORAGE ENGINES), when --db is not given. It must not be empty."
        ),
        ("XDG_DATA_HOME", "When QUAKES_DB is unset, the database is $XDG_DATA_HOME/\(DatabaseLocation.defaultFile)."),
        (
            "HOME",
            "When XDG_DATA_HOME is unset too, the database is ~/.local/share/\(DatabaseLocation.defaultFile); with HOME unset, the home folder is the account's in the password database."
        ),
        ("TZ", "The zone calendar times are read and shown in (dates, days, tables), unless --utc is given."),
        ("QUAKES_NOW", "The moment taken as now when --now is not given, for reproducible queries."),
        ("NO_COLOR", "When set and not empty, output is not coloured unless --color always is given."),
        ("TERM", "When dumb, output is not coloured unless --color always is given."),
        ("CURL_CA_BUNDLE", "A PEM file of the certificate authorities trusted for https, when --cacert is not given."),
        (
            "SSL_CERT_FILE",
            "A PEM file of trusted certificate authorities, when neither --cacert nor CURL_CA_BUNDLE is given."
        ),
        ("SSL_CERT_DIR", "A folder of trusted certificate authorities, as for SSL_CERT_FILE."),
    ]

    /// The page.
    var text: String {
        let program = root.commandName
        var lines = [
            #".\" \#(program)(1), written by `\#(program) manual` from the definitions behind `\#(program) --help`."#,
            ".TH \(program.uppercased()) 1 \"\" \"\(program) \(version)\" \"User Commands\"",
            // Paths, URLs and option names are long words that hyphenation would cut mid-name.
            ".nh",
            ".ad l",
            ".SH NAME",
            "\(RoffText.name(program)) \\- \(RoffText.escape(Self.phrase(root.abstract)))",
            ".SH SYNOPSIS",
        ]
        lines += synopsis
        lines += [
            ".SH DESCRIPTION",
            RoffText.line(root.abstract),
        ]
        lines += root.discussion.map(Self.paragraphs) ?? []
        lines += [
            ".PP",
            "Each command is described under COMMANDS below, with its arguments and options;"
                + " \\fB\(RoffText.name(program))\\fR \\fIcommand\\fR \\fB\\-\\-help\\fR prints the same as a help screen.",
            ".SH OPTIONS",
        ]
        lines += root.options.flatMap(Self.entry)
        lines.append(".SH COMMANDS")
        for command in commands {
            lines += section(command)
        }
        for section in root.sections {
            lines.append(".SH \(RoffText.escape(section.heading))")
            if let introduction = section.introduction { lines.append(RoffText.line(introduction)) }
            for entry in section.entries {
                lines += [".TP", ".B \(RoffText.escape(entry.label))", RoffText.line(entry.help)]
            }
        }
        lines.append(".SH EXIT STATUS")
        for (status, meaning) in ExitStatus.documented {
            lines += [".TP", ".B \(status.code)", RoffText.line(Self.sentence(meaning))]
        }
        lines.append(".SH ENVIRONMENT")
        for (name, meaning) in Self.environmentVariables {
            lines += [".TP", ".B \(name)", RoffText.line(meaning)]
        }
        lines += [
            ".SH FILES",
            RoffText.line(
                "The database is the file that --db names, else "
                    + (DatabaseLocation.option.declaration.defaultValue.map { $0 + "." } ?? "the default one.")),
            ".SH SEE ALSO",
            ".BR sqlite3 (1),",
            ".BR curl (1),",
            ".BR crontab (5);",
            "the feeds: " + RoffText.escape(FeedSource.summaryFeedBase),
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    /// One line per command: `quakes fetch [options] [source ...]`, and `quakes help [command]`.
    private var synopsis: [String] {
        let program = RoffText.name(root.commandName)
        let rootOptions = root.options.map { "\\fB\(RoffText.name("--" + $0.name))\\fR" }.joined(separator: " | ")
        var lines = [".B \(program)", "[\(rootOptions)]"]
        for command in commands {
            let arguments = command.arguments.map { argument in
                let part = "\\fI\(RoffText.escape(argument.name))\\fR" + (argument.isRepeating ? " ..." : "")
                return argument.isOptional ? "[\(part)]" : part
            }
            let options = command.options.count > 1 ? ["[\\fIoptions\\fR]"] : []
            lines += [".br", ".B \(RoffText.name(command.commandName))", (options + arguments).joined(separator: " ")]
        }
        if root.subcommands.contains(where: { $0.name == "help" }) {
            lines += [".br", ".B \(program) help", "[\\fIcommand\\fR]"]
        }
        return lines.filter { !$0.isEmpty }
    }

    /// A command's subsection: its abstract, discussion, arguments and options.
    private func section(_ command: CommandHelp) -> [String] {
        var lines = [".SS \"\(RoffText.name(command.commandName))\"", RoffText.line(command.abstract)]
        lines += command.discussion.map(Self.paragraphs) ?? []
        if !command.arguments.isEmpty {
            lines += [".PP", "Arguments:"]
            for argument in command.arguments {
                let label = "\\fI\(RoffText.escape(argument.name))\\fR" + (argument.isRepeating ? " ..." : "")
                lines += [".TP", label, RoffText.line(Self.withDefault(argument.help, argument.defaultValue))]
            }
        }
        lines += [".PP", "Options:"]
        lines += command.options.flatMap(Self.entry)
        return lines
    }

    /// An option's tagged paragraph: `\fB\-q\fR, \fB\-\-quiet\fR`, then its help and default.
    private static func entry(_ option: CommandHelp.Option) -> [String] {
        let names = ShellCompletion.spellings(of: option).map { "\\fB\(RoffText.name($0))\\fR" }.joined(separator: ", ")
        let label = names + (option.value.map { " \\fI\(RoffText.escape($0))\\fR" } ?? "")
        return [".TP", label, RoffText.line(withDefault(option.help, option.defaultValue))]
    }

    /// `help (default: 60)`, as the help screen writes it.
    private static func withDefault(_ help: String, _ defaultValue: String?) -> String {
        help + (defaultValue.map { " (default: \($0))" } ?? "")
    }

    /// A discussion's paragraphs, each after `.PP`.
    private static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n").flatMap { [".PP", RoffText.line(String($0))] }
    }

    /// An abstract as the NAME line's phrase: `keep a local SQLite copy…`, without its full stop.
    private static func phrase(_ abstract: String) -> String {
        let trimmed = abstract.hasSuffix(".") ? String(abstract.dropLast()) : abstract
        return trimmed.prefix(1).lowercased() + trimmed.dropFirst()
    }

    /// A meaning as a sentence: `Success.`
    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
