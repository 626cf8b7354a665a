/// `quakes manual`: prints the manual page, made from the commands' definitions, for `man` to
/// show (`quakes manual | man -l -`) and for `make install` to put in `share/man/man1`.
package struct ManualCommand: BlockingCommand {
    package static let name = "manual"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Print the man page in roff: quakes manual | man -l -")

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
    }

    package func runBlocking(in environment: Environment) throws -> ExitStatus {
        environment.standardOutput.write(ManualPage.quakes(in: environment).text)
        return .success
    }
}
