/// A subcommand: it describes itself, parses its arguments into a value, then runs.
///
/// Parsing is kept apart from running, and building a message from ending the process, so every
/// command can be tested in-process: only the executable's `main` calls `exit`.
package protocol Command: Sendable {
    /// The word that runs the command: `fetch`. Its own constant, not read from the help, so that
    /// finding the command builds no other command's help.
    static var name: String { get }
    /// The command's name, options and help text.
    static var help: CommandHelp { get }
    /// Reads and checks the arguments.
    init(_ arguments: ParsedArguments) throws(UsageError)
    /// Does the work; returns how the process should end when that is not simply success or an error.
    func run(in environment: Environment) async throws -> ExitStatus
    /// What to write on standard output when the command fails as a whole with `error`, given the
    /// words it was called with (it may not have parsed them): for commands whose machine output a
    /// script must always be able to read. Nil by default.
    static func failureOutput(_ arguments: [String], error: any Error, status: ExitStatus) -> String?
    /// The command as a `BlockingCommand`, if it is one; nil by default. Asked so, not cast (`as?
    /// any BlockingCommand.Type`), which has the runtime search the binary's conformances on first
    /// use, at every start of `quakes count`.
    static var blocking: (any BlockingCommand.Type)? { get }
}

extension Command {
    package static var blocking: (any BlockingCommand.Type)? {
        nil
    }

    package static func failureOutput(_ arguments: [String], error: any Error, status: ExitStatus) -> String? {
        nil
    }
}
