/// What every shell's completion script is made of: the subcommands, their options and arguments,
/// read from the same `CommandHelp` values as `--help` and the argument parser.
///
/// The scripts hold no list of their own, so they cannot offer an option the parser rejects or
/// miss one it accepts: a new option, format or sort key reaches them with the next build.
struct ShellCompletion: Sendable {
    /// The shells `quakes completions` writes a script for.
    enum Shell: String, Sendable, CaseIterable {
        case bash, zsh, fish
    }

    /// A subcommand, as completion sees it.
    struct Subcommand: Sendable {
        /// The word that runs it: `list`.
        var name: String
        var help: CommandHelp
    }

    /// The root command: the program's name, its own options and the words that may come first.
    var root: CommandHelp
    /// Every subcommand that runs something, in help order (`help` is not one: see `firstWords`).
    var subcommands: [Subcommand]

    init(root: CommandHelp, subcommands: [CommandHelp]) {
        self.root = root
        self.subcommands = subcommands.map { help in
            Subcommand(name: help.commandName.split(separator: " ").last.map(String.init) ?? "", help: help)
        }
    }

    /// The completion of `quakes` in `environment`, from the root's help and its commands'.
    static func quakes(in environment: Environment) -> ShellCompletion {
        ShellCompletion(root: Quakes.help(in: environment), subcommands: environment.commands.map { $0.help })
    }

    /// The program's name: `quakes`.
    var program: String { root.commandName }

    /// The words that may follow the program's name, with what each does: the subcommands and
    /// `help`, as the root's help lists them.
    var firstWords: [(name: String, abstract: String)] { root.subcommands }

    /// The script for `shell`.
    func script(for shell: Shell) -> String {
        switch shell {
        case .bash: BashCompletion(self).script
        case .zsh: ZshCompletion(self).script
        case .fish: FishCompletion(self).script
        }
    }

    /// How an option may be written: `-q`, `--quiet`; the short form first.
    static func spellings(of option: CommandHelp.Option) -> [String] {
        (option.short.map { ["-\($0)"] } ?? []) + ["--\(option.name)"]
    }
}
