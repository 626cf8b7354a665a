/// Renders help screens and usage lines in the layout of swift-argument-parser, which Swift users
/// know: OVERVIEW, USAGE, ARGUMENTS, OPTIONS and SUBCOMMANDS, labels indented 2 and help at column 26.
enum HelpFormatter {
    static let width = 80
    static let labelIndent = 2
    static let helpColumn = 26

    /// The whole help screen of `command`.
    static func render(_ command: CommandHelp) -> String {
        var text = "OVERVIEW: \(command.abstract)\n"
        if let discussion = command.discussion {
            text +=
                "\n"
                + discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { wrap(String($0), indent: 0) }.joined(separator: "\n") + "\n"
        }
        text += "\nUSAGE: \(usage(command))\n"
        if !command.arguments.isEmpty {
            text += "\nARGUMENTS:\n"
            for argument in command.arguments {
                text += entry("<\(argument.name)>", help: argument.help, defaultValue: argument.defaultValue)
            }
        }
        text += "\nOPTIONS:\n"
        for option in command.options {
            let label = (option.short.map { "-\($0), " } ?? "") + option.label
            text += entry(label, help: option.help, defaultValue: option.defaultValue)
        }
        if !command.subcommands.isEmpty {
            text += "\nSUBCOMMANDS:\n"
            for subcommand in command.subcommands {
                text += entry(subcommand.name, help: subcommand.abstract, defaultValue: nil)
            }
            text += "\n  See '\(command.commandName) help <subcommand>' for detailed help.\n"
        }
        for section in command.sections {
            text += "\n\(section.heading):\n"
            if let introduction = section.introduction { text += wrap(introduction, indent: labelIndent) + "\n" }
            for entry in section.entries {
                text += self.entry(entry.label, help: entry.help, defaultValue: nil)
            }
        }
        return text
    }

    /// The usage line: `quakes fetch [--db <path>] [--quiet] [<source> ...]`, or, when that would
    /// not fit a line, `quakes list [<options>]` as swift-argument-parser writes it.
    static func usage(_ command: CommandHelp) -> String {
        guard command.subcommands.isEmpty else { return "\(command.commandName) <subcommand>" }
        let options = command.options.filter { $0 != CommandHelp.help.declaration }.map { "[\($0.label)]" }
        let arguments = command.arguments.map { argument in
            let part = "<\(argument.name)>" + (argument.isRepeating ? " ..." : "")
            return argument.isOptional ? "[\(part)]" : part
        }
        let full = ([command.commandName] + options + arguments).joined(separator: " ")
        guard "USAGE: ".count + full.count > width else { return full }
        return ([command.commandName, "[<options>]"] + arguments).joined(separator: " ")
    }

    /// One labelled entry: the label at column 2, the help at column 26, wrapped to the width.
    private static func entry(_ label: String, help: String, defaultValue: String?) -> String {
        let help = help + (defaultValue.map { " (default: \($0))" } ?? "")
        let indent = String(repeating: " ", count: labelIndent)
        let first = indent + label
        let wrapped = wrap(help, indent: helpColumn)
        if first.count + 2 <= helpColumn {
            return first + String(repeating: " ", count: helpColumn - first.count)
                + wrapped.dropFirst(helpColumn) + "\n"
        }
        return first + "\n" + wrapped + "\n"
    }

    /// Wraps `text` at word boundaries to `width`, each line indented by `indent` spaces.
    private static func wrap(_ text: String, indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, indent + line.count + 1 + word.count > width {
                lines.append(margin + line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(margin + line)
        return lines.joined(separator: "\n")
    }
}
