/// The `quakes` command: dispatches to a subcommand and turns every error into a message and an
/// exit status.
public enum Quakes {
    /// The version printed by `--version` and sent in the `User-Agent` header.
    public static let version = "0.1.0"

    /// The root command's description: its subcommands are `commands`, in the order help lists them,
    /// and the storage engines it lists are `engines` (the `Registry` module's, for the executable).
    static func help(commands: [any Command.Type], engines: [any StorageEngine]) -> CommandHelp {
        CommandHelp(
            commandName: "quakes",
            abstract: "Keep a local copy of the USGS earthquake catalogue and answer questions about it.",
            discussion: LeadingOptions.discussion,
            options: [CommandHelp.Option("version", help: "Show the version.")],
            subcommands: commands.map { ($0.name, $0.help.abstract) } + [("help", "Show subcommand help information.")],
            sections: [
                CommandHelp.Section(
                    heading: "STORAGE ENGINES",
                    introduction: "The database --db or $QUAKES_DB names is kept by the first engine that takes "
                        + "the value:",
                    entries: engines.map { ($0.description.values, $0.description.summary) })
            ])
    }

    /// The root command's description in `environment`, with its commands and engines.
    static func help(in environment: Environment) -> CommandHelp {
        help(commands: environment.commands, engines: environment.engines)
    }

    /// Runs the tool with `arguments` (without the program name) and returns how it should end: the
    /// commands and storage engines are `environment`'s.
    ///
    /// Every output is flushed before it returns.
    public static func main(_ arguments: [String], in environment: Environment) async -> ExitStatus {
        let arguments = LeadingOptions.moved(arguments)
        // The command runs in a task of its own, which SIGINT and SIGTERM cancel.
        let command = Task { await run(arguments, in: environment) }
        environment.interruption.onInterrupt { command.cancel() }
        return finish(
            await command.value, standardOutput: environment.standardOutput,
            standardError: environment.standardError)
    }

    /// Answers `arguments` when they run no command (`--version`, help, a word that names no
    /// subcommand), flushed, and returns how the process should end; nil when they name a command,
    /// which `main(_:in:)` runs.
    ///
    /// These answers need only the two outputs: the executable gives them before it sets up signal
    /// handling, the environment and the concurrency runtime's threads, which are most of what
    /// `quakes --version` would otherwise cost.
    package static func answerWithoutCommand(
        _ arguments: [String], commands: [any Command.Type], engines: @autoclosure () -> [any StorageEngine],
        standardOutput: any TextOutput, standardError: any TextOutput
    ) -> ExitStatus? {
        guard
            case let .answered(status) = route(
                LeadingOptions.moved(arguments), commands: commands, engines: engines, standardOutput: standardOutput,
                standardError: standardError)
        else { return nil }
        return finish(status, standardOutput: standardOutput, standardError: standardError)
    }

    /// Runs the command `arguments` name on the calling thread when it is a `BlockingCommand` (count,
    /// list, show…), flushed, and returns how the process should end; nil for any other, which
    /// `main(_:in:)` runs.
    ///
    /// The executable calls it before it listens to signals or starts the concurrency runtime's
    /// threads, so such a command pays for neither: SIGINT and SIGTERM end it as they end any
    /// program that does not handle them, and it has nothing to roll back.
    public static func runBlockingCommand(_ arguments: [String], in environment: Environment) -> ExitStatus? {
        let arguments = LeadingOptions.moved(arguments)
        guard let first = arguments.first, let type = command(named: first, in: environment.commands)?.blocking else {
            return nil
        }
        return finish(
            executeBlocking(type, Array(arguments.dropFirst()), in: environment),
            standardOutput: environment.standardOutput, standardError: environment.standardError)
    }

    /// Flushes the outputs; a command that succeeded but whose output could not be written fails.
    private static func finish(_ status: ExitStatus, standardOutput: any TextOutput, standardError: any TextOutput)
        -> ExitStatus
    {
        var status = status
        standardOutput.flush()
        if let failure = standardOutput.writeFailure, status == .success {
            status = report(OutputError(reason: failure), to: standardError)
        }
        standardError.flush()
        return status
    }

    /// What the first word asks for: an answer, already written, or a subcommand to run.
    private enum Route {
        case answered(ExitStatus)
        case command(any Command.Type)
    }

    private static func run(_ arguments: [String], in environment: Environment) async -> ExitStatus {
        switch route(
            arguments, commands: environment.commands, engines: { environment.engines },
            standardOutput: environment.standardOutput, standardError: environment.standardError)
        {
        case let .answered(status): status
        case let .command(command): await execute(command, Array(arguments.dropFirst()), in: environment)
        }
    }

    /// `engines` is asked for only when the root's help is shown.
    private static func route(
        _ arguments: [String], commands: [any Command.Type], engines: () -> [any StorageEngine],
        standardOutput: any TextOutput, standardError: any TextOutput
    ) -> Route {
        func rootHelp() -> CommandHelp {
            help(commands: commands, engines: engines())
        }
        guard let first = arguments.first else {
            standardOutput.write(HelpFormatter.render(rootHelp()))
            return .answered(.success)
        }
        switch first {
        case "--version":
            standardOutput.writeLine("quakes \(version)")
            return .answered(.success)
        case "-h", "--help":
            standardOutput.write(HelpFormatter.render(rootHelp()))
            return .answered(.success)
        case "help":
            guard let name = arguments.dropFirst().first else {
                standardOutput.write(HelpFormatter.render(rootHelp()))
                return .answered(.success)
            }
            guard let command = command(named: name, in: commands) else {
                let message = "Unknown subcommand '\(name)'" + Suggestion.hint(for: name, among: names(of: commands))
                return .answered(reportUsage(UsageError(message), of: rootHelp(), to: standardError))
            }
            standardOutput.write(HelpFormatter.render(command.help))
            return .answered(.success)
        default:
            guard let command = command(named: first, in: commands) else {
                let message =
                    LeadingOptions.spells(first)
                    ? "Missing subcommand after '\(arguments.joined(separator: " "))'"
                    : first.hasPrefix("-")
                        ? "Unknown option '\(first)'" + Suggestion.hint(for: first, among: ["--help", "--version"])
                        : "Unknown subcommand '\(first)'" + Suggestion.hint(for: first, among: names(of: commands))
                return .answered(reportUsage(UsageError(message), of: rootHelp(), to: standardError))
            }
            return .command(command)
        }
    }

    /// The subcommands' names, as typed.
    static func names(of commands: [any Command.Type]) -> [String] {
        commands.map { $0.name } + ["help"]
    }

    private static func command(named name: String, in commands: [any Command.Type]) -> (any Command.Type)? {
        commands.first { $0.name == name }
    }

    private static func execute(_ type: any Command.Type, _ arguments: [String], in environment: Environment) async
        -> ExitStatus
    {
        do {
            guard let command = try parse(type, arguments, in: environment) else { return .success }
            return try await command.run(in: environment)
        } catch {
            return failure(of: type, arguments, error, in: environment)
        }
    }

    private static func executeBlocking(
        _ type: any BlockingCommand.Type, _ arguments: [String], in environment: Environment
    ) -> ExitStatus {
        do {
            guard let command = try parse(type, arguments, in: environment) else { return .success }
            return try command.runBlocking(in: environment)
        } catch {
            return failure(of: type, arguments, error, in: environment)
        }
    }

    /// The command `arguments` describe, or nil when they ask for its help, which is then written.
    private static func parse<C: Command>(_ type: C.Type, _ arguments: [String], in environment: Environment)
        throws(UsageError) -> C?
    {
        let parsed = try ParsedArguments(arguments, for: type.help)
        if parsed.wantsHelp {
            environment.standardOutput.write(HelpFormatter.render(type.help))
            return nil
        }
        return try type.init(parsed)
    }

    /// Reports why a command failed and returns the status the process ends with.
    private static func failure(
        of type: any Command.Type, _ arguments: [String], _ error: any Error, in environment: Environment
    ) -> ExitStatus {
        let status: ExitStatus
        if let usage = error as? UsageError {
            status = reportUsage(usage, of: type.help, to: environment.standardError)
        } else if let signal = environment.interruption.signal {
            environment.standardError.writeLine(
                "Error: interrupted by \(Interruption.name(of: signal)); nothing unfinished was stored")
            status = Interruption.status(for: signal)
        } else {
            status = report(error, in: environment)
        }
        if let output = type.failureOutput(arguments, error: error, status: status) {
            environment.standardOutput.write(output)
        }
        return status
    }

    /// Writes `Error: …` for `error` and returns the status it ends the process with.
    static func report(_ error: any Error, in environment: Environment) -> ExitStatus {
        report(error, to: environment.standardError)
    }

    /// Writes `Error: …` for `error` to `standardError` and returns the status it ends the process with.
    private static func report(_ error: any Error, to standardError: any TextOutput) -> ExitStatus {
        standardError.writeLine("Error: \(error)")
        return ExitStatus(for: error)
    }

    /// Writes a usage error as swift-argument-parser does: the message, the usage line, and where
    /// to read more.
    static func reportUsage(_ error: UsageError, of command: CommandHelp, to standardError: any TextOutput)
        -> ExitStatus
    {
        standardError.write(
            """
            Error: \(error.message)
            Usage: \(HelpFormatter.usage(command))
              See '\(command.commandName) --help' for more information.

            """)
        return .usage
    }
}
