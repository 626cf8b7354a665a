/// A command's description: what its help screen shows and what its argument parser accepts.
///
/// Parsing and help come from the same value, so they cannot disagree.
public struct CommandHelp: Sendable {
    /// An option, such as `--timeout <seconds>` or the flag `-q, --quiet`, as help, the manual, the
    /// completions and the parser see it. Commands declare theirs as a `Flag`, a `ValueOption` or a
    /// `DefaultedOption`, which also say how the value is read.
    public struct Option: Sendable, Equatable {
        /// The long name, without dashes.
        public var name: String
        /// The one-letter short name, without its dash.
        public var short: Character?
        /// The value's placeholder, such as `seconds`; nil for a flag.
        public var value: String?
        public var help: String
        /// The default, as shown in help: `(default: 60)`.
        public var defaultValue: String?
        /// The words a value is made of (`table`, `json`…; sort keys), for shell completion and for
        /// the "did you mean" of a mistyped value.
        public var choices: [String]
        /// True when the value is a file path, which shells complete from the file system.
        public var takesPath: Bool

        public init(
            _ name: String, short: Character? = nil, value: String? = nil, help: String,
            default defaultValue: String? = nil, choices: [String] = [], takesPath: Bool = false
        ) {
            self.name = name
            self.short = short
            self.value = value
            self.help = help
            self.defaultValue = defaultValue
            self.choices = choices
            self.takesPath = takesPath
        }

        /// How the option appears in messages and help: `--timeout <seconds>`.
        public var label: String {
            "--\(name)" + (value.map { " <\($0)>" } ?? "")
        }
    }

    /// A positional argument, such as `<source> ...`.
    public struct Argument: Sendable, Equatable {
        public var name: String
        public var help: String
        public var isRepeating: Bool
        public var isOptional: Bool
        public var defaultValue: String?
        /// Words the argument may be, for shell completion.
        public var choices: [String]
        /// True when it may be a file path.
        public var takesPath: Bool

        public init(
            _ name: String, help: String, isRepeating: Bool = false, isOptional: Bool = false,
            default defaultValue: String? = nil, choices: [String] = [], takesPath: Bool = false
        ) {
            self.name = name
            self.help = help
            self.isRepeating = isRepeating
            self.isOptional = isOptional
            self.defaultValue = defaultValue
            self.choices = choices
            self.takesPath = takesPath
        }
    }

    /// The words that run the command: `quakes fetch`.
    public var commandName: String
    /// One line: what the command is for.
    public var abstract: String
    /// Paragraphs shown after the overview.
    public var discussion: String?
    public var arguments: [Argument]
    /// The command's options; `--help` is added to every command.
    public var options: [Option]
    /// Subcommands as (name, abstract), for the root command.
    public var subcommands: [(name: String, abstract: String)]
    /// Sections of labelled entries after the options and subcommands: the root's storage engines.
    public var sections: [Section]

    /// A section of labelled entries, such as the storage engines and the `--db` values they take.
    public struct Section: Sendable {
        /// `STORAGE ENGINES`.
        public var heading: String
        /// A sentence before the entries.
        public var introduction: String?
        public var entries: [(label: String, help: String)]

        public init(heading: String, introduction: String? = nil, entries: [(label: String, help: String)]) {
            self.heading = heading
            self.introduction = introduction
            self.entries = entries
        }
    }

    public init(
        commandName: String, abstract: String, discussion: String? = nil, arguments: [Argument] = [],
        options: [Option] = [], subcommands: [(name: String, abstract: String)] = [], sections: [Section] = []
    ) {
        self.commandName = commandName
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options + [Self.help.declaration]
        self.subcommands = subcommands
        self.sections = sections
    }

    /// `-h, --help`, which every command has.
    public static let help = Flag("help", short: "h", help: "Show help information.")
}
