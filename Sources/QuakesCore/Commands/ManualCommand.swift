/// `quakes manual`: prints the manual page, made from the commands' definitions, for `man` to
/// show (`quakes manual | man -l -`) and for `make install` to put in `share/man/man1`.
struct ManualCommand: BlockingCommand {
    static let name = "manual"

    static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Print the man page in roff: quakes manual | man -l -")

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
    }

    func runBlocking(in environment: Environment) throws -> ExitStatus {
        environment.standardOutput.write(ManualPage.quakes.text)
        return .success
    }
}
