/// `quakes completions SHELL`: prints the completion script for bash, zsh or fish, made from the
/// commands' definitions, so that `make install` and users loading it by hand get the same script.
package struct CompletionsCommand: BlockingCommand {
    package static let name = "completions"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
            Load it by hand with 'source <(quakes completions bash)' (bash), 'source <(quakes \
            completions zsh)' after compinit (zsh) or 'quakes completions fish | source' (fish); \
            'make install' installs all three where the shells look for them.
            """,
        arguments: [
            .init("shell", help: "bash, zsh or fish.", choices: ShellCompletion.Shell.allCases.map(\.rawValue))
        ])

    var shell: ShellCompletion.Shell

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 1)
        guard let name = arguments.positionals.first else { throw UsageError("Missing expected argument '<shell>'") }
        guard let shell = ShellCompletion.Shell(rawValue: name.lowercased()) else {
            let names = ShellCompletion.Shell.allCases.map(\.rawValue)
            throw UsageError(
                "The value '\(name)' is invalid for '<shell>': expected bash, zsh or fish"
                    + Suggestion.hint(for: name, among: names))
        }
        self.shell = shell
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        environment.standardOutput.write(ShellCompletion.quakes(in: environment).script(for: shell))
        return .success
    }
}
